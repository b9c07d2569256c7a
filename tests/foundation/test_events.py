from __future__ import annotations

import json

import pytest

from croupier.cards import parse_cards
from croupier.events import (
    CardDealt,
    CardsCollected,
    DecisionMade,
    EventLog,
    WagerSettled,
)
from croupier.money import Outcome
from croupier.regs import Ref


def test_log_is_sequenced_and_round_trips_through_json_lines() -> None:
    log = EventLog()
    log.emit(
        CardDealt,
        ref=Ref.parse("591.7(e)(4)"),
        to="dealer",
        card=parse_cards("Kd")[0],
        face_up=False,
    )
    log.emit(
        CardsCollected,
        ref=Ref.parse("591.7(u)"),
        source="seat 1",
        cards=parse_cards("As Kd"),
    )
    log.emit(
        CardsCollected, ref=Ref.parse("591.7(u)"), source="seat 2", cards=()
    )
    log.emit(
        DecisionMade,
        ref=Ref.parse("591.7(i)"),
        seat=1,
        action="double",
        amount=500,
    )
    log.emit(
        WagerSettled,
        ref=Ref.parse("591.7(s)(3)"),
        seat=1,
        wager="blackjack",
        amount=1000,
        outcome=Outcome.LOSE,
        net=-1000,
    )
    assert [e.seq for e in log] == [1, 2, 3, 4, 5]
    text = log.dumps()
    assert all(json.loads(line)["type"] for line in text.splitlines())
    assert json.loads(text.splitlines()[-1])["outcome"] == "lose"
    loaded = EventLog.loads(text).events
    assert loaded == log.events
    # issue 18 point 2: fields come back with their declared types
    settled = loaded[-1]
    assert isinstance(settled, WagerSettled)
    assert settled.outcome is Outcome.LOSE
    assert isinstance(settled.ref, Ref)


def test_events_are_frozen() -> None:
    log = EventLog()
    event = log.emit(
        DecisionMade, ref=Ref.parse("591.7(i)"), seat=1, action="hit"
    )
    with pytest.raises(AttributeError):
        event.seat = 2  # type: ignore[misc]
