"""670a.9(a)(1), D77: a deck dealt from the hand is shuffled by a device.

A record may say what shuffled its cards (a ``shuffled`` step's
``device``: ``automated`` or ``manual``, CHH 1.1). A pai gow deck dealt
from the dealer's hand that the record says the dealer shuffled by
hand breaks 670a.9(a)(1); the other dealing procedures, and the other
games, are not held to it (their texts require no device), and a
record that does not say is taken as it is.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.hhf import HandHistory
from croupier.hhf.format import HistoryFormatError
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_lines

PAI_GOW = "six-card-fortune-pai-gow"
MESSAGE = (
    "the deck was shuffled by hand (device manual); a deck dealt from the "
    "dealer's hand is shuffled by an automated shuffling device"
)


def _docs(game: str, rules: dict[str, object] | None = None) -> list[Any]:
    return [
        json.loads(h.dumps())
        for h in sample_histories(game, 2, seed=9, rules=rules)
    ]


def _shuffles(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The record's shuffles: its preparation's, then its procedure's."""
    return [
        s
        for s in [*doc["shoe"]["preparation"], *doc["procedure"]]
        if s["type"] == "shuffled"
    ]


@pytest.mark.proves("670a.9(a)(1)")
def test_670a_9_a_1_a_hand_dealt_deck_shuffled_by_hand_deviates() -> None:
    docs = _docs(PAI_GOW)
    assert docs[0]["rules"]["values"]["dealing"] == "hand"
    # the sample table shuffles in the preparation (its seeded RNG) and
    # the round records the deck it was handed (670a.9(a)(1))
    preparation, in_round = _shuffles(docs[0])
    assert (preparation["ref"], in_round["ref"]) == (
        "670a.9(a)(1)",
        "670a.9(a)(1)",
    )
    preparation["device"] = "automated"
    in_round["device"] = "automated"
    assert deviations(docs) == []
    preparation["device"] = "manual"
    assert deviations(docs) == [(1, "670a.9(a)(1)", MESSAGE)]
    del preparation["device"]
    in_round["device"] = "manual"
    found = verify_lines([json.dumps(d) for d in docs]).verdicts[0]
    assert found.deviation is not None
    assert (found.deviation.ref, found.deviation.seq) == (
        "670a.9(a)(1)",
        in_round["seq"],
    )


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        (PAI_GOW, {"dealing": "automated_shoe"}),
        (PAI_GOW, {"dealing": "manual_shoe"}),
        ("double-back-jack", None),
        ("midibaccarat", None),
    ],
)
def test_d77_only_a_deck_dealt_from_the_hand_needs_the_device(
    game: str, rules: dict[str, object] | None
) -> None:
    docs = _docs(game, rules)
    shuffles = [s for doc in docs for s in _shuffles(doc)]
    assert shuffles  # each game's log records its shuffles
    for step in shuffles:
        step["device"] = "manual"
    assert deviations(docs) == []


def test_d77_the_device_is_one_of_two() -> None:
    doc = _docs(PAI_GOW)[0]
    _shuffles(doc)[0]["device"] = "robot"
    with pytest.raises(HistoryFormatError, match="robot"):
        HandHistory.loads(json.dumps(doc))
