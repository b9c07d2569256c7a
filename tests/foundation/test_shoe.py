from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, parse_cards
from croupier.errors import (
    CardConservationError,
    ShoeError,
    ShoeExhaustedError,
)
from croupier.rng import SeededRng
from croupier.shoe import COVER_CARD, Shoe


def test_stacked_notation_round_trip_with_cover_card() -> None:
    shoe = Shoe.stacked("As Kd CC 9c")
    assert Shoe.stacked(shoe.notation()).notation() == "As Kd CC 9c"
    assert len(shoe) == 3


def test_draw_sets_cover_card_aside_and_reports_it() -> None:
    shoe = Shoe.stacked("As CC Kd")
    seen: list[str] = []
    assert shoe.draw(lambda: seen.append("cover")) == Card.parse("As")
    assert seen == []
    assert shoe.draw(lambda: seen.append("cover")) == Card.parse("Kd")
    assert seen == ["cover"]
    assert shoe.covers_aside == 1


def test_empty_shoe_raises_typed_error() -> None:
    shoe = Shoe.stacked("As")
    shoe.draw()
    with pytest.raises(ShoeExhaustedError):
        shoe.draw()


def test_discard_rack_keeps_arrival_order() -> None:
    shoe = Shoe.stacked("As Kd 9c 8h")
    shoe.burn(1)
    dealt = [shoe.draw(), shoe.draw()]
    shoe.discard_cards(reversed(dealt))
    assert shoe.discard == list(parse_cards("As 9c Kd"))


def test_conservation_detects_a_lost_and_a_duplicated_card() -> None:
    shoe = Shoe.stacked("As Kd 9c")
    card = shoe.draw()
    shoe.verify_conservation(on_table=[card])
    with pytest.raises(CardConservationError, match="missing"):
        shoe.verify_conservation()
    with pytest.raises(CardConservationError, match="extra"):
        shoe.verify_conservation(on_table=[card, card])


def test_insert_cover_card_out_of_range_refused() -> None:
    shoe = Shoe.stacked("As Kd")
    with pytest.raises(ShoeError):
        shoe.insert_cover_card(5)
    assert shoe.notation() == "As Kd"


def test_new_shoe_needs_a_deck() -> None:
    with pytest.raises(ShoeError):
        Shoe.new(decks=0)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    decks=st.integers(min_value=1, max_value=8),
    draws=st.integers(min_value=0, max_value=200),
    burns=st.integers(min_value=0, max_value=10),
)
def test_shuffle_burn_deal_gather_never_loses_a_card(
    seed: int, decks: int, draws: int, burns: int
) -> None:
    shoe = Shoe.new(decks=decks)
    complement = Counter(shoe.complement)
    rng = SeededRng(seed)
    shoe.shuffle(rng)
    shoe.insert_cover_card(len(shoe) // 2)
    shoe.burn(burns)
    table: list[Card] = []
    for _ in range(min(draws, len(shoe))):
        table.append(shoe.draw())
        shoe.verify_conservation(on_table=table)
    shoe.discard_cards(table)
    shoe.verify_conservation()
    shoe.gather()
    shoe.shuffle(rng)
    assert Counter(shoe.cards_in_stack()) == complement


_PLACES = ("stack", "discard", "set_aside", "table")


@settings(max_examples=150, deadline=None)
@given(
    ops=st.lists(
        st.sampled_from(
            ["draw", "burn", "clear", "cover", "withdraw", "gather"]
        ),
        max_size=40,
    ),
    place=st.sampled_from(_PLACES),
    tamper=st.sampled_from(["lose", "copy", "swap", "none"]),
    where=st.integers(min_value=0),
)
def test_issue_18_5_plain_shoe_recounts_whatever_changed_the_lists(
    ops: list[str], place: str, tamper: str, where: int
) -> None:
    # Any change to any list, by any route (the shoe's methods or the
    # lists' own), shows in the next check: nothing is kept up to date.
    shoe = Shoe.new(decks=2, jokers=1)
    shoe.insert_cover_card(30)
    table: list[Card] = []
    for op in ops:
        if op == "draw" and len(shoe):
            table.append(shoe.draw())
        elif op == "burn" and len(shoe):
            shoe.burn(1)
        elif op == "clear":
            shoe.discard_cards(table)
            table = []
        elif op == "cover":
            shoe.insert_cover_card(len(shoe.stack) // 3)
        elif op == "withdraw" and len(shoe):
            shoe.withdraw([shoe.draw()])
        elif op == "gather" and not table:
            shoe.gather()
        shoe.verify_conservation(on_table=table)
    held: list[Card] = (
        table
        if place == "table"
        else [c for c in getattr(shoe, place) if isinstance(c, Card)]
    )
    if tamper == "none" or not held:
        shoe.verify_conservation(on_table=table)
        return
    card = held[where % len(held)]
    items: list[Any] = table if place == "table" else getattr(shoe, place)
    if tamper == "lose":
        items.remove(card)
    elif tamper == "copy":
        items.append(card)
    else:  # one card becomes another: the counts of two cards change
        other = next(c for c in Shoe.new().stack if c != card)
        assert isinstance(other, Card)
        items[items.index(card)] = other
    with pytest.raises(CardConservationError):
        shoe.verify_conservation(on_table=table)


@settings(max_examples=150, deadline=None)
@given(
    stack=st.lists(
        st.one_of(st.integers(0, 52), st.just(-1)), min_size=1, max_size=60
    ),
    moves=st.lists(
        st.tuples(
            st.sampled_from(["draw", "lose", "twice", "add", "rack"]),
            st.integers(0, 52),
        ),
        max_size=12,
    ),
)
def test_d193_a_stack_never_counted_is_checked_as_the_plain_count(
    stack: list[int], moves: list[tuple[str, int]]
) -> None:
    """A shoe whose complement is its stack as built, never counted, is
    checked by the stack's codes (D193 asks it at every round's end): it
    passes exactly when the plain count of cards says nothing is lost or
    added, whatever happens to the stack, the rack and the table."""
    items = [COVER_CARD if c < 0 else Card.from_code(c) for c in stack]
    owed = Counter(i for i in items if isinstance(i, Card))
    shoe = Shoe(items)
    table: list[Card] = []
    for move, code in moves:
        cards = [i for i in shoe.stack if isinstance(i, Card)]
        if move == "draw" and cards:
            table.append(shoe.draw())
        elif move == "lose" and cards:
            shoe.stack.remove(cards[code % len(cards)])
        elif move == "twice" and cards:
            shoe.discard.append(cards[code % len(cards)])
        elif move == "add":
            table.append(Card.from_code(code))
        elif move == "rack" and table:
            shoe.discard_cards([table.pop()])
        held = Counter(i for i in shoe.stack if isinstance(i, Card))
        held.update(shoe.discard)
        held.update(table)
        if held == owed:
            shoe.verify_conservation(on_table=table)
        else:
            with pytest.raises(CardConservationError):
                shoe.verify_conservation(on_table=table)
