"""The fast paths of event construction and :meth:`Event.to_dict`.

A replay encodes every event it emits (``croupier verify`` compares a
pai gow round's ~90 steps with the log), and the plain encoder
(:func:`croupier.events.plain_dict`) walks the field names, fetches
each with :func:`getattr` and tests its type, per event. Here each
event class gets, once, a function that builds the same dictionary in
one expression: the keys in the same order, each value encoded by the
same rule (a plain value as it is, the reference as its text,
remembered by the object's identity, a card, or a tuple of cards, by
the texts of their codes, anything else through the plain encoder). Likewise
:meth:`croupier.events.EventLog.emit` builds each event with a compiled
constructor (:func:`compiled_maker`) that fills the slots directly,
where the frozen dataclass's ``__init__`` goes through
:func:`object.__setattr__` field by field and the class call converts
the keywords to a dictionary first.
``tests/foundation/test_event_codec.py`` proves both equal to the plain
ones on every event class.

>>> from croupier.cards import Card
>>> from croupier.events import PLAIN_TYPES, CardBurned, encode_value
>>> from croupier.events import field_names, plain_dict
>>> from croupier.regs import Ref
>>> burn = CardBurned(1, ref=Ref.parse("591.7(c)"), card=Card.parse("Kd"))
>>> encode = compiled_to_dict(
...     CardBurned, field_names(CardBurned), PLAIN_TYPES, encode_value)
>>> encode(burn) == plain_dict(burn)
True
>>> compiled_maker(CardBurned)(1, ref=burn.ref, card=burn.card) == burn
True
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from functools import partial
from typing import Any

from croupier.cards import CARD_TEXTS, Card

__all__ = [
    "compiled_appender",
    "compiled_maker",
    "compiled_to_dict",
    "encoder_source",
    "maker_source",
]

_COMPILED: dict[type, Callable[[Any], dict[str, object]]] = {}
"""Each event class's compiled encoder."""
_MAKERS: dict[object, Callable[..., Any]] = {}
"""Each event class's compiled constructor."""
_APPENDERS: dict[object, Callable[..., Any]] = {}
"""Each event class's compiled constructor that appends (``into``)."""
_REF_TEXTS: dict[int, tuple[object, str]] = {}
"""The text of each reference already encoded, by the object's
identity (the object is held in the entry, so its identity is not
reused while the entry lives; references are immutable, so the text
never changes). Read without calling the object's ``__str__``
(nor, for a reference, its ``__hash__``)."""


def _ref_text(ref: object) -> str:
    """``str(ref)`` (a reference), kept in :data:`_REF_TEXTS`."""
    text = str(ref)
    if len(_REF_TEXTS) >= 4096:
        _REF_TEXTS.clear()
    _REF_TEXTS[id(ref)] = (ref, text)
    return text


_KEPT: dict[frozenset[type], set[type]] = {}
"""For each set of plain types, those and the types the plain encoder was
seen to return unchanged (enums, for instance)."""


def _kept_types(plain: frozenset[type]) -> set[type]:
    """The types whose values are kept as they are, learnt as met."""
    found = _KEPT.get(plain)
    if found is None:
        found = _KEPT[plain] = set(plain)
    return found


def _encode_learning(
    encode: Callable[[object], object], kept: set[type], value: object
) -> object:
    """``encode(value)``; a type it returns unchanged joins ``kept``.

    The plain encoder decides by the value's type alone except for
    tuples (by their first item); it returns the value itself only in
    its last branch, for a type that is neither a tuple, a card nor a
    reference. So every value of a type seen returned unchanged once
    (and not a tuple) is returned unchanged.
    """
    out = encode(value)
    if out is value and not isinstance(value, tuple):
        kept.add(type(value))
    return out


