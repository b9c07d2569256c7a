"""Compiled Midibaccarat kernels: the exact enumeration and the shoe loop.

A *cell* of a coup is ``(player count, banker count, player drew,
banker drew)``: every main wager, Dragon 7 and Panda 8 settles on the
cell alone, so both the exact analysis and the simulation reduce to a
``10 x 10 x 2 x 2`` table of integer weights. Perfect Pairs settle on a
*pair kind* (0 none, 1 perfect, 2 colored, 3 mixed) of each hand's first
two cards. The card values, the burn, the pair kinds and the drawing
rules are the tables of :mod:`croupier.odds.leaf` (computed from the
engine's own functions), passed to the kernels as arguments.
"""

from __future__ import annotations

import numpy as np

from croupier.jit import jit
from croupier.odds.baccarat.shoe import (
    IntArray,
    WordArray,
    below,
    rotate,
    shuffle,
)
from croupier.odds.leaf import (
    BANKER_AFTER,
    BANKER_STOOD,
    BURN,
    PAIR_KIND,
    PLAYER_DRAWS,
    POINT,
)
from croupier.procedures.ch629a import CUT_MARGIN

__all__ = [
    "BANKER_AFTER",
    "BANKER_STOOD",
    "BURN",
    "PAIR_KIND",
    "PLAYER",
    "POINT",
    "coup",
    "enumerate_cells",
    "play_shoe",
    "run_shoes",
    "shoe_start",
]

PLAYER = PLAYER_DRAWS
"""Whether the Player's Hand draws on a two-card count 0-7."""


@jit
def _mod10(total: int) -> int:
    """A sum of two values 0-9, modulo 10."""
    return total - 10 if total >= 10 else total


@jit
def coup(
    cards: IntArray,
    start: int,
    point: IntArray,
    pair: IntArray,
    player: IntArray,
    stood: IntArray,
    after: IntArray,
) -> tuple[int, int, int, int, int, int, int]:
    """Play one coup from ``cards[start:]``.

    Returns the cell ``(player count, banker count, player drew, banker
    drew)``, the pair kinds of the Player's and Banker's first two
    cards, and the number of cards used.
    """
    p1, b1 = cards[start], cards[start + 1]
    p2, b2 = cards[start + 2], cards[start + 3]
    pc = _mod10(point[p1] + point[p2])
    bc = _mod10(point[b1] + point[b2])
    kind_p = pair[p1, p2]
    kind_b = pair[b1, b2]
    used = 4
    drew_p = 0
    drew_b = 0
    if pc < 8 and bc < 8:  # no natural
        if player[pc] == 1:
            third = point[cards[start + used]]
            used += 1
            drew_p = 1
            pc = _mod10(pc + third)
            draws = after[bc, third] == 1
        else:
            draws = stood[bc] == 1
        if draws:
            bc = _mod10(bc + point[cards[start + used]])
            used += 1
            drew_b = 1
    return pc, bc, drew_p, drew_b, kind_p, kind_b, used


