"""670a.9(e), D92: a misdeal recorded by another vendor, without croupier's
replay input.

``dealing_irregularities`` (``skip:3``) is croupier's own input: it makes
the engine's dealer slip so that a misdeal can be replayed. Another
vendor's record shows the slip in its ``card_dealt`` steps only. The
rounds here are croupier's own misdeals (the scenarios written from
670a.9(e)) with that input taken out of the record's rules: the
verifier reads the slips from the deal and replays them, so the honest
round conforms, stacked or as dealt, whichever turn the slip was on. A
forged one still deviates under the rule it breaks: a void where the
deal was right ((d), (f)), a stake kept ((e)), the deal played on past
the slip ((e)), and a round the rule voids recorded as one the server
voided (810a.11, D67).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from tests.verify.days import (
    SCENARIOS,
    as_dealt,
    books,
    dealt,
    deviations,
    verdict,
)

from croupier.hhf import HandHistory, rules_digest
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_round

PAI_GOW = SCENARIOS / "six-card-fortune-pai-gow"

MISDEALS = {
    "twelve_remaining_position_has_five.json": "skip:5",
    "ten_remaining_position_has_seven.json": "double:3",
    "audit-670a-9-e-52-cards-and-a-skip-leave-eleven-still-void.json": (
        "skip:2"
    ),
}
"""croupier's misdeal scenarios and the slip each replays."""


