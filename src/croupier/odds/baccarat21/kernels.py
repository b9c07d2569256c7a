"""Compiled 21 Baccarat kernels: exact enumerations and the shoe loop.

Hands are counted blackjack-style (ace 1 or 11, 10-value cards 10): a
*value class* 1-10 is enough for the Player, Banker and Tie wagers, so
their exact enumeration runs over up to six cards of ten classes. The
Bonus needs suits: by exchangeability a hand's final cards (its two
cards, and a third one exactly when its two-card total is under 17
while a Bonus Wager is on the layout, whether that card counts (g) or
is a Bonus-only card (f)(2)) are distributed as two or three cards
drawn from the full shoe, so the Bonus enumeration runs over 52 card
kinds. A hand's Bonus result is a bitmask of the categories it
qualifies for, in :data:`croupier.hands.bonus21.CATEGORY_ORDER` order
(bit 0 suited three of a kind ... bit 5 pair). Card values, the total
and the drawing threshold are those of :mod:`croupier.odds.leaf` (the
engine's own functions).
"""

from __future__ import annotations

import numpy as np

from croupier.jit import jit
from croupier.odds.baccarat.shoe import IntArray, WordArray, shuffle
from croupier.odds.leaf import BACCARAT21_DRAW_BELOW, VALUE, soft_total

__all__ = [
    "MAX_TOTAL",
    "VALUE",
    "VOID",
    "bonus_mask",
    "enumerate_bonus",
    "enumerate_totals",
    "play_shoe",
    "round_cells",
    "run_shoes",
]

MAX_TOTAL = 32
"""Size of the total axes (the largest total is 26)."""
VOID = -1
""":func:`round_cells`' cards used when the shoe ran out in the round."""
_DRAW_BELOW = BACCARAT21_DRAW_BELOW
_SUITED_TRIPS, _STRAIGHT_FLUSH, _TRIPS = 1, 2, 4
_STRAIGHT, _FLUSH, _PAIR = 8, 16, 32


@jit
def bonus_mask(a: int, b: int, c: int) -> int:
    """Bonus categories of the cards ``a``, ``b`` (and ``c`` if >= 0)."""
    ra, rb = a // 4, b // 4
    if c < 0:
        return _PAIR if ra == rb else 0
    rc = c // 4
    mask = 0
    if (ra == rb) | (rb == rc) | (ra == rc):
        mask |= _PAIR
    flush = a % 4 == b % 4 and b % 4 == c % 4
    if flush:
        mask |= _FLUSH
    if ra == rb and rb == rc:
        mask |= _TRIPS
        if a == b and b == c:
            mask |= _SUITED_TRIPS
    elif ra != rb and rb != rc and ra != rc:
        low = min(ra, rb, rc)
        high = max(ra, rb, rc)
        # index 0 is a 2 and 12 an ace: consecutive, or A-2-3
        wheel = high == 12 and low == 0 and ra + rb + rc == 13
        if high - low == 2 or wheel:
            mask |= _STRAIGHT
            if flush:
                mask |= _STRAIGHT_FLUSH
    return mask


@jit
def round_cells(
    cards: IntArray, start: int, bonus: bool, value: IntArray
) -> tuple[int, int, int, int, int]:
    """Play one round from ``cards[start:]`` (681a.7 (e)-(g)).

    ``bonus``: a Bonus Wager is on the layout, so after a natural each
    hand under 17 takes a Bonus-only card (f)(2). Returns the Player's
    and Banker's totals, their Bonus masks and the cards used; the
    cards used are :data:`VOID` when the stack runs out before the round
    is complete (nothing is settled before the last card, so the round
    is void and every wager returned: D69, as the engine does).
    """
    n = cards.shape[0]
    if start + 4 > n:
        return 0, 0, 0, 0, VOID
    p1, b1 = cards[start], cards[start + 1]
    p2, b2 = cards[start + 2], cards[start + 3]
    ph = value[p1] + value[p2]
    pa = (value[p1] == 1) + (value[p2] == 1)
    bh = value[b1] + value[b2]
    ba = (value[b1] == 1) + (value[b2] == 1)
    pt = soft_total(ph, pa)
    bt = soft_total(bh, ba)
    natural = pt == 21 or bt == 21
    used = 4
    p3 = -1
    b3 = -1
    if pt < _DRAW_BELOW and (bonus or not natural):
        if start + used >= n:
            return 0, 0, 0, 0, VOID
        p3 = cards[start + used]
        used += 1
    if bt < _DRAW_BELOW and (bonus or not natural):
        if start + used >= n:
            return 0, 0, 0, 0, VOID
        b3 = cards[start + used]
        used += 1
    if not natural:
        if p3 >= 0:
            pt = soft_total(ph + value[p3], pa + (value[p3] == 1))
        if b3 >= 0:
            bt = soft_total(bh + value[b3], ba + (value[b3] == 1))
    mp = bonus_mask(p1, p2, p3)
    mb = bonus_mask(b1, b2, b3)
    return pt, bt, mp, mb, used


