"""A whole shoe no card has left begins a new shoe, and burns (D80).

591.7(c) and 681a.7(c): after each full batch of cards is placed in the
shoe the dealer burns the first card; 629a.5(f): before play a new
Midibaccarat shoe burns the exposed card and as many more as it counts.
A record that says its shoe is the table's whole shoe (``shoe.whole``)
with the discard rack empty holds every card in the shoe, so nothing
has been dealt from it since it was loaded: a round that deals from it
without the burn, calling it a shoe dealt on (``new_shoe`` false),
breaks the burn's rule. The forgery below takes a table's first round,
drops its burn (the burned cards go to the bottom, so the shoe stays
whole), its preparation and the new shoe.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.hhf.sample import sample_histories

BURNS = {
    "double-back-jack": "591.7(c)",
    "21-baccarat": "681a.7(c)",
    "midibaccarat": "629a.5(f)",
}
"""Each shoe game's burn of a new shoe, from the sections' text."""


def _unburned(game: str) -> dict[str, Any]:
    """The first round of a sample table, its burn taken out."""
    history = next(sample_histories(game, 1, seed=5))
    doc: dict[str, Any] = json.loads(history.dumps())
    assert doc["shoe"]["new_shoe"]
    assert doc["shoe"]["whole"]
    assert doc["shoe"]["discard"] == ""
    steps = doc["procedure"]
    # the new shoe's burn (Midibaccarat exposes its first card, then
    # burns the count) comes before any wager
    first_wager = next(
        i for i, s in enumerate(steps) if s["type"] == "wager_placed"
    )
    opening = steps[:first_wager]
    cards = [
        s["card"]
        for s in opening
        if s["type"] in ("card_burned", "card_exposed") and "card" in s
    ]
    assert cards
    kept = [
        s
        for s in steps
        if not (s in opening and s["type"] in ("card_burned", "card_exposed"))
    ]
    for n, step in enumerate(kept, start=1):
        step["seq"] = n
    stack = doc["shoe"]["stack"].split()
    for card in cards:
        stack.remove(card)
    doc["shoe"].update(
        new_shoe=False,
        preparation=[],
        stack=" ".join([*stack, *cards]),
    )
    doc["procedure"] = kept
    return doc


@pytest.mark.proves("591.7(c)", "681a.7(c)", "629a.5(f)")
@pytest.mark.parametrize("game", sorted(BURNS))
@pytest.mark.parametrize("known", ["stacked", "as_dealt"])
def test_untouched_whole_shoe_dealt_without_its_burn(
    game: str, known: str
) -> None:
    doc = _unburned(game)
    if known == "as_dealt":
        doc["shoe"].update(known="as_dealt", stack=None)
    ((line, ref, message),) = deviations([doc])
    assert (line, ref) == (1, BURNS[game])
    assert "discard rack empty" in message
    assert "new_shoe false" in message


@pytest.mark.parametrize("game", sorted(BURNS))
def test_the_same_shoe_not_said_whole_may_be_a_scenarios(game: str) -> None:
    """Without ``whole`` the stack may be only some cards (D75)."""
    doc = _unburned(game)
    doc["shoe"].pop("whole")
    assert [d[1] for d in deviations([doc])] != [BURNS[game]]
