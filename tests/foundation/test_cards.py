from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import JOKER, Card, Rank, Suit, full_deck, parse_cards
from croupier.errors import CardParseError


def test_parse_accepts_ten_both_ways() -> None:
    assert Card.parse("10h") == Card.parse("Th") == Card(Rank.TEN, Suit.HEARTS)


@pytest.mark.parametrize("raw", ["JK", "Jo", "jk", "JOKER"])
def test_joker_notations(raw: str) -> None:
    assert Card.parse(raw) is JOKER
    assert str(JOKER) == "JK"


@pytest.mark.parametrize("raw", ["1s", "Ax", "", "11h", "As Kd", "Z"])
def test_bad_cards_are_refused(raw: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(raw)


@given(st.integers(min_value=0, max_value=52))
def test_code_round_trip(code: int) -> None:
    card = Card.from_code(code)
    assert card.code == code
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card  # noqa: S307 - repr is a constructor


def test_cards_are_frozen() -> None:
    card = Card.parse("As")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = Rank.KING  # type: ignore[misc]


def test_full_deck_is_52_distinct_plus_jokers() -> None:
    deck = full_deck(jokers=1)
    assert len(deck) == 53
    assert len(set(deck)) == 53
    assert deck[-1] is JOKER


def test_parse_cards_separators() -> None:
    assert parse_cards("As, Kd  10h") == parse_cards(["As", "Kd", "Th"])


def test_suit_colours() -> None:
    assert Suit.HEARTS.is_red
    assert Suit.DIAMONDS.is_red
    assert not Suit.SPADES.is_red
    assert not Suit.CLUBS.is_red
