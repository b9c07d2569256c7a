"""D101 in scenario files: a whole number written ``2500.0`` is 2500.

A CHH record reads ``2500.0`` as the integer it is (JSON has one kind
of number; D101), while a scenario file refused it for a stake, a seat,
a seed, a starting position, a decision's amount and a rules option's
count. Each is now the round the integer gives; a number with a
fraction is still refused, naming the field. The expected rounds are
those of the same files written with integers.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.scenario import run_scenario_text

DOUBLE = {
    "game": "double-back-jack",
    "shoe": "2c 6s As Ts Tc 5s 5d Qs 6d Kh 5h 5c 8d",
    "rules": {"decks": 6},
    "seed": 7,
    "wagers": [
        {"seat": 1, "wager": "blackjack", "amount": 1000},
        {"seat": 2, "wager": "blackjack", "amount": 2500},
        {"seat": 3, "wager": "blackjack", "amount": 1000},
    ],
    "decisions": [
        {"seat": 1, "action": "double", "amount": 1000},
        {"seat": 2, "action": "hit"},
        {"seat": 3, "action": "stand"},
    ],
}
"""Seat 1 doubles, seat 2 hits, seat 3 stands (the suite's
``audit-591-7-k-double-and-soft-21-paid-at-once``, seat 2 staking 2500)."""

PAI_GOW = {
    "game": "six-card-fortune-pai-gow",
    "rules": {"double_down_offered": True},  # off by default (D182)
    "shoe": "9c Kd Td 8c 6d 9h JK Tc Qs 9s 7s 6c Th As Jd Qc 9d 7h 5s Js "
    "Ah Qh Jh 8s 7c 5d Qd Ad Ks Jc 8h 6s 5c Kc Ac 7d Ts 8d 6h 4s 5h Kh "
    "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h",
    "starting_position": 2,
    "wagers": [{"seat": 2, "wager": "pai_gow", "amount": 1000}],
    "decisions": [
        {"seat": 2, "action": "no_double_down"},
        {"seat": 2, "action": "set", "low": "7d"},
    ],
}

Doc = dict[str, Any]


def _set(path: tuple[str | int, ...]) -> Callable[[Doc, object], None]:
    def put(doc: Doc, value: object) -> None:
        where: Any = doc
        for step in path[:-1]:
            where = where[step]
        where[path[-1]] = value

    return put


FIELDS: dict[str, tuple[Doc, tuple[str | int, ...]]] = {
    "a wager's amount": (DOUBLE, ("wagers", 1, "amount")),
    "a wager's seat": (DOUBLE, ("wagers", 0, "seat")),
    "a decision's amount": (DOUBLE, ("decisions", 0, "amount")),
    "a decision's seat": (DOUBLE, ("decisions", 1, "seat")),
    '"seed"': (DOUBLE, ("seed",)),
    "decks": (DOUBLE, ("rules", "decks")),
    '"starting_position"': (PAI_GOW, ("starting_position",)),
}
"""Each whole number a scenario file holds, by the name its refusal gives."""


def _run(doc: Doc) -> tuple[int, str, str]:
    result = run_scenario_text(json.dumps(doc))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_d101_a_whole_float_in_a_scenario_is_its_integer(field: str) -> None:
    base, path = FIELDS[field]
    plain = _run(base)
    assert plain[0] == 0, plain
    doc = copy.deepcopy(base)
    where: Any = doc
    for step in path[:-1]:
        where = where[step]
    where[path[-1]] = float(where[path[-1]])  # 2500 -> 2500.0
    assert _run(doc) == plain


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_d101_a_number_with_a_fraction_is_refused_naming_its_field(
    field: str,
) -> None:
    base, path = FIELDS[field]
    doc = copy.deepcopy(base)
    where: Any = doc
    for step in path[:-1]:
        where = where[step]
    where[path[-1]] = where[path[-1]] + 0.5
    code, out, err = _run(doc)
    assert code == 2, out
    assert field in err
    assert f"{where[path[-1]]}" in err  # 2500.5, as the file writes it


def test_d101_scenario_history_records_the_integer(tmp_path: Path) -> None:
    """The CHH line written for ``2500.0`` holds 2500, and conforms."""
    doc = copy.deepcopy(DOUBLE)
    _set(("wagers", 1, "amount"))(doc, 2500.0)
    scenario = tmp_path / "double.json"
    scenario.write_text(json.dumps(doc), encoding="utf-8")
    log = tmp_path / "day.jsonl"
    run = CliRunner().invoke(
        app, ["scenario", str(scenario), "--history", str(log)]
    )
    assert run.exit_code == 0, run.output
    (line,) = log.read_text(encoding="utf-8").splitlines()
    record = json.loads(line)
    placed = [
        step["amount"]
        for step in record["procedure"]
        if step["type"] == "wager_placed"
    ]
    assert placed == [1000, 2500, 1000, 1000]  # three stakes, a double
    assert all(type(amount) is int for amount in placed)
    checked = CliRunner().invoke(app, ["verify", str(log), "--quiet"])
    assert checked.exit_code == 0, checked.output
