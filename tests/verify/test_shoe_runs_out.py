"""D69 in the logs: a round voided because the shoe ran out is replayed.

The verifier replays the round on the recorded stack: the shoe runs out
at the same card, so the void, its returns and the reshuffle must be in
the log as the procedure makes them (591.7(a), 681a.7(a)). The broken
copies below are changed by hand, not by the verifier.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.cards import full_deck
from croupier.errors import ShoeExhaustedError
from croupier.hhf.format import from_record
from croupier.hhf.sample import sample_histories
from croupier.history import Recorder, replay
from croupier.registry import find_game
from croupier.rng import SeededRng
from croupier.round import Action
from croupier.shoe import Shoe
from croupier.verify import verify_lines

ONE_DECK = {"decks": 1, "penetration": "19/20"}
REFS = {"double-back-jack": "591.7(a)", "21-baccarat": "681a.7(a)"}
ROUNDS = {"double-back-jack": 30, "21-baccarat": 300}
"""Enough rounds for a void: 21 Baccarat's rounds need few cards."""


def _day(game: str) -> tuple[list[str], list[int]]:
    histories = list(
        sample_histories(game, ROUNDS[game], seed=5, seats=6, rules=ONE_DECK)
    )
    lines = [h.dumps() + "\n" for h in histories]
    voided = [
        i
        for i, h in enumerate(histories)
        if any(s["type"] == "round_voided" for s in h.procedure)
    ]
    return lines, voided


def _deviations(lines: list[str]) -> list[tuple[int, str, str]]:
    report = verify_lines(lines)
    return [
        (v.line, v.deviation.ref, v.deviation.message)
        for v in report.verdicts
        if v.deviation is not None
    ]


@pytest.mark.parametrize("game", sorted(REFS))
def test_d69_rounds_voided_for_want_of_cards_conform(game: str) -> None:
    lines, voided = _day(game)
    assert voided, "a one-deck shoe at six seats runs out"
    assert _deviations(lines) == []
    doc = json.loads(lines[voided[0]])
    steps = [s["type"] for s in doc["procedure"]]
    assert steps[steps.index("round_voided") :].count("shuffled") == 1
    returned = [s for s in doc["settlements"] if s["outcome"] == "void"]
    assert returned
    assert all(s["net"] == 0 and s["ref"] == REFS[game] for s in returned)


def _broken(game: str, change: Any) -> tuple[list[tuple[int, str, str]], int]:
    lines, voided = _day(game)
    doc = json.loads(lines[voided[0]])
    change(doc)
    lines[voided[0]] = json.dumps(doc) + "\n"
    return _deviations(lines), voided[0] + 1


def _keep_a_returned_stake(doc: dict[str, Any]) -> None:
    row = next(s for s in doc["settlements"] if s["outcome"] == "void")
    row["outcome"], row["net"] = "lose", -row["amount"]


def _no_void(doc: dict[str, Any]) -> None:
    doc["procedure"] = [
        s for s in doc["procedure"] if s["type"] != "round_voided"
    ]


@pytest.mark.parametrize("game", sorted(REFS))
@pytest.mark.parametrize("change", [_keep_a_returned_stake, _no_void])
def test_d69_a_void_for_want_of_cards_altered_deviates(
    game: str, change: Any
) -> None:
    found, line = _broken(game, change)
    assert [(n, ref) for n, ref, _ in found][:1] == [(line, REFS[game])]


def _short_shoe_void(game: str, wager: str, stack: str) -> dict[str, Any]:
    """A round dealt from a stacked shoe of a few cards that runs out."""
    spec = find_game(game)
    rules = spec.rules_type.from_mapping({"decks": 6})
    rnd = spec.new_round(
        rules=rules,
        shoe=Shoe.stacked(stack),
        rng=SeededRng(0),
        new_shoe=False,
        starting_position=None,
    )
    recorder = Recorder(spec.name, rnd)
    recorder.place_wager(1, wager, 1000)
    recorder.deal()
    while (pending := rnd.pending()) is not None:
        recorder.apply(Action(seat=pending.seat, name="hit"))
    assert rnd.shoe_ran_out
    history = from_record(
        recorder.record,
        round_id="short-1",
        table="t",
        started_at=None,
        ended_at=None,
        preparation=[],
    )
    return dict(json.loads(history.dumps()))


