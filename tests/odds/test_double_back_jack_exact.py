"""Exact analysis of Double Back Jack: dealer table, strategy, edge."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.odds.double_back_jack import (
    analyze,
    solve,
    strategy_chart,
)
from croupier.odds.double_back_jack.ca import solve_ca
from croupier.odds.double_back_jack.carules import CARules
from croupier.odds.double_back_jack.dealer import (
    dealer_distribution,
    dealer_table,
)
from croupier.odds.registry import find_analyzer, find_simulator
from croupier.odds.report import WagerReport
from croupier.odds.simulate import simulate


def _brute_force_dealer(cards: list[int], up: int) -> list[Fraction]:
    """Dealer outcomes by listing every ordering of a tiny shoe."""
    counts: Counter[int] = Counter()
    orders = list(itertools.permutations(cards))
    for order in orders:
        hard, ace, n = up, up == 1, 1
        for card in order:
            hard += card
            ace = ace or card == 1
            n += 1
            total = hard + 10 if ace and hard + 10 <= 21 else hard
            if total >= 17:
                break
        if n == 2 and total == 21:
            counts[7] += 1
        else:
            counts[min(total, 23) - 17] += 1
    return [Fraction(counts[i], len(orders)) for i in range(8)]


@pytest.mark.proves("591.7(o)")
@pytest.mark.parametrize(
    ("cards", "up"),
    [
        ([1, 2, 3, 5, 6, 10, 10], 10),
        ([1, 1, 4, 6, 7, 9, 10], 1),
        ([2, 2, 3, 3, 4, 4, 5, 10], 6),
    ],
)
def test_591_7_o_dealer_matches_brute_force_on_tiny_shoes(
    cards: list[int], up: int
) -> None:
    """The dealer's draws to 17-21, checked against every ordering."""
    counts = np.zeros(11, dtype=np.int64)
    for card in cards:
        counts[card] += 1
    got = dealer_distribution(counts, up)
    want = _brute_force_dealer(cards, up)
    assert np.allclose(got, [float(x) for x in want], atol=1e-12)
    assert counts.sum() == len(cards)  # restored


@pytest.mark.proves("591.7(o)")
def test_591_7_o_dealer_one_deck_published_table() -> None:
    """One deck, dealer stands on soft 17, before the peek.

    Source: Wizard of Odds, Blackjack Appendix 2B "Dealer Probabilities
    in Blackjack", table "1 Deck - Dealer Stands on Soft 17" (ace row
    17-21, Blackjack, bust; 2 and 6 bust).
    """
    table = dealer_table(1)
    ace = table.raw[0]
    published = [0.126128, 0.131003, 0.129486, 0.131553, 0.0515646]
    assert np.allclose(ace[:5], published, atol=1e-6)
    assert ace[7] == pytest.approx(0.313726, abs=1e-6)
    assert table.bust[0] == pytest.approx(0.11654, abs=1e-5)
    assert table.bust[1] == pytest.approx(0.352973, abs=1e-6)
    assert table.bust[5] == pytest.approx(0.420823, abs=1e-6)


@pytest.mark.proves("591.7(o)")
def test_591_7_o_dealer_six_deck_overall_bust() -> None:
    """Six decks S17: the dealer busts about 28 % of the time.

    The figure commonly quoted for six decks, dealer standing on soft
    17, before the peek, is 0.2819-0.2829 (e.g. Wizard of Odds, Blackjack
    Appendix 2B, weighted by up card); the exact value here is 0.28192.
    Rows sum to one and the peeked table is the raw one given no BJ.
    """
    table = dealer_table(6)
    assert table.overall_bust == pytest.approx(0.2824, abs=0.0006)
    assert np.allclose(table.raw.sum(axis=1), 1.0)
    assert np.allclose(table.peeked.sum(axis=1), 1.0)
    assert table.raw[1, 7] == 0.0  # no Blackjack behind a 2


def test_exact_edge_and_table_agree() -> None:
    """The report's edge is the exact CDZ- one (issue 14); its rows sum
    to it, and the simulator's approximate strategy is labelled so."""
    rules = DoubleBackJackRules()
    report = analyze(rules)
    wager = report.wagers["blackjack"]
    exact = solve_ca(CARules.from_game(rules)).edge
    assert report.method == "exact"
    assert wager.house_edge == pytest.approx(exact, abs=1e-15)
    assert sum(r["return"] for r in wager.events) == pytest.approx(
        -exact, abs=1e-12
    )
    assert sum(r["probability"] for r in wager.events) == pytest.approx(
        1.0, abs=1e-12
    )
    assert wager.extra["strategy"] == "CDZ-"
    approx = report.extra["simulator_strategy"]
    assert approx["method"] == "approximate"
    assert approx["house_edge"] == pytest.approx(-solve(rules).ev, abs=1e-12)
    assert 0 < approx["error_vs_exact"] < 0.0001
    blackjack = next(r for r in wager.events if r["event"] == "blackjack")
    assert blackjack["probability"] == pytest.approx(
        2 * (24 / 312) * (96 / 311), rel=1e-12
    )
    assert report.to_dict()["dealer_outcomes"]["decks"] == 6


