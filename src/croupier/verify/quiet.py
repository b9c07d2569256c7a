"""The replay's randomness: a stream that never decides anything checked.

A recorded round's cards are given; a reshuffle the cover card calls for
happens after the last card of the round, and a preparation's shuffle
is replayed only for the steps around it; what either decides is not
compared (the shuffle's ``source``, ``seed``). So every draw is the top
of the range: Fisher-Yates then leaves the cards in order, the same for
every replay, without a random stream's cost per card.
"""

from __future__ import annotations

__all__ = ["QUIET_RNG", "QuietRng"]


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
