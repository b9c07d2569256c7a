"""21 Baccarat's Bonus Wagers with known ranks (681a.7(f)(2), (k)(2)-(3)).

With a Bonus Wager on the layout each hand under 17 on two cards takes
a third card, counting or Bonus-only, so a hand's Bonus cards are its
two cards and, when its two-card total is under 17, the next card in
drawing order (the Player's first). Every ordered sequence of six
*ranks* (13 ranks, ``4 d`` cards each) is listed with its weight; a
hand's expected Bonus net given its ranks averages over the suits,
which, given the ranks, are independent between ranks and, within one
rank, drawn without replacement from ``d`` cards of each suit
(whatever else is known of that rank: its suits are unknown). The
figures are float64 sums (the exact integers would overflow 64 bits);
ranks are indexed A, 2, ..., 10, J, Q, K (0-12).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from croupier.jit import jit
from croupier.odds.baccarat.shoe import IntArray
from croupier.odds.baccarat21.kernels import bonus_mask

__all__ = [
    "FloatArray",
    "bonus_sequences",
    "hand_evs",
    "split_sums_float",
]

FloatArray = np.ndarray
"""A float64 array."""
_RANKS = 13
_DRAW_BELOW = 17


@jit
def _kernel_rank(r: int) -> int:
    """The kernels' rank index (0 = 2 ... 12 = ace) of rank ``r``."""
    return 12 if r == 0 else r - 1


@jit
def _hand_evs(decks: int, nets: FloatArray) -> tuple[FloatArray, FloatArray]:
    two = np.zeros((_RANKS, _RANKS))
    three = np.zeros((_RANKS, _RANKS, _RANKS))
    ranks = np.zeros(3, dtype=np.int64)
    suits = np.zeros(3, dtype=np.int64)
    for size in (2, 3):
        for index in range(_RANKS**size):
            rest = index
            for i in range(size - 1, -1, -1):
                ranks[i] = rest % _RANKS
                rest //= _RANKS
            e = 0.0
            for pattern in range(4**size):
                rest = pattern
                for i in range(size):
                    suits[i] = rest % 4
                    rest //= 4
                p = 1.0
                for i in range(size):
                    same = 0
                    taken = 0
                    for j in range(i):
                        if ranks[j] == ranks[i]:
                            same += 1
                            if suits[j] == suits[i]:
                                taken += 1
                    p *= (decks - taken) / (4 * decks - same)
                if p == 0.0:
                    continue
                a = _kernel_rank(ranks[0]) * 4 + suits[0]
                b = _kernel_rank(ranks[1]) * 4 + suits[1]
                c = -1
                if size == 3:
                    c = _kernel_rank(ranks[2]) * 4 + suits[2]
                e += p * nets[bonus_mask(a, b, c)]
            if size == 2:
                two[ranks[0], ranks[1]] = e
            else:
                three[ranks[0], ranks[1], ranks[2]] = e
    return two, three


def hand_evs(
    decks: int, net: Callable[[int], Fraction]
) -> tuple[FloatArray, FloatArray]:
    """Expected Bonus net of every two- and three-rank hand.

    ``net(mask)``: the net of a Bonus mask. Returns ``(two, three)``
    indexed by ranks. Within a rank the suits are drawn without
    replacement from ``d`` cards of each suit; across ranks they are
    independent.
    """
    nets = np.array([float(net(mask)) for mask in range(64)])
    return _hand_evs(decks, nets)


@jit
def _value(r: int) -> int:
    return 1 if r == 0 else min(r + 1, 10)


@jit
def _total(hard: int, aces: int) -> int:
    if aces > 0 and hard + 10 <= 21:
        return hard + 10
    return hard


@jit
def bonus_sequences(
    counts: IntArray, two: FloatArray, three: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Sums over every six-rank sequence of weight and Bonus nets.

    Returns ``prefix[13**5, 3]`` (weight, weight x Player Bonus EV,
    weight x Banker Bonus EV by the first five ranks), ``position[6,
    13, 3]`` (the same by one position's rank) and ``full[2]`` (the sum
    of weight x max(0, EV) per hand over whole sequences: all six ranks
    known).
    """
    prefix = np.zeros((_RANKS**5, 3))
    position = np.zeros((6, _RANKS, 3))
    full = np.zeros(2)
    c = counts.copy()
    d = np.zeros(6, dtype=np.int64)
    for index in range(_RANKS**6):
        rest = index
        for i in range(5, -1, -1):
            d[i] = rest % _RANKS
            rest //= _RANKS
        w = 1.0
        for i in range(6):
            if c[d[i]] <= 0:
                w = 0.0
                break
            w *= c[d[i]]
            c[d[i]] -= 1
        for i in range(6):
            c[d[i]] = counts[d[i]]
        if w == 0.0:
            continue
        p1, b1, p2, b2 = _value(d[0]), _value(d[1]), _value(d[2]), _value(d[3])
        pt = _total(p1 + p2, (p1 == 1) + (p2 == 1))
        bt = _total(b1 + b2, (b1 == 1) + (b2 == 1))
        nxt = 4
        if pt < _DRAW_BELOW:
            ep = three[d[0], d[2], d[nxt]]
            nxt += 1
        else:
            ep = two[d[0], d[2]]
        banker_draws = bt < _DRAW_BELOW
        eb = three[d[1], d[3], d[nxt]] if banker_draws else two[d[1], d[3]]
        key = index // _RANKS
        prefix[key, 0] += w
        prefix[key, 1] += w * ep
        prefix[key, 2] += w * eb
        for i in range(6):
            position[i, d[i], 0] += w
            position[i, d[i], 1] += w * ep
            position[i, d[i], 2] += w * eb
        full[0] += w * max(ep, 0.0)
        full[1] += w * max(eb, 0.0)
    return prefix, position, full


@jit
def split_sums_float(
    tables: FloatArray, base: int, k: int, masks: IntArray
) -> FloatArray:
    """:func:`croupier.protect._known_kernels.split_sums` for float64."""
    n_masks = masks.shape[0]
    n_tab = tables.shape[0]
    size = tables.shape[1]
    out = np.zeros((n_masks, n_tab, 1 << k))
    for s in range(n_masks):
        mask = masks[s]
        for j in range(size):
            rest = j
            pattern = 0
            for shift in range(k):
                v = rest % base
                rest //= base
                pattern |= ((mask >> v) & 1) << shift
            for m in range(n_tab):
                out[s, m, pattern] += tables[m, j]
    return out
