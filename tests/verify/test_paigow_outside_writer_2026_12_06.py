"""Six-Card Fortune Pai Gow logs an outside writer forged (audit, 2026-12-06).

A helper wrote its own pai gow table from the documentation alone
(dealt from the hand, a manual shoe and an automated shoe; one to three
players setting their own hands) and broke its rounds one rule at a
time. Its honest rounds could not conform until it learned from the
verifier how a hand is named, in which order the seats are settled and
the cards gathered: the documentation now says so, and the tests here
hold croupier's rounds to what it says. Two broken rounds were cited
under a subsection other than the one they break: a Double Down above
the Six-Card Wager under 670a.7(c), which only lets the wager be placed
after "no more bets", instead of 670a.7(e)(1), which offers it up to the
Six-Card Wager (D22); and a deck holding a card twice, or short of one,
under the bare section ``670a.9``, or under 670a.9 for a deck dealt from
an automated shoe, instead of the (e) that removes a wrong deck (D115).
Each case is a round dealt by croupier from a stacked deck, then broken
in the one place the forger broke it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from tests.verify.days import books, dealt, deviations, step_index, verdict

from croupier.hhf.sample import sample_histories

GAME = "six-card-fortune-pai-gow"
DOCS = Path(__file__).resolve().parents[2] / "docs"

RANKS = "23456789TJQKA"
DECK = [r + s for s in "cdhs" for r in RANKS] + ["JK"]


def _deck(start: int, hands: dict[int, str], *, stacks: bool = False) -> str:
    """The 53 cards that deal ``hands`` (position -> six cards) from
    ``start``, clockwise (seat 1 ... seat 6, then the dealer, 7): one card
    at a time, or (``stacks``) six at a time from an automated shoe."""
    dealt_to = {p: h.split() for p, h in hands.items()}
    pool = [c for c in DECK if all(c not in h for h in dealt_to.values())]
    for p in range(1, 8):
        if p not in dealt_to:
            dealt_to[p] = [pool.pop(0) for _ in range(6)]
    order = [*range(start, 8), *range(1, start)]
    if stacks:
        cards = [c for p in order for c in dealt_to[p]]
    else:
        cards = [dealt_to[order[i % 7]][i // 7] for i in range(42)]
    return " ".join(cards + pool)


def _round(
    hands: dict[int, str],
    wagers: list[tuple[int, str, int]],
    decisions: list[dict[str, Any]],
    *,
    start: int = 1,
    dealing: str = "hand",
) -> dict[str, Any]:
    return dealt(
        {
            "game": GAME,
            # the rounds decline or make the Double Down (off by
            # default, D182)
            "rules": {"dealing": dealing, "double_down_offered": True},
            "shoe": _deck(start, hands, stacks=dealing == "automated_shoe"),
            "starting_position": start,
            "wagers": [
                {"seat": s, "wager": w, "amount": a} for s, w, a in wagers
            ],
            "decisions": decisions,
        }
    )


def _steps(record: dict[str, Any], **fields: object) -> list[dict[str, Any]]:
    return [
        s
        for s in record["procedure"]
        if all(s.get(k) == v for k, v in fields.items())
    ]


@pytest.mark.proves("670a.7(e)(1)")
def test_670a_7_e_1_a_double_down_above_the_six_card_wager() -> None:
    # seat 2 (a pair of aces, K low) doubles down for 990 on 1010 against
    # the dealer's pair of queens: the forger wrote 1100, above the
    # Six-Card Wager. (c) lets the Double Down be placed after "no more
    # bets"; (e)(1) offers it, up to the Six-Card Wager (D22)
    record = _round(
        {2: "Ac Ad Kh Ks 7c 9d", 7: "Qc Qd 8s 5d 3s 2c"},
        [(2, "pai_gow", 1010)],
        [
            {"seat": 2, "action": "double_down", "amount": 990},
            {"seat": 2, "action": "house_way"},
        ],
        start=6,
    )
    assert deviations([record], across=False) == []
    for step in _steps(record, seat=2, wager="double_down"):
        step["amount"] = 1100
    _steps(record, action="double_down")[0]["amount"] = 1100
    for row in record["settlements"]:
        if row["wager"] == "double_down":
            row["amount"] = row["net"] = 1100
    _steps(record, type="wager_settled", wager="double_down")[0]["net"] = 1100
    ref, message = verdict(books(record))
    assert ref == "670a.7(e)(1)", message
    # the engine's refusal, quoted: amounts in dollars (D190)
    assert (
        "a Double Down Wager is from $0.01 to the Six-Card Fortune Pai Gow "
        "Poker Wager ($10.10), not $11.00"
    ) in message


_VOID = {
    "hand": "670a.9(e)",
    "manual_shoe": "670a.9(e)",
    "automated_shoe": "670a.10(e)",
}
"""The (e) that removes a wrong deck, under the section each way of
dealing runs by (670a.9 from the hand or a manual shoe, 670a.10 from an
automated one)."""


@pytest.mark.proves("670a.9(e)", "670a.10(e)")
@pytest.mark.parametrize("dealing", sorted(_VOID))
def test_670a_9_e_a_deck_holding_a_card_twice(dealing: str) -> None:
    # the forger's deck: a second As where the joker was, among the
    # eleven cards left at the count; every position still gets six and
    # eleven remain, so only the deck is wrong
    record = _round(
        {1: "As Kd 9c 7h 5s 3d", 7: "Qc Qd 8s 5h 3s 2c"},
        [(1, "pai_gow", 1000)],
        [
            {"seat": 1, "action": "no_double_down"},
            {"seat": 1, "action": "house_way"},
        ],
        dealing=dealing,
    )
    assert deviations([record], across=False) == []
    remaining = _steps(record, type="cards_collected", source="remaining")[0]
    assert "JK" in remaining["cards"].split()
    remaining["cards"] = remaining["cards"].replace("JK", "As")
    record["shoe"]["stack"] = record["shoe"]["stack"].replace("JK", "As")
    [(_, ref, message)] = deviations([record], across=False)
    assert ref == _VOID[dealing], message
    assert "2 x As" in message


def _table_round(dealing: str) -> dict[str, Any]:
    """A sample table's round: its deck's shuffle recorded, 53 cards."""
    history = next(
        sample_histories(GAME, 1, seed=4, rules={"dealing": dealing})
    )
    record: dict[str, Any] = json.loads(history.dumps())
    return record


def _shuffled(record: dict[str, Any]) -> dict[str, Any]:
    return next(
        s
        for s in [*record["shoe"]["preparation"], *record["procedure"]]
        if s["type"] == "shuffled"
    )


@pytest.mark.proves("670a.9(e)", "670a.10(e)")
@pytest.mark.parametrize("dealing", sorted(_VOID))
def test_670a_9_e_a_tables_deck_shuffled_short_of_a_card(dealing: str) -> None:
    record = _table_round(dealing)
    assert deviations([record], across=False) == []
    assert _shuffled(record)["cards"] == 53
    _shuffled(record)["cards"] = 52
    [(_, ref, message)] = deviations([record], across=False)
    assert ref == _VOID[dealing], message
    assert "the shuffle is recorded as 52 cards" in message


@pytest.mark.proves("670a.9(e)")
def test_670a_9_e_a_tables_deck_whose_stack_lacks_a_card() -> None:
    # the shuffle says 53, but the stack holds 52: the last card is gone,
    # and the count of (d) finds ten
    record = _table_round("hand")
    stack = record["shoe"]["stack"].split()
    gone = stack.pop()
    record["shoe"]["stack"] = " ".join(stack)
    remaining = _steps(record, type="cards_collected", source="remaining")[0]
    remaining["cards"] = remaining["cards"].removesuffix(" " + gone)
    _steps(record, type="cards_counted")[0]["count"] = 10
    [(_, ref, message)] = deviations([record], across=False)
    assert ref == "670a.9(e)", message
    assert f"missing 1 x {gone}" in message


@pytest.mark.proves("670a.11")
def test_670a_11_seats_settled_from_the_dealers_right_as_documented() -> None:
    """docs/hand-history.md: the seats are settled from the dealer's
    right (seat 6 first), whatever the starting position, and the
    dealer's cards are gathered before the seats'.

    The forger settled and gathered in dealing order, from the starting
    position, as the seats decide; the page did not say otherwise. That
    order is croupier's own (670a.11 is not at hand): since D175 the
    verifier takes the forger's order too, and the page says so.
    """
    page = " ".join((DOCS / "hand-history.md").read_text("utf-8").split())
    assert (
        "the seats are settled one by one from the dealer's right, "
        "counter-clockwise (seat 6 first, seat 1 last), whatever the "
        "starting position" in page
    )
    assert "the dealer's cards are gathered first" in page
    assert "any order in which no hand is read before it is shown" in page
    # seats 1 and 4 from the starting position 1: they decide 1, then 4
    record = _round(
        {
            1: "Kc Kd 8h 5c 3d Ah",
            4: "Qh Jd 9s 7c 4h 2d",
            7: "Th Ts 8s 5d 3s Qc",
        },
        [(1, "pai_gow", 1000), (4, "pai_gow", 500)],
        [
            {"seat": 1, "action": "no_double_down"},
            {"seat": 1, "action": "set", "low": "Ah"},
            {"seat": 4, "action": "no_double_down"},
            {"seat": 4, "action": "house_way"},
        ],
    )
    assert [s["seat"] for s in _steps(record, type="decision_made")] == [
        1,
        1,
        4,
        4,
    ]
    assert [s["seat"] for s in _steps(record, type="hands_compared")] == [4, 1]
    assert [
        s["source"]
        for s in _steps(record, type="cards_collected", ref="670a.11")
    ] == ["dealer", "seat 4", "seat 1"]
    # settled in dealing order instead: seat 1's cards turned first
    steps = record["procedure"]
    first = step_index(steps, type="card_exposed", to="seat 4")
    last = step_index(steps, type="cards_collected", source="dealer")
    block_4 = steps[
        first : step_index(steps, type="card_exposed", to="seat 1")
    ]
    block_1 = steps[first + len(block_4) : last]
    steps[first:last] = [*block_1, *block_4]
    for n, step in enumerate(steps, start=1):
        step["seq"] = n
    assert [s["seat"] for s in _steps(record, type="hands_compared")] == [1, 4]
    assert deviations([record], across=False) == []


@pytest.mark.proves("670a.11")
def test_670a_11_a_hand_named_as_documented() -> None:
    """docs/house-way.md names every hand a ``hand_set`` step may name.

    The page gave ``pair``, ``straight, ten high`` and ``flush, ace
    high``; the forger named a hand of no pair ``king high``, and every
    such round deviated. The high hands here are written down with the
    name the page's rule gives them; each croupier round names its
    player's hand so, and the page shows the form.
    """
    page = " ".join((DOCS / "house-way.md").read_text("utf-8").split())
    section = page[page.index("## In a log") :]
    for name in (
        "pair",
        "two pair",
        "three of a kind",
        "full house",
        "four of a kind",
        "royal flush",
        "five aces",
        "high card, king high",
        "straight, ten high",
        "straight, five high",
        "flush, ace high",
        "straight flush, nine high",
    ):
        assert f"`{name}`" in section, name
    cases = [
        ("Kd 9c 7h 5s 3d", "2c", "high card, king high"),
        ("Ac 2d 3h 4s 5c", "Kd", "straight, five high"),
        ("6c 7d 8h 9s Tc", "2d", "straight, ten high"),
        ("5h 6h 7h 8h JK", "2d", "straight flush, nine high"),
        ("2c 2d 5h 5s 9c", "Kd", "two pair"),
    ]
    for high, low, name in cases:
        record = _round(
            {1: f"{high} {low}"},
            [(1, "pai_gow", 1000)],
            [
                {"seat": 1, "action": "no_double_down"},
                {"seat": 1, "action": "set", "low": low},
            ],
        )
        [hand_set] = _steps(record, type="hand_set", to="seat 1")
        assert hand_set["hand"] == name
        assert re.fullmatch(r"[a-z ]+(, [a-z]+ high)?", name)
