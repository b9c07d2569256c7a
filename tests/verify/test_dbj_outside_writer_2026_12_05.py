"""Double Back Jack logs an outside writer forged (audit, 2026-12-05).

A helper wrote its own Double Back Jack table from the documentation
alone and forged rounds from it. Three were reported under a subsection
other than the one they break, and a table's new shoe could hide where
its cover card went. Each case here is a round dealt by croupier from a
stacked shoe, then broken in the one place the forger broke it; the
subsection expected is read from the rule's text, cited beside it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import dealt, deviations, step_index, verdict

from croupier.hhf import rules_digest
from croupier.hhf.sample import sample_histories


def _round(
    shoe: str,
    decisions: list[str],
    rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One box's $10 Blackjack Wager dealt from ``shoe`` (burn first)."""
    doc: dict[str, Any] = {
        "game": "double-back-jack",
        "shoe": shoe,
        "wagers": [{"seat": 1, "wager": "blackjack", "amount": 1000}],
        "decisions": [{"seat": 1, "action": a} for a in decisions],
    }
    if rules is not None:
        doc["rules"] = rules
    return dealt(doc)


def _phase(name: str, ref: str) -> dict[str, Any]:
    return {"seq": 0, "ref": ref, "type": "phase_entered", "phase": name}


@pytest.mark.proves("591.7(g)")
def test_591_7_g_insurance_offered_on_a_king() -> None:
    # burn 2c; seat 1 9s 9d (18); the dealer's first card Kc, hole 7h:
    # (g) offers insurance only on an ace, so (h)'s check comes next
    record = _round("2c 9s Kc 9d 7h", ["stand"])
    steps = record["procedure"]
    steps.insert(
        step_index(steps, type="phase_entered", phase="card_reader"),
        _phase("insurance", "591.7(g)"),
    )
    ref, message = verdict(record)
    assert ref == "591.7(g)", message
    assert "insurance" in message
    assert "ace" in message


@pytest.mark.proves("591.7(g)")
@pytest.mark.parametrize(
    ("option", "value", "ref"),
    [
        ("insurance", False, "591.7(g)"),
        ("double_for_less", False, "673a.10(a)"),
        ("double_after_split", False, "673a.10(c)"),
        ("max_split_hands", 1, "673a.11(a)"),
        ("split_aces_may_draw", False, "673a.11(c)"),
    ],
)
def test_591_7_g_rules_that_take_away_what_the_regulation_gives(
    option: str, value: object, ref: str
) -> None:
    """D97: a record's own rules may not switch off a fixed option.

    The forger's round set ``insurance`` false and offered none on an
    ace: it conformed, though (g) says the dealer "shall offer" it.
    The same holds for the player's rights to double for less, after a
    split, to split into two hands, and to draw to split aces.
    """
    record = _round("2c 9s Tc 9d 7h", ["stand"])
    assert deviations([record], across=False) == []
    record["rules"]["values"][option] = value
    record["rules"]["digest"] = rules_digest(record["rules"]["values"])
    [(_, found, message)] = deviations([record], across=False)
    assert found == ref, message
    assert f"the rules set {option} = " in message


@pytest.mark.proves("591.7(l)")
def test_591_7_l_second_chance_offered_to_a_hand_of_18() -> None:
    # seat 1 stands on 18: (l) offers a Second Chance only to a hand
    # greater than 21, so the hole card is turned next, (n)
    record = _round("2c 9s Tc 9d 7h", ["stand"])
    steps = record["procedure"]
    steps.insert(
        step_index(steps, type="phase_entered", phase="hole_card"),
        _phase("second_chance", "591.7(l)"),
    )
    ref, message = verdict(record)
    assert ref == "591.7(l)", message
    assert "over 21" in message


@pytest.mark.proves("673a.11(b)")
def test_673a_11_b_second_split_hand_dealt_before_the_first_is_done() -> None:
    # 8s 8d split against the dealer's Tc (hole 7h): the first hand takes
    # 3c and stands on 11, the second takes Td and stands on 18. The log
    # deals the second hand its card before the first hand's stand
    record = _round("2c 8s Tc 8d 7h 3c Td", ["split", "stand", "stand"])
    steps = record["procedure"]
    second = step_index(steps, type="card_dealt", card="Td")
    stand = step_index(steps, type="decision_made", action="stand")
    assert stand < second
    steps.insert(stand, steps.pop(second))
    ref, message = verdict(record)
    assert ref == "673a.11(b)", message
    assert "seat 1 hand 2 was dealt Td" in message
    assert "first hand" in message


def _whole_new_shoes(game: str) -> list[dict[str, Any]]:
    """A whole-shoe table's day of one deck, through several new shoes."""
    return [
        json.loads(h.dumps())
        for h in sample_histories(game, 14, seed=3, rules={"decks": 1})
    ]


