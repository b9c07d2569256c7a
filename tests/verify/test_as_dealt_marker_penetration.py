"""A reshuffle's new cover card, known only as dealt, at the penetration.

591.7(d)(2), 681a.7(d)(2): the cards are reshuffled when the cover card
comes out; the table then places the cover card again at the rules'
penetration of the shoe (D8: a fraction, here 3/4 of one deck of 52, so
39 cards above it). A record without its stack (``as_dealt``) that says
its shoe is the table's whole shoe reshuffles the rules' decks (D75), so
the new cover card's place is known: Double Back Jack places it in the
next round's preparation, 21 Baccarat in the round that reshuffled.
Before, neither was checked without the stack (D82 counts the cards to
the cover card from wherever the record put it).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.hhf.sample import sample_histories

PLACE = 39
"""3/4 of 52, the default penetration of a one-deck shoe."""


def _after_reshuffle(game: str) -> dict[str, Any]:
    """The first as-dealt round whose cover card follows a reshuffle."""
    for history in sample_histories(game, 12, seed=3, rules={"decks": 1}):
        doc: dict[str, Any] = json.loads(history.dumps())
        doc["shoe"].update(known="as_dealt", stack=None)
        shuffled = any(
            s["type"] == "shuffled" for s in doc["shoe"]["preparation"]
        )
        markers = [
            s
            for s in [*doc["shoe"]["preparation"], *doc["procedure"]]
            if s["type"] == "cover_card_inserted"
        ]
        if markers and not shuffled:
            assert [m["position"] for m in markers] == [PLACE]
            return doc
    raise AssertionError("no reshuffle in twelve rounds of one deck")


@pytest.mark.proves("591.7(d)", "681a.7(d)")
@pytest.mark.parametrize("game", ["double-back-jack", "21-baccarat"])
def test_reshuffled_cover_card_away_from_the_penetration(game: str) -> None:
    doc = _after_reshuffle(game)
    assert deviations([doc]) == []
    for step in [*doc["shoe"]["preparation"], *doc["procedure"]]:
        if step["type"] == "cover_card_inserted":
            step["position"] = PLACE + 5
    [(line, ref, message)] = deviations([doc])
    assert line == 1
    assert ref in ("591.7(d)", "681a.7(d)", "681a.7(a)"), message
    assert "44" in message
    assert "39" in message


@pytest.mark.parametrize("game", ["double-back-jack", "21-baccarat"])
def test_not_said_whole_the_new_place_is_not_known(game: str) -> None:
    """A shoe that may be only some cards reshuffles an unknown count."""
    doc = _after_reshuffle(game)
    doc["shoe"].pop("whole")
    for step in [*doc["shoe"]["preparation"], *doc["procedure"]]:
        if step["type"] == "cover_card_inserted":
            step["position"] = PLACE + 5
    assert deviations([doc]) == []
