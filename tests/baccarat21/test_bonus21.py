"""The Bonus "pair or better" categories of § 681a.7(k) (decision D16)."""

from __future__ import annotations

import itertools

import pytest

from croupier.cards import full_deck, parse_cards
from croupier.errors import CroupierError
from croupier.hands.bonus21 import (
    CATEGORY_ORDER,
    DEFAULT_BONUS_PAYTABLE,
    BonusCategory,
    best_category,
    bonus_categories,
    bonus_payout,
    classify,
)
from croupier.money import Odds
from croupier.rules import Paytable


@pytest.mark.proves("681a.3(e)", "681a.8(c)")
@pytest.mark.parametrize(
    ("cards", "category", "odds"),
    [
        ("7h 7h 7h", BonusCategory.SUITED_THREE_OF_A_KIND, "30:1"),
        ("4c 5c 6c", BonusCategory.STRAIGHT_FLUSH, "25:1"),
        ("Qs Ks As", BonusCategory.STRAIGHT_FLUSH, "25:1"),
        ("7s 7d 7c", BonusCategory.THREE_OF_A_KIND, "20:1"),
        ("2h 3s Ad", BonusCategory.STRAIGHT, "20:1"),
        ("Qh Kd Ac", BonusCategory.STRAIGHT, "20:1"),
        ("9c Td Jh", BonusCategory.STRAIGHT, "20:1"),
        ("2d 9d Kd", BonusCategory.FLUSH, "4:1"),
        ("5h 5h 9h", BonusCategory.FLUSH, "4:1"),  # pair and flush
        ("Jc 4s Js", BonusCategory.PAIR, "1:1"),
        ("8c 8d", BonusCategory.PAIR, "1:1"),
        ("8c 5d 8h", BonusCategory.PAIR, "1:1"),
    ],
)
def test_681a_3_e_bonus_category_and_default_odds(
    cards: str, category: BonusCategory, odds: str
) -> None:
    hand = parse_cards(cards)
    assert bonus_payout(hand, DEFAULT_BONUS_PAYTABLE) == (
        category,
        Odds.parse(odds),
    )


@pytest.mark.proves("681a.3(e)")
@pytest.mark.parametrize(
    "cards",
    [
        "Th Jc",  # 10-value cards of different rank are no pair
        "As Kd",  # a natural is two different ranks
        "Kh As 2d",  # no wrap-around straight
        "9h Th",  # two suited connectors: straights need three cards
        "2h 9h",  # two suited cards: flushes need three cards
        "2c 7d Qh",
    ],
)
def test_681a_3_e_no_pair_or_better(cards: str) -> None:
    hand = parse_cards(cards)
    assert bonus_categories(hand) == frozenset()
    assert classify(hand) is None
    assert bonus_payout(hand, DEFAULT_BONUS_PAYTABLE) is None


@pytest.mark.proves("681a.3(e)")
def test_681a_3_e_two_card_hands_are_a_pair_or_nothing() -> None:
    deck = full_deck()
    for first, second in itertools.combinations(deck, 2):
        found = bonus_categories((first, second))
        expected = {BonusCategory.PAIR} if first.rank == second.rank else set()
        assert found == expected


@pytest.mark.proves("681a.3(e)")
def test_681a_3_e_three_card_category_counts_match_combinatorics() -> None:
    # one 52-card deck: the classic three-card poker frequencies
    counts = dict.fromkeys(CATEGORY_ORDER, 0)
    for hand in itertools.combinations(full_deck(), 3):
        category = classify(hand)
        if category is not None:
            counts[category] += 1
    assert counts[BonusCategory.SUITED_THREE_OF_A_KIND] == 0
    assert counts[BonusCategory.STRAIGHT_FLUSH] == 48
    assert counts[BonusCategory.THREE_OF_A_KIND] == 52
    assert counts[BonusCategory.STRAIGHT] == 720
    assert counts[BonusCategory.FLUSH] == 1096
    assert counts[BonusCategory.PAIR] == 3744


@pytest.mark.proves("681a.8(c)")
def test_681a_8_c_paid_at_the_highest_paying_listed_category() -> None:
    trips = parse_cards("7h 7h 7h")
    only_trips = Paytable.parse({"three_of_a_kind": "30:1", "flush": "5:1"})
    assert best_category(trips, only_trips) is BonusCategory.THREE_OF_A_KIND
    flush_pays_more = Paytable.parse({"pair": "1:1", "flush": "50:1"})
    assert best_category(trips, flush_pays_more) is BonusCategory.FLUSH
    assert best_category(parse_cards("4c 5c 6c"), Paytable(())) is None


@pytest.mark.proves("681a.3(e)")
def test_681a_3_e_hand_size_is_two_or_three() -> None:
    with pytest.raises(CroupierError):
        bonus_categories(parse_cards("As"))
    with pytest.raises(CroupierError):
        bonus_categories(parse_cards("As Ks Qs Js"))