def _tuple_text(
    encode: Callable[[object], object], value: tuple[object, ...]
) -> object:
    """``encode(value)`` of a tuple, for cards by the texts of their codes.

    The plain rule writes a tuple of cards as their texts joined by
    spaces; a tuple of anything else (or of a card type of its own) goes
    to ``encode``.
    """
    texts = [CARD_TEXTS[c.code] for c in value if type(c) is Card]
    if texts and len(texts) == len(value):
        return " ".join(texts)
    return encode(value)


def encoder_source(
    type_name: str,
    names: tuple[str, ...],
    card_fields: frozenset[str] = frozenset(),
) -> str:
    """The Python text of the encoder of an event with fields ``names``.

    ``names`` are the class's own dataclass fields (identifiers, checked
    here), after ``seq`` and ``ref``; ``type_name`` becomes a literal.
    A field of ``card_fields`` (declared ``tuple[Card, ...]``) that holds
    no card is written as the empty card notation ``""``.
    """
    for name in names:
        if not name.isidentifier():
            msg = f"not a field name: {name!r}"
            raise ValueError(msg)
    lines = ["def to_dict(self):"]
    lines += [
        "    r = self.ref",
        "    known = _ref_get(id(r))",
        "    text = known[1] if known is not None and known[0] is r "
        "else _ref_text(r)",
    ]
    items = [
        '"seq": self.seq',
        '"ref": text',
        f'"type": {type_name!r}',
    ]
    for i, name in enumerate(names):
        lines += [
            f"    v{i} = self.{name}",
            f"    t{i} = type(v{i})",
            # a plain value first (most are): kept as it is; the kept
            # types never include cards or tuples (the plain rule never
            # returns one unchanged, and the given plain types are
            # checked in compiled_to_dict), so the order decides nothing
            f"    if t{i} in _plain:",
            "        pass",
            f"    elif t{i} is _card:",
            f"        v{i} = _card_text[v{i}.code]",
            f"    elif t{i} is _tuple:",
            (
                f'        v{i} = _tuple_text(v{i}) if v{i} else ""'
                if name in card_fields
                else f"        v{i} = _tuple_text(v{i})"
            ),
            "    else:",
            f"        v{i} = _encode(v{i})",
        ]
        items.append(f"{name!r}: v{i}")
    lines.append("    return {" + ", ".join(items) + "}")
    return "\n".join(lines) + "\n"


def compiled_to_dict(
    cls: type,
    names: tuple[str, ...],
    plain: frozenset[type],
    encode: Callable[[object], object],
    card_fields: frozenset[str] = frozenset(),
) -> Callable[[Any], dict[str, object]]:
    """The compiled encoder of event class ``cls`` (built once, cached).

    ``names`` are its fields after ``seq`` and ``ref``; a value whose
    exact type is in ``plain`` is kept as it is, a card becomes its text,
    an empty tuple in a field of ``card_fields`` the empty string, and
    anything else goes through ``encode`` (the plain encoder's rule).
    """
    found = _COMPILED.get(cls)
    if found is not None:
        return found
    if Card in plain or tuple in plain:
        msg = "cards and tuples are encoded, never plain types"
        raise ValueError(msg)
    namespace: dict[str, Any] = {
        "_str": str,
        "_plain": _kept_types(plain),
        "_card": Card,
        "_card_text": CARD_TEXTS,
        "_tuple": tuple,
        "_tuple_text": partial(
            _tuple_text,
            partial(_encode_learning, encode, _kept_types(plain)),
        ),
        "_encode": partial(_encode_learning, encode, _kept_types(plain)),
        "_ref_get": _REF_TEXTS.get,
        "_ref_text": _ref_text,
        "id": id,
        "type": type,
    }
    type_name = getattr(cls, "type_name")  # noqa: B009 (any event class)
    exec(encoder_source(type_name, names, card_fields), namespace)  # noqa: S102
    made: Callable[[Any], dict[str, object]] = namespace["to_dict"]
    _COMPILED[cls] = made
    return made


