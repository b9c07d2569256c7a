"""A broken log is reported under the subsection it breaks (audit, 2026-12-05).

Each round is a scenario dealt by croupier, then broken in one place, the
rest of its steps left as they were: the first step that differs is the
one verify reports. The subsection expected is read from the rules'
text, cited beside each case.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import dealt, step_index, verdict

from croupier.hhf import HandHistory, rules_digest
from croupier.verify import verify_round


def _natural_round(shoe: str, wagers: list[dict[str, Any]]) -> dict[str, Any]:
    return dealt({"game": "21-baccarat", "shoe": shoe, "wagers": wagers})


def _to_banker(card: str, ref: str, purpose: str) -> dict[str, Any]:
    """A 21 Baccarat card dealt face up to the Banker's hand."""
    return {
        "seq": 0,
        "ref": ref,
        "type": "card_dealt",
        "to": "banker hand",
        "card": card,
        "face_up": True,
        "hand": 0,
        "purpose": purpose,
    }


@pytest.mark.proves("681a.7(f)")
def test_681a_7_f_1_a_card_drawn_after_a_natural() -> None:
    # burn 2c; Player As Kd (a natural), Banker 9c 5c (14); no Bonus
    # Wager: (f)(1) deals no more cards, though (g) would draw to 14
    record = _natural_round(
        "2c As 9c Kd 5c 7c 8h",
        [{"seat": 1, "wager": "player", "amount": 1000}],
    )
    steps = record["procedure"]
    after = next(
        i
        for i, s in enumerate(steps)
        if s["type"] == "announced" and s["text"].startswith("natural")
    )
    steps.insert(after + 1, _to_banker("7c", "681a.7(g)", ""))
    ref, message = verdict(record)
    assert ref == "681a.7(f)(1)", message
    assert "banker hand drew 7c on 14" in message


@pytest.mark.proves("681a.7(f)")
def test_681a_7_f_2_a_bonus_only_card_to_a_hand_of_17() -> None:
    # Player natural, a Bonus Wager: (f)(2) gives a Bonus-only card only
    # to a hand under 17; the Banker's 9c 8c is 17
    record = _natural_round(
        "2c As 9c Kd 8c 7c 8h 3d",
        [
            {"seat": 1, "wager": "player", "amount": 1000},
            {"seat": 2, "wager": "bonus_banker", "amount": 100},
        ],
    )
    steps = record["procedure"]
    at = step_index(steps, type="phase_entered", phase="bonus_drawing")
    steps.insert(at + 1, _to_banker("7c", "681a.7(f)(2)", "bonus only"))
    ref, message = verdict(record)
    assert ref == "681a.7(f)(2)", message
    assert "banker hand drew 7c on 17" in message


def _dbj(
    shoe: str, seats: int, rules: dict[str, Any] | None = None, **more: Any
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "game": "double-back-jack",
        "shoe": shoe,
        "wagers": [
            {"seat": s, "wager": "blackjack", "amount": 1000}
            for s in range(1, seats + 1)
        ],
        "decisions": [
            {"seat": s, "action": "stand"} for s in range(1, seats + 1)
        ],
        **more,
    }
    if rules:
        doc["rules"] = rules
    return dealt(doc)


@pytest.mark.proves("591.7(n)")
def test_591_7_n_the_dealer_draws_before_turning_the_hole_card() -> None:
    # burn 2c; seat 1 Ts 9d (19); dealer 9c up, 7h hole (16): the hole
    # card is turned up (n), then the dealer draws to 16 (o)
    record = _dbj("2c Ts 9c 9d 7h 2s 5d 4c", 1)
    steps = record["procedure"]
    hole = step_index(steps, type="phase_entered", phase="hole_card")
    draw = step_index(steps, type="card_dealt", to="dealer", ref="591.7(o)")
    steps.insert(hole, steps.pop(draw))
    ref, message = verdict(record)
    assert ref == "591.7(n)", message
    assert "before turning the hole card face up" in message


@pytest.mark.proves("591.7(h)")
def test_591_7_h_the_hole_card_shown_before_the_players_decide() -> None:
    record = _dbj("2c Ts 9c 6d 7d 7h 3c 5d 9s 4h 4c", 2)
    steps = record["procedure"]
    shown = steps.pop(step_index(steps, type="card_exposed", to="dealer"))
    steps.insert(step_index(steps, type="decision_made"), shown)
    ref, message = verdict(record)
    assert ref == "591.7(h)", message
    assert "hole card" in message


