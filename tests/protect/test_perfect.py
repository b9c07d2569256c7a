"""Issue 16 point 3: perfect-play bounds of the pair wagers.

The exact EV of a pair wager from a composition is checked against a
plain-Python count of ordered two-card pairs; the perfect player's gain
(the sum of the positive exact EVs) agrees with what those bets
actually won in the same shoes, within the CI.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from croupier.games.baccarat21 import Baccarat21Rules
from croupier.games.midibaccarat.rules import MidibaccaratRules
from croupier.protect.model import game_model
from croupier.protect.perfect import perfect_play


def _pair_ev_naive(counts: list[int]) -> Fraction:
    """Perfect Pairs 25/12/6 by enumerating ordered pairs of cards."""
    cards = [code for code, n in enumerate(counts) for _ in range(n)]
    total = win = 0
    for i, a in enumerate(cards):
        for j, b in enumerate(cards):
            if i == j:
                continue
            total += 1
            if a // 4 != b // 4:
                win -= 1
            elif a == b:
                win += 25
            elif (a % 4 in (1, 2)) == (b % 4 in (1, 2)):
                win += 12
            else:
                win += 6
    return Fraction(win, total)


def test_issue16_3_pair_ev_from_a_composition() -> None:
    game = game_model(MidibaccaratRules())
    model = game.wager("perfect_pairs_banker")
    rng = np.random.default_rng(4)
    for _ in range(3):
        counts = rng.integers(0, 3, size=52)
        assert model.ev(counts) == _pair_ev_naive([int(c) for c in counts])


def test_issue16_3_perfect_pairs_gain_agrees_with_realized_win() -> None:
    game = game_model(MidibaccaratRules())
    result = perfect_play(game, "perfect_pairs_player", 6000, seed=2)
    assert result["bet_frequency"] > 0
    assert result["edge_when_betting"] > 0
    gap = result["gain_per_shoe"] - result["realized_per_shoe"]
    band = 2 * (
        result["gain_per_shoe_ci95"] + result["realized_per_shoe_ci95"]
    )
    assert abs(gap) < band


def test_issue16_3_bonus_perfect_play_runs_on_real_shoes() -> None:
    game = game_model(Baccarat21Rules())
    result = perfect_play(game, "bonus_banker", 60, seed=2)
    assert result["shoes"] == 60
    assert 0 < result["bet_frequency"] < 1
    assert result["gain_per_shoe"] > 0
