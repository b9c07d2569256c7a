"""Baccarat logs an outside writer forged (audit, 2026-12-06).

A helper wrote its own 21 Baccarat and Midibaccarat tables (commission-
free too) from the documentation alone, dealt thousands of rounds that
all conformed, then broke rounds one rule at a time. Six were reported
under a subsection other than the one they break. Each case here is a
round dealt by croupier from a stacked shoe, then broken in the one
place the forger broke it; the subsection expected is read from the
rule's text, quoted beside it.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.verify.days import as_dealt, dealt, deviations, step_index, verdict


def _burned(
    card: str, face_up: bool = False, ref: str = "681a.7(c)"
) -> dict[str, Any]:
    return {
        "seq": 0,
        "ref": ref,
        "type": "card_burned",
        "card": card,
        "face_up": face_up,
    }


@pytest.mark.proves("681a.7(c)")
@pytest.mark.parametrize("new_shoe", [True, False])
def test_681a_7_c_a_card_burned_beyond_the_rule(new_shoe: bool) -> None:
    # (c): "After each full batch of cards is placed in the shoe, the
    # dealer shall remove the first card and place it in the discard
    # rack" -- one card, and only for a new batch. The log burns 3d
    # too (a second card, or one in a round that deals on): it was
    # cited under the wagering phase's 681a.7(e)
    record = as_dealt(
        dealt(
            {
                "game": "21-baccarat",
                "shoe": "2c Ts 9c 7d 8c" if new_shoe else "Ts 9c 7d 8c",
                "new_shoe": new_shoe,
                "wagers": [{"seat": 1, "wager": "player", "amount": 1000}],
            }
        )
    )
    record["shoe"]["discard"] = None
    steps = record["procedure"]
    steps.insert(1 if new_shoe else 0, _burned("3d"))
    ref, message = verdict(record)
    assert ref == "681a.7(c)", message
    assert f"burned {2 if new_shoe else 1} card(s), requires" in message


@pytest.mark.proves("629a.5(f)")
def test_629a_5_f_one_card_more_than_the_exposed_card_says() -> None:
    # (f): the first card is exposed, "and an additional number of
    # cards, drawn face down, equal to the face value of the first card
    # drawn": 3c, then three. The log burns a fourth (cited 629a.7)
    record = as_dealt(
        dealt(
            {
                "game": "midibaccarat",
                "shoe": "3c 4d 5d 6d 6s 7h Kd Kc",
                "wagers": [{"seat": 1, "wager": "player", "amount": 1000}],
            }
        )
    )
    record["shoe"]["discard"] = None
    steps = record["procedure"]
    steps.insert(4, _burned("2h", ref="629a.5(f)"))
    ref, message = verdict(record)
    assert ref == "629a.5(f)", message
    assert "burned 4 card(s) after an exposed 3, requires 3" in message


def _tie_round() -> dict[str, Any]:
    # burn 2c; Player Ts 7d (17), Banker 9c 8c (17): neither draws, a
    # tie. Seat 1's Player Wager pushes, seat 2's Tie wins 10:1, seat
    # 3's Player Bonus (no pair) loses
    return dealt(
        {
            "game": "21-baccarat",
            "shoe": "2c Ts 9c 7d 8c 5h 5s",
            "wagers": [
                {"seat": 1, "wager": "player", "amount": 1000},
                {"seat": 2, "wager": "tie", "amount": 100},
                {"seat": 3, "wager": "bonus_player", "amount": 100},
            ],
        }
    )


@pytest.mark.proves("681a.7(k)")
def test_681a_7_k_1_a_tie_paid_at_other_odds_settled_before_a_bonus() -> None:
    """(k) names no order for the Tie and Bonus Wagers (D95).

    The forger settled seat 2's Tie before seat 3's Bonus, which
    conforms, and paid it 8 to 1: the verdict compared the Tie with the
    Bonus that croupier settles in its place and cited (k)(2)(ii).
    """
    record = _tie_round()
    steps = record["procedure"]
    tie = steps.pop(step_index(steps, type="wager_settled", wager="tie"))
    steps.insert(step_index(steps, type="wager_settled", seat=1) + 1, tie)
    rows = record["settlements"]
    rows.insert(1, rows.pop(2))
    for n, step in enumerate(steps, start=1):
        step["seq"] = n
    assert deviations([record], across=False) == []
    tie["net"] = rows[1]["net"] = 800
    record["players"] = [
        {**p, "total_won": 900} if p["seat"] == 2 else p
        for p in record["players"]
    ]
    ref, message = verdict(record)
    assert ref == "681a.7(k)(1)(i)", message
    assert "seat 2's tie (win, net 1000)" in message


@pytest.mark.proves("681a.7(l)")
def test_681a_7_l_cards_gathered_before_the_wagers_are_settled() -> None:
    # (l): "After all wagers have been settled, the dealer shall remove
    # the cards from the table": the log gathers them first (it was
    # cited under the Player Wager's push, (i)(4))
    record = _tie_round()
    steps = record["procedure"]
    at = step_index(steps, type="phase_entered", phase="collecting")
    gathered = steps[at : at + 3]
    del steps[at : at + 3]
    first = step_index(steps, type="wager_settled")
    steps[first:first] = gathered
    ref, message = verdict(record)
    assert ref == "681a.7(l)", message
    assert "after all wagers have been settled" in message


@pytest.mark.proves("629b.1(d)")
def test_629b_1_d_perfect_pairs_settled_after_the_third_card() -> None:
    # Player 2s 2d (4) draws 5c, Banker 7h Kc (7) stays. 629b.1(d)
    # settles the Perfect Pairs "after the dealer positions the cards"
    # of the initial deal; the log settles seat 1's (2s 2d, a mixed
    # pair: 6 to 1) with the Player Wager, after the third card. It
    # was cited under 629b.1(c), the rule of what the wager pays
    record = dealt(
        {
            "game": "midibaccarat",
            "shoe": "2s 7h 2d Kc 5c 4d",
            "new_shoe": False,
            "wagers": [
                {"seat": 1, "wager": "player", "amount": 1000},
                {"seat": 1, "wager": "perfect_pairs_player", "amount": 100},
            ],
        }
    )
    steps = record["procedure"]
    pair = steps.pop(
        step_index(steps, type="wager_settled", wager="perfect_pairs_player")
    )
    assert (pair["outcome"], pair["net"]) == ("win", 600)
    steps.insert(step_index(steps, type="wager_settled", wager="player"), pair)
    ref, message = verdict(record)
    assert ref == "629b.1(d)", message
    assert "before a third card is dealt" in message


def _six_against_seven() -> dict[str, Any]:
    # Player 6s Kd (6) stays, Banker 7h Kc (7) stays: (b)(2), (c)(1)
    return dealt(
        {
            "game": "midibaccarat",
            "shoe": "6s 7h Kd Kc 2d 3d",
            "new_shoe": False,
            "wagers": [{"seat": 1, "wager": "player", "amount": 1000}],
        }
    )


@pytest.mark.proves("629a.10")
def test_629a_10_player_draws_on_6_cited_under_the_players_rule() -> None:
    """The Player's card on 6 breaks the Player's drawing rule.

    The log announces "player stays on 6" and deals the Player 2d all
    the same; croupier goes on to the Banker's announcement, and the
    verdict cited that: 631a.11(c)(1), the Banker's rule.
    """
    record = _six_against_seven()
    steps = record["procedure"]
    at = step_index(steps, type="announced", text="player stays on 6")
    steps.insert(
        at + 1,
        {
            "seq": 0,
            "ref": "629a.10",
            "type": "card_dealt",
            "to": "player",
            "card": "2d",
            "face_up": True,
            "hand": 0,
            "purpose": "",
        },
    )
    ref, message = verdict(record)
    assert ref == "629a.10", message
    assert message.startswith("player drew 2d on 6")


@pytest.mark.proves("629a.8(c)")
def test_629a_8_c_1_a_step_in_the_initial_deal_is_no_hand_standing() -> None:
    """The second cover card announced as it came out, mid-deal.

    croupier announces the shoe's last round when the round ends
    (docs/hand-history.md); the forger announced it between the
    Player's first card and the Banker's. The verdict said "banker
    stood on 0; the rule requires a card", though nobody draws or
    stands in the initial deal.
    """
    record = _six_against_seven()
    steps = record["procedure"]
    steps.insert(
        step_index(steps, type="card_dealt", card="6s") + 1,
        {
            "seq": 0,
            "ref": "629a.5(d)",
            "type": "announced",
            "text": "the second cover card came out: last round of the "
            "shoe; the cards are to be reshuffled",
        },
    )
    ref, message = verdict(record)
    assert ref == "629a.8(c)(1)", message
    assert "stood" not in message
    assert "the rule requires dealing 7h to banker" in message


@pytest.mark.proves("591.7(c)")
def test_591_7_c_a_second_card_burned_cites_the_burn_rule() -> None:
    # the same reading in Double Back Jack, whose (c) is 21 Baccarat's:
    # a second burned card was cited under the wagering phase, 673a.6(c)
    record = as_dealt(
        dealt(
            {
                "game": "double-back-jack",
                "shoe": "2c 9s Tc 9d 7h",
                "wagers": [{"seat": 1, "wager": "blackjack", "amount": 1000}],
                "decisions": [{"seat": 1, "action": "stand"}],
            }
        )
    )
    record["shoe"]["discard"] = None
    record["procedure"].insert(1, _burned("3d", ref="591.7(c)"))
    ref, message = verdict(record)
    assert ref == "591.7(c)", message
    assert "burned 2 card(s), requires 1" in message