@pytest.mark.proves("673a.10(c)")
def test_673a_10_c_a_double_on_a_split_hand_the_rules_do_not_allow() -> None:
    # 673a.10(a) allows a double on the first two cards of a split pair;
    # the Rules Submission may not (the option's subsection, (c))
    doc = {
        "game": "double-back-jack",
        "shoe": "2c 8s Tc 8d 7h 3c 5d 9s Kc 6h 5c",
        "wagers": [{"seat": 1, "wager": "blackjack", "amount": 1000}],
        "decisions": [
            {"seat": 1, "action": "split"},
            {"seat": 1, "action": "double"},
            {"seat": 1, "action": "stand"},
        ],
    }
    record = dealt(doc)
    record["rules"]["values"]["double_after_split"] = False
    record["rules"]["digest"] = rules_digest(record["rules"]["values"])
    ref, message = verdict(record)
    assert ref == "673a.10(c)", message


@pytest.mark.proves("591.7(t)")
def test_591_7_t_2_one_player_on_two_boxes_is_settled_at_once() -> None:
    """(t)(2): "collect each player's losing wagers and pay off each
    player's winning wagers", player by player from the dealer's right.

    One player on boxes 2 and 3 (3 wins, 2 loses), another on box 1
    (wins): the first player's loser on box 2 is collected before their
    winner on box 3 is paid, then box 1 is paid (D85).
    """
    record = _dbj(
        "2c Ts Tc Td 8d 9h 5c Kh Th 4c 4d",
        3,
        {"collection_procedure": "player_by_player"},
    )
    for entry in record["players"]:
        if entry["seat"] in (2, 3):
            entry["player_id"] = "P"
    history = HandHistory.loads(json.dumps(record))
    outcomes = {
        s["seat"]: s["outcome"]
        for s in history.procedure
        if s["type"] == "wager_settled"
    }
    assert outcomes == {1: "win", 2: "lose", 3: "win"}
    settled = [
        i
        for i, s in enumerate(record["procedure"])
        if s["type"] == "wager_settled"
    ]
    # dealt with no player named, box by box from the right: 3, 2, 1
    steps = record["procedure"]
    assert [steps[i]["seat"] for i in settled] == [3, 2, 1]
    ref, message = verdict(record)
    assert ref == "591.7(t)(2)", message
    # the rule's order for the players: P's loser (2), P's winner (3), 1
    a, b = settled[0], settled[1]
    steps[a], steps[b] = steps[b], steps[a]
    rows = record["settlements"]
    rows[0], rows[1] = rows[1], rows[0]
    for n, step in enumerate(steps, start=1):
        step["seq"] = n
    assert verify_round(HandHistory.loads(json.dumps(record))) is None


@pytest.mark.proves("681a.7(f)")
def test_681a_7_f_2_a_bonus_only_card_counted_for_the_main_wagers() -> None:
    # Player natural As Kd (21); a Banker Bonus Wager, so the Banker's
    # 9c 5c (14) takes a Bonus-only 7c, which (f)(2) keeps out of the
    # Player and Banker Wagers: the log counts it (Banker 21, a tie)
    record = _natural_round(
        "2c As 9c Kd 5c 7c 8h",
        [
            {"seat": 1, "wager": "player", "amount": 1000},
            {"seat": 3, "wager": "bonus_banker", "amount": 100},
        ],
    )
    steps = record["procedure"]
    at = next(
        i
        for i, s in enumerate(steps)
        if s["type"] == "announced" and s["text"].startswith("Player 21")
    )
    assert steps[at]["text"] == "Player 21, Banker 14: Player wins"
    steps[at]["text"] = "Player 21, Banker 21: tie"
    ref, message = verdict(record)
    assert ref == "681a.7(f)(2)", message
    assert "Bonus-only card 7c" in message


@pytest.mark.proves("673a.11(c)")
def test_673a_11_c_rules_that_give_a_split_ace_one_card() -> None:
    # burn 2c; seat 1 As Ad splits; each ace takes its split card, and
    # the player hits hand 1, as 673a.11(c) lets a split hand draw. A
    # record under split_aces_may_draw = false (one card to each split
    # ace) is a what-if the regulation does not allow (D97): the rules
    # themselves deviate, before any step
    record = dealt(
        {
            "game": "double-back-jack",
            "shoe": "2c As Tc Ad 7h 3c 2d 5s 4c 6h 5c",
            "wagers": [{"seat": 1, "wager": "blackjack", "amount": 1000}],
            "decisions": [
                {"seat": 1, "action": "split"},
                {"seat": 1, "action": "hit"},
                {"seat": 1, "action": "stand"},
                {"seat": 1, "action": "stand"},
            ],
        }
    )
    record["rules"]["values"]["split_aces_may_draw"] = False
    record["rules"]["digest"] = rules_digest(record["rules"]["values"])
    ref, message = verdict(record)
    assert ref == "673a.11(c)", message
    assert "split_aces_may_draw = false" in message
    assert "fixes it at true" in message
