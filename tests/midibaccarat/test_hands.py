"""Baccarat point count, naturals, third-card table and pairs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, full_deck, parse_cards
from croupier.hands.baccarat import (
    BANKER_DRAWS_AFTER_PLAYER_THIRD,
    BANKER_DRAWS_PLAYER_STOOD,
    PLAYER_DRAWS,
    Coup,
    PairKind,
    Winner,
    banker_draws,
    is_natural,
    pair_kind,
    play_coup,
    player_draws,
    point_count,
    point_value,
)

THIRD_BY_VALUE = [
    Card.parse(c)
    for c in ["Kc", "Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]
]


def _banker_rule_as_written(banker: int, third: int | None) -> bool:
    """631a.11(c) restated as conditions, an oracle for the data table."""
    if third is None:
        return banker <= 5  # (c)(1)
    if banker < 3:  # (c)(2)(i)
        return True
    if banker == 7:  # (c)(2)(ii)
        return False
    lowest = {3: 0, 4: 2, 5: 4, 6: 6}[banker]  # (c)(2)(iii), Table 1
    return third >= lowest and third != 8 and (banker == 3 or third <= 7)


@pytest.mark.proves("629a.6")
def test_629a_6_point_values() -> None:
    values = {str(c)[0]: point_value(c) for c in full_deck()}
    assert values == {
        "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8,
        "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0,
    }  # fmt: skip


@pytest.mark.proves("629a.6")
def test_629a_6_point_count_is_the_sum_modulo_ten() -> None:
    assert point_count(parse_cards("9h 9d")) == 8
    assert point_count(parse_cards("Kh Qd Js")) == 0
    assert point_count(parse_cards("As 9d Th")) == 0
    assert point_count(parse_cards("5s 6d 7h")) == 8


@pytest.mark.proves("629a.10")
def test_629a_10_naturals_are_eight_or_nine_on_two_cards() -> None:
    assert is_natural(parse_cards("8h Kd"))
    assert is_natural(parse_cards("4h 5d"))
    assert not is_natural(parse_cards("7h Kd"))
    assert not is_natural(parse_cards("4h 2d 3c"))


@pytest.mark.proves("629a.10")
def test_629a_10_player_draws_on_zero_to_five() -> None:
    assert [player_draws(t) for t in range(8)] == [True] * 6 + [False] * 2
    assert len(PLAYER_DRAWS) == 8


@pytest.mark.proves("629a.10", "631a.11")
@pytest.mark.parametrize("banker", range(8))
@pytest.mark.parametrize("third", [None, *range(10)])
def test_629a_10_banker_table_matches_631a_11(
    banker: int, third: int | None
) -> None:
    card = None if third is None else THIRD_BY_VALUE[third]
    assert banker_draws(banker, player_third=card) == _banker_rule_as_written(
        banker, third
    )


@pytest.mark.proves("629a.10")
def test_629a_10_rule_tables_are_data() -> None:
    assert set(BANKER_DRAWS_AFTER_PLAYER_THIRD) == set(range(8))
    assert all(
        len(row) == 10 for row in BANKER_DRAWS_AFTER_PLAYER_THIRD.values()
    )
    assert BANKER_DRAWS_AFTER_PLAYER_THIRD[3] == "DDDDDDDDSD"
    assert BANKER_DRAWS_AFTER_PLAYER_THIRD[6] == "SSSSSSDDSS"
    assert BANKER_DRAWS_PLAYER_STOOD == "DDDDDDSS"


@pytest.mark.proves("629b.1(a)")
@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("Qh Qh", PairKind.PERFECT),
        ("Qh Qd", PairKind.COLORED),
        ("4s 4c", PairKind.COLORED),
        ("7h 7s", PairKind.MIXED),
        ("Ad Ac", PairKind.MIXED),
        ("Th Jh", None),
        ("Kd Qd", None),
        ("9s 8s", None),
    ],
)
def test_629b_1_a_pair_categories(cards: str, kind: PairKind | None) -> None:
    assert pair_kind(parse_cards(cards)) is kind


@pytest.mark.proves("629b.1(c)")
def test_629b_1_c_only_the_first_two_cards_count() -> None:
    assert pair_kind(parse_cards("Th Jh Jd")) is None


@pytest.mark.proves("627a.1")
def test_627a_1_dragon7_and_panda8_definitions() -> None:
    dragon = Coup(parse_cards("2h 3d Kc"), parse_cards("3s Kd 4d"))
    assert dragon.is_dragon7
    assert dragon.winner is Winner.BANKER
    two_card = Coup(parse_cards("2h 3d Kc"), parse_cards("7s Kd"))
    assert not two_card.is_dragon7
    tie = Coup(parse_cards("3h 4d"), parse_cards("2s Kd 5c"))
    assert not tie.is_dragon7
    assert tie.winner is Winner.TIE
    panda = Coup(parse_cards("2h 3d 3c"), parse_cards("6s Kd"))
    assert panda.is_panda8
    assert not panda.is_dragon7


@pytest.mark.proves("629a.10")
@settings(max_examples=200, deadline=None)
@given(st.permutations(full_deck()))
def test_629a_10_play_coup_never_draws_past_the_rules(
    deck: list[Card],
) -> None:
    cards = iter(deck)
    coup = play_coup(lambda: next(cards))
    player, banker = coup.player, coup.banker
    assert 2 <= len(player) <= 3
    assert 2 <= len(banker) <= 3
    natural = is_natural(player[:2]) or is_natural(banker[:2])
    if natural:
        assert len(player) == len(banker) == 2
        return
    assert (len(player) == 3) == (point_count(player[:2]) <= 5)
    third = player[2] if len(player) == 3 else None
    value = None if third is None else point_value(third)
    assert (len(banker) == 3) == _banker_rule_as_written(
        point_count(banker[:2]), value
    )
    assert list(player[:2]) + list(banker[:2]) == [
        deck[0],
        deck[2],
        deck[1],
        deck[3],
    ]
