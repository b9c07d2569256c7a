"""Compiled enumerations behind :mod:`croupier.protect.known`.

A coup of the baccarat family uses at most six cards, dealt in a fixed
order (Player, Banker, Player, Banker, then the third cards in drawing
order). Every ordered sequence of six card *classes* (baccarat values
for Midibaccarat, blackjack value classes for 21 Baccarat) is listed
once, in lexicographic order (index ``sum v_i 10**(5 - i)``), with its
exact weight (the number of ordered card sequences of the shoe that
show those classes: a product of falling counts) and the cell it
settles on. Cards 5 and 6 are the fifth and sixth cards out of the
shoe whether or not the coup uses them, so the weights of all
sequences sum to ``N (N-1) ... (N-5)``. Every grouping of the
information a player may hold (the first ``k`` classes, one position,
the two-group pattern of an edge sort) is then a sum of these weights.

>>> import numpy as np
>>> counts = np.array([4, 1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.int64)
>>> w, _ = baccarat_sequences(counts, np.ones(10, np.int64),
...                           np.ones(10, np.int64),
...                           np.ones((8, 10), np.int64))
>>> int(w.sum()) == 13 * 12 * 11 * 10 * 9 * 8
True
"""

from __future__ import annotations

import numpy as np

from croupier.jit import jit
from croupier.odds.baccarat.shoe import IntArray

__all__ = [
    "B21_TOTALS",
    "CLASSES",
    "POSITIONS",
    "b21_sequences",
    "baccarat_sequences",
    "split_sums",
]

CLASSES = 10
"""Card classes per position."""
POSITIONS = 6
"""Cards a coup may use."""
B21_TOTALS = 32
"""Size of a 21 Baccarat total axis (cells are ``pt * 32 + bt``)."""
_DRAW_BELOW = 17


@jit
def _weights(counts: IntArray) -> tuple[IntArray, IntArray]:
    """Weights and class digits of every six-class sequence."""
    size = CLASSES**POSITIONS
    weights = np.zeros(size, dtype=np.int64)
    digits = np.zeros((size, POSITIONS), dtype=np.int64)
    c = counts.copy()
    for index in range(size):
        rest = index
        for i in range(POSITIONS - 1, -1, -1):
            digits[index, i] = rest % CLASSES
            rest //= CLASSES
        w = 1
        for i in range(POSITIONS):
            v = digits[index, i]
            if c[v] <= 0:
                w = 0
                break
            w *= c[v]
            c[v] -= 1
        for i in range(POSITIONS):
            c[digits[index, i]] = counts[digits[index, i]]
        weights[index] = w
    return weights, digits


@jit
def baccarat_sequences(
    counts: IntArray, player: IntArray, stood: IntArray, after: IntArray
) -> tuple[IntArray, IntArray]:
    """Weights and Midibaccarat cells of every six-value sequence.

    ``counts[v]``: cards of baccarat value ``v``. The cell of a coup is
    ``pc * 40 + bc * 4 + player drew * 2 + banker drew``, the index of
    ``(pc, bc, dp, db)`` in a ``10 x 10 x 2 x 2`` table (the drawing
    rules are the engine's tables, as in
    :func:`croupier.odds.baccarat.kernels.coup`).
    """
    weights, d = _weights(counts)
    cells = np.zeros(weights.shape[0], dtype=np.int64)
    for s in range(weights.shape[0]):
        pc = (d[s, 0] + d[s, 2]) % 10
        bc = (d[s, 1] + d[s, 3]) % 10
        dp = 0
        db = 0
        used = 4
        if pc < 8 and bc < 8:
            if player[pc] == 1:
                third = d[s, used]
                used += 1
                dp = 1
                pc = (pc + third) % 10
                draws = after[bc, third] == 1
            else:
                draws = stood[bc] == 1
            if draws:
                bc = (bc + d[s, used]) % 10
                db = 1
        cells[s] = pc * 40 + bc * 4 + dp * 2 + db
    return weights, cells


@jit
def _total(hard: int, aces: int) -> int:
    if aces > 0 and hard + 10 <= 21:
        return hard + 10
    return hard


@jit
def b21_sequences(counts: IntArray) -> tuple[IntArray, IntArray]:
    """Weights and 21 Baccarat cells of every six-class sequence.

    Class ``i`` is the blackjack value ``i + 1`` (0 the ace, 9 any
    10-value card); ``counts[i]`` its cards. The cell is ``pt * 32 +
    bt``, the two counting totals of 681a.7(g) (a hand under 17 takes
    one card unless either hand has 21 on two cards; a Bonus-only card
    of (f)(2) never counts, so it does not change the cell).
    """
    weights, d = _weights(counts)
    cells = np.zeros(weights.shape[0], dtype=np.int64)
    for s in range(weights.shape[0]):
        p1, b1, p2, b2 = d[s, 0] + 1, d[s, 1] + 1, d[s, 2] + 1, d[s, 3] + 1
        ph, pa = p1 + p2, (p1 == 1) + (p2 == 1)
        bh, ba = b1 + b2, (b1 == 1) + (b2 == 1)
        pt, bt = _total(ph, pa), _total(bh, ba)
        if pt != 21 and bt != 21:
            used = 4
            if pt < _DRAW_BELOW:
                v = d[s, used] + 1
                used += 1
                pt = _total(ph + v, pa + (v == 1))
            if bt < _DRAW_BELOW:
                v = d[s, used] + 1
                bt = _total(bh + v, ba + (v == 1))
        cells[s] = pt * B21_TOTALS + bt
    return weights, cells


@jit
def split_sums(
    tables: IntArray, base: int, k: int, masks: IntArray
) -> IntArray:
    """Sums of ``tables`` by the two-group pattern of ``k`` positions.

    ``tables[m, j]``: quantity ``m`` of the class prefix whose base-
    ``base`` digits (first position most significant) are ``j``;
    ``masks[s]``: a split, bit ``v`` set when class ``v`` is in group
    1. Returns ``out[s, m, pattern]`` where bit ``i`` of ``pattern``
    (first position most significant) is the group of position ``i``.
    """
    n_masks = masks.shape[0]
    n_tab = tables.shape[0]
    size = tables.shape[1]
    out = np.zeros((n_masks, n_tab, 1 << k), dtype=np.int64)
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
