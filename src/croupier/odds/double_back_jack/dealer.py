"""Dealer outcome probabilities for Double Back Jack (591.7(n)-(q)).

The dealer draws to any hard or soft 17-21 (591.7(o)), so the final
totals are 17, 18, 19, 20, 21, 22 (which pushes every remaining hand,
591.7(q)(1)) and 23 or more. A two-card 21 is the dealer's Blackjack,
found by the card reader (591.7(h)) when the up card is an ace or a
10-value card.

Cards are counted by *value index* ``1..10`` (1 = ace, 10 = any
10-value card); a composition is an ``int64`` array of length 11 whose
entry 0 is unused. The probabilities are exact for the given finite
composition: every dealer draw removes its card (an ordered enumeration
of the dealer's possible draws, pruned where the dealer stands).

>>> table = dealer_table(6)
>>> round(float(table.bust[9]), 6)  # up card 10, before the peek
0.212471
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from croupier.jit import jit
from croupier.odds.leaf import DEALER_STANDS, dealer_stands, soft_total

__all__ = [
    "BJ",
    "DEALER_LABELS",
    "N_DEALER",
    "DealerTable",
    "deal_probability",
    "dealer_distribution",
    "dealer_table",
    "full_composition",
]

N_DEALER = 7
"""Final dealer totals without Blackjack: 17, 18, 19, 20, 21, 22, 23+."""
BJ = 7
"""Index of the dealer Blackjack in a raw distribution (length 8)."""
DEALER_LABELS = ("17", "18", "19", "20", "21", "22", "23+")
"""Labels of the indices ``0..6`` of a dealer distribution."""
_STAND = DEALER_STANDS
_PUSH = 22


def full_composition(decks: int) -> np.ndarray:
    """Cards per value index in a full shoe of ``decks`` decks.

    >>> full_composition(1).tolist()
    [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 16]
    """
    counts = np.full(11, 4 * decks, dtype=np.int64)
    counts[0] = 0
    counts[10] = 16 * decks
    return counts


@jit
def _record(out: np.ndarray, total: int, ncards: int, prob: float) -> None:
    if ncards == 2 and total == 21:
        out[BJ] += prob
    elif total <= _PUSH:
        out[total - _STAND] += prob
    else:
        out[6] += prob


@jit
def dealer_distribution(counts: np.ndarray, up: int) -> np.ndarray:
    """Raw outcome probabilities (length 8; index 7 = Blackjack).

    ``counts`` is the composition the hole card and every drawn card
    come from (the up card and any known cards already removed); it is
    restored before returning. The enumeration is an explicit
    depth-first walk over the dealer's ordered draws (numba cannot cache
    recursive functions).
    """
    out = np.zeros(8)
    remaining = 0
    for value in range(1, 11):
        remaining += counts[value]
    depth_max = 32
    hard = np.zeros(depth_max, dtype=np.int64)
    ace = np.zeros(depth_max, dtype=np.bool_)
    prob = np.zeros(depth_max)
    nxt = np.zeros(depth_max, dtype=np.int64)
    drawn = np.zeros(depth_max, dtype=np.int64)
    depth = 0
    hard[0] = up
    ace[0] = up == 1
    prob[0] = 1.0
    nxt[0] = 1
    while depth >= 0:
        value = nxt[depth]
        if value > 10:
            if depth > 0:
                counts[drawn[depth]] += 1
                remaining += 1
            depth -= 1
            continue
        nxt[depth] = value + 1
        count = counts[value]
        if count == 0:
            continue
        p = prob[depth] * count / remaining
        h = hard[depth] + value
        a = ace[depth] or value == 1
        if dealer_stands(h, a):
            _record(out, soft_total(h, a), depth + 2, p)
            continue
        counts[value] = count - 1
        remaining -= 1
        depth += 1
        hard[depth] = h
        ace[depth] = a
        prob[depth] = p
        nxt[depth] = 1
        drawn[depth] = value
    return out


@dataclass(frozen=True, slots=True)
class DealerTable:
    """Dealer outcome probabilities per up card (index 0 = ace ... 9 = 10).

    ``raw`` is before the card-reader check (columns 17..23+, then
    Blackjack); ``peeked`` is conditioned on no dealer Blackjack (what a
    player deciding under 591.7(i) knows; equal to ``raw`` for up cards
    2-9).
    """

    decks: int
    """Decks in the shoe."""
    raw: np.ndarray
    """Shape (10, 8): 17, 18, 19, 20, 21, 22, 23+, Blackjack."""
    peeked: np.ndarray
    """Shape (10, 7): the same given no dealer Blackjack."""
    up_probability: np.ndarray
    """Shape (10,): probability of each up card."""

    @property
    def bust(self) -> np.ndarray:
        """P(dealer over 21, 22 included) per up card, before the peek."""
        return np.asarray(self.raw[:, 5] + self.raw[:, 6])

    @property
    def overall_bust(self) -> float:
        """P(dealer over 21) over all up cards, before the peek."""
        return float(np.dot(self.up_probability, self.bust))

    def to_dict(self) -> dict[str, object]:
        """JSON-able rows per up card."""
        ups = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
        return {
            "decks": self.decks,
            "columns": [*DEALER_LABELS, "blackjack"],
            "before_peek": {
                up: [float(x) for x in self.raw[i]] for i, up in enumerate(ups)
            },
            "after_peek": {
                up: [float(x) for x in self.peeked[i]]
                for i, up in enumerate(ups)
            },
            "overall_bust_before_peek": self.overall_bust,
        }


def dealer_table(decks: int) -> DealerTable:
    """Dealer outcomes per up card for a full shoe of ``decks`` decks."""
    full = full_composition(decks)
    total = int(full.sum())
    raw = np.zeros((10, 8))
    peeked = np.zeros((10, N_DEALER))
    ups = np.zeros(10)
    for up in range(1, 11):
        counts = full.copy()
        ups[up - 1] = counts[up] / total
        counts[up] -= 1
        dist = dealer_distribution(counts, up)
        raw[up - 1] = dist
        peeked[up - 1] = dist[:N_DEALER] / (1.0 - dist[BJ])
    return DealerTable(decks, raw, peeked, ups)


@jit
def deal_probability(
    counts: np.ndarray, n: int, a: int, b: int, up: int
) -> float:
    """P(player ``a``, ``b`` in either order and up card ``up``).

    Dealt from ``counts`` (``n`` cards) in the order player, dealer,
    player; the analyzers' weight of each initial situation.
    """
    prob = 0.0
    for k in range(2):
        first, second = (a, b) if k == 0 else (b, a)
        c = counts.copy()
        pr = c[first] / n
        c[first] -= 1
        pr *= c[up] / (n - 1)
        c[up] -= 1
        pr *= max(c[second], 0) / (n - 2)
        prob += pr
        if a == b:
            break
    return prob
