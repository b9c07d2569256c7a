"""Perfect Pairs with known ranks: the rank-level model of the pair wagers.

A Perfect Pairs wager settles on the first two cards of its hand
(positions 1 and 3 for the Player, 2 and 4 for the Banker, 629b.1), so
a player's information about the first four cards' *ranks* is what
moves it. Every ordered sequence of four ranks (13 ranks, ``4 d`` cards
each) is listed with its exact weight. When the hand's two ranks
agree, their suits are a uniformly random ordered pair of distinct
cards of that rank, whatever else is known of that rank's cards (the
other cards' suits are unknown), so a pair is perfect, colored or mixed
with the fixed probabilities ``(d-1, d, 2d) / (4d - 1)``.

A card at position 5 or 6 is, for a hand's pair, any card outside the
hand: its rank moves the pair exactly as the rank of the other hand's
card does (exchangeability), so positions 5 and 6 read positions 2
(Player) and 1 (Banker).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from croupier.odds.baccarat.shoe import IntArray

__all__ = ["HAND_POSITIONS", "RANKS", "pair_net", "pair_sequences"]

RANKS = 13
"""Ranks per position."""
HAND_POSITIONS = {"player": (0, 2), "banker": (1, 3)}
"""The 0-based positions of each hand's first two cards."""


def pair_sequences(decks: int) -> tuple[IntArray, IntArray]:
    """Weights and rank digits of every ordered four-rank sequence.

    >>> w, r = pair_sequences(1)
    >>> int(w.sum()) == 52 * 51 * 50 * 49, r.shape
    (True, (28561, 4))
    """
    digits = np.indices((RANKS,) * 4).reshape(4, -1).T.astype(np.int64)
    weights = np.ones(digits.shape[0], dtype=np.int64)
    for i in range(4):
        same = np.zeros(digits.shape[0], dtype=np.int64)
        for j in range(i):
            same += digits[:, j] == digits[:, i]
        weights *= np.maximum(4 * decks - same, 0)
    return weights, digits


def pair_net(
    decks: int, nets: tuple[Fraction, Fraction, Fraction]
) -> Fraction:
    """Expected net of a Perfect Pairs wager given that its hand pairs.

    ``nets``: the net of a perfect, colored and mixed pair.

    >>> pair_net(8, (Fraction(25), Fraction(12), Fraction(6)))
    Fraction(367, 31)
    """
    total = 4 * decks - 1
    shares = (decks - 1, decks, 2 * decks)
    return sum(
        (Fraction(s, total) * n for s, n in zip(shares, nets, strict=True)),
        Fraction(0),
    )
