"""The replay's randomness: a stream that never decides anything checked.

A recorded round's cards are given; a reshuffle the cover card calls for
happens after the last card of the round, and a preparation's shuffle
is replayed only for the steps around it; what either decides is not
compared (the shuffle's ``source``, ``seed``). So every draw is the top
of the range: Fisher-Yates then leaves the cards in order, the same for
every replay, without a random stream's cost per card.
"""

from __future__ import annotations

__all__ = ["QUIET_RNG", "DrawnRng", "QuietRng"]


class QuietRng:
    """Every draw the top of its range (:meth:`randbelow`)."""

    def randbelow(self, n: int) -> int:
        """The largest integer in ``[0, n)``."""
        return n - 1

    def describe(self) -> dict[str, object]:
        """What the source is (a replay)."""
        return {"kind": "seeded", "generator": "numpy.PCG64", "seed": 0}


QUIET_RNG = QuietRng()
"""The one instance the replays share (it holds no state)."""


class DrawnRng(QuietRng):
    """A quiet stream whose first draw is one a table recorded (D84).

    A pai gow replay draws nothing but its starting number (the deck is
    given, not shuffled): given the number the table drew, the engine
    draws it again and writes the step the table wrote.

    >>> rng = DrawnRng(1)
    >>> rng.randbelow(7), rng.randbelow(7)
    (1, 6)
    """

    __slots__ = ("_first",)

    def __init__(self, first: int) -> None:
        self._first: int | None = first

    def randbelow(self, n: int) -> int:
        """The recorded draw first (if in ``[0, n)``), then the top."""
        first, self._first = self._first, None
        if first is None or not 0 <= first < n:
            return n - 1
        return first
