"""D75: a record that says its shoe is the table's whole shoe reshuffles it.

``shoe.whole`` (CHH 1.1) says that the stack, rack and layout are the
table's whole shoe. A reshuffle at the cover card (591.7(d)(2),
681a.7(d)(2)) then gathers the rules' decks, as the reshuffle after a
void does (D72); without the field a record may be a scenario's, whose
stacked shoe holds only the cards its round deals, and it conforms as
before. The broken copies are changed by hand, and the counts expected
worked out from the decks: six decks of 52 are 312 cards, one deck 52.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.cards import Card
from croupier.hhf import HandHistory, validate
from croupier.hhf.format import from_record
from croupier.hhf.sample import sample_histories
from croupier.history import Recorder
from croupier.registry import all_games, find_game
from croupier.rng import SeededRng
from croupier.shoe import Shoe
from croupier.verify import verify_lines

DECK = [f"{rank}{suit}" for suit in "cdhs" for rank in "23456789TJQKA"]
"""One deck of 52, written out."""


# -- a table's day: six-deck Double Back Jack, sample rounds ---------------


def _dbj_day() -> tuple[list[dict[str, Any]], int]:
    """A table's rounds (whole shoe) and the index of a reshuffling one."""
    docs = [
        json.loads(h.dumps())
        for h in sample_histories("double-back-jack", 40, seed=5)
    ]
    reshuffled = [
        i
        for i, doc in enumerate(docs)
        if any(s["type"] == "cover_card_reached" for s in doc["procedure"])
    ]
    assert reshuffled, "forty rounds of six decks reach the cover card"
    return docs, reshuffled[0]


def _lose_a_rack_card(doc: dict[str, Any]) -> None:
    """The shoe lost a card of its rack: 311 cards reshuffled, not 312."""
    rack = doc["shoe"]["discard"].split()
    doc["shoe"]["discard"] = " ".join(rack[1:])
    for step in doc["procedure"]:
        if step["type"] == "shuffled":
            assert step["cards"] == 312
            step["cards"] = 311


def test_a_tables_day_says_whole_and_conforms() -> None:
    docs, i = _dbj_day()
    assert all(doc["shoe"]["whole"] is True for doc in docs)
    assert all(doc["version"] == "1.1" for doc in docs)
    assert deviations(docs) == []
    steps = docs[i]["procedure"]
    (shuffled,) = [s for s in steps if s["type"] == "shuffled"]
    assert (shuffled["ref"], shuffled["cards"]) == ("591.7(d)(2)", 312)


def test_591_7_d_a_whole_shoe_reshuffled_short_deviates() -> None:
    docs, i = _dbj_day()
    _lose_a_rack_card(docs[i])
    ((line, ref, message),) = deviations(docs[i : i + 1])
    assert (line, ref) == (1, "591.7(d)(2)")
    assert "the reshuffle gathers 311 cards" in message
    assert "the rules' decks hold 312" in message
    assert "shoe.whole" in message


def test_without_whole_a_short_reshuffle_conforms_as_before() -> None:
    # a scenario's stacked shoe may hold only the cards its round deals:
    # without the field the record is not told from one (D72, D75)
    docs, i = _dbj_day()
    _lose_a_rack_card(docs[i])
    del docs[i]["shoe"]["whole"]
    assert deviations(docs[i : i + 1]) == []
    docs[i]["shoe"]["whole"] = False
    assert deviations(docs[i : i + 1]) == []


def test_irregularity_test_is_not_a_whole_shoe() -> None:
    """D89: a deliberately short shoe is tested without ``whole``; with it
    the record says both that the shoe holds the decks and that it need
    not."""
    docs, i = _dbj_day()
    _lose_a_rack_card(docs[i])
    docs[i]["shoe"]["irregularity_test"] = True
    [(line, ref, message)] = deviations(docs[i : i + 1])
    assert (line, ref) == (1, "673a.3(a)")
    assert "cannot be both" in message
    del docs[i]["shoe"]["whole"]
    assert deviations(docs[i : i + 1]) == []


