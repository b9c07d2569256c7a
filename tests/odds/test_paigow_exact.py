"""Exact Six-Card Fortune Pai Gow figures, and simulation within its CI."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.odds.paigow.exact import HANDS, analyze, category_counts
from croupier.odds.paigow.simulation import run_chunk
from croupier.odds.registry import find_analyzer, find_simulator
from croupier.odds.report import WagerReport
from croupier.odds.simulate import simulate

GAME = "six-card-fortune-pai-gow"


@pytest.fixture(scope="module")
def report() -> dict[str, object]:
    return analyze(SixCardRules()).to_dict()


def test_registered() -> None:
    assert find_analyzer(GAME) is analyze
    simulator = find_simulator(GAME)
    assert simulator is not None
    assert simulator.run_chunk is run_chunk


def test_670a_11_fortune_bonus_enumerates_every_six_card_hand() -> None:
    counts = category_counts()
    assert sum(counts) == HANDS == comb(53, 6)
    # five aces: four aces and the joker, with any of the 48 other cards
    assert counts[10] == 48


def test_670a_11_fortune_bonus_exact_return_table(
    report: dict[str, object],
) -> None:
    wagers = report["wagers"]
    assert isinstance(wagers, dict)
    fortune = wagers["fortune_bonus"]
    counts = category_counts()
    pays = [0, 0, 0, 5, 7, 10, 15, 75, 200, 500, 1000]
    paid = sum(c * p for c, p in zip(counts, pays, strict=True))
    lost = sum(c for c, p in zip(counts, pays, strict=True) if not p)
    edge = Fraction(lost - paid, HANDS)
    assert fortune["house_edge_exact"] == str(edge) == "469793/5739370"
    assert fortune["house_edge"] == pytest.approx(0.0818545, abs=1e-7)
    events = fortune["events"]
    assert [e["event"] for e in events][:2] == ["five aces", "royal flush"]
    assert sum(e["combinations"] for e in events) == HANDS
    assert sum(e["return"] for e in events) == pytest.approx(-float(edge))


def test_670a_11_envy_figures_follow_from_the_counts(
    report: dict[str, object],
) -> None:
    envy = report["envy"]
    assert isinstance(envy, dict)
    counts = category_counts()
    paying = sum(counts[7:])  # four of a kind or better
    assert envy["paying_hands"] == paying
    assert Fraction(envy["p_given_other_position_pays_exact"]) == Fraction(
        paying, HANDS
    )
    award = Fraction(
        sum(c * p for c, p in zip(counts[7:], [5, 10, 50, 100], strict=True))
        * 500,
        HANDS,
    )
    # D23 (revised): the five other players' hands, never the dealer's
    per_unit = 5 * award / 500
    assert Fraction(envy["expected_envy_per_qualifying_wager_exact"]) == (
        per_unit
    )
    low, high = envy["p_at_least_one_other_pays"]
    p = float(Fraction(paying, HANDS))
    assert envy["other_positions"] == 5
    combined = Fraction(envy["fortune_bonus_with_envy_house_edge_exact"])
    assert combined == Fraction(469793, 5739370) - per_unit
    assert round(100 * float(combined), 4) == 2.9009
    assert 5 * p - 10 * p * p < low < high < 5 * p
    assert high - low < 1e-6


def test_670a_11_progressive_meter_entries_at_the_meter(
    report: dict[str, object],
) -> None:
    wagers = report["wagers"]
    assert isinstance(wagers, dict)
    events = {e["event"]: e for e in wagers["progressive"]["events"]}
    assert events["five aces"]["pays"] == "meter ($10,000.00)"
    assert events["five aces"]["return"] == pytest.approx(
        48 / HANDS * 1_000_000 / 100
    )
    assert events["full house"]["pays"] == "10:1"


def _within(sim: WagerReport, exact: float) -> None:
    assert sim.ci95 is not None
    low, high = sim.ci95
    assert low <= exact <= high, (low, exact, high)


def test_670a_11_simulated_side_wagers_within_ci_of_exact(
    report: dict[str, object],
) -> None:
    """Seeded simulation (500,000 rounds): each exact edge in the CI."""
    result = simulate(
        GAME,
        find_simulator(GAME),  # type: ignore[arg-type]
        SixCardRules(),
        rounds=500_000,
        seed=6,
        chunk_rounds=250_000,
    )
    wagers = report["wagers"]
    envy = report["envy"]
    assert isinstance(wagers, dict)
    assert isinstance(envy, dict)
    sim = result.wagers
    _within(sim["fortune_bonus"], wagers["fortune_bonus"]["house_edge"])
    _within(sim["progressive"], wagers["progressive"]["house_edge"])
    _within(
        sim["fortune_bonus_with_envy"],
        envy["fortune_bonus_with_envy_house_edge"],
    )
    _within(sim["envy_bonus"], -envy["expected_envy_per_qualifying_wager"])
    paid = sim["envy_bonus"].events
    share = next(e["probability"] for e in paid if e["event"] == "envy paid")
    low, high = envy["p_at_least_one_other_pays"]
    n = 500_000
    half = 1.96 * (low * (1 - low) / n) ** 0.5
    assert low - half <= share <= high + half
    pai_gow = sim["pai_gow"]
    rows = {e["event"]: e["probability"] for e in pai_gow.events}
    # D20 (revised): no commission, so the edge is P(lose) - P(win);
    # about 6.2 % (2,000,000 rounds, seed 6: 6.18 % +- 0.10)
    assert pai_gow.house_edge == pytest.approx(
        rows["both hands lose"] - rows["both hands win"]
    )
    assert 0.055 < pai_gow.house_edge < 0.067
