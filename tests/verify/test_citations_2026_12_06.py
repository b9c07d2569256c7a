"""Pai gow and Rules Submission deviations cited where the text puts them.

Issue 17 asks each deviation to be cited under the subsection it breaks.
An audit found three cited elsewhere. Each case is a round dealt by
croupier from a stacked deck, then broken in one place, as the forger
of ``test_paigow_outside_writer_2026_12_06`` broke its rounds:

- a seat that decides while another seat's decision is pending was
  cited under the pending decision's own subsection (670a.7(c) for the
  Double Down, 670a.11 for a setting). The order the seats act in is the
  order dealt: clockwise from the starting position, one position after
  another, under (c) of the section the deal runs by (670a.9(c) from the
  hand or a manual shoe, 670a.10(c) from an automated shoe). 670a.11, on
  how hands are set, was not retrieved (D119);
- an Envy Bonus paid on the stack of a position with no wager was cited
  under the bare 670a.11. Such a stack is collected unseen once the deal
  is found right (670a.9(f)) and earns nothing (D23, D120);
- a round whose rules depart from the Rules Submission in an option no
  subsection fixes (a paytable, the progressive meter's terms) was cited
  under the bare section with nothing said; it now says which house
  decision sets the option (D121, worded as D112 words a house rule).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from tests.verify.days import books, deviations, verdict
from tests.verify.test_paigow_outside_writer_2026_12_06 import _round, _steps

from croupier.registry import all_games, find_game
from croupier.regs import Ref
from croupier.verify import verify_lines

_ORDER = {
    "hand": "670a.9(c)",
    "manual_shoe": "670a.9(c)",
    "automated_shoe": "670a.10(c)",
}
"""(c) of the section each way of dealing runs by: the first card (or
stack) to the starting position, then clockwise to every position."""

_TWO_SEATS = {
    1: "As Kd 9c 7h 5s 3d",
    2: "Ac Ad Kh Ks 7c 9d",
    7: "Qc Qd 8s 5h 3s 2c",
}
"""Seat 1 (ace high), seat 2 (two pair), the dealer (a pair of queens)."""


def _two_seats(dealing: str) -> dict[str, Any]:
    """Seats 1 and 2 play, dealt from seat 1: seat 1 decides first."""
    return _round(
        _TWO_SEATS,
        [(1, "pai_gow", 1000), (2, "pai_gow", 1000)],
        [
            {"seat": 1, "action": "no_double_down"},
            {"seat": 1, "action": "house_way"},
            {"seat": 2, "action": "no_double_down"},
            {"seat": 2, "action": "house_way"},
        ],
        dealing=dealing,
    )


def _decision(steps: list[dict[str, Any]], seat: int, action: str) -> int:
    return next(
        i
        for i, s in enumerate(steps)
        if s["type"] == "decision_made"
        and s["seat"] == seat
        and s["action"] == action
    )


@pytest.mark.proves("670a.9(c)", "670a.10(c)")
@pytest.mark.parametrize("dealing", sorted(_ORDER))
def test_670a_9_c_seat_2_doubles_down_while_seat_1s_double_down_is_pending(
    dealing: str,
) -> None:
    # seat 1 got the first card, so seat 1 decides first; the forger
    # recorded seat 2's Double Down decision before seat 1's
    record = _two_seats(dealing)
    assert deviations([record], across=False) == []
    steps = record["procedure"]
    first = _decision(steps, 1, "no_double_down")
    steps.insert(first, steps.pop(_decision(steps, 2, "no_double_down")))
    ref, message = verdict(record)
    assert ref == _ORDER[dealing], message
    assert "seat 2 acted while seat 1's decision is pending" in message


@pytest.mark.proves("670a.9(c)", "670a.10(c)")
@pytest.mark.parametrize("dealing", sorted(_ORDER))
def test_670a_9_c_seat_2_sets_its_hand_while_seat_1s_setting_is_pending(
    dealing: str,
) -> None:
    # seat 1 declined the Double Down; seat 2's setting (hand_set, then
    # its decision) is recorded before seat 1 set its hand
    record = _two_seats(dealing)
    steps = record["procedure"]
    at = _decision(steps, 2, "house_way")
    moved = steps[at - 1 : at + 1]
    del steps[at - 1 : at + 1]
    first = _decision(steps, 1, "no_double_down") + 1
    steps[first:first] = moved
    ref, message = verdict(record)
    assert ref == _ORDER[dealing], message
    assert "seat 2 acted while seat 1's decision is pending" in message


_ENVY = {
    1: "Ac Kd 9c 7h 5s 3d",
    2: "2c 2d Kh Qs 7c 9d",
    3: "8c 8d 8h 8s 4c 6d",
    7: "Qc Qd 9s 5h 3s 2h",
}
"""Seat 3 holds four eights but places no wager."""


@pytest.mark.proves("670a.9(f)")
@pytest.mark.parametrize("dealing", sorted(_ORDER))
def test_670a_9_f_an_envy_bonus_paid_on_the_stack_of_a_seat_without_a_wager(
    dealing: str,
) -> None:
    # seat 1 makes a Qualifying Fortune Bonus Wager (an Envy lammer);
    # seat 3, without a wager, is dealt four of a kind. Its stack goes to
    # the discard rack unseen (670a.9(f)); the forger paid seat 1 an Envy
    # Bonus on it (5 to 1 on the 500 qualifying minimum, D23)
    record = _round(
        _ENVY,
        [
            (1, "pai_gow", 1000),
            (1, "fortune_bonus", 500),
            (2, "pai_gow", 1000),
        ],
        [
            {"seat": 1, "action": "no_double_down"},
            {"seat": 1, "action": "house_way"},
            {"seat": 2, "action": "no_double_down"},
            {"seat": 2, "action": "house_way"},
        ],
        dealing=dealing,
    )
    assert deviations([record], across=False) == []
    [gone] = _steps(record, type="cards_collected", source="seat 3")
    assert gone["exposed"] is False
    steps = record["procedure"]
    [bonus] = _steps(record, type="wager_settled", wager="fortune_bonus")
    envy = {
        "seq": 0,
        "ref": "670a.11",
        "type": "envy_bonus_paid",
        "seat": 1,
        "source": "seat 3",
        "category": "four of a kind",
        "amount": 2500,
    }
    steps.insert(steps.index(bonus), envy)
    bonus["outcome"], bonus["net"] = "win", 2000
    for row in record["settlements"]:
        if row["wager"] == "fortune_bonus":
            row["outcome"], row["net"] = "win", 2000
    ref, message = verdict(books(record))
    assert ref == "670a.9(f)", message
    assert "Envy Bonus on seat 3's four of a kind" in message
    assert "seat 3 held no wager" in message


_HOUSE_ONLY = {
    "six-card-fortune-pai-gow": {
        "fortune_bonus_paytable": "D23",
        "envy_paytable": "D23",
        "progressive_odds_paytable": "D23",
        "progressive_meter_paytable": "D23",
        "progressive_reset": "D23",
        "progressive_meter": "D23",
        "progressive_contribution": "D23",
    },
}
"""The options no retrieved subsection fixes, by game, and the decision
that sets each: the Fortune Bonus, Envy and progressive paytables and
the meter's terms would be in 670a's payout-odds section, which was not
retrieved; 670a.9(a)(3) only says a qualifying wager gets a lammer and
the progressive wagers are collected and counted."""


def test_d121_every_option_cites_a_subsection_or_is_a_named_house_rule() -> (
    None
):
    house: dict[str, dict[str, str]] = {}
    for spec in all_games():
        for info in spec.rules_type.options():
            if info.ref:
                # a citation the project can parse, of the game's chapters
                ref = Ref.parse(info.ref)
                assert ref.section.split(".")[0].rstrip("ab") in {
                    "591",
                    "629",
                    "670",
                    "673",
                    "681",
                }, (spec.name, info.name, info.ref)
                assert info.house_rule is None, (spec.name, info.name)
                continue
            assert info.decision is not None, (spec.name, info.name)
            assert re.fullmatch(r"D\d+", info.decision), info.decision
            assert info.house_rule == f"house rule {info.decision}"
            house.setdefault(spec.name, {})[info.name] = info.decision
    assert house == _HOUSE_ONLY


def test_d121_a_paytable_unlike_the_submissions_names_house_rule_d23() -> None:
    record = _round(
        _ENVY,
        [(1, "pai_gow", 1000), (1, "fortune_bonus", 500)],
        [
            {"seat": 1, "action": "no_double_down"},
            {"seat": 1, "action": "house_way"},
        ],
    )
    envy = record["rules"]["values"]["envy_paytable"]
    assert envy["four_of_a_kind"] == "5:1"
    submission = {
        "double_down_offered": True,  # as the round (off by default, D182)
        "envy_paytable": {**envy, "four_of_a_kind": "4:1"},
    }
    report = verify_lines([json.dumps(record)], submission=submission)
    [verdict_] = report.verdicts
    assert verdict_.deviation is not None
    deviation = verdict_.deviation
    # the game's section, no subsection, and the decision named
    assert deviation.ref == find_game("six-card-fortune-pai-gow").section
    assert "(house rule D23, no subsection)" in deviation.message
    assert "envy_paytable" in deviation.message


def test_d121_an_option_with_a_subsection_names_no_house_rule() -> None:
    record = _round(
        _ENVY,
        [(1, "pai_gow", 1000)],
        [
            {"seat": 1, "action": "no_double_down"},
            {"seat": 1, "action": "house_way"},
        ],
    )
    submission = copy.deepcopy(record["rules"]["values"])
    submission["house_way"] = "best_high"
    report = verify_lines([json.dumps(record)], submission=submission)
    [verdict_] = report.verdicts
    assert verdict_.deviation is not None
    assert verdict_.deviation.ref == "670a.11"
    assert "house rule" not in verdict_.deviation.message
