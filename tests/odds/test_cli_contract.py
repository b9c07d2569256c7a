"""``croupier analyze | simulate | strategy``: the JSON contract of issue 6."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.registry import all_games

runner = CliRunner()
GAMES = [g.name for g in all_games()]


@pytest.mark.parametrize("game", GAMES)
def test_analyze_json_contract(game: str) -> None:
    result = runner.invoke(app, ["analyze", game, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
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
    for wager in data["wagers"].values():
        low, high = wager["ci95"]
        assert low <= wager["house_edge"] <= high
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
    assert json.loads(result.output)
    assert png.stat().st_size > 1000
