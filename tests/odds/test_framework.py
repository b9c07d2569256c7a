"""The odds framework: exact tables, integer sums, seeded chunking."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from croupier.odds.registry import Simulator
from croupier.odds.report import ExactEvent, WagerReport, WagerSums
from croupier.odds.simulate import merge_sums, plan_chunks, simulate
from croupier.rules import GameRules


def test_exact_report_of_a_fair_coin_paying_19_to_20() -> None:
    rows = [
        ExactEvent("win", Fraction(19, 20), Fraction(1, 2), pays="19:20"),
        ExactEvent("lose", Fraction(-1), Fraction(1, 2)),
    ]
    report = WagerReport.exact(rows)
    assert report.house_edge_exact == Fraction(1, 40)
    expected_sd = math.sqrt((0.95**2 + 1) / 2 - (1 / 40) ** 2)
    assert report.std_dev == pytest.approx(expected_sd)
    assert report.extra["hit_frequency"] == 0.5
    assert report.to_dict()["events"][0]["pays"] == "19:20"


def test_exact_report_refuses_probabilities_not_summing_to_one() -> None:
    with pytest.raises(ValueError, match="sum"):
        WagerReport.exact([ExactEvent("win", Fraction(1), Fraction(1, 3))])


def test_sums_merge_exactly_and_refuse_other_units() -> None:
    a = WagerSums(unit=40, count=2, total=-40, total_sq=3200)
    b = WagerSums(unit=40, count=1, total=38, total_sq=1444)
    merged = merge_sums([{"banker": a}, {"banker": b}])["banker"]
    assert (merged.count, merged.total, merged.total_sq) == (3, -2, 4644)
    with pytest.raises(ValueError, match="units"):
        a.merge(WagerSums(unit=2))


def test_plan_chunks() -> None:
    assert [c.rounds for c in plan_chunks(10, 4)] == [4, 4, 2]
    assert [c.index for c in plan_chunks(10, 4)] == [0, 1, 2]
    with pytest.raises(ValueError, match="positive"):
        plan_chunks(0, 4)


def _coin_chunk(
    rules: GameRules, rounds: int, seed: int, spawn_key: tuple[int, ...]
) -> dict[str, WagerSums]:
    rng = np.random.default_rng(
        np.random.SeedSequence(seed, spawn_key=spawn_key)
    )
    wins = int((rng.random(rounds) < 0.5).sum())
    nets = wins * 1 - (rounds - wins) * 1
    return {
        "coin": WagerSums(
            unit=1,
            count=rounds,
            total=nets,
            total_sq=rounds,
            outcomes={"win": wins, "lose": rounds - wins},
            outcome_nets={"win": wins, "lose": -(rounds - wins)},
        )
    }


def _no_warm_up(rules: GameRules) -> None:
    return None


COIN = Simulator(run_chunk=_coin_chunk, warm_up=_no_warm_up)


def test_simulation_reproducible_and_independent_of_workers() -> None:
    rules = GameRules()
    one = simulate(
        "coin", COIN, rules, rounds=50_000, seed=3, chunk_rounds=10_000
    )
    two = simulate(
        "coin",
        COIN,
        rules,
        rounds=50_000,
        seed=3,
        workers=2,
        chunk_rounds=10_000,
    )
    assert one.wagers["coin"].house_edge == two.wagers["coin"].house_edge
    ci = one.wagers["coin"].ci95
    assert ci is not None
    assert ci[0] < 0 < ci[1]
    assert len(one.extra["running"]["coin"]) == 5
    data = one.to_dict()
    assert data["method"] == "simulation"
    assert data["rounds"] == 50_000
