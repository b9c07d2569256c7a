"""D71: rounds recorded ``as_dealt`` are linked through their shoe's cards.

Without a recorded stack, the verifier cannot compare one round's shoe
with the next; it can count the cards each round shows leaving the
shoe. From the round that begins a shoe (or the table's first in the
file, with its recorded rack), no card may come out more often than the
rules' decks hold it. The broken days below duplicate a card by hand: a
card of the same blackjack value, so that each round by itself still
replays as recorded.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.hhf.sample import sample_histories

ONE_DECK = {"decks": 1, "penetration": "3/4"}
VALUES = "A23456789TJQK"


def _day(
    game: str, rounds: int, rules: dict[str, Any] | None, *, racks: bool
) -> list[dict[str, Any]]:
    docs = []
    for history in sample_histories(
        game, rounds, seed=4, seats=3, rules=rules
    ):
        doc = json.loads(history.dumps())
        doc["shoe"]["known"], doc["shoe"]["stack"] = "as_dealt", None
        if not racks:
            doc["shoe"]["discard"] = None
        docs.append(doc)
    return docs


def _out(doc: dict[str, Any]) -> list[str]:
    return [
        s["card"]
        for s in doc["procedure"]
        if s["type"] in ("card_dealt", "card_burned")
    ]


def _value(card: str) -> int:
    return min(10, VALUES.index(card[0]) + 1)


def _swap(doc: dict[str, Any], old: str, new: str) -> None:
    """``new`` in place of ``old`` wherever the round's steps show it."""
    for step in doc["procedure"]:
        if step.get("card") == old:
            step["card"] = new
        if isinstance(step.get("cards"), str):
            step["cards"] = " ".join(
                new if c == old else c for c in step["cards"].split()
            )


def _duplicate(earlier: dict[str, Any], later: dict[str, Any]) -> str:
    """Deal in ``later`` a card ``earlier`` dealt; return that card."""
    shown = _out(later)
    old, new = next(
        (a, b)
        for a in shown
        for b in _out(earlier)
        if _value(a) == _value(b) and a != b and b not in shown
    )
    _swap(later, old, new)
    return new


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("double-back-jack", ONE_DECK),
        ("double-back-jack", None),
        ("21-baccarat", {"decks": 1}),
        ("midibaccarat", None),
    ],
)
def test_d71_as_dealt_days_conform(
    game: str, rules: dict[str, Any] | None
) -> None:
    docs = _day(game, 40, rules, racks=False)
    # more than one shoe: a new one restarts the count
    assert sum(doc["shoe"]["new_shoe"] for doc in docs) >= (2 if rules else 1)
    assert deviations(docs) == []


def test_591_7_a_a_card_out_of_the_shoe_twice_across_rounds_deviates() -> None:
    docs = _day("double-back-jack", 3, ONE_DECK, racks=False)
    assert not docs[2]["shoe"]["new_shoe"]
    card = _duplicate(docs[0], docs[2])
    # each round alone replays; only the count across them finds it
    assert deviations(docs, across=False) == []
    ((line, ref, message),) = deviations(docs)
    assert (line, ref) == (3, "591.7(a)")
    assert f"{card} has come out of the shoe 2 times since line 1" in message


def test_591_7_a_the_count_begins_with_the_first_round_s_rack() -> None:
    # the file starts mid-shoe: round 2 with its rack (round 1's cards),
    # the rounds after without theirs; round 4 deals a card of that rack
    docs = _day("double-back-jack", 4, ONE_DECK, racks=True)
    first = docs.pop(0)
    assert not any(doc["shoe"]["new_shoe"] for doc in docs)
    for doc in docs[1:]:
        doc["shoe"]["discard"] = None
    card = _duplicate(first, docs[2])
    assert card in docs[0]["shoe"]["discard"].split()
    assert deviations(docs, across=False) == []
    assert [(line, ref) for line, ref, _ in deviations(docs)] == [
        (3, "591.7(a)")
    ]


def test_591_7_d_after_its_cover_card_an_as_dealt_shoe_is_not_dealt_on() -> (
    None
):
    # a round that reached the cover card, then one that deals on from
    # the same shoe (not a new shoe): the reshuffle ended that shoe
    docs = _day("double-back-jack", 12, ONE_DECK, racks=False)
    ended = next(
        doc
        for doc in docs
        if any(s["type"] == "cover_card_reached" for s in doc["procedure"])
    )
    dealt_on = next(doc for doc in docs if not doc["shoe"]["new_shoe"])
    assert deviations([ended]) == []
    assert deviations([dealt_on]) == []
    ((line, ref, message),) = deviations([ended, dealt_on])
    assert (line, ref) == (2, "591.7(d)")
    assert "reached the cover card" in message


@pytest.mark.proves("591.7(a)", "681a.7(a)")
@pytest.mark.parametrize(
    ("game", "burn"),
    [("double-back-jack", "591.7(c)"), ("21-baccarat", "681a.7(c)")],
)
def test_a_new_shoe_as_dealt_mid_shoe_with_no_shuffle(
    game: str, burn: str
) -> None:
    """D65, as dealt too: a new shoe not shuffled follows a reshuffle.

    A round that claims a new shoe (and burns, as one does) where the
    round before left its shoe to be dealt on would restart the counts
    of D71 and D82 at will; without its stack it is held as a stacked
    one is.
    """
    docs = _day(game, 12, {"decks": 2}, racks=True)
    assert deviations(docs) == []
    k = next(i for i in range(2, len(docs)) if not docs[i]["shoe"]["new_shoe"])
    forged = docs[k]
    forged["shoe"].update(new_shoe=True, discard="")
    if game == "double-back-jack":
        # its cover card recorded where a new shoe's goes (D90): 3/4 of
        # the two decks' 104 cards, so only the missing shuffle is wrong
        forged["shoe"]["preparation"] = [
            {
                "seq": 1,
                "ref": "591.7(a)",
                "type": "cover_card_inserted",
                "position": 78,
                "purpose": "reshuffle marker",
                "by": "dealer",
            }
        ]
    forged["procedure"].insert(
        0,
        {
            "seq": 0,
            "ref": burn,
            "type": "card_burned",
            "card": "2c",
            "face_up": False,
        },
    )
    for n, step in enumerate(forged["procedure"], start=1):
        step["seq"] = n
    [(line, ref, message)] = deviations(docs)
    assert line == k + 1
    assert ref == {"591.7(c)": "591.7(a)", "681a.7(c)": "681a.7(a)"}[burn]
    assert "no shuffle recorded" in message
