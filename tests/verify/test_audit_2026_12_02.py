"""Logs an adversarial audit of ``croupier verify`` found passed or crashed.

Each case starts from conforming sample rounds and changes them as a
faulty table or log would; the verdict expected is read off the rule
(the subsection, decision or record rule that the change breaks), not
off the verifier. Every case failed before this change (D65): a broken
log was reported conforming, a number crashed the verifier or was read
as a float, or, under a Rules Submission, equal odds were refused.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.cards import Card
from croupier.hhf.format import HistoryFormatError
from croupier.hhf.sample import sample_histories
from croupier.registry import find_game
from croupier.round import Action
from croupier.shoe import COVER_CARD, Shoe
from croupier.verify import verify_lines


def _docs(game: str, count: int = 1, seed: int = 3) -> list[dict[str, Any]]:
    return [
        json.loads(h.dumps()) for h in sample_histories(game, count, seed=seed)
    ]


def _verdict(*docs: dict[str, Any]) -> list[tuple[bool, str | None]]:
    report = verify_lines([json.dumps(d) for d in docs])
    return [
        (v.conforming, None if v.deviation is None else v.deviation.ref)
        for v in report.verdicts
    ]


def _first(doc: dict[str, Any], kind: str) -> dict[str, Any]:
    step: dict[str, Any] = next(
        s for s in doc["procedure"] if s["type"] == kind
    )
    return step


def test_810a_11_a_number_past_every_integer_is_no_crash() -> None:
    """``1e400`` (infinity to the standard parser) where a count belongs."""
    [doc] = _docs("six-card-fortune-pai-gow")
    doc["shoe"]["starting_position"] = None
    step = _first(doc, "starting_position_determined")
    text = json.dumps(doc).replace(
        f'"position": {step["position"]}', '"position": 1e400', 1
    )
    [verdict] = verify_lines([text]).verdicts
    assert not verdict.conforming
    assert verdict.deviation is not None
    assert verdict.deviation.ref == "810a.11"


@pytest.mark.parametrize("where", ["balance_before", "amount"])
def test_810a_11_integers_past_64_bits_are_malformed(where: str) -> None:
    """orjson reads such integers as floats: the format bounds them."""
    [doc] = _docs("midibaccarat")
    if where == "amount":
        _first(doc, "wager_placed")["amount"] = 10**30
    else:
        player = doc["players"][0]
        player["balance_before"] = 2**64 + 4096
        player["balance_after"] = 2**64 + 4096 + 2000  # 2000 too many
    with pytest.raises(HistoryFormatError, match="maximum"):
        verify_lines([json.dumps(doc)])


def _voided(
    doc: dict[str, Any], returned: list[tuple[int, int]]
) -> dict[str, Any]:
    """``doc`` stopped before its deal and voided, returning ``returned``."""
    kinds = [s["type"] for s in doc["procedure"]]
    doc["procedure"] = doc["procedure"][: kinds.index("card_dealt")]
    doc["procedure"].append(
        {
            "seq": len(doc["procedure"]) + 1,
            "ref": "D25",
            "type": "round_voided",
            "reason": "table closed",
        }
    )
    doc["status"], doc["void_reason"] = "voided", "table closed"
    doc["settlements"] = [
        {
            "seat": seat,
            "wager": "blackjack",
            "amount": amount,
            "outcome": "void",
            "net": 0,
            "ref": "D25",
        }
        for seat, amount in returned
    ]
    seats = sorted({seat for seat, _ in returned})
    doc["players"] = [
        {
            "seat": seat,
            "player_id": f"p{seat}",
            "balance_before": None,
            "balance_after": None,
            "total_bet": sum(a for s, a in returned if s == seat),
            "total_won": sum(a for s, a in returned if s == seat),
        }
        for seat in seats
    ]
    return doc


def test_d25_a_voided_round_returns_every_stake_to_its_seat() -> None:
    [doc] = _docs("double-back-jack")
    placed = [
        (s["seat"], s["amount"])
        for s in doc["procedure"]
        if s["type"] == "wager_placed"
    ]
    assert len(placed) >= 2
    first_seat, first_amount = placed[0]
    whole = _voided(json.loads(json.dumps(doc)), placed)
    short = _voided(
        json.loads(json.dumps(doc)), [(first_seat, 1), *placed[1:]]
    )
    nothing = _voided(json.loads(json.dumps(doc)), [])
    elsewhere = _voided(json.loads(json.dumps(doc)), [(6, first_amount)])
    assert first_seat != 6
    assert _verdict(whole) == [(True, None)]
    assert _verdict(short) == [(False, "D25")]
    assert _verdict(nothing) == [(False, "D25")]
    assert _verdict(elsewhere) == [(False, "D25")]


def _stacked(doc: dict[str, Any], tokens: list[str]) -> dict[str, Any]:
    doc["shoe"]["stack"] = " ".join(tokens)
    return doc


def test_673a_3_a_a_shuffled_shoe_holds_every_card_of_the_decks() -> None:
    """Aces missing below the cards the round uses: the shoe is short."""
    [doc] = _docs("double-back-jack")
    assert any(s["type"] == "shuffled" for s in doc["shoe"]["preparation"])
    tokens = doc["shoe"]["stack"].split()
    # below the cover card: far under the round's cards, and the cover
    # card keeps its place
    keep = max(i for i, t in enumerate(tokens) if t == "CC") + 1
    lower = [t for t in tokens[keep:] if not t.startswith("A")]
    assert len(lower) < len(tokens) - keep
    short = _stacked(json.loads(json.dumps(doc)), tokens[:keep] + lower)
    assert _verdict(doc) == [(True, None)]
    assert _verdict(short) == [(False, "673a.3(a)")]
    # a deliberate irregularity test may hold a short shoe, but it is not
    # then the table's whole shoe (D89)
    short["shoe"]["irregularity_test"] = True
    assert _verdict(short) == [(False, "673a.3(a)")]
    del short["shoe"]["whole"]
    assert _verdict(short) == [(True, None)]


@pytest.mark.parametrize(
    ("game", "ref"),
    [("midibaccarat", "629a.5(d)"), ("double-back-jack", "591.7(d)")],
)
def test_cover_card_where_the_preparation_says(game: str, ref: str) -> None:
    """The stack's reshuffle cover card where the recorded preparation put it.

    (Midibaccarat: 629a.5(d); Double Back Jack: 591.7(d).)
    """
    [doc] = _docs(game)
    tokens = doc["shoe"]["stack"].split()
    cut_at_bottom = tokens[-1] == "CC"
    cards = [t for t in tokens if t != "CC"]
    moved = [*cards[:-3], "CC", *cards[-3:]] + (
        ["CC"] if cut_at_bottom else []
    )
    gone = cards + (["CC"] if cut_at_bottom else [])
    assert _verdict(doc) == [(True, None)]
    for tokens_now in (moved, gone):
        changed = _stacked(json.loads(json.dumps(doc)), tokens_now)
        assert _verdict(changed) == [(False, ref)]


def test_d8_cover_card_at_the_rules_penetration() -> None:
    """Stack and preparation agree, at 309 of 312: the rules say 3/4 (D8)."""
    [doc] = _docs("double-back-jack")
    assert doc["rules"]["values"]["penetration"] == "3/4"
    cards = [t for t in doc["shoe"]["stack"].split() if t != "CC"]
    doc = _stacked(doc, [*cards[:309], "CC", *cards[309:]])
    for step in doc["shoe"]["preparation"]:
        if step["type"] == "cover_card_inserted":
            step["position"] = 309
    [verdict] = verify_lines([json.dumps(doc)]).verdicts
    assert verdict.deviation is not None
    assert verdict.deviation.ref == "591.7(d)"  # where the option applies
    assert "penetration 3/4 puts it 234 down" in verdict.deviation.message


@pytest.mark.parametrize("number", [1, 7, 99, -5])
def test_670a_9_b_the_drawn_number_counts_to_the_position(number: int) -> None:
    """Number ``n`` counts from the dealer (1): position ``8 - n``."""
    [doc] = _docs("six-card-fortune-pai-gow")
    step = _first(doc, "starting_position_determined")
    position = step["position"]
    good = json.loads(json.dumps(doc))
    good_step = _first(good, "starting_position_determined")
    good_step.update(method="rng", number=8 - position)
    assert _verdict(good) == [(True, None)]
    if 8 - number == position:
        return
    step.update(method="rng", number=number)
    assert _verdict(doc) == [(False, "670a.9(b)")]


def test_810a_11_a_round_that_ended_before_the_last_one_ended() -> None:
    first, second = _docs("double-back-jack", 2)
    first["started_at"] = "2026-12-01T10:00:00Z"
    first["ended_at"] = "2026-12-01T10:05:00Z"
    second["started_at"] = None
    second["ended_at"] = "2026-12-01T09:00:00Z"
    assert _verdict(first, second) == [(True, None), (False, "810a.11")]


def test_810a_11_the_record_names_its_own_game_section() -> None:
    [doc] = _docs("double-back-jack")
    doc["game"]["section"] = "629a.5"
    assert _verdict(doc) == [(False, "810a.11")]


def test_810a_11_a_stacked_shoe_records_its_stack() -> None:
    [doc] = _docs("21-baccarat")
    doc["shoe"]["stack"] = None
    doc["shoe"]["discard"] = None
    assert _verdict(doc) == [(False, "810a.11")]


@pytest.mark.parametrize(
    ("written", "holds"), [("6:4", True), ("3:2", True), ("7:5", False)]
)
def test_591_7_f_submission_odds_of_equal_ratio_agree(
    written: str, holds: bool
) -> None:
    """A Rules Submission's ``6:4`` pays what a round's ``3:2`` pays."""
    docs = _docs("double-back-jack", 3)
    assert all(d["rules"]["values"]["blackjack_payout"] == "3:2" for d in docs)
    report = verify_lines(
        [json.dumps(d) for d in docs],
        submission={"blackjack_payout": written},
    )
    assert (report.conforming == report.rounds) is holds


def _redealt(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc``'s wagers dealt again by the engine on its recorded shoe.

    Every decision is the first legal one of stand / no insurance /
    decline; the steps, settlements and players are the engine's, so the
    round is consistent in itself whatever its shoe and flags say.
    """
    spec = find_game(doc["game"]["id"])
    rules = spec.rules_type.from_mapping(doc["rules"]["values"])
    shoe = Shoe(
        COVER_CARD if t == "CC" else Card.parse(t)
        for t in doc["shoe"]["stack"].split()
    )
    rack = [Card.parse(t) for t in (doc["shoe"]["discard"] or "").split()]
    if rack:
        shoe.discard = rack
        shoe.account_for(rack)
    rnd = spec.new_round(
        rules=rules, shoe=shoe, new_shoe=doc["shoe"]["new_shoe"]
    )
    for step in doc["procedure"]:
        if step["type"] == "card_dealt":
            break
        if step["type"] == "wager_placed":
            rnd.place_wager(step["seat"], step["wager"], step["amount"])
    rnd.deal()
    while (pending := rnd.pending()) is not None:
        name = next(
            n
            for n in pending.legal
            if n in ("stand", "no_insurance", "decline")
        )
        rnd.apply(Action(seat=pending.seat, name=name))
    doc["procedure"] = [e.to_dict() for e in rnd.events]
    doc["settlements"] = [s.to_dict() for s in rnd.settlements]
    for player in doc["players"]:
        seat = player["seat"]
        rows = [s for s in doc["settlements"] if s["seat"] == seat]
        player["total_bet"] = sum(s["amount"] for s in rows)
        player["total_won"] = sum(max(s["amount"] + s["net"], 0) for s in rows)
        player["balance_before"] = player["balance_after"] = None
    return doc


