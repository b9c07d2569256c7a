"""Numba kernels of the Six-Card Fortune Pai Gow Poker mathematics.

Cards are integer codes (:attr:`croupier.cards.Card.code`, joker 52) and
hand values are the integers of :mod:`croupier.hands.paigow` (category
in bits 20 and up). A six-card hand is valued through the five-card
table of :mod:`croupier.hands.paigow_fast` (colex index of the sorted
codes): the value of the five cards left when card ``i`` is the low
hand, for each ``i``, gives both the best five of six and the house way.

Positions are indexed 0-6 here: seats 1-6 are 0-5 and the dealer
(position 7 of :mod:`croupier.procedures.ch670a`) is 6. The rank of a
one-card low hand is the table :data:`croupier.odds.leaf.LOW_RANK`
(the engine's :func:`croupier.hands.paigow.low_rank` of every code),
passed to the kernels as ``low_ranks``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from croupier.hands.paigow_fast import (
    JOKER_CODE,
    binomials,
    count_categories,
    five_values,
)
from croupier.jit import jit, jit_inline
from croupier.odds.leaf import LOW_RANK

__all__ = [
    "CATEGORIES",
    "DEALER",
    "LABELS",
    "LOW_RANK",
    "POSITIONS",
    "SEATS",
    "WAGER_ROWS",
    "binomials",
    "count_categories",
    "count_disjoint_pairs",
    "five_values",
    "house_way_low",
    "play_chunk",
    "play_deck",
    "set_all",
    "set_six",
    "shuffle_deck",
]

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]


CATEGORIES = 11
"""Hand categories, high card (0) to five aces (10)."""
POSITIONS = 7
"""Six seats and the dealer."""
SEATS = 6
"""Betting positions."""
DEALER = 6
"""The dealer's index in the kernels' position arrays."""

WIN, PUSH, LOSE = 0, 1, 2
"""Result labels of the Six-Card Wager (and sign labels of nets)."""

PAI_GOW, FORTUNE, PROGRESSIVE, FORTUNE_ONLY, ENVY = 0, 1, 2, 3, 4
"""Columns of :func:`play_deck`'s nets and rows of the chunk statistics.