@jit
def enumerate_cells(
    counts: IntArray, player: IntArray, stood: IntArray, after: IntArray
) -> IntArray:
    """Exact weights of every cell, without replacement.

    ``counts[v]`` is the number of cards of baccarat value ``v``. Each
    coup is weighted by its ordered card sequences extended to six
    cards, so the weights sum to ``N (N-1) ... (N-5)``.
    """
    table = np.zeros((10, 10, 2, 2), dtype=np.int64)
    c = counts.copy()
    n = 0
    for v in range(10):
        n += c[v]
    rest4 = (n - 4) * (n - 5)
    rest5 = n - 5
    for p1 in range(10):
        w1 = c[p1]
        if w1 == 0:
            continue
        c[p1] -= 1
        for b1 in range(10):
            w2 = w1 * c[b1]
            if w2 == 0:
                continue
            c[b1] -= 1
            for p2 in range(10):
                w3 = w2 * c[p2]
                if w3 == 0:
                    continue
                c[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * c[b2]
                    if w4 == 0:
                        continue
                    c[b2] -= 1
                    pc = (p1 + p2) % 10
                    bc = (b1 + b2) % 10
                    if pc >= 8 or bc >= 8:  # a natural
                        table[pc, bc, 0, 0] += w4 * rest4
                    elif player[pc] == 1:
                        for p3 in range(10):
                            w5 = w4 * c[p3]
                            if w5 == 0:
                                continue
                            pc3 = (pc + p3) % 10
                            if after[bc, p3] == 1:
                                c[p3] -= 1
                                for b3 in range(10):
                                    w6 = w5 * c[b3]
                                    table[pc3, (bc + b3) % 10, 1, 1] += w6
                                c[p3] += 1
                            else:
                                table[pc3, bc, 1, 0] += w5 * rest5
                    elif stood[bc] == 1:
                        for b3 in range(10):
                            w5 = w4 * c[b3]
                            table[pc, (bc + b3) % 10, 0, 1] += w5 * rest5
                    else:
                        table[pc, bc, 0, 0] += w4 * rest4
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return table


@jit
def shoe_start(
    codes: IntArray, work: IntArray, raw: WordArray, index: int, burn: IntArray
) -> tuple[int, int]:
    """Shuffle (a), cut (b)-(d) and burn (f); the first card to deal.

    The cut's cover card is placed uniformly between ``CUT_MARGIN``
    cards from the top and from the bottom, as the engine chooses it,
    and the cards above it go to the bottom. Returns the index of the
    first card of the first coup and the next buffer index.
    """
    index = shuffle(codes, raw, index)
    size = codes.shape[0]
    moved, index = below(raw, index, size - 2 * CUT_MARGIN + 1)
    rotate(codes, work, CUT_MARGIN + moved)
    return 1 + burn[codes[0]], index


@jit
def play_shoe(
    codes: IntArray,
    pos: int,
    cover: int,
    rounds: int,
    point: IntArray,
    pair: IntArray,
    player: IntArray,
    stood: IntArray,
    after: IntArray,
    cells: IntArray,
    pairs: IntArray,
) -> int:
    """Play coups from ``codes[pos:]`` until the cover card comes out.

    The second cover card lies above ``codes[cover]``: the coup that
    takes that card is the shoe's last (it is finished first). At most
    ``rounds`` coups. Each coup adds one to its cell in ``cells`` and to
    each hand's pair kind in ``pairs``. Returns the coups played.
    """
    played = 0
    while played < rounds:
        pc, bc, dp, db, kp, kb, used = coup(
            codes, pos, point, pair, player, stood, after
        )
        cells[pc, bc, dp, db] += 1
        pairs[0, kp] += 1
        pairs[1, kb] += 1
        pos += used
        played += 1
        if pos > cover:
            break
    return played


@jit
def run_shoes(
    codes: IntArray,
    work: IntArray,
    raw: WordArray,
    target: int,
    done: int,
    below_cover: int,
    burn: IntArray,
    point: IntArray,
    pair: IntArray,
    player: IntArray,
    stood: IntArray,
    after: IntArray,
    cells: IntArray,
    pairs: IntArray,
) -> int:
    """Play whole shoes until ``target`` rounds or the buffer runs low.

    Each shoe is shuffled, cut and burned (:func:`shoe_start`), with the
    second cover card ``below_cover`` cards above the bottom; then
    :func:`play_shoe`. Returns the rounds done so far.
    """
    size = codes.shape[0]
    cover = size - below_cover
    budget = size + 64
    while done < target:
        if raw.shape[0] < budget:
            break
        pos, _ = shoe_start(codes, work, raw[:budget], 0, burn)
        raw = raw[budget:]  # each shoe has its own slice of randomness
        done += play_shoe(
            codes,
            pos,
            cover,
            target - done,
            point,
            pair,
            player,
            stood,
            after,
            cells,
            pairs,
        )
    return done
