"""Issue 16 point 2: counts, and their simulation through real shoes.

- the tag search is exact: a brute force over every balanced level-1
  tag set finds the same best correlation;
- the simulation's nets are the analyzer's: over every coup, the mean
  net is the exact house edge within its CI;
- the simulated edge when betting at the trigger agrees, within its CI,
  with the exact EV (the analyzer run on the unseen cards) averaged
  over the compositions at which the count bet.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from croupier.games.baccarat21 import Baccarat21Rules
from croupier.games.midibaccarat.rules import CommissionFreeRules
from croupier.protect.counts import (
    Count,
    best_tags,
    betting_correlation,
    parse_tags,
    simulate_counts,
    trigger_row,
)
from croupier.protect.eor import RANK_ORDER, game_eors
from croupier.protect.model import ProtectError, game_model

JACOBSON = parse_tags("4=-1,5=-1,6=-1,7=-1,8=2,9=2")


def test_issue16_2_tag_search_matches_brute_force_level_1() -> None:
    table = game_eors(game_model(CommissionFreeRules()), "panda8")[0]
    e = np.array([float(table.by_rank[r]) for r in RANK_ORDER])
    grid = np.array(list(itertools.product((-1, 0, 1), repeat=13)))
    balanced = grid[grid.sum(axis=1) == 0]
    balanced = balanced[np.abs(balanced).sum(axis=1) > 0]
    corr = (balanced @ e) / np.sqrt((balanced**2).sum(axis=1) * (e @ e))
    found = best_tags(table, 1)
    assert math.isclose(found.correlation, float(corr.max()), rel_tol=1e-9)
    assert sum(found.tags.values()) == 0


def test_issue16_2_user_tags_parse_and_refuse() -> None:
    assert parse_tags("X=-1,A=2")["Q"] == -1
    for bad in ("A", "Z=1", "A=one", "A=99"):
        with pytest.raises(ProtectError, match="--tags"):
            parse_tags(bad)


def test_issue16_2_all_coups_mean_is_the_exact_edge() -> None:
    game = game_model(CommissionFreeRules())
    table = game_eors(game, "dragon7")[0]
    count = Count(
        "user", "dragon7", JACOBSON, betting_correlation(table, JACOBSON)
    )
    run = simulate_counts(game, [count], 4000, seed=3)
    row = trigger_row(run, 0, -30)  # the lowest bucket: every coup
    assert row["bet_frequency"] == 1.0
    half = 4 * row["sd_per_hand"] / math.sqrt(row["bets"])
    assert abs(row["edge_when_betting"] - float(table.ev)) < half


def _agreement(
    rules: object,
    wager: str,
    tags: dict[str, int],
    trigger: int,
    shoes: int,
    rows: int,
) -> None:
    game = game_model(rules)  # type: ignore[arg-type]
    table = game_eors(game, wager)[0]
    model = game.wager(wager)
    count = Count("user", wager, tags, betting_correlation(table, tags))
    run = simulate_counts(
        game, [count], shoes, seed=5, record_rows=rows, record_trigger=trigger
    )
    row = trigger_row(run, 0, trigger)
    assert run.record.shape[0] == rows
    exact = np.array([float(model.ev(r[:52])) for r in run.record])
    realized = run.record[:, 52] / game.unit
    # the recorded coups: realized nets agree with their exact EVs
    se = realized.std() / math.sqrt(rows)
    assert abs(realized.mean() - exact.mean()) < 4 * se
    # the simulated edge at the trigger agrees with the exact EV there
    se = math.hypot(row["edge_ci95"] / 1.96, exact.std() / math.sqrt(rows))
    assert abs(row["edge_when_betting"] - exact.mean()) < 4 * se
    # and the count did find an edge over the full-shoe EV
    assert exact.mean() > float(table.ev)


def test_issue16_2_dragon7_edge_at_trigger_agrees_with_exact_ev() -> None:
    _agreement(CommissionFreeRules(), "dragon7", JACOBSON, 4, 20_000, 400)


def test_issue16_2_bonus_edge_at_trigger_agrees_with_exact_ev() -> None:
    table = game_eors(game_model(Baccarat21Rules()), "bonus_player")[0]
    tags = best_tags(table, 1).tags
    _agreement(Baccarat21Rules(), "bonus_player", tags, 2, 4_000, 300)


def test_issue16_2_results_do_not_depend_on_workers() -> None:
    game = game_model(CommissionFreeRules())
    count = Count("user", "dragon7", JACOBSON, 0.0)
    one = simulate_counts(game, [count], 450_000 // 1000, seed=9)
    assert one.shoes == 450
    two = simulate_counts(game, [count], 450, seed=9, workers=2)
    assert np.array_equal(one.sums, two.sums)


def test_issue16_2_stephen_how_unbalanced_dragon7_count() -> None:
    """Stephen How, "Unbalanced Dragon 7 Count" (discountgambling.net,
    2012-10-24): start at -32, A +1, 4-7 -1, 8 and 9 +2, the exposed burn
    card counted; bet when the running count is above 0; 16 cards behind
    the cut card: +52 % of a bet per 8-deck shoe, about 6.8 bets per
    shoe. (Running count > 0 from -32 is running count >= 0 from -33,
    which is true count >= 0.)"""
    game = game_model(CommissionFreeRules()).with_cover(416 - 16)
    tags = parse_tags("A=1,4=-1,5=-1,6=-1,7=-1,8=2,9=2")
    count = Count("How", "dragon7", tags, 0.0, start=-33)
    run = simulate_counts(game, [count], 60_000, seed=11, workers=2)
    row = trigger_row(run, 0, 0)
    bets_per_shoe = row["bets"] / run.shoes
    assert abs(bets_per_shoe - 6.8) < 0.2
    assert abs(row["units_per_shoe"] - 0.52) < row["units_per_shoe_ci95"]
