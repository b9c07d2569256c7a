"""D69 in the logs: a round voided because the shoe ran out is replayed.

The verifier replays the round on the recorded stack: the shoe runs out
at the same card, so the void, its returns and the reshuffle must be in
the log as the procedure makes them (591.7(a), 681a.7(a)). The broken
copies below are changed by hand, not by the verifier.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.hhf.sample import sample_histories
from croupier.verify import verify_lines

ONE_DECK = {"decks": 1, "penetration": "19/20"}
REFS = {"double-back-jack": "591.7(a)", "21-baccarat": "681a.7(a)"}
ROUNDS = {"double-back-jack": 30, "21-baccarat": 300}
"""Enough rounds for a void: 21 Baccarat's rounds need few cards."""


def _day(game: str) -> tuple[list[str], list[int]]:
    histories = list(
        sample_histories(game, ROUNDS[game], seed=5, seats=6, rules=ONE_DECK)
    )
    lines = [h.dumps() + "\n" for h in histories]
    voided = [
        i
        for i, h in enumerate(histories)
        if any(s["type"] == "round_voided" for s in h.procedure)
    ]
    return lines, voided


def _deviations(lines: list[str]) -> list[tuple[int, str, str]]:
    report = verify_lines(lines)
    return [
        (v.line, v.deviation.ref, v.deviation.message)
        for v in report.verdicts
        if v.deviation is not None
    ]


@pytest.mark.parametrize("game", sorted(REFS))
def test_d69_rounds_voided_for_want_of_cards_conform(game: str) -> None:
    lines, voided = _day(game)
    assert voided, "a one-deck shoe at six seats runs out"
    assert _deviations(lines) == []
    doc = json.loads(lines[voided[0]])
    steps = [s["type"] for s in doc["procedure"]]
    assert steps[steps.index("round_voided") :].count("shuffled") == 1
    returned = [s for s in doc["settlements"] if s["outcome"] == "void"]
    assert returned
    assert all(s["net"] == 0 and s["ref"] == REFS[game] for s in returned)


def _broken(game: str, change: Any) -> tuple[list[tuple[int, str, str]], int]:
    lines, voided = _day(game)
    doc = json.loads(lines[voided[0]])
    change(doc)
    lines[voided[0]] = json.dumps(doc) + "\n"
    return _deviations(lines), voided[0] + 1


def _keep_a_returned_stake(doc: dict[str, Any]) -> None:
    row = next(s for s in doc["settlements"] if s["outcome"] == "void")
    row["outcome"], row["net"] = "lose", -row["amount"]


def _no_void(doc: dict[str, Any]) -> None:
    doc["procedure"] = [
        s for s in doc["procedure"] if s["type"] != "round_voided"
    ]


@pytest.mark.parametrize("game", sorted(REFS))
@pytest.mark.parametrize("change", [_keep_a_returned_stake, _no_void])
def test_d69_a_void_for_want_of_cards_altered_deviates(
    game: str, change: Any
) -> None:
    found, line = _broken(game, change)
    assert [(n, ref) for n, ref, _ in found][:1] == [(line, REFS[game])]
