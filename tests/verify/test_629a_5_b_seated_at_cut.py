"""629a.5(b) against the seats a record says were occupied at the cut.

The rule, read from its text: the stack is offered first to the player
in the highest-numbered seat, then round the table clockwise (here: up
from the lowest seat) until one accepts; if none does, the dealer cuts.
A record that says who was seated (``shoe.seated_at_cut``, D78) is held
to that order over those seats; the orders expected below are written
from the rule, not read off the engine.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from croupier.hhf import HandHistory, HistoryFormatError, validate
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_round


def _new_shoe(seats: int = 3) -> HandHistory:
    """A Midibaccarat table's first round: the shoe prepared and cut."""
    history = next(sample_histories("midibaccarat", 1, seed=8, seats=seats))
    assert history.shoe.new_shoe
    return history


def _with(
    history: HandHistory,
    seated: tuple[int, ...] | None,
    offers: list[tuple[int | str, bool]] | None = None,
) -> HandHistory:
    """``history`` with its seats at the cut, and its offers if given.

    ``offers`` are (seat number or ``"dealer"``, accepted) in order; the
    one who accepts makes the cut (the cover card's ``by``).
    """
    steps: list[dict[str, Any]] = json.loads(
        json.dumps(list(history.shoe.preparation))
    )
    if offers is not None:
        first = next(
            i for i, s in enumerate(steps) if s["type"] == "cut_offered"
        )
        rest = [s for s in steps[first:] if s["type"] != "cut_offered"]
        names = [
            who if who == "dealer" else f"seat {who}" for who, _ in offers
        ]
        made = [
            {
                "seq": 0,
                "ref": "629a.5(b)",
                "type": "cut_offered",
                "to": name,
                "accepted": accepted,
            }
            for name, (_, accepted) in zip(names, offers, strict=True)
        ]
        cutter = next(n for n, (_, a) in zip(names, offers, strict=True) if a)
        for step in rest:
            if step.get("purpose") == "cut":
                step["by"] = cutter
        steps = steps[:first] + made + rest
        for n, step in enumerate(steps, start=1):
            step["seq"] = n
    return dataclasses.replace(
        history,
        shoe=dataclasses.replace(
            history.shoe, preparation=tuple(steps), seated_at_cut=seated
        ),
    )


def test_629a_5_b_sample_table_writes_who_was_seated() -> None:
    history = _new_shoe(seats=3)
    # the sample table seats 1, 2 and 3; the highest is offered first
    assert history.shoe.seated_at_cut == (1, 2, 3)
    steps = history.shoe.preparation
    offers = [s["to"] for s in steps if s["type"] == "cut_offered"]
    assert offers == ["seat 3"]
    assert verify_round(history) is None
    # the rounds after it prepare no shoe, so they say nothing of a cut
    later = list(sample_histories("midibaccarat", 3, seed=8, seats=3))[1:]
    assert all(h.shoe.seated_at_cut is None for h in later)


@pytest.mark.proves("629a.5(b)")
def test_629a_5_b_highest_seat_passed_over() -> None:
    # seat 5 was seated too: the offer had to begin there, not at seat 3
    deviation = verify_round(_with(_new_shoe(), (1, 2, 3, 5)))
    assert deviation is not None
    assert deviation.ref == "629a.5(b)", str(deviation)
    assert "seat 5" in deviation.message, str(deviation)


@pytest.mark.proves("629a.5(b)")
def test_629a_5_b_offered_to_a_seat_nobody_sat_in() -> None:
    # only seats 1 and 2 were occupied, yet seat 3 was offered the cut
    deviation = verify_round(_with(_new_shoe(), (1, 2)))
    assert deviation is not None
    assert deviation.ref == "629a.5(b)", str(deviation)
    assert "seat 3" in deviation.message, str(deviation)


@pytest.mark.proves("629a.5(b)")
@pytest.mark.parametrize(
    ("offers", "conforms"),
    [
        # 3 declines; clockwise from the highest wraps to the lowest, 1
        ([(3, False), (1, True)], True),
        ([(3, False), (1, False), (2, True)], True),
        # every player declines: the dealer cuts
        ([(3, False), (1, False), (2, False), ("dealer", True)], True),
        # seat 1 passed over after seat 3 declined
        ([(3, False), (2, True)], False),
        # the dealer cut while seat 2 had not been offered it
        ([(3, False), (1, False), ("dealer", True)], False),
    ],
    ids=["wrap", "third", "dealer", "skip_after_decline", "dealer_early"],
)
def test_629a_5_b_offer_goes_round_the_seated_players(
    offers: list[tuple[int | str, bool]], conforms: bool
) -> None:
    deviation = verify_round(_with(_new_shoe(), (1, 2, 3), offers))
    if conforms:
        assert deviation is None, str(deviation)
    else:
        assert deviation is not None
        assert deviation.ref == "629a.5(b)", str(deviation)


def test_629a_5_b_without_the_field_only_offered_seats_are_known() -> None:
    """D78's limit: a record silent on who sat cannot show a skipped seat.

    The same offer that skips seat 1 deviates when the record says seat 1
    was seated, and conforms when it does not say (seats 3 and 2 offered:
    3 is the highest of those, 2 the next clockwise).
    """
    offers: list[tuple[int | str, bool]] = [(3, False), (2, True)]
    assert verify_round(_with(_new_shoe(), (1, 2, 3), offers)) is not None
    assert verify_round(_with(_new_shoe(), None, offers)) is None


def test_seated_at_cut_beyond_the_table_is_a_record_error() -> None:
    deviation = verify_round(_with(_new_shoe(), (1, 2, 3, 10)))
    assert deviation is not None
    assert deviation.ref == "810a.11", str(deviation)
    assert "seat 10" in deviation.message
    assert "1-9" in deviation.message


def test_seated_at_cut_round_trips_and_the_schema_checks_it() -> None:
    history = _new_shoe()
    line = history.dumps()
    doc = json.loads(line)
    assert doc["shoe"]["seated_at_cut"] == [1, 2, 3]
    assert HandHistory.loads(line) == history
    for bad in ([1, 1], [0], ["1"], 3):
        doc["shoe"]["seated_at_cut"] = bad
        with pytest.raises(HistoryFormatError):
            validate(doc)
        with pytest.raises(HistoryFormatError):
            HandHistory.loads(json.dumps(doc))
    # written only when the preparation offers a cut
    later = list(sample_histories("midibaccarat", 2, seed=8, seats=3))[1]
    assert "seated_at_cut" not in json.loads(later.dumps())["shoe"]
    dbj = next(sample_histories("double-back-jack", 1, seed=8, seats=3))
    assert "seated_at_cut" not in json.loads(dbj.dumps())["shoe"]
