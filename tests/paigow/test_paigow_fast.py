"""The fast six-card evaluator against the slow one and an independent count.

The category counts over all C(53,6) = 22,957,480 six-card hands from the
fast (numba, table-driven) evaluator must equal a combinatorial count
made without any evaluator (by rank multiset, with the suit assignments
that allow a flush counted in closed form), and the fast evaluator must
give exactly the values of the slow pure-Python one on a sample.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import comb

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH = 0, 1, 2, 3, 4, 5
FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL, FIVE_ACES = 6, 7, 8, 9, 10
RANKS = range(2, 15)
WINDOWS: list[frozenset[int]] = [
    frozenset(range(top - 4, top + 1)) for top in range(6, 15)
] + [frozenset({14, 2, 3, 4, 5})]
ROYAL_WINDOW = frozenset(range(10, 15))


def multisets(size: int) -> Iterator[dict[int, int]]:
    """Every rank multiset of ``size`` cards (at most four per rank)."""

    def rec(index: int, left: int) -> Iterator[dict[int, int]]:
        if index == len(RANKS):
            if left == 0:
                yield {}
            return
        for count in range(min(4, left) + 1):
            for rest in rec(index + 1, left - count):
                if count:
                    yield {RANKS[index]: count, **rest}
                else:
                    yield rest

    return rec(0, size)


def nonflush_category(counts: dict[int, int], joker: bool) -> int:
    """The category of the best five cards, ignoring suits."""
    present = set(counts)
    if joker:
        straight = any(len(w & present) >= 4 for w in WINDOWS)
        counts = {**counts, 14: counts.get(14, 0) + 1}
    else:
        straight = any(w <= present for w in WINDOWS)
    shape = [*sorted(counts.values(), reverse=True), 0]
    if counts.get(14, 0) >= 5:
        return FIVE_ACES
    if shape[0] >= 4:
        return QUADS
    if shape[0] >= 3 and shape[1] >= 2:
        return FULL_HOUSE
    if straight:
        return STRAIGHT
    if shape[0] == 3:
        return TRIPS
    if shape[0] == 2 and shape[1] == 2:
        return TWO_PAIR
    if shape[0] == 2:
        return PAIR
    return HIGH


def suited_category(ranks: frozenset[int], joker: bool) -> int:
    """Best category of cards of one suit with these ranks (+ joker)."""
    best = FLUSH
    for window in WINDOWS:
        fits = window <= ranks if not joker else len(window & ranks) >= 4
        if fits:
            best = max(
                best, ROYAL if window == ROYAL_WINDOW else STRAIGHT_FLUSH
            )
    return best


def category_counts() -> list[int]:
    """Category counts over all C(53,6) six-card hands."""
    totals = [0] * 11
    for joker, size in ((False, 6), (True, 5)):
        for counts in multisets(size):
            ways = 1
            for count in counts.values():
                ways *= comb(4, count)
            base = nonflush_category(counts, joker)
            distinct = frozenset(counts)
            flush_ways: list[tuple[int, int]] = []
            if not joker and len(distinct) == 6:
                flush_ways.append((4, suited_category(distinct, False)))
                for rank in distinct:
                    flush_ways.append(
                        (12, suited_category(distinct - {rank}, False))
                    )
            elif not joker and len(distinct) == 5:
                flush_ways.append((12, suited_category(distinct, False)))
            elif joker and len(distinct) == 5:
                best = suited_category(distinct, False)
                for rank in distinct:
                    best = max(best, suited_category(distinct - {rank}, True))
                flush_ways.append((4, best))
                for rank in distinct:
                    flush_ways.append(
                        (12, suited_category(distinct - {rank}, True))
                    )
            elif joker and len(distinct) == 4:
                flush_ways.append((12, suited_category(distinct, True)))
            for n, category in flush_ways:
                totals[max(base, category)] += n
                ways -= n
            totals[base] += ways
    return totals


# -- the tests ---------------------------------------------------------

import random  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from croupier.cards import Card, parse_cards  # noqa: E402
from croupier.hands import paigow  # noqa: E402
from croupier.hands import paigow_fast as fast  # noqa: E402

TOTAL_SIX_CARD_HANDS = comb(53, 6)


def test_combinatorial_count_covers_every_hand() -> None:
    assert sum(category_counts()) == TOTAL_SIX_CARD_HANDS == 22_957_480


def test_full_enumeration_matches_independent_count() -> None:
    fast.five_card_table()  # build (and compile) outside the timing
    started = time.perf_counter()
    counts = fast.category_counts()
    elapsed = time.perf_counter() - started
    assert int(counts.sum()) == TOTAL_SIX_CARD_HANDS
    assert [int(c) for c in counts] == category_counts()
    assert elapsed < 60, f"full enumeration took {elapsed:.1f} s"


def test_known_category_counts() -> None:
    counts = category_counts()
    assert counts[FIVE_ACES] == 48  # four aces, the joker, any other card
    assert counts[ROYAL] == 1132


def test_fast_equals_slow_on_a_random_sample() -> None:
    rng = random.Random(670)
    hands = [rng.sample(range(53), 6) for _ in range(1000)]
    values = fast.rank_hands(np.array(hands))
    for codes, value in zip(hands, values, strict=True):
        cards = [Card.from_code(c) for c in codes]
        assert paigow.evaluate(cards) == int(value), cards


def test_fast_equals_slow_on_every_joker_hand_with_a_fixed_core() -> None:
    # the joker and the 9s 8s 7s with two of the cards from 3 to 10
    core = [c.code for c in parse_cards("JK 9s 8s 7s")]
    rest = [c for c in range(4, 36) if c not in core]
    hands = [[*core, a, b] for i, a in enumerate(rest) for b in rest[i + 1 :]]
    values = fast.rank_hands(np.array(hands))
    for codes, value in zip(hands, values, strict=True):
        cards = [Card.from_code(c) for c in codes]
        assert paigow.evaluate(cards) == int(value), cards


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("As Ks Qs Js Ts 2c", paigow.Category.ROYAL_FLUSH),
        ("JK Ks Qs Js Ts 2c", paigow.Category.ROYAL_FLUSH),
        ("Ac Ad Ah As JK 2c", paigow.Category.FIVE_ACES),
        ("JK 2d 3c 4h 5s Kd", paigow.Category.STRAIGHT),
        ("JK Ad 2c 3h 4s Kd", paigow.Category.STRAIGHT),
        ("JK 4h 9h Kh 2h 7c", paigow.Category.FLUSH),
        ("JK Kd Kc 8h 8s 2c", paigow.Category.TWO_PAIR),
        ("JK Ad Ac 8h 8s 2c", paigow.Category.FULL_HOUSE),
    ],
)
def test_fast_and_slow_agree_on_named_hands(
    text: str, category: paigow.Category
) -> None:
    cards = parse_cards(text)
    value = fast.rank_six([c.code for c in cards])
    assert value == paigow.evaluate(cards)
    assert paigow.category_of(value) is category


def test_rank_hands_rejects_bad_shapes() -> None:
    with pytest.raises(ValueError, match=r"\(n, 6\)"):
        fast.rank_hands(np.zeros((2, 5), dtype=np.int64))
    with pytest.raises(ValueError, match="0 to 52"):
        fast.rank_hands(np.full((1, 6), 53))
    with pytest.raises(ValueError, match="distinct"):
        fast.rank_six([1, 1, 2, 3, 4, 5])