@pytest.mark.parametrize(
    ("game", "wager", "stack"),
    [
        ("double-back-jack", "blackjack", "Th 6d 5c 9s"),
        ("21-baccarat", "player", "Kd 5h 9c"),
    ],
)
@pytest.mark.parametrize("known", ["stacked", "as_dealt"])
def test_d72_a_shoe_cannot_run_out_with_cards_missing(
    game: str, wager: str, stack: str, known: str
) -> None:
    # six decks, and the round's shoe held four cards: its reshuffle
    # gathers them alone, so the void could not have happened
    doc = _short_shoe_void(game, wager, stack)
    if known == "as_dealt":
        doc["shoe"].update(known="as_dealt", stack=None, discard=None)
    (found,) = _deviations([json.dumps(doc) + "\n"])
    assert found[:2] == (1, REFS[game])
    assert "where the rules' decks hold 312" in found[2]


def _rack_short(doc: dict[str, Any], missing: int) -> None:
    rack = doc["shoe"]["discard"].split()
    doc["shoe"]["discard"] = " ".join(rack[missing:])


@pytest.mark.parametrize("shuffled", [None, 47])
def test_591_7_d_a_void_without_its_stack_shows_the_whole_shoe(
    shuffled: int | None,
) -> None:
    lines, voided = _day("double-back-jack")
    doc = json.loads(lines[voided[0]])
    doc["shoe"].update(known="as_dealt", stack=None)
    assert _deviations([json.dumps(doc) + "\n"]) == []
    # five cards gone from the rack: the record's own cards at the
    # reshuffle are 47, whatever count its shuffled step writes
    _rack_short(doc, 5)
    for step in doc["procedure"]:
        if step["type"] == "shuffled" and shuffled is not None:
            step["cards"] = shuffled
    ((line, ref, message),) = _deviations([json.dumps(doc) + "\n"])
    assert (line, ref) == (1, "591.7(a)")
    assert "gathers 47 cards where the rules' decks hold 52" in message


@pytest.mark.parametrize(
    ("game", "wager"),
    [("double-back-jack", "blackjack"), ("21-baccarat", "player")],
)
@pytest.mark.proves("591.7(c)", "681a.7(c)")
def test_d69_a_new_dealer_on_an_empty_shoe_is_refused_and_the_void_conforms(
    game: str, wager: str
) -> None:
    # one card behind the cover card: the first new dealer burns it, the
    # second finds none (refused, not recorded), and the deal voids
    spec = find_game(game)
    rules = spec.rules_type.from_mapping({"decks": 1})
    rack = " ".join(str(c) for c in full_deck() if str(c) != "9c")
    rnd = spec.new_round(
        rules=rules,
        shoe=Shoe.stacked("CC 9c", discard=rack),
        rng=SeededRng(0),
        new_shoe=False,
        starting_position=None,
    )
    recorder = Recorder(spec.name, rnd)
    recorder.place_wager(1, wager, 1000)
    recorder.change_dealer()
    with pytest.raises(ShoeExhaustedError):
        recorder.change_dealer()
    assert recorder.record.wagers[1:] == [{"new_dealer": True}]
    recorder.deal()
    assert rnd.shoe_ran_out
    assert [(s.outcome.value, s.net) for s in rnd.settlements] == [("void", 0)]
    assert replay(recorder.record).ok
    history = from_record(
        recorder.record,
        round_id="new-dealer-1",
        table="t",
        started_at=None,
        ended_at=None,
        preparation=[],
    )
    doc = json.loads(history.dumps())
    burned = [s for s in doc["procedure"] if s["type"] == "card_burned"]
    assert [s["card"] for s in burned] == ["9c"]
    assert _deviations([history.dumps() + "\n"]) == []
