"""D103: a round the table voided is named, with the phase it came in.

An outside writer's Double Back Jack round was voided by the operator
after the hole card showed the dealer's 18 (a losing stake returned)
and read "conforming", like any other round. A void of the table's own
is not the procedure's and no rule says when one is right, so it stays
conforming; the verdict now says where it came and why, and the
summary counts such rounds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.verify.days import books, dealt, void_before
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf.sample import sample_histories

# burn 2c; seat 1 Ts 7d (17), the dealer Tc and 8h (18): voided once the
# hole card is turned, before the dealer's total is settled
_ROUND = {
    "game": "double-back-jack",
    "shoe": "2c Ts Tc 7d 8h",
    "wagers": [{"seat": 1, "wager": "blackjack", "amount": 1000}],
    "decisions": [{"seat": 1, "action": "stand"}],
}


def _voided_late() -> dict[str, Any]:
    record = dealt(_ROUND)
    record["round_id"] = "voided-late"
    return books(void_before(record, "wager_settled", "operator void"))


def test_d103_a_void_after_the_hole_card_is_named(tmp_path: Path) -> None:
    others = [
        json.loads(h.dumps()) for h in sample_histories("21-baccarat", 2)
    ]
    log = tmp_path / "day.jsonl"
    log.write_text(
        "".join(json.dumps(d) + "\n" for d in [*others, _voided_late()]),
        encoding="utf-8",
    )
    text = CliRunner().invoke(app, ["verify", str(log)])
    assert text.exit_code == 0, text.output
    [said] = [
        line for line in text.output.splitlines() if "voided-late" in line
    ]
    assert "conforming (voided at step" in said
    assert "in the settlement phase: operator void" in said
    assert "1 round voided by the table" in text.output
    as_json = CliRunner().invoke(app, ["verify", str(log), "--json"])
    report = json.loads(as_json.stdout)
    voided = [r for r in report["rounds"] if "voided" in r]
    assert [(r["round_id"], r["voided"]["after"]) for r in voided] == [
        ("voided-late", "settlement")
    ]
    assert voided[0]["voided"]["reason"] == "operator void"
    assert report["summary"]["voided"] == 1


def test_d103_rounds_not_voided_say_nothing_of_it(tmp_path: Path) -> None:
    log = tmp_path / "day.jsonl"
    log.write_text(
        "".join(
            h.dumps() + "\n" for h in sample_histories("double-back-jack", 3)
        ),
        encoding="utf-8",
    )
    report = json.loads(
        CliRunner().invoke(app, ["verify", str(log), "--json"]).stdout
    )
    assert all("voided" not in r for r in report["rounds"])
    assert "voided" not in report["summary"]