def maker_source(
    own: tuple[str, ...],
    required: tuple[str, ...],
    names: tuple[str, ...],
    *,
    into: bool = False,
) -> str:
    """The Python text of a constructor of an event with fields ``names``.

    ``own`` are all the fields in order (``seq`` first, the only
    positional one), ``required`` those without a default; a default
    ``x`` is read from the name ``d_x``, each slot set by ``s_x``. With
    ``into`` the one positional parameter is instead a list of events:
    ``seq`` is its length plus one and the event is appended to it.
    """
    for name in own:
        if not name.isidentifier():
            msg = f"not a field name: {name!r}"
            raise ValueError(msg)
    keywords = [
        name if name in required else f"{name}=d_{name}" for name in names
    ]
    first = "events" if into else "seq"
    head = ", ".join([first, "*", *keywords]) if keywords else first
    lines = [f"def make({head}):", "    self = _new(_cls)"]
    if into:
        lines.append("    seq = len(events) + 1")
    lines += [f"    s_{name}(self, {name})" for name in own]
    if into:
        lines.append("    events.append(self)")
    lines.append("    return self")
    return "\n".join(lines) + "\n"


def compiled_maker(cls: object) -> Callable[..., Any]:
    """A constructor equal to ``cls(seq, **fields)`` (built once, cached).

    Only for a frozen slots dataclass whose ``seq`` is the one
    positional field, every other field keyword-only with a plain
    default or none, and no ``__post_init__``; for any other class the
    class itself is returned.
    """
    found = _MAKERS.get(cls)
    if found is not None:
        return found
    found = _maker(cls) if isinstance(cls, type) else _plain_call(cls)
    _MAKERS[cls] = found
    return found


def compiled_appender(cls: object) -> Callable[..., Any]:
    """A constructor that appends: ``make(events, **fields)``.

    It builds ``cls(len(events) + 1, **fields)``, appends it to
    ``events`` and returns it (built once, cached): the constructor of
    :func:`compiled_maker` with the append in the same function, for
    :meth:`croupier.events.EventLog.emitter`; for a class it cannot
    compile, the class is called.
    """
    found = _APPENDERS.get(cls)
    if found is not None:
        return found
    found = _maker(cls, into=True) if isinstance(cls, type) else None
    if found is None or found is cls:
        build = _plain_call(cls)

        def found(events: list[Any], /, **fields: Any) -> Any:
            event = build(len(events) + 1, **fields)
            events.append(event)
            return event

    _APPENDERS[cls] = found
    return found


def _plain_call(build: object) -> Callable[..., Any]:
    """``build`` itself, for a callable that is not a class."""
    if not callable(build):
        msg = f"not an event class: {build!r}"
        raise TypeError(msg)
    return build


def _maker(cls: type, *, into: bool = False) -> Callable[..., Any]:
    params = getattr(cls, "__dataclass_params__", None)
    if (
        params is None
        or not params.frozen
        or "__slots__" not in cls.__dict__
        or hasattr(cls, "__post_init__")
    ):
        return cls
    declared = dataclasses.fields(cls)
    if not declared or declared[0].name != "seq" or declared[0].kw_only:
        return cls
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    required: list[str] = []
    for f in declared:
        slot = getattr(cls, f.name, None)
        if (
            not f.init
            or f.default_factory is not dataclasses.MISSING
            or (f.name != "seq" and not f.kw_only)
            or not isinstance(slot, types.MemberDescriptorType)
        ):
            return cls
        namespace[f"s_{f.name}"] = slot.__set__
        if f.default is dataclasses.MISSING:
            required.append(f.name)
        else:
            namespace[f"d_{f.name}"] = f.default
    own = tuple(f.name for f in declared)
    source = maker_source(own, tuple(required), own[1:], into=into)
    exec(source, namespace)  # noqa: S102
    made: Callable[..., Any] = namespace["make"]
    return made
