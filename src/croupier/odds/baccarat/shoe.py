"""Compiled shoe primitives shared by the baccarat-family simulators.

Randomness comes from a buffer of 32-bit words drawn in bulk from the
chunk's :class:`numpy.random.Generator` (its bit generator's raw 64-bit
output, split in halves); :func:`below` turns them into exactly uniform
integers by Lemire's multiply-and-reject method, and
:func:`shuffle` is a Fisher–Yates shuffle over integer card codes
(:attr:`croupier.cards.Card.code`).

>>> import numpy as np
>>> raw = random_block(np.random.default_rng(7), 64)
>>> codes = np.arange(10, dtype=np.int64)
>>> used = shuffle(codes, raw, 0)
>>> sorted(codes.tolist()) == list(range(10)), used >= 9
(True, True)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from croupier.jit import jit

__all__ = [
    "BITS",
    "IntArray",
    "WordArray",
    "below",
    "random_block",
    "rotate",
    "shuffle",
]

IntArray = npt.NDArray[np.int64]
"""A one-dimensional (or more) array of int64."""
WordArray = npt.NDArray[np.uint32]
"""A buffer of random 32-bit words."""

BITS = 32
"""Random bits per buffer entry."""
_MASK = (1 << BITS) - 1
_TWO_BITS = 1 << BITS


def random_block(gen: np.random.Generator, size: int) -> WordArray:
    """At least ``size`` uniform 32-bit words from ``gen``."""
    raw = gen.bit_generator.random_raw((size + 1) // 2)
    return np.asarray(raw, dtype=np.uint64).view(np.uint32)


@jit
def below(raw: WordArray, index: int, bound: int) -> tuple[int, int]:
    """A uniform integer in ``[0, bound)`` and the next buffer index.

    Lemire's method on 32-bit words: exact, rejecting with probability
    below ``bound / 2**32``. Raises if the buffer runs out.
    """
    while True:
        if index >= raw.shape[0]:
            raise ValueError("random buffer exhausted")
        product = raw[index] * bound
        index += 1
        low = product & _MASK
        if low < bound:
            threshold = (_TWO_BITS - bound) % bound
            if low < threshold:
                continue
        return product >> BITS, index


@jit
def shuffle(codes: IntArray, raw: WordArray, index: int) -> int:
    """Fisher–Yates shuffle of ``codes`` in place; the next buffer index."""
    for i in range(codes.shape[0] - 1, 0, -1):
        j, index = below(raw, index, i + 1)
        codes[i], codes[j] = codes[j], codes[i]
    return index


@jit
def rotate(codes: IntArray, work: IntArray, moved: int) -> None:
    """Move the top ``moved`` cards to the bottom (a completed cut)."""
    size = codes.shape[0]
    rest = size - moved
    work[:rest] = codes[moved:]
    work[rest:] = codes[:moved]
    codes[:] = work