``FORTUNE`` is the Fortune Bonus Wager as settled (Envy included for a
Qualifying Wager); ``FORTUNE_ONLY`` its paytable part; ``ENVY`` the
Envy Bonus part."""
SCRATCH = 8 * POSITIONS + 6
"""Work integers :func:`play_deck` needs."""
WAGER_ROWS = 5
"""Rows of the chunk statistics."""
LABELS = 11
"""Outcome label slots per statistics row."""
_TOTAL = 2 * LABELS
_SQUARE = 2 * LABELS + 1
STAT_COLUMNS = 2 * LABELS + 2
"""Label counts, label net sums, total, total of squares."""

# Integer parameters of a round (``iparams`` indices).
P_PAI_GOW_STAKE = 0
P_PAI_GOW_WIN = 1
P_QUALIFYING = 2
P_ENVY_DEALER = 3
P_CONTRIBUTION = 4
P_METER = 5
P_RESET = 6
P_STACKS = 7
P_HOUSE_WAY = 8
P_JOKER_LOW = 9
PARAMS = 10
"""Length of ``iparams``."""


@jit
def _sort6(h: I64) -> None:
    for i in range(1, 6):
        value = h[i]
        j = i - 1
        while j >= 0 and h[j] > value:
            h[j + 1] = h[j]
            j -= 1
        h[j + 1] = value


STANDARD, BEST_HIGH = 0, 1
"""House way codes: ``standard`` and ``best_high`` of
:mod:`croupier.hands.paigow`."""


@jit
def house_way_low(h: I64, vals: I64, way: int, low_ranks: I64) -> int:
    """The index in ``h`` of the low card the house way ``way`` plays.

    ``STANDARD`` chooses like :class:`croupier.hands.paigow.StandardHouseWay`:
    among the settings that are not foul (a no-pair high hand whose top
    card ranks below the low card), the best high-hand category, then
    the highest low card, then the best high hand, then the lowest card
    code (``h`` is sorted, so the first of equals). ``BEST_HIGH`` (like
    :class:`~croupier.hands.paigow.BestHighHouseWay`) ranks by the high
    hand, then the low card, then the lowest code. ``low_ranks`` is
    :data:`LOW_RANK`.
    """
    best = -1
    best_cat = -1
    best_low = -1
    best_high = -1
    for i in range(6):
        high = vals[i]
        low = low_ranks[h[i]]
        category = high >> 20
        if category == 0 and ((high >> 16) & 15) < low:
            continue
        if way == STANDARD:
            better = category > best_cat or (
                category == best_cat
                and (low > best_low or (low == best_low and high > best_high))
            )
        else:
            better = high > best_high or (high == best_high and low > best_low)
        if better:
            best = i
            best_cat = category
            best_low = low
            best_high = high
    return best


@jit_inline
def set_six(
    table: I32,
    binom: I64,
    low_ranks: I64,
    h: I64,
    vals: I64,
    way: int,
    joker_low: int,
) -> tuple[int, int, int]:
    """Sort and set six cards the house way ``way``.

    Returns the best five-card value, the high hand's value and the low
    card's rank; with ``joker_low`` a joker played low ranks above every
    low card (D19: a player's, never the dealer's). ``vals`` is a work
    array of six.
    """
    _sort6(h)
    best = five_values(table, binom, h, vals)
    low = house_way_low(h, vals, way, low_ranks)
    rank = low_ranks[h[low]]
    if joker_low and h[low] == JOKER_CODE:
        rank = 15  # a player's joker low beats any low (D19)
    return best, vals[low], rank


@jit
def set_all(
    table: I32,
    binom: I64,
    low_ranks: I64,
    hands: I64,
    best: I64,
    highs: I64,
    lows: I64,
    low_codes: I64,
    way: int,
) -> None:
    """Value and set (house way) each row of ``hands`` (n x 6 codes).

    Writes each hand's best five-card value, the house way's high-hand
    value, low rank and low card code. Rows are sorted in place.
    """
    vals = np.zeros(6, dtype=np.int64)
    for row in range(hands.shape[0]):
        h = hands[row]
        _sort6(h)
        best[row] = five_values(table, binom, h, vals)
        low = house_way_low(h, vals, way, low_ranks)
        highs[row] = vals[low]
        lows[row] = low_ranks[h[low]]
        low_codes[row] = h[low]


@jit
def play_deck(
    table: I32,
    binom: I64,
    low_ranks: I64,
    deck: I64,
    start: int,
    iparams: I64,
    fortune_net: I64,
    envy_award: I64,
    fixed_net: I64,
    meter_num: I64,
    meter_den: I64,
    nets: I64,
    categories: I64,
    scratch: I64,
) -> None:
    """Play one round from a 53-card deck (top first) and a start position.

    The round of the engine with every seat holding a Six-Card Wager, a
    Fortune Bonus Wager and a Progressive Wager, every hand set the house
    way and no Double Down: one card at a time clockwise from ``start``
    (1-7, the dealer 7) to the seven positions until each has six; the
    dealer's hand set the house way (``P_STACKS``: whole stacks of six
    instead, as an automated dealing shoe delivers them); seats settled
    from seat 6 down to seat 1 (the order in which the progressive meter
    moves).

    ``nets[seat, column]`` receives the net of each wager in minor units
    (columns ``PAI_GOW``, ``FORTUNE``, ``PROGRESSIVE``, ``FORTUNE_ONLY``,
    ``ENVY``); ``categories[position]`` each hand's best category.
    ``scratch`` is a work array of at least ``SCRATCH`` integers.
    """
    hands = scratch[: 6 * POSITIONS].reshape((POSITIONS, 6))
    for k in range(6 * POSITIONS):
        if iparams[P_STACKS]:
            position = (start - 1 + k // 6) % POSITIONS
            hands[position, k % 6] = deck[k]
        else:
            position = (start - 1 + k % POSITIONS) % POSITIONS
            hands[position, k // POSITIONS] = deck[k]
    vals = scratch[6 * POSITIONS : 6 * POSITIONS + 6]
    highs = scratch[6 * POSITIONS + 6 : 7 * POSITIONS + 6]
    lows = scratch[7 * POSITIONS + 6 : SCRATCH]
    for p in range(POSITIONS):
        joker_low = iparams[P_JOKER_LOW] if p != DEALER else 0
        best, highs[p], lows[p] = set_six(
            table,
            binom,
            low_ranks,
            hands[p],
            vals,
            iparams[P_HOUSE_WAY],
            joker_low,
        )
        categories[p] = best >> 20
    win_net = iparams[P_PAI_GOW_WIN]
    stake = iparams[P_PAI_GOW_STAKE]
    meter = iparams[P_METER]
    for seat in range(SEATS - 1, -1, -1):
        high_wins = highs[seat] > highs[DEALER]
        low_wins = lows[seat] > lows[DEALER]
        if high_wins and low_wins:
            nets[seat, PAI_GOW] = win_net
        elif high_wins or low_wins:
            nets[seat, PAI_GOW] = 0
        else:
            nets[seat, PAI_GOW] = -stake
        own = fortune_net[categories[seat]]
        envy = 0
        if iparams[P_QUALIFYING]:
            for other in range(POSITIONS):
                if other == seat or (
                    other == DEALER and not iparams[P_ENVY_DEALER]
                ):
                    continue
                envy += envy_award[categories[other]]
        nets[seat, FORTUNE_ONLY] = own
        nets[seat, ENVY] = envy
        nets[seat, FORTUNE] = own + envy
        meter += iparams[P_CONTRIBUTION]
        category = categories[seat]
        if meter_den[category] > 0:
            paid = meter * meter_num[category] // meter_den[category]
            nets[seat, PROGRESSIVE] = paid
            if meter_num[category] >= meter_den[category]:
                meter = iparams[P_RESET]
            else:
                meter -= paid
        else:
            nets[seat, PROGRESSIVE] = fixed_net[category]


@jit
def _below(rng: np.random.Generator, n: int) -> int:
    """A uniform integer in ``[0, n)`` from 53-bit doubles (Lemire)."""
    scale = 9007199254740992  # 2**53
    mask = scale - 1
    product = np.int64(rng.random() * scale) * n
    if (product & mask) < n:
        threshold = (scale - n) % n
        while (product & mask) < threshold:
            product = np.int64(rng.random() * scale) * n
    return int(product >> 53)


@jit
def shuffle_deck(rng: np.random.Generator, deck: I64) -> None:
    """Fisher-Yates shuffle of ``deck`` in place (the automated shuffler)."""
    for i in range(deck.shape[0] - 1, 0, -1):
        j = _below(rng, i + 1)
        swap = deck[i]
        deck[i] = deck[j]
        deck[j] = swap


@jit
def _record(stats: I64, row: int, label: int, net: int) -> None:
    stats[row, label] += 1
    stats[row, LABELS + label] += net
    stats[row, _TOTAL] += net
    stats[row, _SQUARE] += net * net


@jit
def play_chunk(
    rng: np.random.Generator,
    rounds: int,
    table: I32,
    binom: I64,
    low_ranks: I64,
    iparams: I64,
    fortune_net: I64,
    envy_award: I64,
    fixed_net: I64,
    meter_num: I64,
    meter_den: I64,
    stats: I64,
) -> None:
    """Play ``rounds`` rounds, each on a freshly shuffled 53-card deck.

    The starting position is a number from 1 to 7 drawn after the
    shuffle, counted from the dealer as 1 counter-clockwise (D24).
    ``stats[row]`` accumulates, per wager row, the count and net sum of
    each outcome label, the total and the total of squares: every seat's
    Fortune Bonus paytable part and Progressive (a hand's own cards only:
    nearly independent across seats), seat 1's other nets. Labels: the
    Six-Card Wager by result (win, push, lose); the Fortune Bonus paytable
    part and the Progressive by hand category; the Fortune Bonus as
    settled by the sign of its net; the Envy part by whether any other
    position paid (1) or none (0).
    """
    deck = np.arange(53, dtype=np.int64)
    nets = np.zeros((SEATS, 5), dtype=np.int64)
    categories = np.zeros(POSITIONS, dtype=np.int64)
    scratch = np.zeros(SCRATCH, dtype=np.int64)
    for _ in range(rounds):
        shuffle_deck(rng, deck)
        number = _below(rng, POSITIONS) + 1
        start = POSITIONS + 1 - number
        play_deck(
            table,
            binom,
            low_ranks,
            deck,
            start,
            iparams,
            fortune_net,
            envy_award,
            fixed_net,
            meter_num,
            meter_den,
            nets,
            categories,
            scratch,
        )
        for seat in range(SEATS):
            _record(stats, FORTUNE_ONLY, categories[seat], nets[seat, 3])
            _record(stats, PROGRESSIVE, categories[seat], nets[seat, 2])
        # Seats share the dealer's hand (and, for Envy, the other hands):
        # their Six-Card and Envy nets are correlated within a round, so
        # only seat 1 is recorded, one independent observation a round.
        net = nets[0, PAI_GOW]
        label = WIN if net > 0 else PUSH if net == 0 else LOSE
        _record(stats, PAI_GOW, label, net)
        net = nets[0, FORTUNE]
        label = WIN if net > 0 else PUSH if net == 0 else LOSE
        _record(stats, FORTUNE, label, net)
        net = nets[0, ENVY]
        _record(stats, ENVY, 1 if net > 0 else 0, net)


@jit
def _list_hands(
    table: I32, binom: I64, qualifies: I64, total: int, cards: int
) -> I64:
    out = np.zeros((total, 6), dtype=np.int64)
    h = np.zeros(6, dtype=np.int64)
    vals = np.zeros(6, dtype=np.int64)
    n = 0
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
                            best = five_values(table, binom, h, vals)
                            if qualifies[best >> 20] and n < total:
                                out[n, :] = h
                                n += 1
    return out


@jit
def _subset_index(binom: I64, h: I64, mask: int) -> int:
    index = 0
    k = 1
    for i in range(6):
        if mask & (1 << i):
            index += binom[h[i], k]
            k += 1
    return index


@jit
def _disjoint_pairs(binom: I64, hands: I64) -> int:
    """Ordered pairs of disjoint hands in ``hands`` (inclusion-exclusion).

    ``N(S)``, the number of listed hands containing the card set ``S``,
    is tallied for every ``S`` of at most five cards; the hands disjoint
    from ``Q`` number the sum over ``S`` within ``Q`` of
    ``(-1)^|S| N(S)`` (``S = Q`` contributes the hand ``Q`` itself).
    """
    popcount = np.zeros(64, dtype=np.int64)
    for mask in range(64):
        bits = 0
        for i in range(6):
            if mask & (1 << i):
                bits += 1
        popcount[mask] = bits
    tallies = [np.zeros(binom[53, k], dtype=np.int64) for k in range(6)]
    n = hands.shape[0]
    for row in range(n):
        for mask in range(63):
            size = popcount[mask]
            tallies[size][_subset_index(binom, hands[row], mask)] += 1
    pairs = 0
    for row in range(n):
        for mask in range(63):
            size = popcount[mask]
            found = tallies[size][_subset_index(binom, hands[row], mask)]
            if size % 2 == 0:
                pairs += found
            else:
                pairs -= found
        pairs += 1  # S = Q: the hand itself contains Q
    return pairs


def count_disjoint_pairs(
    table: I32, binom: I64, qualifies: I64, total: int, cards: int = 53
) -> int:
    """Ordered pairs of disjoint six-card hands both in a set of categories.

    ``qualifies[c]`` is 1 for the categories of the set; ``total`` is the
    number of hands in it (from :func:`count_categories`).
    """
    hands = _list_hands(table, binom, qualifies, total, cards)
    return int(_disjoint_pairs(binom, hands))
