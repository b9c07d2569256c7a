"""Days of logged rounds for the verifier's tests, broken where told.

Which lines are broken is decided here, not read off the verifier.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from croupier.errors import CroupierError
from croupier.hhf import HandHistory, from_scenario
from croupier.hhf.sample import sample_histories
from croupier.registry import all_games
from croupier.scenario import run_scenario
from croupier.verify import verify_lines, verify_round


def swap_first_two_dealt(history: HandHistory) -> HandHistory:
    """The first two cards dealt swap destinations (a wrong deal order)."""
    steps = [dict(s) for s in history.procedure]
    first, second = [
        i for i, s in enumerate(steps) if s["type"] == "card_dealt"
    ][:2]
    assert steps[first]["to"] != steps[second]["to"]
    steps[first]["to"], steps[second]["to"] = (
        steps[second]["to"],
        steps[first]["to"],
    )
    return dataclasses.replace(history, procedure=tuple(steps))


def mixed_day(rounds: int) -> tuple[list[str], set[int]]:
    """Rounds of every game interleaved, every seventh one broken.

    Returns the lines (a blank line among them, which is skipped) and
    the numbers of the broken lines.
    """
    games = [
        list(sample_histories(spec.name, rounds, seed=21))
        for spec in all_games()
    ]
    lines: list[str] = []
    broken: set[int] = set()
    for i in range(rounds):
        for histories in games:
            history = histories[i]
            if len(lines) % 7 == 3:
                history = swap_first_two_dealt(history)
                broken.add(len(lines) + 1)
            lines.append(history.dumps() + "\n")
        if i == 2:
            lines.append("\n")
    return lines, broken


def deviations(
    docs: list[dict[str, Any]], *, across: bool = True
) -> list[tuple[int, str, str]]:
    """Each deviating line of a file of ``docs``: line, ref and message."""
    report = verify_lines(
        [json.dumps(doc) + "\n" for doc in docs], across=across
    )
    return [
        (v.line, v.deviation.ref, v.deviation.message)
        for v in report.verdicts
        if v.deviation is not None
    ]


def books(doc: dict[str, Any]) -> dict[str, Any]:
    """The players' totals worked out again from the settlements."""
    seats: dict[int, list[int]] = {}
    for row in doc["settlements"]:
        bet_won = seats.setdefault(row["seat"], [0, 0])
        bet_won[0] += row["amount"]
        bet_won[1] += max(row["amount"] + row["net"], 0)
    doc["players"] = [
        {
            "seat": seat,
            "player_id": f"p{seat}",
            "balance_before": None,
            "balance_after": None,
            "total_bet": bet,
            "total_won": won,
        }
        for seat, (bet, won) in sorted(seats.items())
    ]
    return doc


def void_step(seq: int, reason: str = "a test") -> dict[str, Any]:
    """The ``round_voided`` step a voided round ends with (D25)."""
    return {"seq": seq, "ref": "D25", "type": "round_voided", "reason": reason}


def void_before(doc: dict[str, Any], kind: str, reason: str) -> dict[str, Any]:
    """Void ``doc`` just before its first step of ``kind``: every wager
    placed so far returned (D25)."""
    steps = doc["procedure"]
    before = steps[: [s["type"] for s in steps].index(kind)]
    doc["procedure"] = [*before, void_step(len(before) + 1, reason)]
    doc["settlements"] = [
        {
            "seat": s["seat"],
            "wager": s["wager"],
            "amount": s["amount"],
            "outcome": "void",
            "net": 0,
            "ref": "D25",
        }
        for s in before
        if s["type"] == "wager_placed"
    ]
    doc["status"], doc["void_reason"] = "voided", reason
    return doc


def dealt(doc: dict[str, Any]) -> dict[str, Any]:
    """The scenario ``doc`` dealt by croupier, as a conforming record."""
    history = from_scenario(doc, run_scenario(doc), round_id="r1")
    assert verify_round(history) is None
    record: dict[str, Any] = json.loads(history.dumps())
    return record


def as_dealt(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` known only as dealt (no stack): its cards may change."""
    record["shoe"]["known"], record["shoe"]["stack"] = "as_dealt", None
    return record


def verdict(record: dict[str, Any]) -> tuple[str, str]:
    """The ref and message of ``record``'s deviation, renumbered first."""
    for n, step in enumerate(record["procedure"], start=1):
        step["seq"] = n
    deviation = verify_round(HandHistory.loads(json.dumps(record)))
    assert deviation is not None
    return deviation.ref, deviation.message


def step_index(steps: list[dict[str, Any]], **fields: object) -> int:
    """Where the first step with ``fields`` is."""
    return next(
        i
        for i, step in enumerate(steps)
        if all(step.get(k) == v for k, v in fields.items())
    )


SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
"""The hand-written scenarios (written from the regulation text)."""


def scenario_histories() -> list[HandHistory]:
    """The record of every scenario that deals a round and passes."""
    out = []
    for path in sorted(SCENARIOS.rglob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(doc, dict) or "game" not in doc:
            continue
        try:
            result = run_scenario(doc)
        except CroupierError:
            continue  # a scenario that refuses to load
        if result.exit_code == 0 and result.round is not None:
            out.append(from_scenario(doc, result, round_id=path.stem))
    return out
