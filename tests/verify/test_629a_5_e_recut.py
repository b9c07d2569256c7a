"""629a.5(e): a recut is offered on to the next person entitled, and made.

After the cut, before the stack goes into the shoe, a floorperson may
require a recut; the cards are then recut by the next person entitled to
cut them as (b) decides (the highest-numbered occupied seat first, then
clockwise). The recut's steps below are written by hand from the rule:
the announcement of the floorperson's order (cited (e)), the offers
(cited (e)), the cut's cover card (c), its completion and the second
cover card (d). Before, any step citing (e) switched the cut's replay
off, so an offer out of turn or a shoe never cut conformed.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_round


def _first_round() -> HandHistory:
    """A Midibaccarat table's first round: seats 1-3, seat 3 cuts."""
    history = next(sample_histories("midibaccarat", 1, seed=8, seats=3))
    kinds = [s["type"] for s in history.shoe.preparation]
    assert kinds == [
        "shuffled",
        "cut_offered",
        "cover_card_inserted",
        "cut_completed",
        "cover_card_inserted",
    ]
    assert history.shoe.preparation[1]["to"] == "seat 3"
    assert verify_round(history) is None
    return history


def _recut(
    offers: list[tuple[str, bool]], position: int | None = 150
) -> list[dict[str, Any]]:
    """A recut's steps: the order, ``offers``, then the cut at ``position``.

    ``offers`` are (``seat N`` or ``dealer``, accepted); ``position``
    ``None``: the recut is never made.
    """
    steps: list[dict[str, Any]] = [
        {
            "ref": "629a.5(e)",
            "type": "announced",
            "text": "the floorperson requires a recut",
        }
    ]
    steps += [
        {"ref": "629a.5(e)", "type": "cut_offered", "to": to, "accepted": ok}
        for to, ok in offers
    ]
    if position is None:
        return steps
    cutter = next(to for to, ok in offers if ok)
    return [
        *steps,
        {
            "ref": "629a.5(c)",
            "type": "cover_card_inserted",
            "position": position,
            "purpose": "cut",
            "by": cutter,
        },
        {"ref": "629a.5(d)", "type": "cut_completed", "moved": position},
        {
            "ref": "629a.5(d)",
            "type": "cover_card_inserted",
            "position": 402,
            "purpose": "reshuffle marker",
            "by": "dealer",
        },
    ]


def _with_recut(
    history: HandHistory, recut: list[dict[str, Any]]
) -> HandHistory:
    steps = [dict(s) for s in history.shoe.preparation] + recut
    for n, step in enumerate(steps, start=1):
        step["seq"] = n
    return dataclasses.replace(
        history,
        shoe=dataclasses.replace(history.shoe, preparation=tuple(steps)),
    )


@pytest.mark.proves("629a.5(e)")
@pytest.mark.parametrize(
    "offers",
    [
        # seat 3 cut first; clockwise from it the next is seat 1
        [("seat 1", True)],
        [("seat 1", False), ("seat 2", True)],
        # nobody after seat 3 accepts (no wrapping back to it): the dealer
        [("seat 1", False), ("seat 2", False), ("dealer", True)],
    ],
    ids=["next_seat", "one_declines", "dealer"],
)
def test_629a_5_e_recut_by_the_next_person_entitled(
    offers: list[tuple[str, bool]],
) -> None:
    history = _with_recut(_first_round(), _recut(offers))
    assert verify_round(history) is None


@pytest.mark.proves("629a.5(e)")
def test_629a_5_e_recut_by_the_one_who_cut_before() -> None:
    history = _with_recut(_first_round(), _recut([("seat 3", True)]))
    deviation = verify_round(history)
    assert deviation is not None
    assert deviation.ref == "629a.5(e)", str(deviation)
    assert "offered next to seat 3" in deviation.message
    assert "offers it next to seat 1" in deviation.message


@pytest.mark.proves("629a.5(e)")
def test_629a_5_e_recut_ordered_but_never_made() -> None:
    recut = _recut([("seat 1", True)], position=None)
    deviation = verify_round(_with_recut(_first_round(), recut))
    assert deviation is not None
    assert deviation.ref == "629a.5(e)", str(deviation)
    assert "not cut again" in deviation.message


@pytest.mark.proves("629a.5(c)")
def test_629a_5_c_recut_too_near_the_top() -> None:
    recut = _recut([("seat 1", True)], position=6)
    deviation = verify_round(_with_recut(_first_round(), recut))
    assert deviation is not None
    assert deviation.ref == "629a.5(c)", str(deviation)


@pytest.mark.proves("629a.5(b)")
def test_629a_5_b_a_recut_does_not_excuse_the_first_offer() -> None:
    history = _first_round()
    first = [dict(s) for s in history.shoe.preparation]
    first[1]["to"] = first[2]["by"] = "seat 1"  # seat 3 was passed over
    history = dataclasses.replace(
        history,
        shoe=dataclasses.replace(history.shoe, preparation=tuple(first)),
    )
    deviation = verify_round(_with_recut(history, _recut([("seat 2", True)])))
    assert deviation is not None
    assert deviation.ref == "629a.5(b)", str(deviation)
    assert "offered first to seat 1" in deviation.message
