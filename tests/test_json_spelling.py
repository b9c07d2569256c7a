"""Bad input is named as its writer wrote it: JSON, not Python.

A Rules Submission, a scenario, a CHH line and a card map are JSON (or
TOML); the messages that refused their values spoke Python: ``got
None``, ``not True``, ``'abc'``, ``{'a': 1}``, ``KeyError('wager')``,
``datetime.date(2026, 1, 1)``, jsonschema's ``None is not of type
'string'``. Each value is now written as the file writes it (``null``,
``true``, ``"abc"``, ``{"a": 1}``), through one helper
(:func:`croupier.jsontypes.json_text`). The expected words are written
out here by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf.sample import sample_histories

PYTHON = re.compile(
    r"\bNone\b|\bTrue\b|\bFalse\b|'[^'\s]*'|\{'|KeyError|datetime\."
)
"""Python's spellings of JSON values (a word in quotes: ``'abc'``)."""


def _said(args: list[str], stdin: str | None = None) -> str:
    result = CliRunner().invoke(app, args, input=stdin, prog_name="croupier")
    assert result.exit_code == 2, (args, result.output)
    assert "internal error" not in result.stderr
    return result.stderr


def _no_python(text: str) -> None:
    found = PYTHON.findall(text)
    assert not found, (found, text)


def _log(tmp_path: Path) -> Path:
    (history,) = sample_histories("double-back-jack", 1, seed=4)
    path = tmp_path / "day.jsonl"
    path.write_text(history.dumps() + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (None, "got null"),
        (True, "got true"),
        ("abc", 'got "abc"'),
        ({"a": 1}, 'got {"a": 1}'),
        ([1, 2], "got [1, 2]"),
    ],
    ids=repr,
)
def test_a_rules_submission_value_is_named_in_json(
    tmp_path: Path, value: object, said: str
) -> None:
    rules = tmp_path / "casino.json"
    rules.write_text(json.dumps({"decks": value}), encoding="utf-8")
    err = _said(["verify", str(_log(tmp_path)), "--rules", str(rules)])
    assert f'rules option "decks": expected an integer, {said}' in err
    _no_python(err)


def test_a_rules_submission_choice_is_named_in_json(tmp_path: Path) -> None:
    rules = tmp_path / "casino.json"
    rules.write_text('{"rounding": "up"}', encoding="utf-8")
    err = _said(["verify", str(_log(tmp_path)), "--rules", str(rules)])
    assert 'expected one of ["down", "half_up"], got "up"' in err
    _no_python(err)


def test_a_toml_date_is_named_as_toml_writes_it(tmp_path: Path) -> None:
    rules = tmp_path / "casino.toml"
    rules.write_text("decks = 2026-12-05\n", encoding="utf-8")
    err = _said(["rules", "double-back-jack", "--rules", str(rules)])
    assert "expected an integer, got 2026-12-05" in err
    _no_python(err)


SCENARIO: dict[str, Any] = {
    "game": "double-back-jack",
    "shoe": "2c Tc Th 6d 7s 9h 4s",
    "wagers": [{"seat": 1, "wager": "blackjack", "amount": 1000}],
    "decisions": [{"seat": 1, "action": "stand"}],
}


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"game": None}, '"game" is a string, not null'),
        ({"shoe": True}, '"shoe" is a string, not true'),
        ({"rules": None}, "not null"),
        ({"rules": ["decks", 6]}, 'not an array ["decks", 6]'),
        ({"rules": {"decks": "six"}}, 'got "six"'),
        ({"seed": None}, '"seed" is a whole number, not null'),
        ({"wagers": {"a": 1}}, 'not {"a": 1}'),
        (
            {"wagers": [{"seat": None, "wager": "blackjack", "amount": 1}]},
            "a wager's seat is a whole number, not null",
        ),
        (
            {"wagers": [{"seat": 1, "wager": "blackjack", "amount": False}]},
            "a wager's amount is a whole number, not false",
        ),
        (
            {"wagers": [{"seat": 1, "wager": None, "amount": 1000}]},
            "a wager's name is a string, not null",
        ),
        (
            {"wagers": [{"seat": 1, "wager": "tie", "amount": 1000}]},
            'not "tie"',
        ),
        ({"wagers": [{"seat": 1, "amount": 1000}]}, 'wager 1 has no "wager"'),
        (
            {"decisions": [{"seat": 1, "action": None}]},
            "a decision's action is a string, not null",
        ),
        ({"decisions": [{"seat": 1, "action": "fold"}]}, '"fold" is not a'),
        ({"decisions": [{"seat": 1}]}, 'no "action"'),
        ({"new_shoe": "no"}, '"new_shoe" is true or false, not "no"'),
    ],
    ids=repr,
)
def test_a_scenario_value_is_named_in_json(
    tmp_path: Path, change: dict[str, object], said: str
) -> None:
    """``"game": null`` was "unknown game 'None'" (the text of Python's
    None); ``"new_shoe": "no"`` was a new shoe (any text is true)."""
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({**SCENARIO, **change}), encoding="utf-8")
    err = _said(["scenario", str(path)])
    assert said in err
    _no_python(err)