@pytest.mark.parametrize(
    ("game", "ref"),
    [
        ("double-back-jack", "591.7(c)"),
        ("21-baccarat", "681a.7(c)"),
        ("midibaccarat", "629a.5(f)"),
    ],
)
def test_a_shoe_shuffled_for_the_round_begins_with_its_burn(
    game: str, ref: str
) -> None:
    """A shuffle in the preparation is a new shoe: no burn is a deviation.

    (Double Back Jack 591.7(c), 21 Baccarat 681a.7(c), Midibaccarat
    629a.5(f).)
    """
    [doc] = _docs(game)
    assert doc["shoe"]["new_shoe"]
    assert any(s["type"] == "shuffled" for s in doc["shoe"]["preparation"])
    doc["shoe"]["new_shoe"] = False
    doc = _redealt(doc)
    assert not any(s["type"] == "card_burned" for s in doc["procedure"])
    assert _verdict(doc) == [(False, ref)]


def test_591_7_a_a_new_shoe_is_shuffled_whole() -> None:
    """A round after a round of the same shoe claims a new, unshuffled one.

    Its rack still holds the first round's cards: a deviation of the round
    alone; with the rack emptied, the round after a round that left its
    shoe to be dealt on, with no shuffle recorded, deviates across rounds.
    A record that says its shoe is the table's whole shoe (D75) is short
    of the first round's cards then, alone; without the field it is not.
    """
    first, second = _docs("double-back-jack", 2, seed=4)
    assert not second["shoe"]["new_shoe"]
    assert second["shoe"]["discard"]
    second["shoe"]["new_shoe"] = True
    racked = _redealt(json.loads(json.dumps(second)))
    assert _verdict(first, racked) == [(True, None), (False, "591.7(a)")]
    second["shoe"]["discard"] = ""
    emptied = _redealt(second)
    alone = verify_lines([json.dumps(emptied)], across=False).verdicts
    assert [v.deviation.ref for v in alone if v.deviation] == ["591.7(d)(2)"]
    del emptied["shoe"]["whole"]
    alone = verify_lines([json.dumps(emptied)], across=False).verdicts
    assert [v.conforming for v in alone] == [True]
    assert _verdict(first, emptied) == [(True, None), (False, "591.7(a)")]
