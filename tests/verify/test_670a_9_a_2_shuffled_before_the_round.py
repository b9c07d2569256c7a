"""670a.9(a)(1)-(2), 670a.10(a)(1), D91: a pai gow deck shuffled before
its round.

The deck is shuffled by the procedures of 670a.5, completed before the
dealer holds the deck (670a.9(a)(2)) or places it in the automated
shoe (670a.10(a)(1)): nothing puts the shuffle after the wagers. A
record may then show the round's shuffle in its preparation alone
(``shoe.preparation``), as another vendor's did, instead of as a step
of the procedure after ``phase_entered`` ``dealing`` (croupier writes
both). Every round's deck is still shuffled: a round that records its
shuffle in neither place deviates, and the message says where it goes.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.hhf.sample import sample_histories

PAI_GOW = "six-card-fortune-pai-gow"

DEALING = {
    "hand": "670a.9(a)(1)",
    "manual_shoe": "670a.9(a)(1)",
    "automated_shoe": "670a.10(a)(1)",
}
"""Each way of dealing and the subsection its shuffle step cites."""


def _docs(dealing: str, rounds: int = 3) -> list[dict[str, Any]]:
    return [
        json.loads(h.dumps())
        for h in sample_histories(
            PAI_GOW, rounds, seed=7, rules={"dealing": dealing}
        )
    ]


def _drop_procedure_shuffle(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with its procedure's ``shuffled`` step left out."""
    steps = [s for s in doc["procedure"] if s["type"] != "shuffled"]
    assert len(steps) == len(doc["procedure"]) - 1
    for n, step in enumerate(steps, start=1):
        step["seq"] = n
    doc["procedure"] = steps
    return doc


@pytest.mark.proves("670a.9(a)(2)", "670a.10(a)(1)")
@pytest.mark.parametrize("dealing", sorted(DEALING))
def test_670a_9_a_2_a_deck_shuffled_before_the_round_conforms(
    dealing: str,
) -> None:
    docs = _docs(dealing)
    for doc in docs:
        [shuffle] = doc["shoe"]["preparation"]
        assert shuffle["type"] == "shuffled"
        _drop_procedure_shuffle(doc)
    assert deviations(docs) == []


@pytest.mark.proves("670a.9(a)(1)", "670a.10(a)(1)")
@pytest.mark.parametrize("dealing", sorted(DEALING))
def test_670a_9_a_1_every_round_s_deck_is_shuffled(dealing: str) -> None:
    docs = _docs(dealing)
    _drop_procedure_shuffle(docs[1])
    docs[1]["shoe"]["preparation"] = []
    [(line, ref, message)] = deviations(docs, across=False)
    assert (line, ref) == (2, DEALING[dealing])
    assert message.startswith("the deck's shuffle is not recorded (the log ")
    assert message.endswith(
        "the deck is shuffled for every round; record the shuffled step in "
        "the round's preparation (shoe.preparation, before the round) or "
        "here, after the dealing phase begins (D91)"
    )


@pytest.mark.proves("670a.9(a)(1)")
def test_670a_9_a_1_a_shuffle_after_the_deck_is_held_deviates() -> None:
    docs = _docs("hand", 1)
    steps = docs[0]["procedure"]
    kinds = [s["type"] for s in steps]
    at, held = kinds.index("shuffled"), kinds.index("deck_held")
    steps[at], steps[held] = steps[held], steps[at]
    for n, step in enumerate(steps, start=1):
        step["seq"] = n
    [(_, ref, message)] = deviations(docs)
    assert ref == "670a.9(a)(1)"
    assert message == (
        f"the log shuffles the deck at step {held + 1}, after its step "
        f"{at + 1} (deck held (hand=left)); the shuffle comes first, before "
        f"the deck is held or placed in the shoe"
    )
