"""A decision or card for a hand whose play is over cites what ended it.

Each round is a Double Back Jack scenario dealt by croupier, recorded as
dealt, then given a decision (and its card) or a card for a hand the
engine asks nothing more of: the deviation cites the rule that ended the
hand's play, not the step the engine had next (audit, 2026-12-06). The
conforming round is checked first, as the control. Where the engine
itself refuses such a decision, the citation is the engine's.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import as_dealt, dealt, step_index, verdict

from croupier.errors import CroupierError
from croupier.games.double_back_jack.refs import (
    REF_DOUBLE_CARD,
    REF_HIT_BELOW_21,
    REF_SECOND_CHANCE_STANDS,
)
from croupier.hhf import HandHistory
from croupier.registry import find_game
from croupier.round import Action
from croupier.rules import GameRules
from croupier.shoe import Shoe
from croupier.verify import verify_round

DBJ = "double-back-jack"


def _round(
    shoe: str, decisions: list[tuple[int, str]], seats: int = 1
) -> dict[str, Any]:
    """A conforming Double Back Jack round, known only as dealt."""
    record = as_dealt(
        dealt(
            {
                "game": DBJ,
                "shoe": shoe,
                "wagers": [
                    {"seat": s, "wager": "blackjack", "amount": 1000}
                    for s in range(1, seats + 1)
                ],
                "decisions": [
                    {"seat": seat, "action": action}
                    for seat, action in decisions
                ],
            }
        )
    )
    assert verify_round(HandHistory.loads(json.dumps(record))) is None
    return record


def _decision(action: str, seat: int = 1) -> dict[str, Any]:
    return {
        "seq": 0,
        "ref": "591.7(i)",
        "type": "decision_made",
        "seat": seat,
        "action": action,
        "hand": 0,
        "amount": None,
        "detail": "",
    }


def _card(
    card: str, ref: str = "591.7(j)", purpose: str = ""
) -> dict[str, Any]:
    return {
        "seq": 0,
        "ref": ref,
        "type": "card_dealt",
        "to": "seat 1",
        "card": card,
        "face_up": True,
        "hand": 0,
        "purpose": purpose,
    }


def _insert(record: dict[str, Any], at: int, *steps: dict[str, Any]) -> None:
    record["procedure"][at:at] = list(steps)


_DOUBLED = "2c 5h 9h 6d 7c 2s Tc 9s 8c"
"""Burn 2c; seat 1 5h 6d doubles and gets 2s (13); dealer 9h 7c draws Tc."""


@pytest.mark.proves("591.7(k)")
def test_591_7_k_2_double_gets_one_card_cited() -> None:
    record = _round(_DOUBLED, [(1, "double")])
    steps = record["procedure"]
    after = step_index(steps, type="card_dealt", purpose="double") + 1
    _insert(record, after, _decision("hit"), _card("3s"))
    ref, message = verdict(record)
    assert ref == str(REF_DOUBLE_CARD) == "591.7(k)(2)", message
    assert "doubled down" in message


@pytest.mark.proves("591.7(k)")
def test_591_7_k_2_a_second_double_card_cited() -> None:
    record = _round(_DOUBLED, [(1, "double")])
    steps = record["procedure"]
    after = step_index(steps, type="card_dealt", purpose="double") + 1
    _insert(record, after, _card("3s", "591.7(k)(2)", "double"))
    ref, message = verdict(record)
    assert ref == "591.7(k)(2)", message


@pytest.mark.proves("591.7(k)")
def test_591_7_k_2_a_doubled_hand_hits_out_of_turn() -> None:
    # two boxes: the engine refuses seat 1's hit as out of turn (seat 2
    # is to act, 591.7(i)); the hand's double is the reason
    record = _round(
        "2c 5h 9d 9h 6d 8d 7c 2s Tc 9s 8c", [(1, "double"), (2, "stand")], 2
    )
    steps = record["procedure"]
    after = step_index(steps, type="card_dealt", purpose="double") + 1
    _insert(record, after, _decision("hit"), _card("3s"))
    ref, message = verdict(record)
    assert ref == "591.7(k)(2)", message


@pytest.mark.proves("591.7(l)")
def test_591_7_l_3_no_draw_after_the_second_chance_card() -> None:
    # Th 6d hits Kc (26), Second Chance 9s (17): under 21 it plays on
    # under (n), drawing nothing more; the log hits it again
    record = _round(
        "2c Th 9h 6d 7c Kc 9s Tc 8c 3d", [(1, "hit"), (1, "second_chance")]
    )
    steps = record["procedure"]
    after = step_index(steps, type="announced", ref="591.7(l)(3)") + 1
    _insert(record, after, _decision("hit"), _card("2d"))
    ref, message = verdict(record)
    assert ref == str(REF_SECOND_CHANCE_STANDS) == "591.7(l)(3)", message
    assert "Second Chance card left it on 17" in message


_TWENTY_ONE = "2c Th 9h 5d 7c 6s 5c 9s 8s"
"""Burn 2c; seat 1 Th 5d hits 6s (21), paid at once under (m)."""


def _engine_refusal_of_a_hit_over_21() -> str:
    """The rule the engine cites refusing a hit on a hand of 21 or more.

    A hand of 21 is paid at once and never asked; a busted hand is asked
    for its Second Chance, and a hit then is refused.
    """
    spec = find_game(DBJ)
    rules: GameRules = spec.rules_type()
    rnd = spec.new_round(
        rules=rules,
        shoe=Shoe.stacked("2c Th 9h 6d 7c Kc 9s Tc 8c 3d"),
        rng=None,
        new_shoe=True,
    )
    rnd.place_wager(1, "blackjack", 1000)
    rnd.deal()
    rnd.apply(Action(seat=1, name="hit"))
    with pytest.raises(CroupierError) as refused:
        rnd.apply(Action(seat=1, name="hit"))
    return str(refused.value.ref)


@pytest.mark.proves("591.7(k)")
def test_591_7_k_1_a_hit_on_21_cites_the_engines_refusal() -> None:
    record = _round(_TWENTY_ONE, [(1, "hit")])
    steps = record["procedure"]
    at = step_index(steps, type="wager_settled", ref="591.7(m)")
    _insert(record, at, _decision("hit"), _card("2d"))
    ref, message = verdict(record)
    assert ref == str(REF_HIT_BELOW_21) == "591.7(k)(1)", message
    assert ref == _engine_refusal_of_a_hit_over_21()
    assert "has 21" in message


_BUSTED = "2c Th 9h 6d 7c Kc 9s Tc 8c 3d"
"""Burn 2c; seat 1 Th 6d hits Kc (26)."""


@pytest.mark.proves("591.7(k)")
def test_591_7_k_1_a_busted_hand_hits_after_its_second_chance_declined() -> (
    None
):
    record = _round(_BUSTED, [(1, "hit"), (1, "no_second_chance")])
    steps = record["procedure"]
    at = step_index(steps, type="cards_collected", source="seat 1") + 1
    _insert(record, at, _decision("hit"), _card("2d"))
    ref, message = verdict(record)
    assert ref == "591.7(k)(1)", message
    assert ref == _engine_refusal_of_a_hit_over_21()


@pytest.mark.proves("591.7(i)")
def test_591_7_i_a_hand_that_stood_hits() -> None:
    record = _round("2c Th 9h 8d 7c 5c 9s 8s", [(1, "stand")])
    steps = record["procedure"]
    at = step_index(steps, type="decision_made", action="stand") + 1
    _insert(record, at, _decision("hit"), _card("2d"))
    ref, message = verdict(record)
    assert ref == "591.7(i)", message
    assert "seat 1 stood" in message


@pytest.mark.proves("673a.9")
def test_673a_9_a_surrendered_hand_acts() -> None:
    record = _round(_BUSTED, [(1, "surrender")])
    steps = record["procedure"]
    at = step_index(steps, type="cards_collected", source="seat 1") + 1
    _insert(record, at, _decision("hit"), _card("2d"))
    ref, message = verdict(record)
    assert ref == "673a.9", message
    assert "surrendered" in message


@pytest.mark.proves("681a.7(m)")
def test_681a_7_m_a_decision_in_21_baccarat_cites_the_engines_refusal() -> (
    None
):
    # no patron decides anything in 21 Baccarat: the engine refuses any
    # decision under (m), wherever the log puts it
    record = as_dealt(
        dealt(
            {
                "game": "21-baccarat",
                "shoe": "2c Th 9h 5d 5c 4s 8c 9s 7d",
                "wagers": [{"seat": 1, "wager": "player", "amount": 1000}],
            }
        )
    )
    assert verify_round(HandHistory.loads(json.dumps(record))) is None
    steps = record["procedure"]
    _insert(
        record,
        step_index(steps, type="card_dealt", ref="681a.7(g)"),
        _decision("hit"),
    )
    ref, message = verdict(record)
    assert ref == "681a.7(m)", message
