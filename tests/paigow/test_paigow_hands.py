"""Six-card hands: the joker, setting, fouls, house way, copies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, full_deck, parse_cards
from croupier.errors import IllegalActionError
from croupier.hands import paigow
from croupier.hands.paigow import Category, category_of, evaluate

DECK = full_deck(jokers=1)


def _category(text: str) -> Category:
    return category_of(evaluate(parse_cards(text)))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ac Ad Ah As JK", Category.FIVE_ACES),
        ("Ts Js Qs Ks JK", Category.ROYAL_FLUSH),
        ("9s 8s 7s 6s JK", Category.STRAIGHT_FLUSH),
        ("Ah 2h 3h 4h JK", Category.STRAIGHT_FLUSH),
        ("9d 8s 7c 6h JK", Category.STRAIGHT),
        ("Ad Kc Qh Js JK", Category.STRAIGHT),
        ("2h 7h 9h Jh JK", Category.FLUSH),
        ("Ac Ad Ah JK 2c", Category.FOUR_OF_A_KIND),
        ("Kc Kd Kh JK 2c", Category.THREE_OF_A_KIND),
        ("Ac Ad 5h 5c JK", Category.FULL_HOUSE),
        ("Kc Kd 5h 5c JK", Category.TWO_PAIR),
        ("Kc Qd 9h 5c JK", Category.HIGH_CARD),  # ace high
    ],
)
def test_joker_rule_d19(text: str, expected: Category) -> None:
    assert _category(text) is expected


def test_joker_in_a_flush_takes_the_highest_missing_rank() -> None:
    with_joker = evaluate(parse_cards("Ah 7h 9h Jh JK"))
    natural = evaluate(parse_cards("Ah Kh 7h 9h Jh"))
    assert with_joker == natural


def test_wheel_is_the_lowest_straight() -> None:
    wheel = evaluate(parse_cards("Ac 2d 3h 4s 5c"))
    six_high = evaluate(parse_cards("2d 3h 4s 5c 6d"))
    assert category_of(wheel) is Category.STRAIGHT
    assert wheel < six_high


def test_best_five_of_six() -> None:
    value, five = paigow.best_five(parse_cards("2c 3c 4c 5c 6c Ac"))
    assert category_of(value) is Category.STRAIGHT_FLUSH
    assert Card.parse("Ac") not in five


def test_foul_setting_refused_with_reason() -> None:
    cards = parse_cards("Kd 9c 7h 5s 3d Ac")
    with pytest.raises(paigow.FoulSettingError, match="does not outrank"):
        paigow.set_hand(cards, Card.parse("Ac"))
    with pytest.raises(IllegalActionError, match="not one of the cards"):
        paigow.set_hand(cards, Card.parse("2c"))


def test_joker_low_card_counts_as_an_ace() -> None:
    cards = parse_cards("JK Kd 9c 7h 5s 3d")
    with pytest.raises(paigow.FoulSettingError):
        paigow.set_hand(cards, Card.parse("JK"))
    setting = paigow.set_hand(
        parse_cards("JK Kd Kc 7h 5s 3d"), Card.parse("JK")
    )
    assert setting.low_value == 14


def test_copies_go_to_the_dealer_d20() -> None:
    player = paigow.set_hand(
        parse_cards("8h 8s 9c 4d 3s Ah"), Card.parse("Ah")
    )
    dealer = paigow.set_hand(
        parse_cards("8c 8d 9h 4c 3d Ks"), Card.parse("Ks")
    )
    comparison = paigow.compare(player, dealer)
    assert comparison.high_copy
    assert comparison.high is paigow.HandOutcome.LOSE
    assert comparison.low is paigow.HandOutcome.WIN
    assert comparison.result == "push"
    assert paigow.compare(dealer, dealer).result == "lose"


def test_house_way_registry() -> None:
    assert {"standard", "best_high"} <= set(paigow.HOUSE_WAYS)
    with pytest.raises(IllegalActionError, match="unknown house way"):
        paigow.find_house_way("nope")


@pytest.mark.parametrize(
    ("text", "low"),
    [
        ("Kd 9c 7h 5s 3d Ac", "Kd"),  # no pair: second-highest card low
        ("2c 2d Ah Ks 9d 7c", "Ah"),  # a pair stays in the high hand
        ("Ac Ad Kh Ks 5d 2c", "5d"),  # two pair kept; best other card low
        ("2h 7h 9h Jh Qh Ac", "Ac"),  # flush kept, ace low
        ("9s 8d 7c 6h 5s Kd", "Kd"),  # straight kept, king low
        ("JK 9s 8d 7c 6h 2s", "2s"),  # straight with the joker
        ("Ac Ad Ah As JK 2c", "2c"),  # five aces
    ],
)
def test_standard_house_way_d21(text: str, low: str) -> None:
    setting = paigow.find_house_way("standard").set_hand(parse_cards(text))
    assert str(setting.low) == low


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True))
def test_house_ways_are_deterministic_and_never_foul(
    cards: list[Card],
) -> None:
    for way in paigow.HOUSE_WAYS.values():
        setting = way.set_hand(cards)
        assert not paigow.is_foul(setting.high, setting.low)
        assert sorted([*setting.high, setting.low]) == sorted(cards)
        again = way.set_hand(list(reversed(cards)))
        assert again.low == setting.low
        assert setting.high_value == again.high_value
