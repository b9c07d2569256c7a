"""The battery read a block at a time equals the battery of all at once.

The stream tests (:mod:`croupier.rngtest.stream_tests`) and the card
tests (:mod:`croupier.rngtest.card_tests`) keep counts and carry what a
block leaves over; here each is fed a stream, or shoes, cut into blocks
at random places, and compared with the statistic of the whole array
computed here by the plain formulas (those of TAOCP 3.3.2 and of
``docs/rng-test.md``, restated with numpy and scipy on the whole
array). The two Kolmogorov–Smirnov tests read their values to 2**-32,
so their statistics may differ by that much; the serial correlation is
summed per block, so by rounding. Last, the battery itself gives the
same statistics whatever the block size (the random numbers are drawn in
the same order), and reads a generator of shuffles once.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction
from math import comb, factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from croupier.registry import find_game
from croupier.rngtest import battery, fresh_shoe, live_shuffles, run_battery
from croupier.rngtest.card_tests import CardTests
from croupier.rngtest.results import Floats
from croupier.rngtest.stream_tests import stirling2, stream_tests

_NAMES = [
    "equidistribution",
    "gap",
    "overlaps",
    "poker",
    "coupon collector",
    "permutation",
    "Kolmogorov-Smirnov",
    "order statistic",
    "runs",
    "serial correlation",
    "subsequences",
]


def _chi(observed: object, probs: object) -> float:
    obs = np.asarray(observed, dtype=float)
    return float(
        stats.chisquare(obs, np.asarray(probs, dtype=float) * obs.sum())[0]
    )


def _whole(name: str, u: Floats) -> float:
    """The test's statistic on the whole stream ``u``, by its formula."""
    n = len(u)
    if name == "equidistribution":
        return _chi(
            np.bincount((u * 64).astype(int), minlength=64), [1 / 64] * 64
        )
    if name == "gap":
        gaps = np.diff(np.flatnonzero(u < 0.5)) - 1
        top = 12
        while top > 1 and len(gaps) * 0.5**top < 5:
            top -= 1
        counts = np.bincount(np.minimum(gaps, top), minlength=top + 1)
        return _chi(counts, [0.5 * 0.5**r for r in range(top)] + [0.5**top])
    if name == "overlaps":
        d = (u * 8).astype(int)
        pairs = np.bincount(d * 8 + np.roll(d, -1), minlength=64)
        ones = np.bincount(d, minlength=8)
        return float(
            ((pairs - n / 64) ** 2).sum() / (n / 64)
            - ((ones - n / 8) ** 2).sum() / (n / 8)
        )
    if name == "poker":
        hands = (u[: n // 5 * 5] * 10).astype(int).reshape(-1, 5)
        distinct = [len(set(h)) for h in hands.tolist()]
        counts = np.bincount(distinct, minlength=6)[1:]
        probs = [
            np.prod([10 - i for i in range(r)]) / 10**5 * stirling2(5, r)
            for r in range(1, 6)
        ]
        return _chi(
            [counts[0] + counts[1], *counts[2:]],
            [probs[0] + probs[1], *probs[2:]],
        )
    if name == "coupon collector":
        lengths, seen, length = [], set(), 0
        for digit in (u * 5).astype(int).tolist():
            length += 1
            seen.add(digit)
            if len(seen) == 5:
                lengths.append(min(length, 20))
                seen, length = set(), 0
        segments = np.bincount(lengths, minlength=21)[5:]
        shares = [
            factorial(5) / 5**r * stirling2(r - 1, 4) for r in range(5, 20)
        ]
        shares.append(1 - factorial(5) / 5**19 * stirling2(19, 5))
        return _chi(segments, shares)
    if name == "permutation":
        groups = u[: n // 4 * 4].reshape(-1, 4)
        orders = [tuple(np.argsort(g).tolist()) for g in groups]
        seen_orders = [orders.count(o) for o in set(orders)]
        seen_orders += [0] * (24 - len(seen_orders))
        return _chi(seen_orders, [1 / 24] * 24)
    if name == "Kolmogorov-Smirnov":
        return float(stats.kstest(u, "uniform").statistic)
    if name == "order statistic":
        top = u[: n // 5 * 5].reshape(-1, 5).max(axis=1) ** 5
        return float(stats.kstest(top, "uniform").statistic)
    if name == "runs":
        above = u >= 0.5
        n1 = int(above.sum())
        runs = 1 + int((above[1:] != above[:-1]).sum())
        mean = 2 * n1 * (n - n1) / n + 1
        return float(
            (runs - mean) / np.sqrt((mean - 1) * (mean - 2) / (n - 1))
        )
    if name == "serial correlation":
        return float(np.corrcoef(u[:-1], u[1:])[0, 1])
    assert name == "subsequences"
    sub = (u[::3] * 8).astype(int)
    sub = sub[: len(sub) // 2 * 2].reshape(-1, 2)
    counts = np.bincount(sub[:, 0] * 8 + sub[:, 1], minlength=64)
    return _chi(counts, [1 / 64] * 64)


def _pieces(n: int, cuts: list[int]) -> list[tuple[int, int]]:
    bounds = [0, *sorted(c % (n + 1) for c in cuts), n]
    return list(itertools.pairwise(bounds))


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(30000, 50000),
    st.lists(st.integers(0, 10**6), max_size=12),
)
def test_stream_tests_in_blocks_equal_the_whole_stream(
    seed: int, n: int, cuts: list[int]
) -> None:
    u = np.random.default_rng(seed).random(n)
    tests = stream_tests(n)
    for a, b in _pieces(n, cuts):
        for test in tests:
            test.add(u[a:b])
    for name, test in zip(_NAMES, tests, strict=True):
        got = test.result()
        assert got.name == name
        want = _whole(name, u)
        # the KS samples are read to 2**-32; the correlation's sums by
        # block round differently (a correlation near 0 is a difference
        # of sums of some n/4, so its rounding is absolute, not relative:
        # 5e-18 apart on -1.8e-6 was seen); the rest are counts, exactly
        tolerance = 2.0**-31 if "Kolmogorov" in name or "order" in name else 0
        if name == "serial correlation":
            tolerance = 1e-15
        assert got.statistic == pytest.approx(
            want, rel=1e-12, abs=tolerance
        ), name


def test_the_gap_tail_and_its_binomial_fallback_in_blocks() -> None:
    """Few values below 1/2: the binomial verdict, counted across blocks."""
    u = np.full(3000, 0.9)
    u[[3, 700, 701, 1800, 2999]] = 0.1
    tests = stream_tests(len(u))
    for a, b in _pieces(len(u), [7, 700, 1500, 2999]):
        tests[1].add(u[a:b])
    got = tests[1].result()
    below = int((u < 0.5).sum())
    assert got.statistic == below
    assert got.p_value == stats.binomtest(below, len(u), 0.5).pvalue


def _card_whole(name: str, shoes: np.ndarray, original: np.ndarray) -> float:
    count, n = shoes.shape
    codes = np.unique(original)
    if name == "chi-square":
        table = np.zeros((len(codes), 10))
        for shoe in shoes:
            for place, code in enumerate(shoe.tolist()):
                table[np.searchsorted(codes, code), place * 10 // n] += 1
        # Pearson's statistic scaled by (n - 1) / n: a shoe's table has
        # fixed margins (test_battery_kernels' exact mean)
        pearson = stats.chi2_contingency(table, correction=False)[0]
        return float(pearson * (n - 1) / n)
    if name == "adjacency":
        pairs = set(
            zip(original[:-1].tolist(), original[1:].tolist(), strict=True)
        )
        return float(
            sum(
                (a, b) in pairs
                for shoe in shoes.tolist()
                for a, b in itertools.pairwise(shoe)
            )
        )
    assert name == "interplay correlation"
    means = np.array(
        [[np.flatnonzero(shoe == c).mean() for c in codes] for shoe in shoes]
    )
    return float(
        np.mean(
            [
                np.corrcoef(means[k], means[k + 1])[0, 1]
                for k in range(count - 1)
            ]
        )
    )


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, 400), max_size=5))
def test_card_tests_in_blocks_equal_all_the_shoes(
    seed: int, cuts: list[int]
) -> None:
    gen = np.random.default_rng(seed)
    original = np.repeat(np.arange(13), 4)  # a 52-card shoe, 4 copies each
    shoes = np.array([gen.permutation(original) for _ in range(300)])
    tests = CardTests(original)
    perms = np.array([gen.permutation(52) for _ in range(300)])
    for a, b in _pieces(300, cuts):
        if b > a:
            tests.add(shoes[a:b], perms[a:b])
    assert tests.shoes == 300
    for name, result in [
        ("chi-square", tests.chi_square()),
        ("adjacency", tests.adjacency()),
        ("interplay correlation", tests.interplay()),
    ]:
        assert result.statistic == pytest.approx(
            _card_whole(name, shoes, original), rel=1e-12
        ), name
    # Poisson: each shoe's fixed cards, all at once, against their law
    fixed = (shoes == original).sum(axis=1)
    poisson = tests.poisson()
    law = _kept_in_place_law(13, 4)
    assert "exact law (mean 4.00, variance 3.765)" in poisson.detail
    above = [law[r + 1 :].sum() for r in range(len(law))]
    top = 0
    while above[top] * 300 >= 5:
        top += 1
    bottom = 0
    while bottom < top - 1 and law[: bottom + 1].sum() * 300 < 5:
        bottom += 1
    # every cell, the top one too when no shoe reached it
    cells = np.bincount(
        np.clip(fixed, bottom, top) - bottom, minlength=top - bottom + 1
    )
    probs = [law[: bottom + 1].sum()]
    probs += [law[r] for r in range(bottom + 1, top)]
    probs.append(1 - sum(probs))
    assert poisson.statistic == pytest.approx(_chi(cells, probs), rel=1e-12)


def _kept_in_place_law(cards: int, copies: int) -> np.ndarray:
    """How many places keep their card, ``cards`` of ``copies`` each.

    The hit numbers of the board of same-card places (inclusion and
    exclusion over its rook numbers, summed term by term):
    ``N_m = sum_j (-1)^(j-m) C(j, m) r_j (n - j)!`` of the ``n!``
    orders (``tests/rngtest/test_calibration.py`` checks the law by
    enumeration).
    """
    square = [comb(copies, j) ** 2 * factorial(j) for j in range(copies + 1)]
    rooks = [1]
    for _ in range(cards):
        rooks = [
            sum(
                rooks[i] * square[j - i]
                for i in range(len(rooks))
                if 0 <= j - i <= copies
            )
            for j in range(len(rooks) + copies)
        ]
    n = cards * copies
    hits = [
        sum(
            (-1) ** (j - m) * comb(j, m) * rooks[j] * factorial(n - j)
            for j in range(m, n + 1)
        )
        for m in range(n + 1)
    ]
    return np.array([Fraction(h, factorial(n)) for h in hits], dtype=float)


def _six_decks() -> tuple[np.ndarray, list[np.ndarray]]:
    spec = find_game("double-back-jack")
    rules = spec.rules_type()
    return fresh_shoe(spec, rules), list(
        live_shuffles(spec, rules, 300, seed=8)
    )


def test_the_battery_is_the_same_whatever_the_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Blocks of 7 shoes draw the same random numbers as blocks of 256.

    Every statistic is the same, bit for bit, but the serial
    correlation's, whose sums are rounded block by block.
    """
    original, shuffles = _six_decks()
    want = run_battery(shuffles, original, seed=4)
    monkeypatch.setattr(battery, "_BLOCK", 7)

    def once() -> Iterator[np.ndarray]:
        yield from shuffles

    got = run_battery(once(), original, seed=4)
    for mine, theirs in zip(got.results, want.results, strict=True):
        if mine.name == "serial correlation":  # its sums round by block
            assert mine.statistic == pytest.approx(theirs.statistic, rel=1e-12)
            assert mine.p_value == pytest.approx(theirs.p_value, rel=1e-12)
        else:
            assert mine == theirs
    assert got.shuffles == 300
    assert got.cards == 312


def test_a_shuffle_of_another_size_is_refused() -> None:
    original, shuffles = _six_decks()
    with pytest.raises(ValueError, match="shuffle 3 holds 311 cards"):
        run_battery([*shuffles[:2], shuffles[2][1:]], original)


def test_the_shuffles_are_read_once_and_never_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A generator is consumed as the first pass goes, a block at a time."""
    original, shuffles = _six_decks()
    monkeypatch.setattr(battery, "_BLOCK", 16)
    read: list[int] = []
    ahead: list[int] = []
    labelled = [0]
    labels: Callable[..., np.ndarray] = battery._labels

    def counting(shoes: np.ndarray, *args: object) -> np.ndarray:
        # shoes read but neither labelled before nor in this block
        ahead.append(len(read) - labelled[0] - len(shoes))
        labelled[0] += len(shoes)
        return labels(shoes, *args)

    monkeypatch.setattr(battery, "_labels", counting)

    def source() -> Iterator[np.ndarray]:
        for shuffle in shuffles:
            read.append(1)
            yield shuffle

    run_battery(source(), original, seed=1)
    # no block was labelled with more than its own shoes read ahead
    assert max(ahead) == 0
    assert len(read) == 300


class _TopJitter:
    """A generator whose every draw is the largest double below 1."""

    def random(self, shape: tuple[int, int]) -> np.ndarray:
        return np.full(shape, 1 - 2.0**-53)


def test_a_stream_value_never_rounds_up_to_one() -> None:
    """The top digit with the top jitter rounded to 1.0, a 65th cell of
    the equidistribution test (a crash, about once in 2.5e7 values)."""
    reverse = np.array([list(range(51, -1, -1))])  # every digit the top
    u = battery._stream(reverse, _TopJitter())  # type: ignore[arg-type]
    assert (u < 1).all()
    assert (310 + (1 - 2.0**-53)) / 311 == 1.0  # the rounding it avoids
    tests = stream_tests(len(u))
    tests[0].add(u)  # equidistribution: 64 cells, no 65th
    assert tests[0].counts.sum() == len(u)  # type: ignore[attr-defined]


def test_a_short_shuffle_is_named_by_its_number_in_the_source() -> None:
    original, shuffles = _six_decks()
    broken = [*shuffles[:299], shuffles[299][1:]]
    with pytest.raises(ValueError, match="shuffle 300 holds 311 cards"):
        run_battery(broken, original)


def test_810a_5_interplay_leaves_out_a_shoe_with_one_mean_place() -> None:
    """Eight cards of four kinds can lie at one mean place (3.5 each):
    that shoe has no correlation with its neighbours. Its two pairs are
    left out and the rest judged, where the correlation divided by
    nought and the test (so the battery) came out undefined."""
    original = np.repeat(np.arange(4), 2)
    gen = np.random.default_rng(11)
    shoes = np.array([gen.permutation(original) for _ in range(300)])
    shoes[100] = [0, 1, 2, 3, 3, 2, 1, 0]
    perms = np.array([gen.permutation(8) for _ in range(300)])
    tests = CardTests(original)
    with np.errstate(all="raise"):
        tests.add(shoes[:150], perms[:150])
        tests.add(shoes[150:], perms[150:])
        result = tests.interplay()
    # the plain formula: each kind's mean place, Pearson's r of each
    # pair of neighbouring shoes that both spread them, summed as normal
    means = [
        [float(np.flatnonzero(shoe == kind).mean()) for kind in range(4)]
        for shoe in shoes
    ]
    rs = [
        stats.pearsonr(a, b).statistic
        for a, b in itertools.pairwise(means)
        if len(set(a)) > 1 and len(set(b)) > 1
    ]
    assert 0 < len(rs) <= 299 - 2
    z = sum(rs) * np.sqrt(4 - 1) / np.sqrt(len(rs))
    assert result.statistic == pytest.approx(np.mean(rs), rel=1e-12)
    assert result.p_value == pytest.approx(2 * stats.norm.sf(abs(z)))
    assert np.isfinite(result.p_value)
