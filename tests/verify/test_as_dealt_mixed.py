"""D86: a table's stacked and as-dealt rounds are linked through their shoe.

A log may record some rounds' stacks and only the cards of others (a
table whose shuffler records some shoes). Between two rounds nothing
happens to the cards, so a round recorded ``as_dealt`` that deals on
from a stacked one takes its cards from the top of the stack that round
left, and a stacked round that deals on from as-dealt ones begins with
the shoe they left (as far as the log shows it): its rack holds every
card they took out. Each broken day below is a day of honest rounds
with one round left out of the log, or cards moved from the rack to the
bottom of the stack between two rounds: every round by itself replays
as recorded, only the link between them is broken.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.hhf.sample import sample_histories

FROM_THE_SHOE = {"double-back-jack": "591.7(a)", "21-baccarat": "681a.7(a)"}


def _day(game: str, rounds: int = 40) -> list[dict[str, Any]]:
    return [
        json.loads(h.dumps()) for h in sample_histories(game, rounds, seed=8)
    ]


def _as_dealt(doc: dict[str, Any], *, rack: bool = True) -> dict[str, Any]:
    doc["shoe"]["known"], doc["shoe"]["stack"] = "as_dealt", None
    if not rack:
        doc["shoe"]["discard"] = None
    return doc


def _continues(doc: dict[str, Any]) -> bool:
    """Whether a round deals on from the round before, without reshuffling."""
    shoe = doc["shoe"]
    return not shoe["new_shoe"] and not any(
        s["type"] in ("shuffled", "cover_card_reached")
        for s in [*shoe.get("preparation", []), *doc["procedure"]]
    )


def _run_of(docs: list[dict[str, Any]], length: int) -> int:
    """The first index of ``length`` rounds in a row that deal on."""
    for i in range(1, len(docs) - length):
        if all(_continues(d) for d in docs[i : i + length]):
            return i
    raise AssertionError("no run of rounds dealt on from one shoe")


def _refs(day: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(line, ref) for line, ref, _ in deviations(day)]


@pytest.mark.parametrize("game", sorted(FROM_THE_SHOE))
def test_591_7_a_as_dealt_round_takes_the_top_of_a_stacked_shoe(
    game: str,
) -> None:
    """An as-dealt round after a stacked one, a round between left out."""
    docs = _day(game)
    i = _run_of(docs, 3)
    # stacked round i, round i + 1 left out, round i + 2 as dealt: its
    # cards are not the top of the shoe round i left
    day = [*docs[: i + 1], _as_dealt(docs[i + 2], rack=False)]
    ((line, ref, message),) = deviations(day)
    assert (line, ref) == (len(day), FROM_THE_SHOE[game])
    assert "out of the shoe" in message
    assert f"line {i + 1}" in message
    # the same rounds with none left out conform
    assert _refs([*docs[: i + 1], _as_dealt(docs[i + 1], rack=False)]) == []


def test_591_7_a_as_dealt_round_begins_with_the_rack_left() -> None:
    """An as-dealt round whose rack lost a card the round before put."""
    docs = _day("double-back-jack")
    i = _run_of(docs, 2)
    after = _as_dealt(docs[i + 1])
    racked = after["shoe"]["discard"].split()
    after["shoe"]["discard"] = " ".join(racked[:-1])
    ((line, ref, message),) = deviations([*docs[: i + 1], after])
    assert (line, ref) == (i + 2, "591.7(a)")
    assert "discard rack" in message


@pytest.mark.parametrize("game", sorted(FROM_THE_SHOE))
def test_591_7_a_stacked_round_deals_on_from_the_as_dealt_ones(
    game: str,
) -> None:
    """Stacked, as dealt, (a round left out), stacked: the shoe is followed."""
    docs = _day(game)
    i = _run_of(docs, 4)
    middle = _as_dealt(docs[i + 1], rack=False)
    day = [*docs[: i + 1], middle, docs[i + 3]]
    assert _refs(day) == [(len(day), FROM_THE_SHOE[game])]
    honest = [*docs[: i + 1], _as_dealt(docs[i + 1], rack=False), docs[i + 2]]
    assert _refs(honest) == []


@pytest.mark.parametrize("rack", [True, False], ids=["racks", "no_racks"])
def test_591_7_a_cards_out_stay_in_the_rack(rack: bool) -> None:
    """As-dealt rounds from a shoe's start, then a stacked one that put the
    cards they dealt back at the bottom of its stack (from its rack)."""
    docs = _day("double-back-jack")
    start = next(
        i for i, d in enumerate(docs) if i > 0 and d["shoe"]["new_shoe"]
    )
    stop = start + 3
    assert all(_continues(d) for d in docs[start + 1 : stop + 1])
    day = [*docs[:start], *(_as_dealt(d, rack=rack) for d in docs[start:stop])]
    honest = json.loads(json.dumps(docs[stop]))
    moved = json.loads(json.dumps(docs[stop]))
    racked = moved["shoe"]["discard"].split()
    assert len(racked) > 4
    # four of the rack's cards go back to the bottom of the stack
    moved["shoe"]["discard"] = " ".join(racked[4:])
    moved["shoe"]["stack"] = " ".join([moved["shoe"]["stack"], *racked[:4]])
    assert _refs([*day, honest]) == []
    assert _refs([*day, moved]) == [(len(day) + 1, "591.7(a)")]


@pytest.mark.parametrize(
    "game",
    [
        "double-back-jack",
        "21-baccarat",
        "midibaccarat",
        "midibaccarat-commission-free",
    ],
)
def test_d86_honest_days_recorded_either_way_conform(game: str) -> None:
    """A day of honest rounds, each recorded stacked or as dealt at random
    (with or without its rack), across its shoes' ends, conforms."""
    rng = random.Random(game)
    day = []
    for history in sample_histories(game, 120, seed=12):
        doc = json.loads(history.dumps())
        if rng.random() < 0.5:
            doc = _as_dealt(doc, rack=rng.random() < 0.5)
        day.append(doc)
    assert sum(d["shoe"]["new_shoe"] for d in day) >= 2  # shoes end
    assert _refs(day) == []
