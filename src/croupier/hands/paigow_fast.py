"""Table-driven Six-Card Fortune Pai Gow Poker evaluator (numba kernels).

The core of the simulator: cards are integer codes (:attr:`Card.code`,
``(rank - 2) * 4 + suit``, joker 52) and hand values are the same
integers as :mod:`croupier.hands.paigow` produces (category in bits 20
and up, tie-break ranks below), so the two evaluators are
interchangeable and the tests compare them.

How it works: every five-card hand of the 53-card deck (C(53,5) =
2,869,685) is evaluated once by a numba kernel into a table indexed by
the combinatorial number system (colex rank of the sorted codes); a
six-card hand is then the maximum of six table look-ups.

>>> from croupier.cards import parse_cards
>>> from croupier.hands.paigow import evaluate
>>> cards = parse_cards("As Ks Qs Js JK 2c")
>>> rank_six([c.code for c in cards]) == evaluate(cards)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from croupier.cards import JOKER_CODE, Card
from croupier.jit import jit

__all__ = [
    "CATEGORIES",
    "DECK_SIZE",
    "JOKER_CODE",
    "category_counts",
    "count_categories",
    "five_card_index",
    "five_card_table",
    "five_values",
    "rank_hands",
    "rank_six",
]

DECK_SIZE = JOKER_CODE + 1
"""52 cards and the joker."""
CATEGORIES = 11
"""Number of hand categories (high card .. five aces)."""

_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH = 0, 1, 2, 3, 4, 5
_FULL_HOUSE, _QUADS, _STRAIGHT_FLUSH, _ROYAL, _FIVE_ACES = 6, 7, 8, 9, 10


def binomials() -> npt.NDArray[np.int64]:
    """``C(n, k)`` for ``n`` 0-53 and ``k`` 0-6 (the colex index weights).

    >>> int(binomials()[53, 6])
    22957480
    """
    table = np.zeros((DECK_SIZE + 1, 7), dtype=np.int64)
    for n in range(DECK_SIZE + 1):
        table[n, 0] = 1
        for k in range(1, min(n, 6) + 1):
            table[n, k] = table[n - 1, k - 1] + (
                table[n - 1, k] if k <= n - 1 else 0
            )
    return table


_BINOM = binomials()


@jit
def _pack(category: int, r1: int, r2: int, r3: int, r4: int, r5: int) -> int:
    return (
        (category << 20) | (r1 << 16) | (r2 << 12) | (r3 << 8) | (r4 << 4) | r5
    )


@jit
def _straight_top(mask: int) -> int:
    """Top rank of the best straight in a rank bitmask (bit r = rank r)."""
    for top in range(14, 5, -1):
        window = 0x1F << (top - 4)
        if mask & window == window:
            return top
    wheel = (1 << 14) | 0x3C
    if mask & wheel == wheel:
        return 5
    return 0


@jit
def _natural(counts: npt.NDArray[np.int64], flush: bool) -> int:
    """Value of five cards from rank counts (index = rank) and a flush flag."""
    if counts[14] == 5:
        return _pack(_FIVE_ACES, 0, 0, 0, 0, 0)
    mask = 0
    distinct = 0
    for rank in range(2, 15):
        if counts[rank] > 0:
            mask |= 1 << rank
            distinct += 1
    top = _straight_top(mask) if distinct == 5 else 0
    if flush and top > 0:
        if top == 14:
            return _pack(_ROYAL, 14, 0, 0, 0, 0)
        return _pack(_STRAIGHT_FLUSH, top, 0, 0, 0, 0)
    keys = np.zeros(5, dtype=np.int64)
    n = 0
    first = 0
    second = 0
    for count in range(5, 0, -1):
        for rank in range(14, 1, -1):
            if counts[rank] == count:
                keys[n] = rank
                n += 1
                if first == 0:
                    first = count
                elif second == 0:
                    second = count
    if first == 4:
        return _pack(_QUADS, keys[0], keys[1], 0, 0, 0)
    if first == 3 and second == 2:
        return _pack(_FULL_HOUSE, keys[0], keys[1], 0, 0, 0)
    if flush:
        return _pack(_FLUSH, keys[0], keys[1], keys[2], keys[3], keys[4])
    if top > 0:
        return _pack(_STRAIGHT, top, 0, 0, 0, 0)
    if first == 3:
        return _pack(_TRIPS, keys[0], keys[1], keys[2], 0, 0)
    if first == 2 and second == 2:
        return _pack(_TWO_PAIR, keys[0], keys[1], keys[2], 0, 0)
    if first == 2:
        return _pack(_PAIR, keys[0], keys[1], keys[2], keys[3], 0)
    return _pack(_HIGH, keys[0], keys[1], keys[2], keys[3], keys[4])


@jit
def _evaluate5(
    codes: npt.NDArray[np.int64], ranks: npt.NDArray[np.int64]
) -> int:
    """Value of five card codes (at most one joker), the joker rule D19."""
    counts = np.zeros(16, dtype=np.int64)
    suit = -1
    same_suit = True
    joker = False
    mask = 0
    for i in range(5):
        code = codes[i]
        if code == JOKER_CODE:
            joker = True
            continue
        rank = ranks[code]
        counts[rank] += 1
        mask |= 1 << rank
        if suit == -1:
            suit = code % 4
        elif code % 4 != suit:
            same_suit = False
    if not joker:
        return _natural(counts, same_suit)
    # the joker as an ace (no suit: it cannot make a flush this way)
    counts[14] += 1
    best = _natural(counts, False)
    counts[14] -= 1
    distinct = 0
    for rank in range(2, 15):
        if counts[rank] > 0:
            distinct += 1
    if distinct == 4:
        # the joker completes a straight (or straight flush): the best
        # window of five ranks that holds all four real ranks
        for top in range(14, 4, -1):
            window = ((1 << 14) | 0x3C) if top == 5 else (0x1F << (top - 4))
            if mask & window == mask:
                if same_suit:
                    category = _ROYAL if top == 14 else _STRAIGHT_FLUSH
                else:
                    category = _STRAIGHT
                value = _pack(category, top, 0, 0, 0, 0)
                best = max(best, value)
                break
        if same_suit:
            # the joker completes a flush as the highest missing rank
            for rank in range(14, 1, -1):
                if counts[rank] == 0:
                    counts[rank] += 1
                    value = _natural(counts, True)
                    counts[rank] -= 1
                    best = max(best, value)
                    break
    return best


@jit
def _build_table(
    binom: npt.NDArray[np.int64], ranks: npt.NDArray[np.int64]
) -> npt.NDArray[np.int32]:
    size = binom[53, 5]
    table = np.zeros(size, dtype=np.int32)
    codes = np.zeros(5, dtype=np.int64)
    for e in range(4, 53):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        codes[0] = a
                        codes[1] = b
                        codes[2] = c
                        codes[3] = d
                        codes[4] = e
                        index = (
                            binom[a, 1]
                            + binom[b, 2]
                            + binom[c, 3]
                            + binom[d, 4]
                            + binom[e, 5]
                        )
                        table[index] = _evaluate5(codes, ranks)
    return table


_TABLE: list[npt.NDArray[np.int32]] = []
_RANKS = np.array(
    [int(Card.from_code(code).rank) for code in range(JOKER_CODE)],
    dtype=np.int64,
)
"""The rank (2-14) of each card code but the joker's (:class:`Card`)."""


