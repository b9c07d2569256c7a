"""The pai gow kernels: house way, hand values, enumeration, streams."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from croupier.cards import Card
from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.hands.paigow import HOUSE_WAYS, evaluate, evaluate_five
from croupier.hands.paigow_fast import (
    five_card_index,
    five_card_table,
    rank_hands,
)
from croupier.odds.paigow import kernels as k
from croupier.odds.paigow.simulation import run_chunk

BINOM = k.binomials()


def _random_hands(count: int, seed: int) -> np.ndarray:
    """Random six-card hands, half of them holding the joker."""
    rng = np.random.default_rng(seed)
    hands = np.zeros((count, 6), dtype=np.int64)
    for row in range(count):
        if row % 2:
            hands[row, :5] = rng.choice(52, 5, replace=False)
            hands[row, 5] = 52
        else:
            hands[row] = rng.choice(53, 6, replace=False)
    return hands


@pytest.mark.parametrize(
    ("name", "way"), [("standard", k.STANDARD), ("best_high", k.BEST_HIGH)]
)
def test_670a_11_house_way_kernel_sets_like_the_engine(
    name: str, way: int
) -> None:
    hands = _random_hands(500, seed=11 + way)
    n = hands.shape[0]
    best, highs, lows, low_codes = (
        np.zeros(n, dtype=np.int64) for _ in "1234"
    )
    k.set_all(
        five_card_table(),
        BINOM,
        k.LOW_RANK,
        hands,
        best,
        highs,
        lows,
        low_codes,
        way,
    )
    house_way = HOUSE_WAYS[name]
    for row in range(n):
        cards = [Card.from_code(int(c)) for c in hands[row]]
        setting = house_way.set_hand(cards)
        assert setting.low.code == low_codes[row], cards
        assert setting.high_value == highs[row]
        assert setting.low_value == lows[row]
        assert evaluate(cards) == best[row]


def test_670a_11_house_way_kernel_keeps_the_pair_and_plays_the_ace() -> None:
    # 2c 2d Ah Ks 9d 7c: the standard way keeps the deuces, Ah low
    hands = np.array([[0, 1, 50, 47, 29, 20]], dtype=np.int64)
    best, high, low, code = (np.zeros(1, dtype=np.int64) for _ in "1234")
    table = five_card_table()
    k.set_all(
        table, BINOM, k.LOW_RANK, hands, best, high, low, code, k.STANDARD
    )
    assert code[0] == 50
    k.set_all(
        table, BINOM, k.LOW_RANK, hands, best, high, low, code, k.BEST_HIGH
    )
    assert code[0] == 20  # the pair of deuces with A-K-9: 7c low


def test_670a_11_five_values_use_the_fast_evaluator_index() -> None:
    rng = np.random.default_rng(3)
    table = five_card_table()
    vals = np.zeros(6, dtype=np.int64)
    for _ in range(300):
        h = np.sort(rng.choice(53, 6, replace=False)).astype(np.int64)
        best = k.five_values(table, BINOM, h, vals)
        for i in range(6):
            five = [int(c) for j, c in enumerate(h) if j != i]
            assert vals[i] == table[five_card_index(five)]
            cards = [Card.from_code(c) for c in five]
            assert vals[i] == evaluate_five(cards)
        assert best == max(vals)


def test_670a_11_enumeration_matches_the_slow_evaluator() -> None:
    """Every six-card hand of the 24 lowest codes (2s to 7s), counted by
    the kernel's enumeration and by the pure-Python evaluator.

    The full 53-card counts are checked against a combinatorial count
    made without any evaluator in ``tests/paigow/test_paigow_fast.py``.
    """
    cards = 24
    slow = [0] * 11
    for hand in combinations(range(cards), 6):
        slow[evaluate([Card.from_code(c) for c in hand]) >> 20] += 1
    counted = k.count_categories(five_card_table(), BINOM, cards)
    assert counted.tolist() == slow
    assert sum(slow) == 134_596  # C(24, 6)
    assert sum(1 for c in slow if c) >= 5  # straights, flushes, quads...


def test_670a_11_disjoint_pairs_match_a_brute_force_count() -> None:
    """Pairs of disjoint hands among the 16 lowest codes (2s to 5s)."""
    cards = 16
    table = five_card_table()
    qualifies = np.zeros(k.CATEGORIES, dtype=np.int64)
    qualifies[[1, 3]] = 1  # one pair, three of a kind
    hands = list(combinations(range(cards), 6))
    categories = rank_hands(np.array(hands)) >> 20
    masks = [
        sum(1 << c for c in hand)
        for hand, category in zip(hands, categories, strict=True)
        if category in (1, 3)
    ]
    array = np.array(masks, dtype=np.int64)
    brute = int(((array[:, None] & array[None, :]) == 0).sum())
    counted = k.count_disjoint_pairs(
        table, BINOM, qualifies, len(masks), cards
    )
    assert counted == brute > 0


def test_unbiased_draws_cover_the_range_evenly() -> None:
    rng = np.random.default_rng(1)
    deck = np.arange(53, dtype=np.int64)
    tops = np.zeros(53, dtype=np.int64)
    for _ in range(20_000):
        k.shuffle_deck(rng, deck)
        tops[deck[0]] += 1
    assert sorted(deck.tolist()) == list(range(53))
    expected = 20_000 / 53
    chi2 = float(((tops - expected) ** 2 / expected).sum())
    assert chi2 < 100  # 52 degrees of freedom: p < 1e-4


def test_chunks_depend_only_on_seed_and_spawn_key() -> None:
    rules = SixCardRules()
    a = run_chunk(rules, 2000, 7, (0,))
    b = run_chunk(rules, 2000, 7, (0,))
    c = run_chunk(rules, 2000, 7, (1,))
    assert a == b
    assert a != c
    assert a["pai_gow"].count == 2000  # seat 1: independent rounds
    assert a["fortune_bonus"].count == 2000 * 6
    assert a["pai_gow"].unit == 100
    assert a["fortune_bonus"].unit == 500
