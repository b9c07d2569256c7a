"""Random number sources: a CSPRNG for live play, seeded streams for analysis.

Every shuffle takes an :class:`Rng`; nothing in the package calls the
module-level :mod:`random` functions.

>>> a, b = SeededRng(7), SeededRng(7)
>>> [a.randbelow(52) for _ in range(3)] == [b.randbelow(52) for _ in range(3)]
True
>>> SeededRng(7).describe()
{'kind': 'seeded', 'generator': 'numpy.PCG64', 'seed': 7, 'spawn_key': []}
"""

from __future__ import annotations

import secrets
from collections.abc import MutableSequence
from typing import Protocol, TypeVar

import numpy as np

__all__ = ["Rng", "SecureRng", "SeededRng", "fisher_yates"]

_T = TypeVar("_T")


class Rng(Protocol):
    """A source of uniform integers."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        ...

    def describe(self) -> dict[str, object]:
        """What the source is, for the round log."""
        ...


class SecureRng:
    """The operating system's CSPRNG (:mod:`secrets`), for live play."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` from :func:`secrets.randbelow`."""
        return secrets.randbelow(n)

    def describe(self) -> dict[str, object]:
        """The kind of source (a CSPRNG has no seed to record)."""
        return {"kind": "secure", "generator": "secrets.SystemRandom"}


class SeededRng:
    """A seeded, recorded numpy PCG64 stream for analysis and tests."""

    def __init__(self, seed: int, *, spawn_key: tuple[int, ...] = ()) -> None:
        self.seed = seed
        self.spawn_key = spawn_key
        sequence = np.random.SeedSequence(seed, spawn_key=spawn_key)
        self.generator = np.random.Generator(np.random.PCG64(sequence))

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        return int(self.generator.integers(n))

    def describe(self) -> dict[str, object]:
        """The seed and spawn key that reproduce this stream."""
        return {
            "kind": "seeded",
            "generator": "numpy.PCG64",
            "seed": self.seed,
            "spawn_key": list(self.spawn_key),
        }


def fisher_yates(items: MutableSequence[_T], rng: Rng) -> None:
    """Shuffle ``items`` in place, each permutation equally likely.

    >>> cards = list(range(10))
    >>> fisher_yates(cards, SeededRng(1))
    >>> sorted(cards) == list(range(10))
    True
    """
    for i in range(len(items) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