def five_card_table() -> npt.NDArray[np.int32]:
    """The value of every five-card hand, by :func:`five_card_index`.

    Built on first use (about a second once numba has compiled it).
    """
    if not _TABLE:
        _TABLE.append(_build_table(_BINOM, _RANKS))
    return _TABLE[0]


def five_card_index(codes: Sequence[int]) -> int:
    """The colex index of five distinct card codes in the table.

    >>> five_card_index([0, 1, 2, 3, 4]), five_card_index([48, 49, 50, 51, 52])
    (0, 2869684)
    """
    ordered = sorted(codes)
    return int(sum(_BINOM[code, k + 1] for k, code in enumerate(ordered)))


@jit
def five_values(
    table: npt.NDArray[np.int32],
    binom: npt.NDArray[np.int64],
    h: npt.NDArray[np.int64],
    vals: npt.NDArray[np.int64],
) -> int:
    """Fill ``vals[i]`` with the value of the sorted six ``h`` less ``h[i]``.

    Returns the best of them: the value of the best five of six. The six
    colex indices are kept incrementally (a prefix and a suffix sum).
    """
    prefix = 0
    suffix = 0
    for j in range(1, 6):
        suffix += binom[h[j], j]
    best = 0
    for i in range(6):
        value = int(table[prefix + suffix])
        vals[i] = value
        best = max(best, value)
        prefix += binom[h[i], i + 1]
        if i < 5:
            suffix -= binom[h[i + 1], i + 1]
    return best


@jit
def _rank_many(
    table: npt.NDArray[np.int32],
    binom: npt.NDArray[np.int64],
    hands: npt.NDArray[np.int64],
) -> npt.NDArray[np.int32]:
    out = np.zeros(hands.shape[0], dtype=np.int32)
    vals = np.zeros(6, dtype=np.int64)
    for row in range(hands.shape[0]):
        h = np.sort(hands[row])
        out[row] = five_values(table, binom, h, vals)
    return out


def rank_hands(hands: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Values of many six-card hands (an ``(n, 6)`` array of codes)."""
    array = np.ascontiguousarray(hands, dtype=np.int64)
    if array.ndim != 2 or array.shape[1] != 6:
        msg = f"expected an (n, 6) array of card codes, got {array.shape}"
        raise ValueError(msg)
    if array.size and (array.min() < 0 or array.max() > JOKER_CODE):
        msg = "card codes run from 0 to 52"
        raise ValueError(msg)
    return _rank_many(five_card_table(), _BINOM, array)


def rank_six(codes: Sequence[int]) -> int:
    """The value of one six-card hand given as six distinct codes."""
    if len(set(codes)) != 6:
        msg = f"six distinct card codes expected, got {list(codes)}"
        raise ValueError(msg)
    return int(rank_hands(np.array([codes]))[0])


@jit
def count_categories(
    table: npt.NDArray[np.int32], binom: npt.NDArray[np.int64], cards: int
) -> npt.NDArray[np.int64]:
    """Category counts of every six-card hand from cards ``0..cards-1``.

    Walks the sorted hands in colex order; index = category value.
    """
    counts = np.zeros(11, dtype=np.int64)
    h = np.zeros(6, dtype=np.int64)
    vals = np.zeros(6, dtype=np.int64)
    for f in range(5, cards):
        h[5] = f
        for e in range(4, f):
            h[4] = e
            for d in range(3, e):
                h[3] = d
                for c in range(2, d):
                    h[2] = c
                    for b in range(1, c):
                        h[1] = b
                        for a in range(b):
                            h[0] = a
                            value = five_values(table, binom, h, vals)
                            counts[value >> 20] += 1
    return counts


def category_counts() -> npt.NDArray[np.int64]:
    """How many of the C(53,6) six-card hands fall in each category.

    Index = :class:`croupier.hands.paigow.Category` value.
    """
    return count_categories(five_card_table(), _BINOM, DECK_SIZE)
