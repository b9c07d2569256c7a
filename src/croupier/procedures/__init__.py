"""Dealing procedures shared by several games, one module per chapter.

Each procedure is a function over a :class:`~croupier.shoe.Shoe` and an
:class:`~croupier.events.EventLog` that carries out one regulated step
and returns the events it emitted, each citing its subsection.
"""