def _record(tmp_path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(
        _log(tmp_path).read_text(encoding="utf-8")
    )
    return record


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda r: r["players"][0].update(seat=True),
            'at players/0/seat: true is not of type "integer"',
        ),
        (
            lambda r: r.update(status=None),
            'at status: null is not one of ["over", "voided"]',
        ),
        (
            lambda r: r["shoe"].update(starting_position=False),
            'false is not of type "integer" or "null"',
        ),
        (
            lambda r: r.update(dealer="ann"),
            'Additional properties are not allowed ("dealer" was unexpected)',
        ),
        (
            lambda r: r.pop("procedure"),
            '"procedure" is a required property',
        ),
    ],
    ids=["seat", "status", "starting_position", "extra", "missing"],
)
def test_a_chh_line_that_breaks_the_schema_is_named_in_json(
    tmp_path: Path, change: Any, said: str
) -> None:
    record = _record(tmp_path)
    change(record)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    err = _said(["verify", str(path)])
    assert said in err
    _no_python(err)


def test_a_chh_value_in_a_deviation_is_named_in_json(tmp_path: Path) -> None:
    record = _record(tmp_path)
    placed = next(
        s for s in record["procedure"] if s["type"] == "wager_placed"
    )
    placed["wager"] = "tie"
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    assert 'only a Blackjack Wager is placed before the deal, not "tie"' in (
        result.stdout
    )
    _no_python(result.stdout)


@pytest.mark.parametrize(
    ("text", "suffix", "said"),
    [
        ('{"0": null}', ".json", 'code "0" maps to null, not a card'),
        ('{"0": true}', ".json", 'code "0" maps to true, not a card'),
        ('{"0": {"a": 1}}', ".json", 'code "0" maps to {"a": 1}, not a'),
        ('{"0": ["As"]}', ".json", 'code "0" maps to ["As"], not a card'),
        ('{"0": "Zz"}', ".json", 'code "0": unknown card "Zz"'),
        ("0 = 2026-12-05\n", ".toml", 'code "0" maps to 2026-12-05, not'),
    ],
)
def test_a_card_map_value_is_named_in_json(
    tmp_path: Path, text: str, suffix: str, said: str
) -> None:
    """A nested object was named by its pairs, ``[('a', 1)]``; a TOML
    date as ``datetime.date(2026, 12, 5)``."""
    card_map = tmp_path / f"map{suffix}"
    card_map.write_text(text, encoding="utf-8")
    shuffles = tmp_path / "shuffles.txt"
    shuffles.write_text("0\n0\n", encoding="utf-8")
    err = _said(
        [
            "rng-test",
            "--source",
            str(shuffles),
            "--card-map",
            str(card_map),
        ]
    )
    assert said in err
    _no_python(err)


def test_a_wager_after_no_more_bets_is_named_in_json() -> None:
    """Midibaccarat's refusal of a wager once the cards are dealt names
    a name that is no wager of the game as JSON writes it (the name is
    written for the refusal only; a wager of the game is named as 629a
    names it, D187)."""
    from croupier.errors import WrongPhaseError
    from croupier.registry import find_game
    from croupier.rng import SeededRng
    from croupier.shoe import Shoe

    spec = find_game("midibaccarat")
    rnd = spec.new_round(
        rules=spec.rules_type(),
        shoe=Shoe.stacked("2c 9h 8c 7d 6s 5h 4c 3d"),
        rng=SeededRng(0),
        new_shoe=False,
        starting_position=None,
    )
    rnd.place_wager(1, "banker", 1000)
    rnd.deal()
    with pytest.raises(WrongPhaseError) as refused:
        rnd.place_wager(2, "blackjack", 100)
    assert str(refused.value.message).startswith(
        'no more bets: "blackjack" at seat 2 refused'
    )