@jit
def enumerate_totals(counts: IntArray) -> IntArray:
    """Exact weights of (Player total, Banker total), without replacement.

    ``counts[v]`` is the number of cards of value class ``v`` (1-10).
    Weights are ordered card sequences extended to six cards, so they
    sum to ``N (N-1) ... (N-5)``. Bonus-only cards never count here.
    """
    table = np.zeros((MAX_TOTAL, MAX_TOTAL), dtype=np.int64)
    c = counts.copy()
    n = 0
    for v in range(1, 11):
        n += c[v]
    rest = np.array([(n - 4) * (n - 5), n - 5, 1], dtype=np.int64)
    for p1 in range(1, 11):
        w1 = c[p1]
        if w1 == 0:
            continue
        c[p1] -= 1
        for b1 in range(1, 11):
            w2 = w1 * c[b1]
            if w2 == 0:
                continue
            c[b1] -= 1
            for p2 in range(1, 11):
                w3 = w2 * c[p2]
                if w3 == 0:
                    continue
                c[p2] -= 1
                for b2 in range(1, 11):
                    w4 = w3 * c[b2]
                    if w4 == 0:
                        continue
                    c[b2] -= 1
                    ph, pa = p1 + p2, (p1 == 1) + (p2 == 1)
                    bh, ba = b1 + b2, (b1 == 1) + (b2 == 1)
                    pt, bt = soft_total(ph, pa), soft_total(bh, ba)
                    if (
                        pt == 21
                        or bt == 21
                        or (pt >= _DRAW_BELOW and bt >= _DRAW_BELOW)
                    ):
                        table[pt, bt] += w4 * rest[0]
                    elif pt < _DRAW_BELOW:
                        for p3 in range(1, 11):
                            w5 = w4 * c[p3]
                            if w5 == 0:
                                continue
                            pt3 = soft_total(ph + p3, pa + (p3 == 1))
                            if bt < _DRAW_BELOW:
                                c[p3] -= 1
                                for b3 in range(1, 11):
                                    w6 = w5 * c[b3]
                                    bt3 = soft_total(bh + b3, ba + (b3 == 1))
                                    table[pt3, bt3] += w6
                                c[p3] += 1
                            else:
                                table[pt3, bt] += w5 * rest[1]
                    else:
                        for b3 in range(1, 11):
                            w5 = w4 * c[b3]
                            bt3 = soft_total(bh + b3, ba + (b3 == 1))
                            table[pt, bt3] += w5 * rest[1]
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return table


@jit
def enumerate_bonus(decks: int, value: IntArray) -> IntArray:
    """Exact weights of each Bonus mask of one hand, with a Bonus Wager on.

    Ordered sequences of the hand's cards from a full shoe of ``decks``
    decks, extended to three cards: they sum to ``N (N-1) (N-2)``.
    """
    out = np.zeros(64, dtype=np.int64)
    n = 52 * decks
    for a in range(52):
        for b in range(52):
            w2 = decks * (decks - (a == b))
            if w2 == 0:
                continue
            hard = value[a] + value[b]
            aces = (value[a] == 1) + (value[b] == 1)
            if soft_total(hard, aces) >= _DRAW_BELOW:
                out[bonus_mask(a, b, -1)] += w2 * (n - 2)
                continue
            for c in range(52):
                w3 = w2 * (decks - (a == c) - (b == c))
                if w3 > 0:
                    out[bonus_mask(a, b, c)] += w3
    return out


@jit
def play_shoe(
    codes: IntArray,
    pos: int,
    cover: int,
    rounds: int,
    bonus: bool,
    value: IntArray,
    totals: IntArray,
    masks: IntArray,
    voids: IntArray,
) -> int:
    """Play rounds from ``codes[pos:]`` until the cover card comes out.

    The cover card lies above ``codes[cover]``: the round that takes
    that card is completed, and is the shoe's last (d). At most
    ``rounds`` rounds. Each round adds one to ``totals[pt, bt]`` and to
    each hand's Bonus mask in ``masks``; a round the shoe cannot finish
    (a deep cover card in a small shoe) adds one to ``voids[0]`` and is
    the shoe's last (D69: void, every wager returned, the shoe
    reshuffled). Returns the rounds played.
    """
    played = 0
    while played < rounds:
        pt, bt, mp, mb, used = round_cells(codes, pos, bonus, value)
        played += 1
        if used == VOID:
            voids[0] += 1
            break
        totals[pt, bt] += 1
        masks[0, mp] += 1
        masks[1, mb] += 1
        pos += used
        if pos > cover:
            break
    return played


@jit
def run_shoes(
    codes: IntArray,
    raw: WordArray,
    target: int,
    done: int,
    cover: int,
    bonus: bool,
    value: IntArray,
    totals: IntArray,
    masks: IntArray,
    voids: IntArray,
) -> int:
    """Play whole shoes until ``target`` rounds or the buffer runs low.

    Each shoe is shuffled, its cover card lies ``cover`` cards from the
    top (the penetration), and the first card is burned (c); then
    :func:`play_shoe`. Returns the rounds done so far.
    """
    budget = codes.shape[0] + 64
    while done < target:
        if raw.shape[0] < budget:
            break
        shuffle(codes, raw[:budget], 0)
        raw = raw[budget:]  # each shoe has its own slice of randomness
        done += play_shoe(
            codes, 1, cover, target - done, bonus, value, totals, masks, voids
        )
    return done
