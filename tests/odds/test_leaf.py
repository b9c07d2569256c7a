"""The kernels' leaf rules: one source, and what the regulation says.

Each table of :mod:`croupier.odds.leaf` is checked against the rule as
the regulation words it (written out here per rank, not computed by the
engine), every kernel module must hold the very same table object, and
the compiled helpers must agree with the engine's functions on every
hand they can meet.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any

import numpy as np
import pytest

from croupier.cards import JOKER_CODE, Card, Rank
from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.hands.baccarat import banker_draws, player_draws
from croupier.hands.blackjack import blackjack_total
from croupier.odds import leaf
from croupier.odds.baccarat import kernels as baccarat
from croupier.odds.baccarat21 import kernels as baccarat21
from croupier.odds.double_back_jack import kernels as dbj
from croupier.odds.double_back_jack.strategy import (
    P_21,
    P_ACES_DRAW,
    P_BJ,
    P_COLLECT,
    P_DAS,
    P_INS,
    P_INSMAX,
    P_INSPAY,
    P_REFUND,
    P_SC21,
    P_SC_DBL,
    P_SC_SPLIT,
    P_SCWIN,
    P_SPLIT,
    P_SURR,
    P_WIN,
)
from croupier.odds.paigow import kernels as paigow

_FACE = {Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING}


def _cards() -> list[Card]:
    return [Card.from_code(code) for code in range(52)]


def test_issue_18_6_every_kernel_reads_the_one_table() -> None:
    assert baccarat.POINT is leaf.POINT
    assert baccarat.BURN is leaf.BURN
    assert baccarat.PAIR_KIND is leaf.PAIR_KIND
    assert baccarat.PLAYER is leaf.PLAYER_DRAWS
    assert baccarat.BANKER_STOOD is leaf.BANKER_STOOD
    assert baccarat.BANKER_AFTER is leaf.BANKER_AFTER
    assert baccarat21.VALUE is leaf.VALUE
    assert paigow.LOW_RANK is leaf.LOW_RANK
    assert dbj.CODE_VALUES.tolist() == leaf.VALUE.tolist()


def test_issue_18_6_point_table_ace_one_tens_and_faces_zero() -> None:
    for card in _cards():
        if card.rank == Rank.ACE:
            expected = 1
        elif card.rank in _FACE:
            expected = 0
        else:
            expected = int(card.rank)
        assert leaf.POINT[card.code] == expected, card


@pytest.mark.proves("629a.5(f)")
def test_issue_18_6_burn_and_value_tables_count_face_value() -> None:
    for card in _cards():
        if card.rank == Rank.ACE:
            expected = 1
        elif card.rank in _FACE:
            expected = 10
        else:
            expected = int(card.rank)
        assert leaf.BURN[card.code] == expected, card
        assert leaf.VALUE[card.code] == expected, card  # 673a.3 hard


def test_issue_18_6_low_rank_table_joker_is_an_ace() -> None:
    for card in _cards():
        assert leaf.LOW_RANK[card.code] == int(card.rank), card
    assert leaf.LOW_RANK[JOKER_CODE] == int(Rank.ACE)
    assert leaf.LOW_RANK.shape == (JOKER_CODE + 1,)


def test_issue_18_6_third_card_tables_hold_for_every_card() -> None:
    """The tables, built from one card per value, hold for every card."""
    for count in range(8):
        assert leaf.PLAYER_DRAWS[count] == player_draws(count)
        assert leaf.BANKER_STOOD[count] == banker_draws(
            count, player_third=None
        )
        for card in _cards():
            value = leaf.POINT[card.code]
            assert leaf.BANKER_AFTER[count, value] == banker_draws(
                count, player_third=card
            ), (count, card)


_BY_VALUE = {
    1: Card.parse("As"),
    **{v: Card.parse(f"{v}h") for v in range(2, 10)},
    10: Card.parse("Qd"),
}


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_issue_18_6_soft_total_is_the_engines_total(size: int) -> None:
    """Every multiset of up to five values: the kernel total, the
    engine's, and the dealer's 591.7(o) stand on any 17 or more."""
    for values in combinations_with_replacement(range(1, 11), size):
        cards = [_BY_VALUE[v] for v in values]
        hard = sum(values)
        aces = values.count(1)
        engine = blackjack_total(cards).value
        assert leaf.soft_total(hard, aces) == engine, values
        assert leaf.soft_total(hard, aces > 0) == engine, values
        assert leaf.dealer_stands(hard, aces > 0) == (engine >= 17), values
    assert leaf.BACCARAT21_DRAW_BELOW == 17  # 681a.7(g): under 17 draws


def _entry(ipar: np.ndarray, entry: int) -> Fraction:
    return Fraction(int(ipar[2 * entry]), int(ipar[2 * entry + 1]))


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (
            {},
            {
                dbj.R_BJ: Fraction(3, 2),
                dbj.R_WIN: Fraction(1),
                dbj.R_HALFUP: Fraction(0),
            },
        ),
        (
            {
                "blackjack_payout": "6:5",
                "rounding": "half_up",
                "surrender_refund": "1/3",
                "insurance_max": "1",
                "second_chance_on_split": False,
                "collect_busts_at_once": False,
            },
            {
                dbj.R_BJ: Fraction(6, 5),
                dbj.R_HALFUP: Fraction(1),
                dbj.R_REFUND: Fraction(1, 3),
                dbj.R_INSMAX: Fraction(1),
                dbj.R_SCSPLIT: Fraction(0),
                dbj.R_COLLECT: Fraction(0),
            },
        ),
    ],
)
def test_issue_18_6_one_rule_vector_for_solver_and_simulator(
    options: dict[str, Any], expected: dict[int, Fraction]
) -> None:
    """The float and integer vectors encode the same options."""
    rules = DoubleBackJackRules.from_mapping(options)
    par = dbj.float_parameters(rules)
    ipar = dbj.integer_parameters(rules)
    assert par.shape == (dbj.N_RULES,)
    assert ipar.shape == (2 * dbj.N_RULES,)
    for entry in range(dbj.N_RULES):
        assert float(_entry(ipar, entry)) == par[entry]
    for entry, value in expected.items():
        assert _entry(ipar, entry) == value
    named: dict[int, Fraction | bool] = {
        P_BJ: rules.blackjack_payout.fraction,
        P_WIN: rules.win_payout.fraction,
        P_21: rules.twenty_one_payout.fraction,
        P_SC21: rules.second_chance_21_payout.fraction,
        P_SCWIN: rules.second_chance_win_payout.fraction,
        P_INSPAY: rules.insurance_payout.fraction,
        P_INSMAX: rules.insurance_max,
        P_INS: rules.insurance,
        P_SURR: rules.surrender,
        P_REFUND: rules.surrender_refund,
        P_DAS: rules.double_after_split,
        P_SPLIT: rules.max_split_hands >= 2,
        P_ACES_DRAW: rules.split_aces_may_draw,
        P_SC_DBL: rules.second_chance_on_doubled,
        P_SC_SPLIT: rules.second_chance_on_split,
        P_COLLECT: rules.collect_busts_at_once,
    }
    assert sorted(named) == list(range(dbj.N_RULES - 1))
    for entry, option in named.items():
        assert _entry(ipar, entry) == Fraction(option), entry
