"""The battery's array kernels equal their one-shoe-at-a-time definitions.

Each is compared with the plain reading of its definition, written here:
the Lehmer digits by comparing every pair of places, the coupon
collector's segments by walking the stream, the poker test's distinct
digits by a set, Spearman's correlation by :func:`scipy.stats.spearmanr`
shoe by shoe, and the labelling by a sort per shoe with the same random
numbers drawn one shoe at a time.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from croupier.rngtest import battery
from croupier.rngtest.card_tests import CardTests, shoe_chi_square
from croupier.rngtest.stream_tests import coupon_lengths, distinct_digits


def _perms(seed: int, count: int, n: int) -> np.ndarray:
    gen = np.random.default_rng(seed)
    return np.array([gen.permutation(n) for _ in range(count)])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 9), st.integers(2, 60))
def test_lehmer_digits_count_the_smaller_labels_after(
    seed: int, count: int, n: int
) -> None:
    perms = _perms(seed, count, n)
    want = [
        [int((p[i + 1 :] < p[i]).sum()) for i in range(n - 1)] for p in perms
    ]
    assert battery._lehmer_digits(perms).tolist() == want


def _segments(digits: list[int], d: int, t: int) -> list[int]:
    lengths, seen, length = [], set(), 0
    for digit in digits:
        length += 1
        seen.add(digit)
        if len(seen) == d:
            lengths.append(min(length, t))
            seen, length = set(), 0
    return lengths


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 4), max_size=300),
    st.lists(st.integers(0, 300), max_size=6),
)
def test_coupon_segments_walk_the_stream(
    digits: list[int], cuts: list[int]
) -> None:
    """Read in pieces cut anywhere, the state carried: the same segments."""
    seen = np.zeros(5, dtype=np.int64)
    state = np.zeros(2, dtype=np.int64)
    bounds = [0, *sorted(c for c in cuts if c <= len(digits)), len(digits)]
    got: list[int] = []
    for a, b in itertools.pairwise(bounds):
        piece = np.array(digits[a:b], dtype=np.int64)
        got.extend(coupon_lengths(piece, 5, 20, seen, state).tolist())
    assert got == _segments(digits, 5, 20)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 9), min_size=5, max_size=5), min_size=1)
)
def test_poker_hands_count_their_distinct_digits(
    hands: list[list[int]],
) -> None:
    got = distinct_digits(np.array(hands))
    assert got.tolist() == [len(set(hand)) for hand in hands]


def test_position_correlation_is_spearmans_shoe_by_shoe() -> None:
    perms = _perms(7, 300, 52)
    tests = CardTests(np.arange(52))
    for start in range(0, 300, 128):  # blocks, as the battery reads them
        block = perms[start : start + 128]
        tests.add(block, block)
    result = tests.position_correlation()
    place = np.arange(52)
    rs = [stats.spearmanr(place, p).statistic for p in perms]
    assert np.isclose(result.statistic, np.mean(rs), rtol=1e-12, atol=0)
    z = np.sum(rs) * np.sqrt(51) / np.sqrt(300)
    assert np.isclose(
        result.p_value, 2 * stats.norm.sf(abs(z)), rtol=1e-9, atol=0
    )


def test_labels_and_stream_equal_one_shoe_at_a_time() -> None:
    """The same random numbers, drawn a shoe at a time, give the same."""
    original = np.repeat(np.arange(13), 4)  # four copies of each code
    gen = np.random.default_rng(3)
    shoes = np.array([gen.permutation(original) for _ in range(600)])
    by_code = np.argsort(original, kind="stable")
    mine = np.random.default_rng(11)
    want = np.empty_like(shoes)
    for k in range(len(shoes)):
        idx = np.lexsort((mine.random(52), shoes[k]))
        want[k, idx] = by_code
    stream = []
    for p in want:
        digits = [(p[i + 1 :] < p[i]).sum() for i in range(51)]
        jitter = mine.random(51)
        stream.extend((digits + jitter) / (52 - np.arange(51)))
    theirs = np.random.default_rng(11)
    perms = battery._labels(shoes, original, theirs)
    assert perms.tolist() == want.tolist()
    assert battery._stream(perms, theirs).tolist() == stream


def test_shoe_chi_square_has_mean_its_degrees_of_freedom() -> None:
    """Every order of a shoe AABBC, cards by halves (places 1-2, 3-5).

    Pearson's statistic, written here cell by cell, averages
    ``dof * n / (n - 1)`` over the equally likely orders (Haldane's mean
    for a contingency table with fixed margins), so the battery's
    statistic, scaled by ``(n - 1) / n``, averages its degrees of
    freedom, and its p-value is the chi-square's upper tail there.
    """
    shoe = (0, 0, 1, 1, 2)
    n = len(shoe)
    halves = (0, 0, 1, 1, 1)
    pearson, scaled = [], []
    for order in itertools.permutations(shoe):  # 120, each order as likely
        table = np.zeros((3, 2))
        for place, card in enumerate(order):
            table[card, halves[place]] += 1
        rows, cols = table.sum(axis=1), table.sum(axis=0)
        x2 = sum(
            (table[i, j] - rows[i] * cols[j] / n) ** 2
            / (rows[i] * cols[j] / n)
            for i in range(3)
            for j in range(2)
        )
        pearson.append(x2)
        statistic, p, dof = shoe_chi_square(table, n)
        assert dof == (3 - 1) * (2 - 1)
        assert statistic == pytest.approx(x2 * (n - 1) / n, rel=1e-12)
        assert p == pytest.approx(stats.chi2.sf(x2 * (n - 1) / n, 2))
        scaled.append(statistic)
    assert np.mean(pearson) == pytest.approx(2 * n / (n - 1), rel=1e-12)
    assert np.mean(scaled) == pytest.approx(2, rel=1e-12)


def test_card_position_tests_equal_their_tables_by_hand() -> None:
    """A 20-card shoe of 4 copies of 5 cards, 30 shoes, in blocks.

    Each card expects 30 x 4/20 = 6 a place: the whole table, place by
    place. Then 10 shoes: 2 a place, so runs of 3 places (6 expected;
    the 6th run takes the last 5 places). The largest cell is read off
    every cell's binomial tails, written here shoe by shoe.
    """
    original = np.repeat(np.arange(5), 4)
    gen = np.random.default_rng(4)
    shoes = np.array([gen.permutation(original) for _ in range(30)])
    for count, width in ((30, 1), (10, 3)):
        tests = CardTests(original)
        for start in range(0, count, 7):
            block = shoes[start : min(start + 7, count)]
            tests.add(block, block)
        runs = 20 // width
        table = np.zeros((5, runs))
        cells = np.zeros((5, 20))
        for shoe in shoes[:count]:
            for place, card in enumerate(shoe):
                table[card, min(place // width, runs - 1)] += 1
                cells[card, place] += 1
        expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / count / 20
        pearson = ((table - expected) ** 2 / expected).sum()
        got = tests.card_position()
        assert got.statistic == pytest.approx(pearson * 19 / 20, rel=1e-12)
        dof = 4 * (runs - 1)
        assert got.p_value == pytest.approx(
            stats.chi2.sf(pearson * 19 / 20, dof), rel=1e-9
        )
        assert f"5 x {runs} table, {dof} df" in got.detail
        each = [
            2
            * min(
                stats.binom.cdf(cells[c, p], count, 0.2),
                stats.binom.sf(cells[c, p] - 1, count, 0.2),
            )
            for c in range(5)
            for p in range(20)
        ]
        assert tests.largest_cell().p_value == pytest.approx(
            min(1.0, min(each) * 100), rel=1e-9
        )