def _marker_index(doc: dict[str, Any]) -> int | None:
    return next(
        (
            i
            for i, s in enumerate(doc["shoe"]["preparation"])
            if s["type"] == "cover_card_inserted"
            and s["purpose"] == "reshuffle marker"
        ),
        None,
    )


@pytest.mark.proves("591.7(d)")
@pytest.mark.parametrize("known", ["stacked", "as_dealt"])
def test_591_7_d_a_tables_new_shoe_records_its_cover_card(known: str) -> None:
    """D90: without the step, the cover card's place was never checked.

    The forger's shoe, reshuffled at the end of a round, took its cover
    card 100 cards down instead of the rules' 234 and left the
    ``cover_card_inserted`` step out of the next round's preparation:
    every round conformed.
    """
    docs = _whole_new_shoes("double-back-jack")
    if known == "as_dealt":
        for doc in docs:
            doc["shoe"].update(known="as_dealt", stack=None)
    assert deviations(docs) == []
    k = next(
        i
        for i, doc in enumerate(docs)
        if doc["shoe"]["new_shoe"]
        and all(s["type"] != "shuffled" for s in doc["shoe"]["preparation"])
    )
    marker = _marker_index(docs[k])
    assert marker is not None
    del docs[k]["shoe"]["preparation"][marker]
    for n, step in enumerate(docs[k]["shoe"]["preparation"], start=1):
        step["seq"] = n
    found = deviations(docs)
    assert found[0][:2] == (k + 1, "591.7(d)"), found
    assert "cover card" in found[0][2]
    # a scenario's shoe (not said whole) may leave it out, as before
    del docs[k]["shoe"]["whole"]
    assert [line for line, _, _ in deviations(docs)] != [k + 1]


@pytest.mark.proves("629a.5(d)")
def test_629a_5_d_a_tables_new_midi_shoe_records_its_second_cover() -> None:
    docs = _whole_new_shoes("midibaccarat")
    k = next(
        i
        for i, doc in enumerate(docs)
        if i > 0 and _marker_index(doc) is not None
    )
    doc = docs[k]
    del doc["shoe"]["preparation"][_marker_index(doc) or 0]
    for n, step in enumerate(doc["shoe"]["preparation"], start=1):
        step["seq"] = n
    doc["rules"]["digest"] = rules_digest(doc["rules"]["values"])
    found = deviations([doc], across=False)
    assert [(line, ref) for line, ref, _ in found] == [(1, "629a.5(d)")]


_TWO_21S = {
    "game": "double-back-jack",
    # seat 1 hits 16 to 21, seat 2 stands on 18, seat 3 hits 14 to 21;
    # the dealer's 7d Ts stands on 17
    "shoe": "2c 9s Tc 8h 7d 7h 8s 6c Ts 5s 7c",
    "wagers": [
        {"seat": s, "wager": "blackjack", "amount": 1000} for s in (1, 2, 3)
    ],
    "decisions": [
        {"seat": 1, "action": "hit"},
        {"seat": 2, "action": "stand"},
        {"seat": 3, "action": "hit"},
    ],
}


@pytest.mark.proves("591.7(m)")
def test_591_7_m_21s_paid_when_every_player_has_acted() -> None:
    """D96: (m) read as paying the 21s before the hole card, (n).

    An outside writer's honest round paid its 21s when every player had
    acted, just before the hole card; with no option to say so, it
    deviated. Under ``twenty_one_paid = before_hole_card`` it conforms,
    and the same record under the default (at once) does not.
    """
    record = dealt(
        {**_TWO_21S, "rules": {"twenty_one_paid": "before_hole_card"}}
    )
    steps = record["procedure"]
    paid = [
        s["seat"]
        for s in steps
        if s["type"] == "wager_settled" and s["ref"] == "591.7(m)"
    ]
    assert paid == [3, 1]
    last_decision = max(
        i for i, s in enumerate(steps) if s["type"] == "decision_made"
    )
    hole = step_index(steps, type="card_exposed", to="dealer")
    first_paid = step_index(steps, type="wager_settled", ref="591.7(m)")
    assert last_decision < first_paid < hole
    assert deviations([record], across=False) == []
    record["rules"]["values"]["twenty_one_paid"] = "at_once"
    record["rules"]["digest"] = rules_digest(record["rules"]["values"])
    [(_, ref, message)] = deviations([record], across=False)
    assert ref == "591.7(m)", message


@pytest.mark.proves("810a.11")
def test_810a_11_the_preparation_is_numbered_in_order() -> None:
    """Its steps go on from the table's log, one apart, in order."""
    docs = _whole_new_shoes("double-back-jack")
    doc = next(d for d in docs if len(d["shoe"]["preparation"]) >= 2)
    assert deviations([doc], across=False) == []
    first, second = doc["shoe"]["preparation"][:2]
    first["seq"], second["seq"] = second["seq"], first["seq"]
    [(_, ref, message)] = deviations([doc], across=False)
    assert ref == "810a.11", message
    assert "in order" in message