@pytest.mark.parametrize("written", [311, 312])
def test_591_7_d_as_dealt_with_its_rack_shows_the_whole_shoe(
    written: int,
) -> None:
    # the record's own cards at the reshuffle (the rack and the round's)
    # are 311, whatever count its shuffled step writes
    docs, i = _dbj_day()
    doc = docs[i]
    _lose_a_rack_card(doc)
    doc["shoe"].update(known="as_dealt", stack=None)
    for step in doc["procedure"]:
        if step["type"] == "shuffled":
            step["cards"] = written
    ((line, ref, message),) = deviations([doc])
    assert (line, ref) == (1, "591.7(d)(2)")
    assert "gathers 311 cards" in message
    assert "decks hold 312" in message


def test_591_7_d_as_dealt_without_its_rack_is_held_to_its_count() -> None:
    docs, i = _dbj_day()
    doc = docs[i]
    _lose_a_rack_card(doc)
    doc["shoe"].update(known="as_dealt", stack=None, discard=None)
    ((line, ref, message),) = deviations([doc])
    assert (line, ref) == (1, "591.7(d)(2)")
    assert "gathers 311 cards" in message
    # the count written is all such a record shows of the reshuffle
    for step in doc["procedure"]:
        if step["type"] == "shuffled":
            step["cards"] = 312
    assert deviations([doc]) == []
    # and as before without the field
    doc["shoe"].pop("whole")
    for step in doc["procedure"]:
        if step["type"] == "shuffled":
            step["cards"] = 311
    assert deviations([doc]) == []


def test_591_7_d_a_new_whole_shoe_after_the_reshuffle_holds_the_decks() -> (
    None
):
    # the round after the reshuffle begins the new shoe (no shuffle in
    # its preparation, only the cover card): a card gone from above the
    # cover card, which then lies one card higher, as a table short of
    # a card would put it (three quarters of 311 is 233)
    docs, i = _dbj_day()
    doc = docs[i + 1]
    assert doc["shoe"]["new_shoe"] is True
    assert doc["shoe"]["discard"] == ""
    (marker,) = doc["shoe"]["preparation"]
    assert (marker["type"], marker["position"]) == ("cover_card_inserted", 234)
    assert deviations([doc]) == []
    tokens = doc["shoe"]["stack"].split()
    assert len(tokens) == 313
    assert tokens[234] == "CC"
    lost = tokens.pop(100)
    doc["shoe"]["stack"] = " ".join(tokens)
    marker["position"] = 233
    ((line, ref, message),) = deviations([doc])
    assert (line, ref) == (1, "591.7(d)(2)")
    assert f"hold 311 cards (missing 1 x {lost})" in message
    assert "decks hold 312" in message
    doc["shoe"].pop("whole")
    assert deviations([doc]) == []


# -- one 21 Baccarat round on a one-deck shoe short of a card -------------


def _one_round(cards: list[str], *, whole: bool) -> dict[str, Any]:
    """A 21 Baccarat round whose third card is the cover card's place.

    Four cards of ``cards`` lie in the discard rack (the rounds before
    dealt them: a whole shoe dealing on, D80), the rest in the stack.
    """
    spec = find_game("21-baccarat")
    rules = spec.rules_type.from_mapping({"decks": 1})
    rack, dealing = cards[:4], cards[4:]
    shoe = Shoe.stacked(" ".join([*dealing[:2], "CC", *dealing[2:]]))
    shoe.discard = [Card.parse(c) for c in rack]
    shoe.account_for(shoe.discard)
    rnd = spec.new_round(
        rules=rules,
        shoe=shoe,
        rng=SeededRng(0),
        new_shoe=False,
        starting_position=None,
    )
    recorder = Recorder(spec.name, rnd)
    recorder.place_wager(1, "player", 1000)
    recorder.deal()
    assert rnd.cover_card_reached
    assert rnd.is_over
    history = from_record(
        recorder.record,
        round_id="r1",
        table="t",
        started_at=None,
        ended_at=None,
        whole=whole,
    )
    return dict(json.loads(history.dumps()))


