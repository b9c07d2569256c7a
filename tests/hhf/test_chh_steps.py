"""Issue 17 point 1: a game's CHH steps are documented for other writers.

``docs/chh-steps.md`` lists every kind of step the engine writes for
each game (``croupier history steps GAME --markdown``). An outside
writer found that the format's page alone did not say which steps,
references and announcement texts a conforming round holds; this list
does. Two checks: the page is what the command prints, and every step
of the hand-written scenarios (``tests/scenarios``, written from the
regulation text, not from the catalogue) is in it, its fields and its
announcement's text included.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from tests.verify.days import scenario_histories
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf.catalogue import (
    Catalogue,
    StepKind,
    catalogue,
    catalogue_markdown,
    template,
)
from croupier.registry import all_games

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "chh-steps.md"
GAMES = [spec.name for spec in all_games()]

ONLY_IRREGULAR_DECKS = {
    (
        "six-card-fortune-pai-gow",
        StepKind("procedure", "deck_removed", "670a.9(e)"),
    ),
}
"""Steps only a deck short of a card gives (scenarios' irregularity
tests): a table's deck never is, so the catalogue's rounds never show
them; the page names them in its introduction."""


@cache
def _catalogue(game: str) -> Catalogue:
    return catalogue(game)


@pytest.mark.parametrize("game", GAMES)
def test_17_1_docs_chh_steps_is_current(game: str) -> None:
    assert catalogue_markdown(_catalogue(game)) in DOCS.read_text(
        encoding="utf-8"
    ), "regenerate docs/chh-steps.md: croupier history steps GAME --markdown"


def _scenario_rounds() -> list[tuple[str, str, str, dict[str, object]]]:
    """Every step of every scenario round: game, file, where, the step."""
    return [
        (history.game, history.round_id, place, dict(step))
        for history in scenario_histories()
        for place, steps in (
            ("preparation", history.shoe.preparation),
            ("procedure", history.procedure),
        )
        for step in steps
    ]


def test_17_1_every_scenario_step_is_in_the_catalogue() -> None:
    rounds = _scenario_rounds()
    assert {game for game, *_ in rounds} == set(GAMES)
    missing = set()
    for game, name, place, step in rounds:
        found = _catalogue(game)
        kind = StepKind(place, str(step["type"]), str(step["ref"]))
        if (game, kind) in ONLY_IRREGULAR_DECKS:
            continue
        fields = found.steps.get(kind)
        if fields is None:
            missing.add((game, name, kind, "not listed"))
            continue
        extra = set(step) - set(fields)
        if extra:
            missing.add((game, name, kind, f"fields {sorted(extra)}"))
        if kind.type == "announced":
            text = template(str(step["text"]), found.keys)
            if text not in found.texts[kind]:
                missing.add((game, name, kind, f"text {text!r}"))
    assert not missing, sorted(missing, key=str)


def test_17_1_history_steps_refuses_a_wrong_game_or_count() -> None:
    runner = CliRunner()
    wrong = runner.invoke(app, ["history", "steps", "poker"])
    assert wrong.exit_code == 2
    assert 'unknown game "poker"' in wrong.output
    none = runner.invoke(
        app, ["history", "steps", "21-baccarat", "--rounds", "0"]
    )
    assert none.exit_code == 2
    shown = runner.invoke(
        app, ["history", "steps", "21-baccarat", "--rounds", "20"]
    )
    assert shown.exit_code == 0
    assert "681a.7(e)" in shown.output


def test_17_1_history_steps_json_is_the_catalogue() -> None:
    shown = CliRunner().invoke(
        app, ["history", "steps", "midibaccarat", "--rounds", "30", "--json"]
    )
    assert shown.exit_code == 0
    doc = json.loads(shown.output)
    assert doc == catalogue("midibaccarat", rounds=30).to_dict()
    kinds = {(s["where"], s["type"], s["ref"]) for s in doc["steps"]}
    # the preparation of a new shoe (629a.5(a)-(d)) and the burn (f)
    assert {
        ("preparation", "shuffled", "629a.5(a)"),
        ("preparation", "cut_offered", "629a.5(b)"),
        ("procedure", "card_burned", "629a.5(f)"),
    } <= kinds
    assert {"ref": "629a.8(b)", "text": "no more bets"} in doc["announcements"]
