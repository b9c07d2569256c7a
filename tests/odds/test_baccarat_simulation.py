"""The baccarat-family simulators agree with the exact analysis.

Each wager's exact edge must lie within the simulation's confidence
interval. With a dozen wagers compared at once, the interval used is
the 99.9 % one (the reported 95 % half-width scaled by 3.29 / 1.96), so
that a correct simulator fails this test with a probability of about
1 % rather than about 45 %; the seeds are fixed, so it is deterministic.
"""

from __future__ import annotations

import pytest

from croupier.games.baccarat21 import Baccarat21Rules
from croupier.games.midibaccarat import (
    CommissionFreeRule,
    CommissionFreeRules,
    MidibaccaratRules,
)
from croupier.odds.registry import find_analyzer, find_simulator
from croupier.odds.report import Z95, WagerReport
from croupier.odds.simulate import simulate
from croupier.rules import GameRules

Z999 = 3.2905267314919255
CASES: list[tuple[str, GameRules]] = [
    ("midibaccarat", MidibaccaratRules()),
    ("midibaccarat-commission-free", CommissionFreeRules()),
    (
        "midibaccarat-commission-free",
        CommissionFreeRules(
            decks=6, commission_free_rule=CommissionFreeRule.BANKER6_PAYS_HALF
        ),
    ),
    ("21-baccarat", Baccarat21Rules()),
    ("21-baccarat", Baccarat21Rules(decks=2)),
]


def _check(
    game: str,
    rules: GameRules,
    rounds: int,
    seed: int,
    cut_card_effect: dict[str, float] | None = None,
) -> None:
    analyzer = find_analyzer(game)
    simulator = find_simulator(game)
    assert analyzer is not None
    assert simulator is not None
    exact = analyzer(rules)
    sims = simulator.run_chunk(rules, rounds, seed, (0,))
    assert set(sims) == set(exact.wagers)
    for name, sums in sims.items():
        assert sums.count == rounds
        report = WagerReport.simulated(sums)
        assert report.ci95 is not None
        half = (report.ci95[1] - report.ci95[0]) / 2 * Z999 / Z95
        truth = exact.wagers[name].house_edge
        # a known cut-card effect widens the tolerance (see below)
        half += (cut_card_effect or {}).get(name, 0.0)
        assert abs(report.house_edge - truth) <= half, (name, report, truth)
        probabilities = {
            e["event"]: e["probability"] for e in exact.wagers[name].events
        }
        assert set(sums.outcomes) <= set(probabilities)


@pytest.mark.parametrize(
    ("game", "rules"),
    CASES,
    ids=[f"{g}-{i}" for i, (g, _) in enumerate(CASES)],
)
def test_629a_681a_simulation_within_ci_of_exact(
    game: str, rules: GameRules
) -> None:
    _check(game, rules, 3_000_000, seed=606)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "rules"),
    CASES[:1] + CASES[3:4],
    ids=["midibaccarat", "21-baccarat"],
)
def test_629a_681a_long_simulation_within_ci_of_exact(
    game: str, rules: GameRules
) -> None:
    # 10^8 rounds resolve the cut-card effect on the 21 Baccarat Bonus:
    # rounds through real shoes that stop at the cover card give a Bonus
    # edge about 0.14 points below the exact full-shoe figure (14.69 %
    # against 14.82 % with 3 decks at 3/4 penetration, measured with the
    # former Bonus paytable 100/40/30/10/5/1; D16's table A pays less,
    # so its effect is expected no larger), while a fixed
    # number of rounds per shoe agrees with it. Allow 0.2 points there.
    # The Tie shows a smaller one (about +0.07 points over 3.7e8 rounds,
    # 5.48 % against 5.41 %): allow 0.1 point.
    effect = {"bonus_player": 0.002, "bonus_banker": 0.002, "tie": 0.001}
    _check(game, rules, 100_000_000, seed=607, cut_card_effect=effect)


def test_midibaccarat_simulation_is_reproducible_and_integer() -> None:
    simulator = find_simulator("midibaccarat")
    assert simulator is not None
    rules = MidibaccaratRules()
    first = simulate("midibaccarat", simulator, rules, rounds=50_000, seed=9)
    again = simulate("midibaccarat", simulator, rules, rounds=50_000, seed=9)
    other = simulate("midibaccarat", simulator, rules, rounds=50_000, seed=10)
    assert (
        first.wagers["banker"].house_edge == again.wagers["banker"].house_edge
    )
    assert first.wagers["tie"].house_edge != other.wagers["tie"].house_edge
    sums = simulator.run_chunk(rules, 1000, 1, (0,))
    assert sums["banker"].unit == 20  # 19:20 is whole on 20 units
    assert all(isinstance(s.total, int) for s in sums.values())
    cf = find_simulator("midibaccarat-commission-free")
    assert cf is not None
    half = CommissionFreeRules(
        commission_free_rule=CommissionFreeRule.BANKER6_PAYS_HALF
    )
    assert cf.run_chunk(half, 10, 1, (0,))["banker"].unit == 2


def test_21_baccarat_simulation_is_reproducible() -> None:
    simulator = find_simulator("21-baccarat")
    assert simulator is not None
    rules = Baccarat21Rules()
    first = simulator.run_chunk(rules, 20_000, 5, (3,))
    again = simulator.run_chunk(rules, 20_000, 5, (3,))
    assert {k: v.total for k, v in first.items()} == {
        k: v.total for k, v in again.items()
    }
    assert first["bonus_player"].unit == 20
