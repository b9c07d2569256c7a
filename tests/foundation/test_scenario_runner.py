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
        ({"shoe": "As"}, "needs 'game'"),
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