@pytest.mark.proves("591.7(f)")
def test_591_7_f_blackjack_payout_moves_edge_exactly() -> None:
    """Blackjack is paid at once whatever the dealer holds (f): 6:5
    instead of 3:2 costs exactly 0.3 times P(player Blackjack)."""
    base = solve(DoubleBackJackRules())
    cheap = solve(
        DoubleBackJackRules.from_mapping({"blackjack_payout": "6:5"})
    )
    p_bj = 2 * (24 / 312) * (96 / 311)
    assert base.ev - cheap.ev == pytest.approx(0.3 * p_bj, rel=1e-9)


def test_options_only_help_the_player() -> None:
    """Removing a player option never lowers the house edge."""
    base = solve(DoubleBackJackRules()).ev
    for change in (
        {"surrender": False},
        {"second_chance_on_doubled": False},
        {"second_chance_on_split": False},
        {"double_after_split": False},
        {"split_aces_may_draw": False},
        {"max_split_hands": 1},
    ):
        ev = solve(DoubleBackJackRules.from_mapping(change)).ev
        assert ev <= base + 1e-12, change


def test_insurance_taken_only_when_positive() -> None:
    """2:1 insurance is never worth it in six decks; at 5:1 it always is."""
    assert not solve(DoubleBackJackRules()).ins.any()
    rich = solve(DoubleBackJackRules.from_mapping({"insurance_payout": "5:1"}))
    assert rich.ins[2:10, 2:10].all()
    report = analyze(
        DoubleBackJackRules.from_mapping({"insurance_payout": "5:1"})
    )
    events = {r["event"] for r in report.wagers["blackjack"].events}
    assert "insurance" in events


def test_strategy_chart(tmp_path: Path) -> None:
    """The chart lists every two-card hand and draws a PNG."""
    chart = strategy_chart(DoubleBackJackRules())
    data = chart.to_dict()
    assert len(data["first_decision"]) == 54
    assert data["first_decision"]["A,A"]["6"] == "P"
    assert data["first_decision"]["10,10"]["6"] == "S"
    assert data["first_decision"]["5,6"]["6"] == "D"
    assert set(data["second_chance"]) == {str(t) for t in range(22, 31)}
    assert chart.rich_table().row_count > 80
    path = tmp_path / "chart.png"
    chart.plot(path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulation_within_ci_of_exact() -> None:
    """2,000,000 simulated rounds through real shoes cover the exact edge."""
    rules = DoubleBackJackRules()
    analyzer = find_analyzer("double-back-jack")
    simulator = find_simulator("double-back-jack")
    assert analyzer is not None
    assert simulator is not None
    exact = analyzer(rules).wagers["blackjack"].house_edge
    report = simulate(
        "double-back-jack",
        simulator,
        rules,
        rounds=2_000_000,
        seed=11,
        chunk_rounds=500_000,
    )
    wager: WagerReport = report.wagers["blackjack"]
    assert wager.ci95 is not None
    low, high = wager.ci95
    assert low <= exact <= high
    assert wager.std_dev == pytest.approx(
        analyzer(rules).wagers["blackjack"].std_dev, rel=0.01
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "change",
    [
        {},
        {
            "collect_busts_at_once": False,
            "split_aces_may_draw": False,
            "blackjack_payout": "6:5",
            "decks": 2,
        },
        {
            "second_chance_on_doubled": False,
            "second_chance_on_split": False,
            "surrender": False,
            "insurance_payout": "5:1",
            "second_chance_win_payout": "3:2",
        },
    ],
)
def test_long_simulation_within_ci_of_exact(
    change: dict[str, object],
) -> None:
    """12,000,000 rounds per rule set: the exact edge lies in the CI."""
    rules = DoubleBackJackRules.from_mapping(change)
    simulator = find_simulator("double-back-jack")
    assert simulator is not None
    exact = analyze(rules).wagers["blackjack"].house_edge
    report = simulate(
        "double-back-jack",
        simulator,
        rules,
        rounds=12_000_000,
        seed=5,
        chunk_rounds=3_000_000,
    )
    ci = report.wagers["blackjack"].ci95
    assert ci is not None
    assert ci[0] <= exact <= ci[1], (exact, ci)
