"""670a.9(b), 670a.10(b): a table draws the starting position (D84).

The dealer determines the starting position by one of 670a.5(i)'s
procedures (D24: the table's random number from 1 to 7, or three dice,
counted from the dealer as 1, counter-clockwise). A table's pai gow
round, whose deck was shuffled for it, records the draw; a position
written ``given`` (no draw) belongs to a scenario's stacked deck.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from croupier.hhf import HandHistory, from_scenario
from croupier.hhf.sample import sample_histories
from croupier.scenario import run_scenario
from croupier.verify import verify_round
from croupier.verify.replay import verify_round_strict

GAME = "six-card-fortune-pai-gow"
SCENARIOS = Path(__file__).parents[1] / "scenarios" / GAME


def _start_step(history: HandHistory) -> dict[str, object]:
    return dict(
        next(
            s
            for s in history.procedure
            if s["type"] == "starting_position_determined"
        )
    )


@pytest.mark.proves("670a.9(b)")
def test_670a_9_b_a_table_records_its_draw() -> None:
    for history in sample_histories(GAME, 12, seed=4):
        step = _start_step(history)
        assert step["method"] == "rng"
        number = step["number"]
        assert isinstance(number, int)
        assert 1 <= number <= 7
        # counted from the dealer (7) as 1, counter-clockwise
        assert step["position"] == 8 - number
        checked = verify_round_strict(history)
        assert checked.deviation is None
        assert checked.strict  # the replay draws it again: the same step


def _given(history: HandHistory) -> HandHistory:
    """``history`` with its drawn start written as given, no number."""
    steps = [dict(s) for s in history.procedure]
    for step in steps:
        if step["type"] == "starting_position_determined":
            step.update(method="given", number=None)
    return dataclasses.replace(history, procedure=tuple(steps))


@pytest.mark.proves("670a.9(b)", "670a.10(b)")
@pytest.mark.parametrize(
    ("dealing", "ref"),
    [
        ("hand", "670a.9(b)"),
        ("manual_shoe", "670a.9(b)"),
        ("automated_shoe", "670a.10(b)"),
    ],
)
def test_670a_9_b_a_shuffled_deck_with_its_start_given(
    dealing: str, ref: str
) -> None:
    history = next(
        sample_histories(GAME, 1, seed=4, rules={"dealing": dealing})
    )
    assert verify_round(history) is None
    deviation = verify_round(_given(history))
    assert deviation is not None
    assert deviation.ref == ref, str(deviation)
    assert "recorded as given" in deviation.message
    assert "shuffled for the round" in deviation.message


def test_a_scenarios_stacked_deck_may_give_its_start() -> None:
    path = SCENARIOS / "audit-670a-11-copy-high-straight-push.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    history = from_scenario(doc, run_scenario(doc), round_id="s1")
    step = _start_step(history)
    assert (step["method"], step["position"]) == ("given", 2)
    assert verify_round(history) is None
