"""The scenario runner's contract for malformed input (any game)."""

from __future__ import annotations

import json
from pathlib import Path

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


def _double_then_second_chance(shoe: str) -> dict[str, object]:
    return {
        "game": "double-back-jack",
        "shoe": shoe,
        "new_shoe": False,
        "wagers": [{"seat": 1, "wager": "blackjack", "amount": 1000}],
        "decisions": [
            {"seat": 1, "action": "double"},
            {"seat": 1, "action": "second_chance"},
        ],
    }


@pytest.mark.parametrize(
    ("shoe", "listed", "more"), [("", 0, 6), ("2c", 1, 5)]
)
def test_short_shoe_counts_the_cards_a_double_and_second_chance_need(
    shoe: str, listed: int, more: int, tmp_path: Path
) -> None:
    """The filler run's first order of cards cannot be doubled on: the
    count fell back to "1 more" whatever the shoe held. The count is
    the cards that complete the round (the first ``more - 1`` filler
    cards of the order found do not: checked when it was written)."""
    path = tmp_path / "short.json"
    path.write_text(json.dumps(_double_then_second_chance(shoe)), "utf-8")
    result = CliRunner().invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2, result.output
    assert (
        f"the shoe lists {listed} cards but the round needs {more} more"
        in result.stderr
    )


def test_short_shoe_whose_decisions_no_filler_fits_names_no_count() -> None:
    """2c 6s As: the dealer's Ace asks for insurance before any double;
    no completion of the shoe fits the decisions, so no count is given
    (it said "needs 1 more")."""
    result = run_scenario(_double_then_second_chance("2c 6s As"))
    assert result.exit_code == 2
    assert "the shoe lists 3 cards but the round needs more cards" in (
        result.stderr
    )
    assert "1 more" not in result.stderr
    assert "could not be counted" in result.stderr


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


_DBJ = {
    "game": "double-back-jack",
    "shoe": "9c 5h 7d Kd 8s Kc",
    "new_shoe": False,
}
"""Seat 1 holds 16 against a 7: hitting takes the 8 and busts."""
_WAGER = {"wager": "blackjack", "amount": 1000}


@pytest.mark.parametrize(
    ("wager", "decision", "named"),
    [
        ({"seat": 1, "wager": "blackjack", "amout": 1000}, None, "amout"),
        (
            {"seat": 1, "wager": "blackjack", "amount": 1000, "hand": 1},
            None,
            "hand",
        ),
        (
            {"seat": 1, "wager": "blackjack", "amount": 1000},
            {"seat": 1, "acton": "stand", "action": "hit"},
            "acton",
        ),
        (
            {"seat": 1, "wager": "blackjack", "amount": 1000},
            {"seat": 1, "action": "hit", "ammount": 500},
            "ammount",
        ),
    ],
)
def test_a_misspelt_key_of_a_wager_or_decision_is_refused(
    wager: dict[str, object], decision: dict[str, object] | None, named: str
) -> None:
    """A key the runner does not read was dropped without a word: the
    round ran as if it were not there (``"acton": "stand"`` beside an
    ``"action": "hit"`` busted the hand the file meant to stand)."""
    doc = {**_DBJ, "wagers": [wager]}
    if decision is not None:
        doc["decisions"] = [decision]
    result = run_scenario(doc)
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    kind = "wager" if decision is None else "decision"
    assert f'{kind} 1 has unknown keys ["{named}"]' in result.stderr
    # the same file with the key spelt right runs (to its end, or to
    # the next decision the round waits for)
    fixed = {**doc, "wagers": [{**_WAGER, "seat": 1}]}
    if decision is not None:
        fixed["decisions"] = [{"seat": 1, "action": "hit"}]
    ran = run_scenario(fixed)
    assert ran.exit_code in {0, 3}, ran.stderr
