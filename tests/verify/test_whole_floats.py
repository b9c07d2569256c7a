"""Money written as a whole float is that integer, wherever it stands.

JSON has one kind of number: ``2500.0`` and ``2.5e3`` are 2500, an
integer to the CHH JSON Schema (draft 2020-12) as to every reader, and
D67 already reads a count or a position so written as that integer. An
audit found a wager's amount so written a deviation (the engine refused
a float stake) while a player's total bet, a settlement's amount and a
settled wager's net so written conformed. One rule now: a whole number
is that integer everywhere, money too; a number with a fraction is no
integer, and the line is malformed (the schema), everywhere.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf.sample import sample_histories


def _doc(game: str = "double-back-jack") -> dict[str, Any]:
    (history,) = sample_histories(game, 1, seed=3)
    doc: dict[str, Any] = json.loads(history.dumps())
    return doc


def _first(doc: dict[str, Any], kind: str) -> dict[str, Any]:
    step: dict[str, Any] = next(
        s for s in doc["procedure"] if s["type"] == kind
    )
    return step


_Where = Callable[[dict[str, Any]], tuple[dict[str, Any], str]]

_FIELDS: dict[str, _Where] = {
    "wager_placed.amount": lambda d: (_first(d, "wager_placed"), "amount"),
    "wager_placed.seat": lambda d: (_first(d, "wager_placed"), "seat"),
    "wager_settled.net": lambda d: (_first(d, "wager_settled"), "net"),
    "players.total_bet": lambda d: (d["players"][0], "total_bet"),
    "settlements.amount": lambda d: (d["settlements"][0], "amount"),
}
"""Where an integer of the record stands: (object, key) in a document."""


def _verify(tmp_path: Path, doc: dict[str, Any]) -> tuple[int, str]:
    path = tmp_path / "day.jsonl"
    # written by json.dumps, whose floats keep their ".0"
    path.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    return result.exit_code, result.output


@pytest.mark.parametrize("field", sorted(_FIELDS))
@pytest.mark.parametrize("game", ["double-back-jack", "midibaccarat"])
def test_a_whole_float_is_the_integer_it_is(
    tmp_path: Path, field: str, game: str
) -> None:
    doc = _doc(game)
    where, key = _FIELDS[field](doc)
    assert type(where[key]) is int
    where[key] = float(where[key])
    code, out = _verify(tmp_path, doc)
    assert code == 0, out
    assert "1 round, 1 conforming" in out


def test_a_wager_written_with_an_exponent_is_its_integer(
    tmp_path: Path,
) -> None:
    """The audit's ``2.5e3``: 2500, a conforming round."""
    (history,) = sample_histories("double-back-jack", 1, seed=3)
    line = history.dumps()
    step = _first(json.loads(line), "wager_placed")
    old = json.dumps(step, separators=(",", ":"))
    assert line.count(old) == 1
    amount = f'"amount":{step["amount"]},'
    exponent = old.replace(amount, f'"amount":{step["amount"] / 1000}e3,')
    assert exponent != old
    path = tmp_path / "day.jsonl"
    path.write_text(line.replace(old, exponent) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("field", sorted(_FIELDS))
def test_a_number_with_a_fraction_is_malformed(
    tmp_path: Path, field: str
) -> None:
    doc = _doc()
    where, key = _FIELDS[field](doc)
    where[key] = where[key] + 0.5
    code, out = _verify(tmp_path, doc)
    assert code == 2, out
    assert "line 1: schema: at " in out
    assert 'is not of type "integer"' in out