def test_681a_7_d_a_whole_one_deck_shoe_reshuffles_52() -> None:
    doc = _one_round(DECK, whole=True)
    (shuffled,) = [s for s in doc["procedure"] if s["type"] == "shuffled"]
    assert (shuffled["ref"], shuffled["cards"]) == ("681a.7(d)(2)", 52)
    assert deviations([doc]) == []


@pytest.mark.parametrize("known", ["stacked", "as_dealt", "as_dealt, rack"])
def test_681a_7_d_a_whole_shoe_a_card_short_deviates(known: str) -> None:
    doc = _one_round([c for c in DECK if c != "Kh"], whole=True)
    if known != "stacked":
        rack = doc["shoe"]["discard"] if known.endswith("rack") else None
        doc["shoe"].update(known="as_dealt", stack=None, discard=rack)
    ((line, ref, message),) = deviations([doc])
    assert (line, ref) == (1, "681a.7(d)(2)")
    assert "gathers 51 cards" in message
    assert "decks hold 52" in message
    # the same round without the field: a scenario's shoe may be short
    doc["shoe"].pop("whole")
    assert deviations([doc]) == []


# -- a new shoe's shuffle, known only as dealt ---------------------------


def test_591_7_a_a_shoe_known_as_dealt_shuffles_the_decks() -> None:
    # the table's first round shuffles its new shoe in the preparation,
    # then places the cover card at three quarters of it (234 of 312);
    # without the stack, a shuffle of 311 with its cover card at 233
    # (three quarters of 311) is a shoe short of a card: a shuffle in
    # the preparation is the whole shoe (D65), whole or not (D75)
    docs, _ = _dbj_day()
    doc = docs[0]
    doc["shoe"].update(known="as_dealt", stack=None)
    shuffled, marker = doc["shoe"]["preparation"]
    assert (shuffled["type"], shuffled["cards"]) == ("shuffled", 312)
    assert (marker["type"], marker["position"]) == ("cover_card_inserted", 234)
    assert deviations([doc]) == []
    shuffled["cards"], marker["position"] = 311, 233
    # the decks option's subsection (673a.3(a): the shoe's decks)
    want = [
        (
            1,
            "673a.3(a)",
            "the shuffle is recorded as 311 cards; the rules' shoe has 312",
        )
    ]
    assert deviations([doc]) == want
    doc["shoe"].pop("whole")
    assert deviations([doc]) == want


# -- every game: a table's whole-shoe log round-trips ----------------------


SHORT_SHOES: dict[str, tuple[dict[str, object] | None, int]] = {
    "double-back-jack": ({"decks": 1}, 40),
    "21-baccarat": ({"decks": 1}, 40),
    "midibaccarat": (None, 100),
    "midibaccarat-commission-free": (None, 100),
    "six-card-fortune-pai-gow": (None, 20),
}
"""Rules, and rounds, that reach the cover card (eight decks of
Midibaccarat last some 80 rounds)."""


@pytest.mark.parametrize("game", sorted(SHORT_SHOES))
def test_a_whole_shoe_log_of_every_game_round_trips(game: str) -> None:
    assert set(SHORT_SHOES) == {spec.name for spec in all_games()}
    rules, rounds = SHORT_SHOES[game]
    lines = [
        h.dumps() + "\n"
        for h in sample_histories(game, rounds, seed=7, rules=rules)
    ]
    for line in lines:
        doc = json.loads(line)
        validate(doc)
        assert doc["version"] == "1.1"
        assert doc["shoe"]["whole"] is True
        back = HandHistory.loads(line)
        assert back.shoe.whole
        assert back.dumps() + "\n" == line
    docs = [json.loads(line) for line in lines]
    if game != "six-card-fortune-pai-gow":
        # the log holds a reshuffle at the cover card (pai gow shuffles
        # every round and has none)
        assert any(
            s["type"] == "cover_card_reached"
            for doc in docs
            for s in doc["procedure"]
        ), game
    report = verify_lines(lines)
    assert (report.rounds, report.conforming) == (rounds, rounds)
