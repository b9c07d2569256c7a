"""``croupier analyze | simulate | strategy``: the JSON contract of issue 6."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.games.double_back_jack import DoubleBackJackRules
from croupier.odds.registry import find_analyzer, find_simulator
from croupier.registry import all_games, find_game

runner = CliRunner()
GAMES = [g.name for g in all_games()]


@pytest.mark.parametrize("game", GAMES)
def test_analyze_json_contract(game: str) -> None:
    result = runner.invoke(app, ["analyze", game, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == game
    assert data["method"] == "exact"
    assert isinstance(data["seconds"], float)
    assert data["rules"]
    for wager in data["wagers"].values():
        assert 0 <= wager["house_edge"] < 1
        assert wager["std_dev"] > 0
        total = sum(row["probability"] for row in wager["events"])
        assert total == pytest.approx(1.0)
        edge = -sum(row["return"] for row in wager["events"])
        assert edge == pytest.approx(wager["house_edge"])


@pytest.mark.parametrize("game", GAMES)
def test_simulate_json_contract_and_plot(game: str, tmp_path: Path) -> None:
    png = tmp_path / "edge.png"
    result = runner.invoke(
        app,
        [
            "simulate",
            game,
            "--rounds",
            "4000",
            "--chunk",
            "1000",
            "--seed",
            "7",
            "--json",
            "--plot",
            str(png),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["method"] == "simulation"
    assert data["rounds"] == 4000
    assert data["rounds_per_second"] > 0
    # --plot cuts the run into 100 chunks (the default --checkpoints) of
    # 40 rounds, spawn keys (0,) .. (99,): the same chunks run here, and
    # the figures are derived from their integer sums by hand
    assert (data["chunk_rounds"], data["chunks"]) == (40, 100)
    spec = find_game(game)
    rules = spec.rules_type()
    simulator = find_simulator(game)
    analyzer = find_analyzer(game)
    assert simulator is not None
    assert analyzer is not None
    exact = analyzer(rules).wagers
    chunks = [simulator.run_chunk(rules, 40, 7, (i,)) for i in range(100)]
    assert set(data["wagers"]) == set(chunks[0])
    for name, wager in data["wagers"].items():
        parts = [chunk[name] for chunk in chunks]
        unit = parts[0].unit
        count = sum(part.count for part in parts)
        mean = Fraction(sum(part.total for part in parts), count * unit)
        square = Fraction(sum(p.total_sq for p in parts), count * unit**2)
        half = 1.96 * math.sqrt(square - mean * mean) / math.sqrt(count)
        assert wager["rounds"] == count
        assert wager["house_edge"] == pytest.approx(-mean, abs=1e-12)
        low, high = wager["ci95"]
        assert (low + high) / 2 == pytest.approx(-mean, abs=1e-12)
        assert (high - low) / 2 == pytest.approx(half, rel=1e-4)
        returns = sum(row["return"] for row in wager["events"])
        assert returns == pytest.approx(float(mean), abs=1e-12)
        # and the exact edge, where there is one, is not far off (4,000
        # rounds: a loose bound)
        if name in exact:
            distance = abs(wager["house_edge"] - exact[name].house_edge)
            assert distance < 3 * half, name
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulation_is_reproducible_for_a_seed() -> None:
    args = ["simulate", "21-baccarat", "--rounds", "3000", "--chunk", "1000"]
    one = runner.invoke(app, [*args, "--seed", "5", "--json"])
    two = runner.invoke(app, [*args, "--seed", "5", "--json"])
    assert json.loads(one.output)["wagers"] == json.loads(two.output)["wagers"]


def test_analyze_honours_settings() -> None:
    result = runner.invoke(
        app, ["analyze", "midibaccarat", "--set", "tie_payout=9:1", "--json"]
    )
    data = json.loads(result.output)
    assert data["rules"]["tie_payout"] == "9:1"
    assert data["wagers"]["tie"]["house_edge"] == pytest.approx(
        0.04844, abs=1e-5
    )  # Wizard of Odds, baccarat: Tie at 9 to 1, 8 decks, 4.844 %


def test_strategy_chart_json_and_png(tmp_path: Path) -> None:
    png = tmp_path / "chart.png"
    result = runner.invoke(
        app, ["strategy", "double-back-jack", "--json", "--png", str(png)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    first = data["first_decision"]
    # every two-card hand but the Blackjack, each against every up card
    values = [str(v) for v in range(2, 11)]
    hands = {f"{a},{b}" for i, a in enumerate(values) for b in values[i:]}
    hands |= {f"A,{b}" for b in [*values, "A"]}
    assert set(first) == hands - {"A,10"}
    ups = [*values, "A"]
    for label, row in first.items():
        assert list(row) == ups, label
        assert set(row.values()) <= {"S", "H", "D", "P", "R"}, label
        a, b = label.split(",")
        if a != b:  # only a pair may be split (673a.11)
            assert "P" not in row.values(), label
    # decisions every blackjack strategy agrees on
    assert set(first["10,10"].values()) == {"S"}
    assert set(first["A,A"].values()) == {"P"}
    assert [first["5,6"][up] for up in values] == ["D"] * 9
    chances = data["second_chance"]
    assert set(chances) == {str(total) for total in range(22, 31)}
    assert all(set(row.values()) <= {"Y", "N"} for row in chances.values())
    assert data["rules"] == DoubleBackJackRules().to_dict()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 1000


@pytest.mark.parametrize("game", ["double-back-jack", "21-baccarat"])
def test_591_7_a_681a_7_a_simulate_a_shoe_that_runs_out(game: str) -> None:
    """One deck cut at 19/20 leaves three cards behind the cover card.

    The round that takes it often needs more (a 21 Baccarat round up to
    six cards): it is void, as at the table (D69). Before, Double Back
    Jack's simulation stopped with an internal error and 21 Baccarat's
    read past the end of its shoe: wrong figures (player edge 0.30 %
    against the exact 2.29 %, z = -4.8) or a segmentation fault.
    """
    args = ["simulate", game, "--rounds", "20000", "--chunk", "20000"]
    args += ["--set", "decks=1", "--set", "penetration=19/20"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for wager in data["wagers"].values():
        void = [
            row
            for row in wager["events"]
            if row["event"].endswith("the shoe ran out (D69)")
        ]
        assert void, wager["events"]
        share = sum(row["probability"] for row in void)
        assert wager["void_share"] == pytest.approx(share)
        # a few rounds a shoe, one of them at its end: a few per cent
        assert 0.01 < share < 0.15
        # the estimate still agrees with the exact (finished rounds)
        # figure within four standard errors
        assert abs(wager["z"]) < 4
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert "of the rounds void: the shoe ran out (D69)" in " ".join(
        shown.output.split()
    )
