"""D23: no Envy Bonus for the player's own hand, on any of their boxes.

The scenario ``envy_paid_to_several_players`` (worked by hand in its
description): seat 4 holds four of a kind, and seats 1, 2 and 4 have
Qualifying Fortune Bonus Wagers. With four players, seat 2 is paid
Envy for seat 4's hand (an award of 5:1 on the 500 minimum, 2500) and
its 1000 Fortune Bonus nets 1500. Here seats 2 and 4 are one player's
boxes: seat 4's hand is that player's own, so seat 2 earns no Envy for
it and loses its 1000; seat 1, another player, is still paid 2500 for
it (net 2000). An audit's record that paid seat 2 anyway conformed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from croupier.hhf.format import HandHistory, from_record
from croupier.history import Recorder
from croupier.registry import find_game
from croupier.rng import SeededRng
from croupier.round import Action
from croupier.shoe import Shoe
from croupier.verify import verify_round

SCENARIO = (
    Path(__file__).resolve().parents[1]
    / "scenarios"
    / "six-card-fortune-pai-gow"
    / "envy_paid_to_several_players.json"
)
ALICE = {2: "alice", 4: "alice"}


def _round(players: dict[int, str]) -> HandHistory:
    doc: dict[str, Any] = json.loads(SCENARIO.read_text(encoding="utf-8"))
    spec = find_game(doc["game"])
    rnd = spec.new_round(
        rules=spec.rules_type.from_mapping(doc.get("rules", {})),
        shoe=Shoe.stacked(doc["shoe"]),
        rng=SeededRng(0),
        new_shoe=False,
        starting_position=doc["starting_position"],
    )
    recorder = Recorder(spec.name, rnd)
    for w in doc["wagers"]:
        seat = w["seat"]
        recorder.place_wager(seat, w["wager"], w["amount"], players.get(seat))
    recorder.deal()
    for d in doc["decisions"]:
        recorder.apply(Action(seat=d["seat"], name=d["action"]))
    assert rnd.is_over
    return from_record(
        recorder.record,
        round_id="envy-own-boxes",
        table="t",
        started_at=None,
        ended_at=None,
        owners={seat: players.get(seat, f"p{seat}") for seat in (1, 2, 3, 4)},
        preparation=[],
    )


def _fortune(history: HandHistory) -> dict[int, int]:
    return {
        s["seat"]: s["net"]
        for s in history.settlements
        if s["wager"] == "fortune_bonus"
    }


def _envy(history: HandHistory) -> list[tuple[int, str, int]]:
    return [
        (s["seat"], s["source"], s["amount"])
        for s in history.procedure
        if s["type"] == "envy_bonus_paid"
    ]


def test_d23_four_players_each_paid_for_the_others() -> None:
    history = _round({})
    assert _envy(history) == [(2, "seat 4", 2500), (1, "seat 4", 2500)]
    assert _fortune(history)[2] == -1000 + 2500
    assert verify_round(history) is None


def test_d23_no_envy_for_the_players_own_other_box() -> None:
    history = _round(ALICE)
    # seat 1 is still paid for alice's seat 4; alice's seat 2 is not
    assert _envy(history) == [(1, "seat 4", 2500)]
    assert _fortune(history)[2] == -1000
    assert _fortune(history)[1] == -500 + 2500
    assert verify_round(history) is None


def test_d23_a_record_paying_envy_for_the_own_box_deviates() -> None:
    # the four-player round (Envy to seat 2), its entries saying that
    # seats 2 and 4 are alice's: the payment is for her own hand
    paid = _round({})
    doc = json.loads(paid.dumps())
    for entry in doc["players"]:
        if entry["seat"] in ALICE:
            entry["player_id"] = "alice"
    found = verify_round(HandHistory.loads(json.dumps(doc)))
    assert found is not None
    assert found.ref == "670a.11"
    assert "envy bonus paid (seat=2, source=seat 4" in found.message
