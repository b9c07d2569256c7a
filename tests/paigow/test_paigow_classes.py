"""The fast paths of the pai gow evaluator equal the plain ones (D19, D21).

:mod:`croupier.hands.paigow_classes` values a five-card hand once per
hand class and works joker classes out from three natural hands; the
house ways pick their low card without building every setting. Each is
compared here with the plain code of :mod:`croupier.hands.paigow`
(``_evaluate_five``, ``plain_set_hand``), on random and structured hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import JOKER, Card, Rank, Suit, full_deck, parse_cards
from croupier.hands import paigow
from croupier.hands.paigow_classes import (
    FiveValues,
    hand_class,
    joker_value,
    natural_class_value,
    natural_value,
)

DECK = full_deck(jokers=1)
SUITS = tuple(Suit)


def _fresh() -> FiveValues:
    return FiveValues(paigow._evaluate_five, natural=paigow._evaluate_natural)


@st.composite
def _joker_hands(draw: st.DrawFn) -> list[Card]:
    """The joker and four cards near a straight or a flush."""
    suited = draw(st.booleans())
    low = draw(st.integers(2, 10))
    ranks = draw(
        st.lists(
            st.integers(low, min(low + 5, 14)),
            min_size=4,
            max_size=4,
            unique=True,
        )
        | st.lists(st.integers(2, 14), min_size=4, max_size=4, unique=True)
    )
    suit = draw(st.sampled_from(SUITS))
    cards = [
        Card(Rank(r), suit if suited else SUITS[i % 4])
        for i, r in enumerate(ranks)
    ]
    cards.insert(draw(st.integers(0, 4)), JOKER)
    return cards


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
    | _joker_hands()
)
def test_d19_five_card_value_by_class_equals_the_plain_evaluator(
    cards: list[Card],
) -> None:
    # the shared table (filled by earlier hands of the class) and a
    # fresh one (a joker class worked out by joker_value) both agree
    want = paigow._evaluate_five(cards)
    assert paigow.evaluate_five(cards) == want
    assert _fresh()(cards) == want


def _representative(ranks: Sequence[int], suited: bool) -> list[Card]:
    used: set[Card] = set()
    cards = []
    for i, rank in enumerate(ranks):
        suit = SUITS[0] if suited else SUITS[i % 4]
        card = Card(Rank(rank), suit)
        while card in used:
            suit = SUITS[(SUITS.index(suit) + 1) % 4]
            card = Card(Rank(rank), suit)
        used.add(card)
        cards.append(card)
    return [*cards, JOKER]


def test_d19_every_joker_class_is_worked_out_as_the_plain_evaluator() -> None:
    # every multiset of four ranks, one-suited (distinct ranks) or not
    checked = 0
    for ranks in combinations_with_replacement(range(2, 15), 4):
        flags = (False, True) if len(set(ranks)) == 4 else (False,)
        for suited in flags:
            cards = _representative(ranks, suited)
            key = hand_class(cards)
            assert key is not None
            assert key[5] == int(suited)
            want = paigow._evaluate_five(cards)
            assert joker_value(key, paigow._evaluate_natural) == want, cards
            # and from the natural hands valued by their ranks
            assert joker_value(key, paigow._natural_by_ranks) == want, cards
            checked += 1
    assert checked == 1820 + 715


def _natural_representative(ranks: Sequence[int], suited: bool) -> list[Card]:
    """Five distinct cards of ``ranks``, of one suit when ``suited``."""
    return _representative(ranks, suited)[:-1]


def test_d19_every_natural_class_from_its_ranks_is_the_plain_value() -> None:
    # every multiset of five ranks five distinct cards can hold, one-suited
    # (distinct ranks) or not: natural_value from the ranks alone,
    # natural_class_value from the class, and the table that asks it,
    # against the plain evaluator of the cards
    values = FiveValues(
        paigow._evaluate_five,
        natural=paigow._natural_by_ranks,
        by_class=natural_class_value,
    )
    checked = 0
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        flags = (False, True) if len(set(ranks)) == 5 else (False,)
        for suited in flags:
            cards = _natural_representative(ranks, suited)
            want = paigow._evaluate_five(cards)
            shuffled = [ranks[3], ranks[0], ranks[4], ranks[2], ranks[1]]
            assert natural_value(shuffled, suited) == want, cards
            key = hand_class(cards)
            assert key is not None
            assert natural_class_value(key) == want, cards
            assert values(cards) == want, cards
            checked += 1
    assert checked == 6175 + 1287


def test_d19_natural_value_leaves_what_five_cards_cannot_hold() -> None:
    # a rank five times, or a repeated rank in one suit: None, and the
    # evaluator the table uses then gives the plain natural value
    for ranks in combinations_with_replacement(range(2, 15), 5):
        for suited in (False, True):
            suits: list[str | None] = ["c"] * 5 if suited else list("cdccc")
            covered = len(set(ranks)) == 5 or (
                not suited and max(ranks.count(r) for r in ranks) < 5
            )
            got = natural_value(ranks, suited)
            assert (got is not None) == covered, (ranks, suited)
            want = paigow._evaluate_natural(ranks, suits)
            assert paigow._natural_by_ranks(ranks, suits) == want
            if got is not None:
                assert got == want


@pytest.mark.parametrize(
    "text", ["2c 2c 3d 4h 5s", "2c 3d 4h JK JK", "2c 2c 3d 4h JK", "2c 3d"]
)
def test_hands_outside_every_class_go_to_the_plain_evaluator(
    text: str,
) -> None:
    cards = parse_cards(text)
    values = _fresh()
    try:
        want: int | str = paigow._evaluate_five(cards)
    except ValueError as exc:
        want = str(exc)
    try:
        got: int | str = values(cards)
    except ValueError as exc:
        got = str(exc)
    assert got == want


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True)
    | _joker_hands().flatmap(
        lambda five: st.sampled_from([c for c in DECK if c not in five]).map(
            lambda sixth: [*five, sixth]
        )
    ),
    st.sampled_from(["standard", "best_high"]),
)
def test_d21_house_way_fast_path_equals_the_plain_choice(
    cards: list[Card], name: str
) -> None:
    way = paigow.find_house_way(name)
    assert isinstance(way, paigow.StandardHouseWay | paigow.BestHighHouseWay)
    assert way.set_hand(cards) == way.plain_set_hand(cards)
