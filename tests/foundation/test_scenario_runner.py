"""The scenario runner's contract for malformed input (any game)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.scenario import run_scenario, run_scenario_text


@pytest.mark.parametrize(
    ("doc", "fragment"),
    [
        ({"game": "chess", "shoe": "As"}, "unknown game"),
        ({"shoe": "As"}, 'needs "game"'),
        ({"game": "chess", "shoe": "As", "colour": "red"}, "unknown scenario"),
    ],
)
def test_bad_scenarios_exit_2_with_one_line(
    doc: dict[str, object], fragment: str
) -> None:
    result = run_scenario(doc)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert fragment in result.stderr
    assert "\n" not in result.stderr


def test_not_json() -> None:
    result = run_scenario_text("{nope")
    assert result.exit_code == 2
    assert result.stderr.startswith("ScenarioError")


def test_cli_scenario_reads_stdin() -> None:
    runner = CliRunner()
    out = runner.invoke(
        app, ["scenario", "-"], input=json.dumps({"game": "x", "shoe": ""})
    )
    assert out.exit_code == 2


def test_short_shoe_names_how_many_cards_are_missing() -> None:
    result = run_scenario(
        {
            "game": "21-baccarat",
            "shoe": "Kd 5h 9c",
            "new_shoe": False,
            "wagers": [{"seat": 1, "wager": "player", "amount": 1000}],
        }
    )
    assert result.exit_code == 2
    assert "lists 3 cards but the round needs 2 more" in result.stderr


def test_pending_decision_exits_3_with_the_legal_actions() -> None:
    result = run_scenario(
        {
            "game": "double-back-jack",
            "shoe": "9c 5h 7d Kd 8s",
            "new_shoe": False,
            "wagers": [{"seat": 1, "wager": "blackjack", "amount": 1000}],
        }
    )
    assert result.exit_code == 3
    output = json.loads(result.stdout)
    assert output["pending"]["seat"] == 1
    assert "hit" in output["pending"]["legal"]
