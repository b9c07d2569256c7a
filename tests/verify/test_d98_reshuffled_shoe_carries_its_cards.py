"""D98: the new shoe a reshuffle made holds the cards it gathered.

591.7(d)(1)-(2), 681a.7(d): at the cover card the dealer gathers every
card of the shoe and shuffles them; the next round deals that shoe. An
outside writer's table (2026-12-05) took every 2 to 6 out of the shoe at
a reshuffle and put the new cover card at the penetration of what was
left; with no ``shoe.whole`` in its records (a scenario's shoe may be
only some cards, D75), all 20 rounds conformed. Between two stacked
rounds of one table the reshuffle's cards are known whatever the shoe:
the round after holds the same cards.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.hhf.sample import sample_histories

REFS = {"double-back-jack": "591.7(d)", "21-baccarat": "681a.7(d)"}


def _day(game: str) -> list[dict[str, Any]]:
    docs = []
    for history in sample_histories(game, 30, seed=3, rules={"decks": 2}):
        doc: dict[str, Any] = json.loads(history.dumps())
        doc["shoe"].pop("whole", None)  # not said whole: D75 is off
        docs.append(doc)
    assert deviations(docs) == []
    return docs


def _after_reshuffle(docs: list[dict[str, Any]]) -> int:
    return next(
        i
        for i, doc in enumerate(docs)
        if i > 0
        and doc["shoe"]["new_shoe"]
        and all(s["type"] != "shuffled" for s in doc["shoe"]["preparation"])
    )


@pytest.mark.proves("591.7(d)", "681a.7(d)")
@pytest.mark.parametrize("game", sorted(REFS))
def test_cards_taken_out_at_a_reshuffle(game: str) -> None:
    docs = _day(game)
    k = _after_reshuffle(docs)
    shoe = docs[k]["shoe"]
    cards = [t for t in shoe["stack"].split() if t != "CC"]
    taken, cards = cards[-3:], cards[:-3]  # from the bottom
    # the new cover card at the penetration (3/4) of what is left, in
    # the stack and in the preparation (Double Back Jack places it there)
    place = len(cards) * 3 // 4
    shoe["stack"] = " ".join([*cards[:place], "CC", *cards[place:]])
    for step in shoe["preparation"]:
        if step["type"] == "cover_card_inserted":
            step["position"] = place
    found = deviations(docs)
    assert found[0][:2] == (k + 1, REFS[game]), found
    assert "missing" in found[0][2]
    for card in set(taken):
        assert card in found[0][2]
    # checked round by round, the reshuffle's cards are not known
    assert deviations(docs, across=False) == []