def _scenario(name: str, slips: list[str] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((PAI_GOW / name).read_text("utf-8"))
    # the rounds played right decline the Double Down (off by default,
    # D182): offered in every round, as the misdeals were dealt before
    doc.setdefault("rules", {})["double_down_offered"] = True
    if slips is not None:
        doc.setdefault("rules", {})["dealing_irregularities"] = slips
    return doc


def _unslipped(record: dict[str, Any], *, key: bool = False) -> None:
    """Take croupier's replay input out of ``record``'s rules.

    ``key``: leave it written as an empty list (as another vendor that
    copies every option would), rather than leave it out.
    """
    values = record["rules"]["values"]
    if key:
        values["dealing_irregularities"] = []
    else:
        del values["dealing_irregularities"]
    record["rules"]["digest"] = rules_digest(values)


def _conforms(record: dict[str, Any]) -> bool:
    return verify_round(HandHistory.loads(json.dumps(record))) is None


def _steps(record: dict[str, Any], kind: str) -> list[int]:
    return [i for i, s in enumerate(record["procedure"]) if s["type"] == kind]


@pytest.mark.proves("670a.9(e)")
@pytest.mark.parametrize("name", sorted(MISDEALS))
@pytest.mark.parametrize("key", [False, True], ids=["absent", "empty"])
def test_670a_9_e_misdeal_recorded_by_another_vendor(
    name: str, key: bool
) -> None:
    record = dealt(_scenario(name))
    assert record["rules"]["values"]["dealing_irregularities"] == [
        MISDEALS[name]
    ]
    assert _steps(record, "round_voided")
    _unslipped(record, key=key)
    assert _conforms(record)
    assert _conforms(as_dealt(record))
    # a record that gives its slips is held to them, not to its deal
    values = record["rules"]["values"]
    values["dealing_irregularities"] = ["skip:4@6"]
    record["rules"]["digest"] = rules_digest(values)
    assert verdict(record)[0] == "670a.9(c)"


@pytest.mark.proves("670a.9(e)")
@pytest.mark.parametrize(
    "slips",
    [
        ["skip:3@4"],
        ["double:7@6"],
        ["skip:1", "double:4@3"],
        ["skip:6@2", "skip:2@5"],
    ],
)
def test_670a_9_e_a_slip_on_any_turn_of_the_deal(slips: list[str]) -> None:
    record = dealt(_scenario("twelve_remaining_position_has_five.json", slips))
    assert _steps(record, "round_voided")
    _unslipped(record)
    assert _conforms(record)
    assert _conforms(as_dealt(record))


def _regular() -> dict[str, Any]:
    """The misdeal scenario's deck and wagers dealt right, and played."""
    doc = _scenario("twelve_remaining_position_has_five.json", [])
    doc["decisions"] = [
        {"seat": seat, "action": action}
        for seat in (1, 4)  # clockwise from the starting position, 1
        for action in ("no_double_down", "house_way")
    ]
    return dealt(doc)


def _misdeal() -> dict[str, Any]:
    record = dealt(_scenario("twelve_remaining_position_has_five.json"))
    _unslipped(record)
    return record


@pytest.mark.proves("670a.9(d)")
def test_670a_9_d_a_void_where_the_deal_was_right_deviates() -> None:
    right, void = _regular(), _misdeal()
    counted = _steps(right, "cards_counted")[0]
    voided = _steps(void, "cards_counted")[0]
    forged = copy.deepcopy(right)
    # the deal right and counted eleven, then voided as a misdeal
    forged["procedure"] = [
        *right["procedure"][: counted + 1],
        *void["procedure"][voided + 1 :],
    ]
    forged["settlements"] = void["settlements"]
    ref, message = verdict(books(forged))
    assert ref == "670a.9(d)", message
    assert "eleven remain: the deal was right" in message


@pytest.mark.proves("670a.9(e)")
def test_670a_9_e_a_misdeal_that_keeps_a_stake_deviates() -> None:
    forged = _misdeal()
    at = _steps(forged, "wager_settled")[0]
    step = forged["procedure"][at]
    step["outcome"], step["net"] = "lose", -step["amount"]
    row = forged["settlements"][0]
    row["outcome"], row["net"] = "lose", -row["amount"]
    ref, message = verdict(books(forged))
    assert ref == "670a.9(e)", message
    assert "(void, net 0)" in message


@pytest.mark.proves("670a.9(e)")
def test_670a_9_e_a_deal_played_on_past_a_misdeal_deviates() -> None:
    right, void = _regular(), _misdeal()
    counted = _steps(right, "cards_counted")[0]
    voided = _steps(void, "cards_counted")[0]
    forged = copy.deepcopy(void)
    # the slip dealt, then the round played on as though it were right
    forged["procedure"] = [
        *void["procedure"][: voided + 1],
        *right["procedure"][counted + 1 :],
    ]
    forged["settlements"] = right["settlements"]
    ref, message = verdict(books(forged))
    assert ref == "670a.9(e)", message
    assert "where the rule requires round voided (reason=misdeal" in message


@pytest.mark.proves("670a.9(d)")
def test_670a_9_d_a_misdeal_counted_wrong_deviates() -> None:
    forged = _misdeal()
    step = forged["procedure"][_steps(forged, "cards_counted")[0]]
    assert step["count"] == 12
    step["count"] = 11
    ref, message = verdict(forged)
    assert ref == "670a.9(d)", message


@pytest.mark.proves("670a.9(e)")
def test_670a_9_e_a_misdeal_is_an_over_round_not_a_voided_one() -> None:
    for key in (False, True):
        record = dealt(_scenario("twelve_remaining_position_has_five.json"))
        if key:
            _unslipped(record)
        record["status"], record["void_reason"] = "voided", "misdeal"
        ref, message = verdict(record)
        assert ref == "810a.11", message
        assert message.startswith(
            "the round is recorded as voided, but its own procedure voids "
            "it (step "
        )
        assert 'so record it with status "over"' in message


@pytest.mark.proves("670a.9(c)")
def test_670a_9_c_a_card_past_the_deal_is_cited_under_the_deal() -> None:
    # the dealer gives seat 1 a seventh card after the dealer's sixth,
    # counts ten and voids: no slip on a turn of the deal gives that, so
    # the card is the deviation, under the deal (c), not a Double Down
    # decision (670a.7(c)) the engine waited for
    record = dealt(
        _scenario("twelve_remaining_position_has_five.json", ["double:7@6"])
    )
    _unslipped(record)
    steps = record["procedure"]
    last = _steps(record, "card_dealt")[-1]
    card = steps[last]["card"]
    assert steps[last]["to"] == "dealer"
    steps[last]["to"] = "seat 1"
    for step in steps:
        if step["type"] == "cards_collected" and step["source"] == "dealer":
            step["cards"] = step["cards"].removesuffix(" " + card)
        elif step["type"] == "cards_collected" and step["source"] == "seat 1":
            step["cards"] += " " + card
    ref, message = verdict(record)
    assert ref == "670a.9(c)", message
    assert message.startswith(
        f"the log deals {card} to seat 1 after the deal is complete: the "
        f"rule deals six turns"
    )


@pytest.mark.proves("670a.9(e)", "670a.9(a)(2)")
@pytest.mark.parametrize("slip", ["skip:3", "double:7", "skip:6@5"])
def test_670a_9_e_a_day_of_misdeals_recorded_by_another_vendor(
    slip: str,
) -> None:
    # a sample table's day, every deal slipped, written as the vendor
    # wrote it: no replay input, the shuffle in the preparation alone
    docs = []
    for history in sample_histories(
        "six-card-fortune-pai-gow",
        6,
        seed=3,
        rules={"dealing_irregularities": [slip]},
    ):
        doc = json.loads(history.dumps())
        assert _steps(doc, "round_voided")
        _unslipped(doc, key=True)
        steps = [s for s in doc["procedure"] if s["type"] != "shuffled"]
        for n, step in enumerate(steps, start=1):
            step["seq"] = n
        doc["procedure"] = steps
        docs.append(doc)
    assert deviations(docs) == []
