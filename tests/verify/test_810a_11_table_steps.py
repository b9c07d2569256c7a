"""A step of the game's procedure may not hide among the table's own (D79).

``table_steps`` (a clock run out, a seat freed, seats left out of the
deal) and the steps a voided round marks ``"scope": "server"`` are the
table server's, not the dealer's, so the replay passes over them. A card
dealt, a card exposed or a wager settled written there would escape
every rule: each is a step of the procedure whatever it is filed under.
The step types below are the server's own (``croupier.server.pacing``)
and the engine's (the format's documented step types).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from tests.verify.days import books, void_before

from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_round

SEAT_FREED = {
    "seq": 1,
    "scope": "server",
    "ref": "673a.6(c)",
    "type": "seat_freed",
    "seat": 2,
    "player_id": "7",
    "reason": "idle",
}
"""A step the server writes when it frees an idle seat."""


def _round() -> HandHistory:
    """A conforming Double Back Jack round of a sample table."""
    history = next(sample_histories("double-back-jack", 1, seed=4, seats=2))
    assert verify_round(history) is None
    return history


def _hole_card(history: HandHistory) -> str:
    return str(
        next(
            s["card"]
            for s in history.procedure
            if s["type"] == "card_dealt"
            and s["to"] == "dealer"
            and not s["face_up"]
        )
    )


def test_810a_11_the_tables_own_steps_are_not_replayed() -> None:
    history = dataclasses.replace(_round(), table_steps=(SEAT_FREED,))
    assert verify_round(history) is None


@pytest.mark.proves("810a.11")
@pytest.mark.parametrize(
    "step",
    [
        # the hole card shown to the table (591.7(h) keeps it unseen)
        {"type": "card_exposed", "to": "dealer", "card": None},
        # one more card to seat 1, outside the replay
        {
            "type": "card_dealt",
            "ref": "591.7(j)",
            "to": "seat 1",
            "card": "5c",
            "face_up": True,
            "hand": 0,
            "purpose": "",
        },
        # a payment the settlements do not show
        {
            "type": "wager_settled",
            "ref": "591.7(s)(1)(ii)",
            "seat": 1,
            "wager": "blackjack",
            "amount": 1000,
            "outcome": "win",
            "net": 1000,
            "hand": 0,
            "commission": 0,
        },
        {"type": "round_voided", "ref": "D25", "reason": "power"},
    ],
    ids=["hole_card_exposed", "card_dealt", "wager_settled", "round_voided"],
)
def test_810a_11_game_step_among_table_steps(step: dict[str, Any]) -> None:
    history = _round()
    if step["type"] == "card_exposed":
        step = {**step, "ref": "591.7(n)", "card": _hole_card(history)}
    hidden = dataclasses.replace(
        history,
        table_steps=(SEAT_FREED, {"seq": 2, "scope": "server", **step}),
    )
    deviation = verify_round(hidden)
    assert deviation is not None
    assert deviation.ref == "810a.11", str(deviation)
    assert f"table step 2 (type {step['type']}" in deviation.message


def _voided(history: HandHistory, extra: list[dict[str, Any]]) -> HandHistory:
    """``history`` voided as its deal begins, ``extra`` just before.

    Every stake goes back (D25): one void settlement per wager placed.
    """
    doc: dict[str, Any] = json.loads(history.dumps())
    steps = doc["procedure"]
    first = next(i for i, s in enumerate(steps) if s["type"] == "card_dealt")
    steps[first:first] = [{"seq": 0, **step} for step in extra]
    for n, step in enumerate(steps, start=1):
        step["seq"] = n
    return HandHistory.loads(
        json.dumps(books(void_before(doc, "card_dealt", "x")))
    )


@pytest.mark.proves("673a.6(c)")
def test_673a_6_c_late_wager_marked_as_the_servers_in_a_void() -> None:
    history = _round()
    assert verify_round(_voided(history, [])) is None
    assert verify_round(_voided(history, [dict(SEAT_FREED)])) is None
    late = {
        "scope": "server",
        "ref": "673a.6(d)",
        "type": "wager_placed",
        "seat": 3,
        "wager": "blackjack",
        "amount": 5000,
        "hand": 0,
    }
    deviation = verify_round(_voided(history, [late]))
    assert deviation is not None
    assert deviation.ref == "673a.6(c)", str(deviation)
    assert "wagering had closed" in deviation.message
