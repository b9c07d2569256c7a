"""D130: a hand is valued only on a shoe that no play of it can run out.

``croupier ev double-back-jack --shoe 0,1,1,0,0,0,0,0,0,2 --hand 2,3
--up 10`` printed "hit (best) +0.000000000": after the hand and the up
card one 10 is left, a hit takes it and the dealer has no hole card, so
the outcomes of that path were lost and the figure read 0. The analyzer
now refuses every shoe on which some play it values (hits, a double,
splits and resplits, the Second Chance card of 591.7(l), then the
dealer's hole card and hits) can want a card that is not there.

The refusals are checked against :func:`_runs_dry`, an enumeration
written here of every legal play and every order of the cards (the
hands held as their cards, a resplit hand put at the end of the
layout), never against :mod:`croupier.odds.double_back_jack.runout`;
the values of the shoes still valued against
:class:`~croupier.odds.double_back_jack.brute.BruteForce` (the deal in
its real order, the hole card first) and the figures the analyzer gave
before.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from croupier.cli.ev import parse_shoe
from croupier.errors import RulesError
from croupier.odds.double_back_jack.brute import BruteForce, ShoeExhaustedError
from croupier.odds.double_back_jack.ca import (
    evaluate_hand,
    hand_actions,
    solve_ca,
)
from croupier.odds.double_back_jack.carules import (
    CARules,
    DoubleOn,
    HoleCard,
    Surrender,
)
from croupier.odds.double_back_jack.cdp import (
    evaluate_hand_strategy,
    solve_cdp1,
)
from croupier.odds.double_back_jack.passes import composition
from croupier.odds.double_back_jack.runout import card_bound
from croupier.odds.double_back_jack.td import solve_td

Shoe = tuple[int, ...]
Cards = tuple[int, ...]


def _runs_dry(
    rules: CARules, left: Sequence[int] | np.ndarray, hand: Cards, up: int
) -> bool:
    """Whether some play of ``hand`` and some order of ``left`` run out.

    D130's rule, played out: the box's hands one after another, then
    the dealer's hole card (always), then his hits while a hand waits
    for him (it stood, took the Second Chance or keeps its bust for the
    22 push). A hand stands, hits below 21, doubles two cards, a pair
    splits; a pair card drawn as a split hand's second card opens a new
    hand while the rules allow.
    """
    pair = hand[0] if len(hand) == 2 and hand[0] == hand[1] else 0
    pair = pair if rules.max_split_hands > 1 else 0
    limit = rules.max_split_hands if pair != 1 or rules.resplit_aces else 2
    kept = rules.dealer_22_push and not rules.collect_busts_at_once
    paid = rules.twenty_one_paid_at_once

    def total(cards: Cards) -> int:
        low = sum(cards)
        return low + 10 if 1 in cards and low + 10 <= 21 else low

    def less(shoe: Shoe, card: int) -> Shoe:
        return (*shoe[:card], shoe[card] - 1, *shoe[card + 1 :])

    def cards_of(shoe: Shoe) -> list[int]:
        return [card for card in range(1, 11) if shoe[card]]

    def may_double(cards: Cards, split: bool) -> bool:
        if split and not rules.double_after_split:
            return False
        if rules.double_on is DoubleOn.ANY:
            return True
        low = 9 if rules.double_on is DoubleOn.NINE_TO_ELEVEN else 10
        return low <= total(cards) <= 11

    @cache
    def dealer_short(shoe: Shoe, cards: Cards) -> bool:
        t = total(cards)
        soft_17 = t == 17 and 1 in cards and sum(cards) == 7
        if t >= 17 and not (soft_17 and rules.dealer_hits_soft_17):
            return False
        return not cards_of(shoe) or any(
            dealer_short(less(shoe, c), tuple(sorted((*cards, c))))
            for c in cards_of(shoe)
        )

    @cache
    def then(shoe: Shoe, waiting: bool, todo: int, made: int) -> bool:
        """The hand in play is done: the next split hand, or the dealer."""
        if todo:
            return play(shoe, (pair,), False, waiting, todo - 1, made, True)
        if not cards_of(shoe):
            return True  # no hole card
        return waiting and dealer_short(shoe, (up,))

    @cache
    def play(
        shoe: Shoe,
        cards: Cards,
        doubled: bool,
        waiting: bool,
        todo: int,
        made: int,
        split: bool,
    ) -> bool:
        if len(cards) == 1:  # a split hand's second card
            if not cards_of(shoe):
                return True
            for c in cards_of(shoe):
                if c == pair and made < limit:
                    more = play(
                        less(shoe, c), cards, False, waiting, todo + 1,
                        made + 1, True,
                    )  # fmt: skip
                else:
                    more = play(
                        less(shoe, c), tuple(sorted((*cards, c))), False,
                        waiting, todo, made, True,
                    )  # fmt: skip
                if more:
                    return True
            return False
        if sum(cards) > 21:  # a bust: the Second Chance, taken or not
            if then(shoe, waiting or kept, todo, made):
                return True
            offered = (
                rules.second_chance
                and (rules.second_chance_on_split or not split)
                and (rules.second_chance_on_doubled or not doubled)
            )
            if not offered:
                return False
            if not cards_of(shoe):
                return True
            return any(
                then(less(shoe, c), True, todo, made) for c in cards_of(shoe)
            )
        if total(cards) == 21:
            return then(shoe, waiting or not paid, todo, made)
        if doubled or (split and pair == 1 and rules.split_aces_one_card):
            return then(shoe, True, todo, made)
        draws = [False]
        if len(cards) == 2 and may_double(cards, split):
            draws.append(True)
        for double in draws:
            if not cards_of(shoe):
                return True
            for c in cards_of(shoe):
                nxt = tuple(sorted((*cards, c)))
                if play(
                    less(shoe, c), nxt, double, waiting, todo, made, split
                ):
                    return True
        return then(shoe, True, todo, made)  # stand

    shoe = tuple(int(x) for x in left)
    if play(shoe, tuple(sorted(hand)), False, False, 0, 1, False):
        return True
    if pair and play(shoe, (pair,), False, False, 1, 2, True):
        return True
    return not cards_of(shoe)  # a surrender: the hole card alone


def _left(before: str, hand: Cards, up: int) -> np.ndarray:
    shoe = parse_shoe(before)
    for card in (*hand, up):
        shoe[card] -= 1
    return shoe


EXAMPLE = "0,1,1,0,0,0,0,0,0,2"
"""The shoe of the defect: 2-3 against 10 leaves a single 10."""


def test_a_hit_that_takes_the_dealers_hole_card_is_refused() -> None:
    """The defect's example: refused by every entry point that values
    the hand (``hand_actions``, ``evaluate_hand`` and each strategy of
    ``croupier ev``), naming the hand, the up card and a play that runs
    out; the oracle agrees that one does."""
    rules = CARules()
    left = _left(EXAMPLE, (2, 3), 10)
    assert _runs_dry(rules, left, (2, 3), 10)
    words = "the cards left can run out while the hand 2-3 plays against 10"
    with pytest.raises(RulesError, match=words) as err:
        hand_actions(rules, left, [2, 3], 10)
    assert err.value.key == "shoe"
    assert "hit 10" in str(err.value)
    with pytest.raises(RulesError, match=words):
        evaluate_hand(rules, parse_shoe(EXAMPLE), [2, 3], 10)
    for strategy in ("cdz-", "cdp1", "cdp"):
        with pytest.raises(RulesError, match=words):
            evaluate_hand_strategy(
                rules, parse_shoe(EXAMPLE), [2, 3], 10, strategy
            )


def test_591_7_l_a_second_chance_card_that_runs_the_shoe_out_is_refused() -> (
    None
):
    """10-6 against 8 with two 10s left: a hit takes one (26), the Second
    Chance card of 591.7(l) the other (16), and the dealer has no hole
    card. The real-order deal (:class:`BruteForce`) says so too now (it
    valued the missing Second Chance card as nought). Without the Second
    Chance no play runs out: the shoe is valued, as the real-order deal
    values it."""
    before = "0,0,0,0,0,1,0,1,0,3"
    left = _left(before, (10, 6), 8)
    with pytest.raises(RulesError, match="Second Chance 10") as err:
        evaluate_hand(CARules(), parse_shoe(before), [10, 6], 8)
    assert err.value.key == "shoe"
    assert _runs_dry(CARules(), left, (10, 6), 8)
    # the real-order deal ran out there too, but valued the missing card
    # as nought (the hole card first: one 10 for the hit, none after)
    with pytest.raises(ShoeExhaustedError):
        BruteForce(
            CARules(), tuple(int(x) for x in left), (10, 6), 8
        ).actions()
    plain = CARules(second_chance=False)
    assert not _runs_dry(plain, left, (10, 6), 8)
    ours = evaluate_hand(plain, parse_shoe(before), [10, 6], 8)["actions"]
    assert isinstance(ours, dict)
    real = BruteForce(plain, tuple(int(x) for x in left), (10, 6), 8)
    assert ours == pytest.approx(real.actions(), abs=1e-12)


def test_a_split_whose_hands_run_the_shoe_out_is_refused() -> None:
    """8-8 against 9 with 7, 8, 10, 10 left: after a split the second
    hand's 8 hits a 10 and its Second Chance takes the other, so the
    dealer has no hole card. Where the rules allow no split the same
    shoe is valued."""
    before = "0,0,0,0,0,0,1,3,1,2"
    left = _left(before, (8, 8), 9)
    with pytest.raises(RulesError, match=r"while the hand 8-8 .*: split, "):
        evaluate_hand(CARules(), parse_shoe(before), [8, 8], 9)
    assert _runs_dry(CARules(), left, (8, 8), 9)
    one = CARules(max_split_hands=1)
    assert not _runs_dry(one, left, (8, 8), 9)
    ours = evaluate_hand(one, parse_shoe(before), [8, 8], 9)["actions"]
    assert isinstance(ours, dict)
    real = BruteForce(one, tuple(int(x) for x in left), (8, 8), 9)
    assert ours == pytest.approx(real.actions(), abs=1e-12)


KEPT: dict[tuple[str, Cards, int], dict[str, float]] = {
    ("0,1,1,0,0,1,0,1,0,4", (2, 3), 10): {
        "stand": -0.6,
        "hit": -0.15000000000000005,
        "double": -1.2000000000000002,
        "surrender": -0.5,
    },
    ("0,0,0,1,1,1,1,1,0,3", (10, 6), 8): {
        "stand": -0.5,
        "hit": 0.08333333333333337,
        "double": 0.16666666666666674,
        "surrender": -0.5,
    },
    ("0,0,0,0,0,0,0,3,3,4", (8, 8), 9): {
        "stand": -1.0,
        "hit": -1.0,
        "double": -2.0,
        "split": -1.1428571428571428,
        "surrender": -0.5,
    },
    ("1,0,0,0,1,1,2,0,0,3", (5, 6), 1): {
        "stand": -0.9999999999999999,
        "hit": 0.7499999999999999,
        "double": 1.4999999999999998,
        "surrender": -0.5,
    },
}
"""Small shoes on which no play runs out, with the values the analyzer
gave for them before the check (Double Back Jack defaults)."""


@pytest.mark.parametrize(("before", "hand", "up"), sorted(KEPT))
def test_shoes_on_which_no_play_runs_out_keep_their_values(
    before: str, hand: Cards, up: int
) -> None:
    """A shoe a card or two above the refused ones: valued, with the
    figures of before (exactly), which the real-order deal gives."""
    rules = CARules()
    left = _left(before, hand, up)
    assert not _runs_dry(rules, left, hand, up)
    ours = evaluate_hand(rules, parse_shoe(before), list(hand), up)["actions"]
    assert ours == KEPT[(before, hand, up)]
    real = BruteForce(rules, tuple(int(x) for x in left), hand, up)
    assert ours == pytest.approx(real.actions(), abs=1e-12)


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_full_shoes_need_no_search(decks: int) -> None:
    """On a real shoe the bound alone proves that nothing runs out, for
    every hand and up card, with the rules that draw the most cards
    (four hands, aces resplit and drawing, the Second Chance, a soft 17
    hit), so ``croupier ev`` searches nothing there."""
    for rules in (
        CARules(
            max_split_hands=4, resplit_aces=True, dealer_hits_soft_17=True
        ),
        CARules.ordinary(
            max_split_hands=4, resplit_aces=True, split_aces_one_card=False
        ),
    ):
        for up in range(1, 11):
            for a in range(1, 11):
                for b in range(a, 11):
                    left = composition(decks)
                    for card in (a, b, up):
                        left[card] -= 1
                    bound = card_bound(rules, left, [a, b], up)
                    assert bound <= int(left.sum()), (rules, a, b, up)


RULES = [
    CARules(),
    CARules.ordinary(),
    CARules(collect_busts_at_once=False, dealer_hits_soft_17=True),
    CARules(twenty_one_paid_at_once=False, second_chance_on_doubled=False),
    CARules(max_split_hands=3, second_chance_on_split=False),
    CARules.ordinary(
        max_split_hands=4, resplit_aces=True, split_aces_one_card=False
    ),
    CARules(
        max_split_hands=4,
        resplit_aces=True,
        split_aces_one_card=True,
        double_on=DoubleOn.TEN_ELEVEN,
        double_after_split=False,
    ),
    CARules(
        hole_card=HoleCard.ENHC_OBO,
        surrender=Surrender.EARLY,
        dealer_22_push=False,
    ),
]
"""Rules that change which plays there are and what waits for the dealer."""


@settings(max_examples=600, deadline=None, derandomize=True, database=None)
@given(
    rules=st.sampled_from(RULES),
    counts=st.lists(st.integers(0, 1), min_size=10, max_size=10),
    high=st.lists(st.integers(5, 10), max_size=7),
    first=st.integers(1, 10),
    second=st.integers(1, 10),
    third=st.none() | st.integers(1, 10),
    pair=st.booleans(),
    up=st.integers(1, 10),
)
def test_the_refusal_is_exactly_the_shoes_a_play_runs_out(
    rules: CARules,
    counts: list[int],
    high: list[int],
    first: int,
    second: int,
    third: int | None,
    pair: bool,
    up: int,
) -> None:
    """Over small shoes (up to 17 cards), hands of two or three cards
    (pairs, busts) and every up card: ``hand_actions`` refuses the shoe
    exactly when the oracle finds a play that runs out (so it refuses
    none on which nothing can), and the bound it starts from is never
    below a shoe that can."""
    left = np.array([0, *counts], dtype=np.int64)
    for card in high:
        left[card] += 1
    n = int(left.sum())
    hand: Cards = (first, first if pair else second)
    if third is not None:
        hand = (*hand, third)
    assume(sorted(hand) != [1, 10])
    bjc = 10 if up == 1 else 1 if up == 10 else 0
    no_bj = bjc and rules.hole_card is not HoleCard.ENHC_ALL
    assume(not (n and no_bj and left[bjc] == n))  # no hand without a BJ
    expected = _runs_dry(rules, left, hand, up)
    if card_bound(rules, left, hand, up) <= n:
        assert not expected
    refusal: RulesError | None = None
    try:
        hand_actions(rules, left, list(hand), up)
    except RulesError as err:
        refusal = err
    if refusal is not None:
        assume(refusal.key != "hand")  # a bust no hit reaches
        assert refusal.key == "shoe"
    assert (refusal is not None) == expected, (left.tolist(), hand, up)


def test_the_shoes_the_bound_leaves_open_are_searched_exactly() -> None:
    """Shoes of 10 to 16 cards, pairs under rules that split to three
    or four hands, kept where the bound falls just short of settling
    the question (the search runs): refused exactly where the oracle
    finds a play that runs out, and both answers come up many times."""
    rng = random.Random(130)
    rules = [
        CARules(max_split_hands=3),
        CARules(max_split_hands=4, collect_busts_at_once=False),
        CARules.ordinary(max_split_hands=4, split_aces_one_card=False),
    ]
    seen = {True: 0, False: 0}
    while min(seen.values()) < 12:
        rule = rng.choice(rules)
        pair, up = rng.randint(1, 10), rng.randint(1, 10)
        left = np.zeros(11, dtype=np.int64)
        for _ in range(rng.randint(10, 16)):
            left[rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, *[10] * 6])] += 1
        n = int(left.sum())
        bjc = 10 if up == 1 else 1 if up == 10 else 0
        gap = card_bound(rule, left, [pair, pair], up) - n
        if not 0 < gap <= 2 or (bjc and left[bjc] == n):
            continue  # settled by the bound, or far from the boundary
        expected = _runs_dry(rule, left, (pair, pair), up)
        seen[expected] += 1
        if expected:
            with pytest.raises(RulesError, match="can run out") as err:
                hand_actions(rule, left, [pair, pair], up)
            assert err.value.key == "shoe"
        else:
            hand_actions(rule, left, [pair, pair], up)


def _deals(shoe: np.ndarray) -> list[tuple[int, int, int]]:
    """Every first hand (two cards, the lower first) and up card that
    ``shoe`` holds the cards for."""
    found = []
    for up in range(1, 11):
        for a in range(1, 11):
            for b in range(a, 11):
                need = np.zeros(11, dtype=np.int64)
                for card in (a, b, up):
                    need[card] += 1
                if (need <= shoe).all():
                    found.append((a, b, up))
    return found


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(
    rules=st.sampled_from(RULES),
    counts=st.lists(st.integers(0, 1), min_size=10, max_size=10),
    tens=st.integers(0, 3),
)
def test_the_whole_game_on_a_given_shoe_is_refused_where_a_deal_runs_out(
    rules: CARules, counts: list[int], tens: int
) -> None:
    """``solve_ca``, ``solve_td`` and ``solve_cdp1`` on a given shoe
    value every deal it holds: they refuse it (key ``shoe``) exactly
    when, for one of those deals, the oracle finds a play that runs
    out; before, they valued such a shoe, losing those outcomes."""
    shoe = np.array([0, *counts], dtype=np.int64)
    shoe[10] += tens
    deals = _deals(shoe)
    assume(deals)
    expected = any(
        _runs_dry(
            rules, shoe - np.bincount((a, b, up), minlength=11), (a, b), up
        )
        for a, b, up in deals
    )
    event("refused" if expected else "valued")
    solves = [solve_ca, solve_td]
    if rules.max_split_hands == 2:
        solves.append(solve_cdp1)
    for solve in solves:
        if expected:
            with pytest.raises(RulesError, match="can run out") as err:
                solve(rules, shoe)
            assert err.value.key == "shoe"
        else:
            solve(rules, shoe)


GIVEN_SHOES = [
    ((0, 0, 0, 1, 0, 0, 1, 1, 2, 10), False),
    ((1, 1, 0, 2, 0, 1, 0, 1, 1, 7), False),
    ((1, 0, 0, 1, 2, 1, 1, 0, 2, 8), False),
    ((1, 0, 1, 0, 0, 1, 3, 1, 2, 5), False),
    ((0, 0, 0, 0, 1, 1, 1, 1, 2, 12), False),
    ((4, 2, 0, 1, 1, 1, 2, 1, 0, 2), True),
]
"""Shoes of 14 to 18 cards (counts of A, 2, ..., 10) and whether some
deal of theirs runs out, as the oracle finds under both rules below:
the small shoes of the property above are all refused, these are
mostly valued."""


@pytest.mark.parametrize(("counts", "runs_out"), GIVEN_SHOES)
@pytest.mark.parametrize("rules", [CARules(), CARules.ordinary()])
def test_the_whole_game_on_a_given_shoe_is_valued_where_nothing_runs_out(
    rules: CARules, counts: tuple[int, ...], runs_out: bool
) -> None:
    shoe = np.array([0, *counts], dtype=np.int64)
    expected = any(
        _runs_dry(
            rules, shoe - np.bincount((a, b, up), minlength=11), (a, b), up
        )
        for a, b, up in _deals(shoe)
    )
    assert expected == runs_out
    solves: list[Callable[..., Any]] = [solve_ca, solve_td, solve_cdp1]
    for solve in solves:
        if expected:
            with pytest.raises(RulesError, match="can run out"):
                solve(rules, shoe)
        else:
            result = solve(rules, shoe)
            assert -1.0 < result.edge < 1.0


def test_the_whole_game_on_a_full_shoe_given_is_valued() -> None:
    """A full one-deck shoe given as counts is valued, with the rules
    that draw the most cards, as the full shoe the rules name is."""
    rules = CARules(
        decks=1, max_split_hands=4, resplit_aces=True, dealer_hits_soft_17=True
    )
    given_shoe = solve_ca(rules, composition(1))
    assert given_shoe.edge == solve_ca(rules).edge
