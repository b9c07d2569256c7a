"""D82: as dealt, the cover card comes out where it was inserted.

Without a recorded stack the replay meets the reshuffle cover card where
the log says it came out, so where it lies is followed across the
table's rounds: from the step that inserts it (``position``: the cards
above it), ``cover_card_reached`` comes when that many cards (dealt and
burned) have come out of the shoe, and not a card later (591.7(d),
681a.7(d): the cover card is set aside, the round completed and the
shoe reshuffled; 629a.5(d): the round in which the second cover card
comes out is the shoe's last).

Every expected count here is counted by :func:`_cover_cards` from the
rounds' own steps, by that rule, not read off the verifier.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.history import replay
from croupier.verify import verify_lines

Doc = dict[str, Any]

_CARDS = ("card_dealt", "card_burned")


def _sample(game: str, rounds: int, seed: int = 3) -> list[Doc]:
    """A day of a table as croupier deals it, stack recorded."""
    return [
        json.loads(history.dumps())
        for history in sample_histories(game, rounds, seed=seed, seats=3)
    ]


def _as_dealt(doc: Doc, *, rack: bool = True) -> Doc:
    """``doc`` recorded without its stack (and, unless ``rack``, its rack)."""
    doc = copy.deepcopy(doc)
    doc["shoe"]["known"], doc["shoe"]["stack"] = "as_dealt", None
    if not rack:
        doc["shoe"]["discard"] = None
    return doc


@dataclass(frozen=True)
class _Cover:
    """Where a reshuffle cover card came out, or should have."""

    line: int
    """The file line of the round (from 1)."""
    seq: int
    """The step: ``cover_card_reached``, or the first card past the cover
    card when it never came out."""
    out: int
    """Cards out of the shoe since the cover card was inserted, by then."""
    position: int
    """The cards the marker was inserted with above it."""
    reached: bool
    """Whether the step is ``cover_card_reached``."""


def _cover_cards(docs: list[Doc]) -> list[_Cover]:
    """Each cover card met in ``docs``, counted from its marker by the rule.

    A shuffle takes the marker out of the shoe; a marker (purpose
    ``reshuffle marker``, in a preparation or a procedure) begins the
    count; each card dealt or burned is one more out of the shoe. A card
    out past the marker's position with no ``cover_card_reached`` before
    it ends the count too.
    """
    found: list[_Cover] = []
    marked: tuple[int, int] | None = None  # position, cards out since
    for line, doc in enumerate(docs, 1):
        steps = [*doc["shoe"]["preparation"], *doc["procedure"]]
        prepared = len(doc["shoe"]["preparation"])
        for i, step in enumerate(steps):
            kind = step["type"]
            if kind == "shuffled":
                marked = None
            elif (
                kind == "cover_card_inserted"
                and step["purpose"] == "reshuffle marker"
            ):
                marked = (step["position"], 0)
            elif kind == "cover_card_reached" and marked is not None:
                assert i >= prepared
                found.append(
                    _Cover(line, step["seq"], marked[1], marked[0], True)
                )
                marked = None
            elif kind in _CARDS and marked is not None:
                marked = (marked[0], marked[1] + 1)
                if marked[1] > marked[0]:
                    found.append(
                        _Cover(line, step["seq"], marked[1], marked[0], False)
                    )
                    marked = None
    return found


def _message(cover: _Cover) -> str:
    """What the rule says of ``cover`` (the message's start)."""
    if cover.reached:
        return (
            f"the cover card came out after {cover.out} cards of the shoe; "
            f"it was inserted with {cover.position} above it"
        )
    return (
        f"{cover.out} cards have come out of the shoe, but the cover card "
        f"inserted with {cover.position} above it"
    )


def _renumber(doc: Doc) -> None:
    for seq, step in enumerate(doc["procedure"], 1):
        step["seq"] = seq


def _redealt(doc: Doc, stack: str, **shoe: Any) -> Doc:
    """``doc``'s wagers and decisions dealt again from ``stack`` (stacked).

    ``shoe`` sets fields of the shoe (``None``: leaves one out). The
    engine makes the steps and settlements; the players' totals and
    balances follow from the settlements.
    """
    doc = copy.deepcopy(doc)
    doc["shoe"].update(shoe, stack=stack)
    for key in [key for key, value in shoe.items() if value is None]:
        del doc["shoe"][key]
    rnd = replay(HandHistory.loads(json.dumps(doc)).to_record()).round
    doc["procedure"] = [event.to_dict() for event in rnd.events]
    doc["settlements"] = [s.to_dict() for s in rnd.settlements]
    bet: dict[int, int] = {}
    won: dict[int, int] = {}
    for row in doc["settlements"]:
        seat = row["seat"]
        bet[seat] = bet.get(seat, 0) + row["amount"]
        won[seat] = won.get(seat, 0) + max(row["amount"] + row["net"], 0)
    for player in doc["players"]:
        seat = player["seat"]
        player["total_bet"] = bet.get(seat, 0)
        player["total_won"] = won.get(seat, 0)
        if player.get("balance_before") is not None:
            player["balance_after"] = (
                player["balance_before"]
                - player["total_bet"]
                + player["total_won"]
                + player.get("moved_elsewhere", 0)
            )
    return doc


# -- croupier's own days conform ----------------------------------------


def _day_conforms(game: str, rounds: int, covers: int) -> None:
    for rack in (True, False):
        docs = [_as_dealt(doc, rack=rack) for doc in _sample(game, rounds)]
        met = _cover_cards(docs)
        # the day passes its cover cards, each where it was put
        assert len(met) >= covers
        assert all(c.reached and c.out == c.position for c in met)
        assert deviations(docs) == []


@pytest.mark.proves("591.7(d)")
def test_591_7_d_an_as_dealt_day_conforms() -> None:
    # seed 3, three seats: the first shoe's cover card in round 21, the
    # second shoe's marker in round 22's preparation, its card in 41
    _day_conforms("double-back-jack", 45, 2)


@pytest.mark.proves("681a.7(d)")
def test_681a_7_d_an_as_dealt_day_conforms() -> None:
    # the marker after each reshuffle is inserted in the procedure
    _day_conforms("21-baccarat", 50, 2)


@pytest.mark.proves("629a.5(d)")
def test_629a_5_d_an_as_dealt_day_conforms() -> None:
    _day_conforms("midibaccarat", 83, 1)


# -- the cover card one card early or late ------------------------------


def _moved(
    game: str, rounds: int, seed: int, nth: int, by: int
) -> tuple[list[Doc], _Cover]:
    """A day whose ``nth`` cover card comes out ``by`` cards later.

    ``cover_card_reached`` moves before the card before it (``by`` -1)
    or past the card after it (``by`` 1), within its round (the day and
    the cover card are chosen so that its round has those cards); the
    replay without a stack follows it there, so each round alone still
    conforms.
    """
    docs = [_as_dealt(doc) for doc in _sample(game, rounds, seed)]
    cover = _cover_cards(docs)[nth]
    assert cover.reached
    assert cover.out == cover.position
    doc = docs[cover.line - 1]
    steps = doc["procedure"]
    at = next(i for i, s in enumerate(steps) if s["seq"] == cover.seq)
    reached = steps.pop(at)
    cards = [i for i, s in enumerate(steps) if s["type"] in _CARDS]
    if by < 0:
        to = max(i for i in cards if i < at)
    else:
        # before the second card after it: one card more came out first
        to = [i for i in cards if i >= at][1]
    steps.insert(to, reached)
    _renumber(doc)
    # each round alone conforms; only the count across the file differs
    assert deviations(docs, across=False) == []
    wrong = _cover_cards(docs)[nth]
    assert wrong.line == cover.line
    assert wrong.out == cover.position + by
    assert wrong.reached == (by < 0)
    return docs, wrong


def _early_or_late(
    game: str, rounds: int, seed: int, nth: int, by: int, ref: str
) -> None:
    docs, wrong = _moved(game, rounds, seed, nth, by)
    report = verify_lines([json.dumps(doc) + "\n" for doc in docs])
    found = [(v.line, v.deviation) for v in report.verdicts if v.deviation]
    assert [(line, d.ref) for line, d in found] == [(wrong.line, ref)]
    deviation = found[0][1]
    assert deviation.message.startswith(_message(wrong))
    # the step named: the cover card, or the first card past it
    assert deviation.seq == wrong.seq


# (seed, nth): the day of 47 rounds and which of its cover cards; the
# first is inserted in a new shoe's preparation, the second in 21
# Baccarat in the procedure of the round that reshuffled, in Double Back
# Jack in the next round's preparation


@pytest.mark.proves("591.7(d)")
@pytest.mark.parametrize("nth", [0, 1])
def test_591_7_d_the_cover_card_one_card_early_deviates(nth: int) -> None:
    _early_or_late("double-back-jack", 47, 4, nth, -1, "591.7(d)")


@pytest.mark.proves("591.7(d)")
@pytest.mark.parametrize("nth", [0, 1])
def test_591_7_d_the_cover_card_one_card_late_deviates(nth: int) -> None:
    _early_or_late("double-back-jack", 47, 4, nth, 1, "591.7(d)")


@pytest.mark.proves("681a.7(d)")
@pytest.mark.parametrize(("seed", "nth"), [(5, 0), (5, 1)])
def test_681a_7_d_the_cover_card_one_card_early_deviates(
    seed: int, nth: int
) -> None:
    _early_or_late("21-baccarat", 47, seed, nth, -1, "681a.7(d)")


@pytest.mark.proves("681a.7(d)")
@pytest.mark.parametrize(("seed", "nth"), [(4, 0), (5, 1)])
def test_681a_7_d_the_cover_card_one_card_late_deviates(
    seed: int, nth: int
) -> None:
    _early_or_late("21-baccarat", 47, seed, nth, 1, "681a.7(d)")


@pytest.mark.proves("629a.5(d)")
def test_629a_5_d_the_second_cover_card_one_card_early_deviates() -> None:
    _early_or_late("midibaccarat", 83, 3, 0, -1, "629a.5(d)")


@pytest.mark.proves("629a.5(d)")
def test_629a_5_d_the_second_cover_card_one_card_late_deviates() -> None:
    _early_or_late("midibaccarat", 83, 3, 0, 1, "629a.5(d)")


# -- the audit's forgeries ------------------------------------------------


@pytest.mark.proves("591.7(d)")
def test_591_7_d_as_dealt_rounds_dealt_past_the_cover_card_deviate() -> None:
    # audit finding (f04): the round that met the cover card leaves it
    # and the reshuffle out, so the shoe is dealt past it
    docs = [_as_dealt(doc) for doc in _sample("double-back-jack", 21)]
    (met,) = _cover_cards(docs)
    assert met.line == len(docs)
    last = docs[-1]
    last["procedure"] = [
        s
        for s in last["procedure"]
        if s["type"] != "cover_card_reached"
        and s.get("phase") != "reshuffle"
        and s["ref"] not in ("591.7(d)(1)", "591.7(d)(2)")
    ]
    _renumber(last)
    assert deviations(docs, across=False) == []
    (past,) = _cover_cards(docs)
    assert not past.reached
    assert (past.line, past.out) == (met.line, met.position + 1)
    ((line, ref, message),) = deviations(docs)
    assert (line, ref) == (past.line, "591.7(d)")
    assert message.startswith(_message(past))
    assert "has not" in message


def _early_cover(rounds: int, drawn: int) -> list[Doc]:
    """``rounds`` rounds from a new shoe, the last meeting the cover card
    after ``drawn`` of its cards (the stack's cover card moved up)."""
    docs = _sample("double-back-jack", rounds)
    last = docs[-1]
    tokens = last["shoe"]["stack"].split()
    tokens.remove("CC")
    tokens.insert(drawn, "CC")
    docs[-1] = _redealt(last, " ".join(tokens))
    return docs


@pytest.mark.proves("591.7(d)")
def test_591_7_d_an_early_cover_card_deviates_as_dealt_as_stacked() -> None:
    # audit finding (f07): the cover card comes out as the fifth card of
    # round 3, some two dozen cards into a shoe marked at 234
    docs = _early_cover(3, 4)
    stacked = deviations(docs)
    assert [(line, ref) for line, ref, _ in stacked] == [(3, "591.7(a)")]
    dealt = [_as_dealt(doc) for doc in docs]
    assert deviations(dealt, across=False) == []
    (early,) = _cover_cards(dealt)
    assert early.reached
    assert early.out < early.position
    ((line, ref, message),) = deviations(dealt)
    assert (line, ref) == (3, "591.7(d)")
    assert message.startswith(_message(early))


@pytest.mark.proves("591.7(d)")
def test_591_7_d_a_one_round_file_is_held_to_its_own_marker() -> None:
    # the round's own preparation inserts the cover card at 234; the
    # record has it come out after the burn and five cards
    (doc,) = _early_cover(1, 6)
    assert doc["shoe"]["new_shoe"]
    dealt = [_as_dealt(doc)]
    (early,) = _cover_cards(dealt)
    assert (early.line, early.out, early.position) == (1, 6, 234)
    ((line, ref, message),) = deviations(dealt)
    assert (line, ref) == (1, "591.7(d)")
    assert message.startswith(_message(early))


@pytest.mark.proves("629a.5(d)")
def test_629a_5_d_as_dealt_rounds_past_the_second_cover_card_deviate() -> None:
    # audit finding (f05): round 81 never meets the second cover card,
    # and round 82 deals on from the cards below it
    docs = _sample("midibaccarat", 82)
    (met,) = _cover_cards(docs)
    assert met.line == 81
    r81 = docs[80]
    stack = [t for t in r81["shoe"]["stack"].split() if t != "CC"]
    forged81 = _redealt(r81, " ".join(stack))
    drawn = sum(s["type"] in _CARDS for s in forged81["procedure"])
    forged82 = _redealt(
        docs[81],
        " ".join(stack[drawn:]),
        new_shoe=False,
        preparation=[],
        discard="",
        whole=None,
        seated_at_cut=None,
    )
    forged = [
        _as_dealt(doc, rack=False) for doc in [*docs[:80], forged81, forged82]
    ]
    assert deviations(forged, across=False) == []
    (past,) = _cover_cards(forged)
    assert not past.reached
    assert (past.line, past.out) == (81, met.position + 1)
    ((line, ref, message),) = deviations(forged)
    assert (line, ref) == (81, "629a.5(d)")
    assert message.startswith(_message(past))
