"""Knuth's tests of a U(0, 1) stream, read a block at a time.

Each test is an accumulator: :meth:`add` takes the next block of the
stream (in order), :meth:`result` the verdict on all of it. What a test
keeps between blocks is its counts and the few values a group or a pair
has left over at the end of a block, so the stream itself is never held
whole (the two Kolmogorov–Smirnov tests excepted: they keep every value,
in 4 bytes, see :class:`QuantizedSample`). A stream cut into blocks
anywhere gives the same counts as the stream read at once
(``tests/rngtest/test_stream_tests.py``). The tests are those of TAOCP
vol. 2, 3.3.2, with the cells and pooling documented in
``docs/rng-test.md``.
"""

from __future__ import annotations

from itertools import permutations
from math import factorial, fsum, sqrt
from typing import Protocol

import numpy as np
from scipy import stats

from croupier.jit import jit

from .results import ALPHA, Floats, Ints, Sparse, TestResult, chisq, cochran
from .results import two_sided_normal as _normal_p

__all__ = [
    "QuantizedSample",
    "StreamTest",
    "coupon_lengths",
    "distinct_digits",
    "stirling2",
    "stream_tests",
]


class StreamTest(Protocol):
    """A test fed the stream block by block."""

    def add(self, u: Floats) -> None:
        """Take the next block of the stream."""

    def result(self) -> TestResult:
        """The test on every value added (may raise :class:`Sparse`)."""

    def plan(self, values: int) -> None:
        """Raise :class:`Sparse` if a stream of ``values`` is too short.

        Before the stream is read: for a chi-square whose cells follow
        from the stream's length alone, the cells :meth:`result` will
        take, by Cochran's rule. A test whose cells hang on the values
        (the gap test's gaps, the coupon collector's segments) or that
        has none plans nothing.
        """


def stirling2(n: int, k: int) -> int:
    """Stirling numbers of the second kind (small arguments).

    >>> stirling2(5, 2)
    15
    """
    table = [[0] * (k + 1) for _ in range(n + 1)]
    table[0][0] = 1
    for i in range(1, n + 1):
        for j in range(1, min(i, k) + 1):
            table[i][j] = j * table[i - 1][j] + table[i - 1][j - 1]
    return table[n][k]


class _NothingToPlan:
    """A test with no cells the stream's length alone decides."""

    def plan(self, values: int) -> None:
        """Nothing to check before the stream is read (see StreamTest)."""
        del values


class _Groups:
    """Consecutive groups of ``size`` values across blocks.

    The values a block leaves over (fewer than ``size``) start the next
    block's first group; a last group left incomplete is never counted.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._left: Floats = np.empty(0)

    def take(self, u: Floats) -> Floats:
        """The complete groups that ``u`` closes, one row each."""
        values = np.concatenate([self._left, u]) if len(self._left) else u
        whole = len(values) // self.size * self.size
        self._left = values[whole:].copy()
        return values[:whole].reshape(-1, self.size)


class _Equidistribution:
    bins = 64

    def __init__(self) -> None:
        self.counts = np.zeros(self.bins, dtype=np.int64)

    def add(self, u: Floats) -> None:
        cells = (u * self.bins).astype(np.int64)
        self.counts += np.bincount(cells, minlength=self.bins)

    def _probabilities(self) -> Floats:
        return np.full(self.bins, 1 / self.bins)

    def plan(self, values: int) -> None:
        cochran("equidistribution", self._probabilities() * values)

    def result(self) -> TestResult:
        bins = self.bins
        stat, p = chisq(self.counts, self._probabilities(), "equidistribution")
        return TestResult(
            "equidistribution", stat, p, f"{bins} equal cells, chi-square"
        )


class _Gap(_NothingToPlan):
    """Gaps between values below 1/2: geometric, 1/2 each step.

    Gaps of ``top`` and more are one cell, ``top`` up to 12 while that
    tail (the rarest cell) still expects 5 gaps: a short stream pools
    sooner instead of leaving cells that expect almost nothing. Every
    gap is counted up to 12 as it is found; the pooling is done at the
    end, when the number of gaps is known.
    """

    top = 12

    def __init__(self) -> None:
        self.counts = np.zeros(self.top + 1, dtype=np.int64)
        self.values = 0
        self.below = 0
        self._last: int | None = None  # the last value below 1/2's index

    def add(self, u: Floats) -> None:
        where = np.flatnonzero(u < 0.5) + self.values
        self.values += len(u)
        if not len(where):
            return
        self.below += len(where)
        marks = where if self._last is None else np.append(self._last, where)
        gaps = np.diff(marks) - 1
        self.counts += np.bincount(
            np.minimum(gaps, self.top), minlength=self.top + 1
        )
        self._last = int(where[-1])

    def result(self) -> TestResult:
        top = self.top
        gaps = int(self.counts.sum())
        while top > 1 and gaps * 0.5**top < 5:
            top -= 1
        counts = [*self.counts[:top], self.counts[top:].sum()]
        probs = [0.5 * 0.5**r for r in range(top)] + [0.5**top]
        try:
            stat, p = chisq(counts, probs, "gap")
        except Sparse:
            # too few gaps: from a short stream (more shuffles are
            # needed), or from too few values below 1/2 for a uniform
            # stream of this length, whose number is binomial (n, 1/2):
            # then the fault is the stream's, and that test is the gap
            # test's verdict
            below, n = self.below, self.values
            p_below = float(stats.binomtest(below, n, 0.5).pvalue)
            if p_below >= ALPHA:
                raise
            return TestResult(
                "gap",
                float(below),
                p_below,
                f"too few values below 1/2 to count gaps ({below} of "
                f"{n}): binomial test of their number",
            )
        return TestResult(
            "gap",
            stat,
            p,
            f"gaps between values below 1/2, up to {top}, chi-square",
        )


class _Overlaps(_NothingToPlan):
    """Overlapping pairs of octal digits, the last paired with the first."""

    d = 8

    def __init__(self) -> None:
        self.ones = np.zeros(self.d, dtype=np.int64)
        self.pairs = np.zeros(self.d * self.d, dtype=np.int64)
        self.n = 0
        self._first: int | None = None
        self._last: int | None = None

    def add(self, u: Floats) -> None:
        if not len(u):
            return
        d = self.d
        digits = (u * d).astype(np.int64)
        self.ones += np.bincount(digits, minlength=d)
        self.pairs += np.bincount(
            digits[:-1] * d + digits[1:], minlength=d * d
        )
        if self._last is None:
            self._first = int(digits[0])
        else:
            self.pairs[self._last * d + int(digits[0])] += 1
        self._last = int(digits[-1])
        self.n += len(u)

    def result(self) -> TestResult:
        d, n = self.d, self.n
        pairs = self.pairs.copy()
        if self._last is not None and self._first is not None:
            pairs[self._last * d + self._first] += 1  # around the end

        def psi(counts: Ints, cells: int) -> float:
            expected = n / cells
            return float(((counts - expected) ** 2).sum() / expected)

        stat = psi(pairs, d * d) - psi(self.ones, d)
        p = float(stats.chi2.sf(stat, d * d - d))
        return TestResult(
            "overlaps",
            stat,
            p,
            "overlapping pairs of octal digits, Good's ψ² difference, "
            "chi-square 56 df",
        )


def distinct_digits(hands: Ints) -> Ints:
    """How many distinct digits each row (a poker hand) holds."""
    ordered = np.sort(hands, axis=1)
    changes: Ints = (np.diff(ordered, axis=1) != 0).sum(axis=1)
    return changes + 1


class _Poker:
    d, k = 10, 5

    def __init__(self) -> None:
        self.groups = _Groups(self.k)
        self.counts = np.zeros(self.k + 1, dtype=np.int64)

    def add(self, u: Floats) -> None:
        hands = (self.groups.take(u) * self.d).astype(np.int64)
        self.counts += np.bincount(
            distinct_digits(hands), minlength=self.k + 1
        )

    def _probabilities(self) -> list[float]:
        """Each count of distinct digits, 1 and 2 pooled (too rare alone)."""
        d, k = self.d, self.k
        probs = [
            float(np.prod([d - i for i in range(r)]) / d**k * stirling2(k, r))
            for r in range(1, k + 1)
        ]
        return [probs[0] + probs[1], *probs[2:]]

    def plan(self, values: int) -> None:
        hands = values // self.k
        cochran("poker", np.asarray(self._probabilities()) * hands)

    def result(self) -> TestResult:
        counts = self.counts[1:]
        pooled = [counts[0] + counts[1], *counts[2:]]
        stat, p = chisq(pooled, self._probabilities(), "poker")
        return TestResult(
            "poker", stat, p, "distinct digits in hands of five, chi-square"
        )


@jit
def coupon_lengths(
    digits: Ints, d: int, t: int, seen: Ints, state: Ints
) -> Ints:
    """The length of each segment that sees all ``d`` digits, up to ``t``.

    Segments follow one another across calls: ``seen`` (the digits the
    open segment has seen, 0 or 1 each) and ``state`` (how many, and
    the segment's length so far) carry it from one block to the next,
    and are updated. A segment never completed is never counted. (A
    loop over the stream, compiled: numba.)
    """
    out = np.empty(len(digits) // d + 1, dtype=np.int64)
    found = state[0]
    length = state[1]
    count = 0
    for digit in digits:
        length += 1
        if seen[digit] == 0:
            seen[digit] = 1
            found += 1
        if found == d:
            out[count] = min(length, t)
            count += 1
            seen[:] = 0
            found = 0
            length = 0
    state[0] = found
    state[1] = length
    return out[:count]


class _Coupon(_NothingToPlan):
    d, t = 5, 20

    def __init__(self) -> None:
        self.counts = np.zeros(self.t + 1, dtype=np.int64)
        self._seen = np.zeros(self.d, dtype=np.int64)
        self._state = np.zeros(2, dtype=np.int64)

    def add(self, u: Floats) -> None:
        lengths = coupon_lengths(
            (u * self.d).astype(np.int64),
            self.d,
            self.t,
            self._seen,
            self._state,
        )
        self.counts += np.bincount(lengths, minlength=self.t + 1)

    def result(self) -> TestResult:
        d, t = self.d, self.t
        if not self.counts.sum():
            # never saw every digit: as far from uniform as can be
            return TestResult(
                "coupon collector", float("inf"), 0.0, "no segment completed"
            )
        probs = [
            factorial(d) / d**r * stirling2(r - 1, d - 1) for r in range(d, t)
        ]
        probs.append(1 - factorial(d) / d ** (t - 1) * stirling2(t - 1, d))
        stat, p = chisq(self.counts[d:], probs, "coupon collector")
        return TestResult(
            "coupon collector",
            stat,
            p,
            "segment lengths to see all 5 digits, up to 20, chi-square",
        )


class _Permutation:
    t = 4

    def __init__(self) -> None:
        self.groups = _Groups(self.t)
        self.counts = np.zeros(self.t**self.t, dtype=np.int64)
        self._weights = np.array([self.t**i for i in range(self.t)])
        # every group's ranks are an order of 0..t-1: its code is one of
        # the t! codes of those orders (digit i: the rank of place i)
        self._orders = np.array(
            [
                int((np.array(p) * self._weights).sum())
                for p in permutations(range(self.t))
            ]
        )

    def add(self, u: Floats) -> None:
        groups = self.groups.take(u)
        ranks = np.argsort(np.argsort(groups, axis=1), axis=1)
        index = (ranks * self._weights).sum(axis=1)
        self.counts += np.bincount(index, minlength=len(self.counts))

    def _probabilities(self) -> Floats:
        cells = factorial(self.t)
        return np.full(cells, 1 / cells)

    def plan(self, values: int) -> None:
        groups = values // self.t
        cochran("permutation", self._probabilities() * groups)

    def result(self) -> TestResult:
        stat, p = chisq(
            self.counts[self._orders], self._probabilities(), "permutation"
        )
        return TestResult(
            "permutation", stat, p, "order of groups of four, 24 cells"
        )


class QuantizedSample:
    """Values in ``[0, 1)`` kept for a Kolmogorov–Smirnov test, 4 bytes each.

    Each value ``x`` is kept as ``floor(x * 2**32)`` (``capacity`` of
    them allocated at once), and the test reads it as that over 2**32:
    within 2**-32 below the value, so the statistic is within 2**-32 of
    the one the values themselves give (ties of values closer than that
    are read as equal). The p-value is :data:`scipy.stats.kstwo`'s, the
    exact two-sided distribution :func:`scipy.stats.kstest` uses.
    """

    _SCALE = 2.0**32
    _CHUNK = 1 << 16

    def __init__(self, capacity: int) -> None:
        self._codes = np.empty(capacity, dtype=np.uint32)
        self.n = 0

    def add(self, values: Floats) -> None:
        """Keep ``values`` (the capacity must have room for them)."""
        end = self.n + len(values)
        self._codes[self.n : end] = np.floor(values * self._SCALE)
        self.n = end

    def ks(self) -> tuple[float, float]:
        """The two-sided statistic against U(0, 1), and its p-value."""
        codes = self._codes[: self.n]
        codes.sort()
        n = self.n
        plus = minus = 0.0
        for start in range(0, n, self._CHUNK):
            x = codes[start : start + self._CHUNK] / self._SCALE
            i = np.arange(start, start + len(x))
            plus = max(plus, float(((i + 1) / n - x).max()))
            minus = max(minus, float((x - i / n).max()))
        d = max(plus, minus)
        p = float(np.clip(stats.kstwo.sf(d, n), 0.0, 1.0))
        return d, p


class _KolmogorovSmirnov(_NothingToPlan):
    def __init__(self, capacity: int) -> None:
        self.sample = QuantizedSample(capacity)

    def add(self, u: Floats) -> None:
        self.sample.add(u)

    def result(self) -> TestResult:
        d, p = self.sample.ks()
        return TestResult(
            "Kolmogorov-Smirnov", d, p, "the stream against U(0, 1)"
        )


class _OrderStatistic(_NothingToPlan):
    t = 5

    def __init__(self, capacity: int) -> None:
        self.groups = _Groups(self.t)
        self.sample = QuantizedSample(capacity // self.t)

    def add(self, u: Floats) -> None:
        self.sample.add(self.groups.take(u).max(axis=1) ** self.t)

    def result(self) -> TestResult:
        d, p = self.sample.ks()
        return TestResult(
            "order statistic",
            d,
            p,
            "maximum of five, raised to the 5th power, KS against U(0, 1)",
        )


class _Runs(_NothingToPlan):
    def __init__(self) -> None:
        self.above = 0
        self.n = 0
        self.changes = 0
        self._last: bool | None = None

    def add(self, u: Floats) -> None:
        if not len(u):
            return
        above = u >= 0.5
        self.above += int(above.sum())
        self.n += len(u)
        self.changes += int((above[1:] != above[:-1]).sum())
        if self._last is not None and self._last != bool(above[0]):
            self.changes += 1
        self._last = bool(above[-1])

    def result(self) -> TestResult:
        n1 = self.above
        n2 = self.n - n1
        runs = 1 + self.changes
        mean = 2 * n1 * n2 / (n1 + n2) + 1
        var = (mean - 1) * (mean - 2) / (n1 + n2 - 1)
        # every value on one side of 1/2: no variance, the statistic is
        # undefined (run_battery reports it as such, p = 0), not a warning
        with np.errstate(divide="ignore", invalid="ignore"):
            z = float((runs - mean) / np.sqrt(np.float64(var)))
        return TestResult(
            "runs",
            z,
            _normal_p(z),
            "runs above and below 1/2 (Wald-Wolfowitz), normal",
        )


class _SerialCorrelation(_NothingToPlan):
    """The lag-1 correlation, from sums of the pairs (centred on 1/2).

    Each block's sums are kept and added exactly at the end
    (:func:`math.fsum`): the correlation equals that of
    :func:`numpy.corrcoef` of the whole stream to rounding.
    """

    def __init__(self) -> None:
        self._sums: list[list[float]] = [[], [], [], [], []]
        self.pairs = 0
        self._last: float | None = None

    def add(self, u: Floats) -> None:
        if not len(u):
            return
        c = u - 0.5
        x = c[:-1] if self._last is None else np.append(self._last, c[:-1])
        y = c[1:] if self._last is None else c
        for bucket, value in zip(
            self._sums,
            (x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum()),
            strict=True,
        ):
            bucket.append(float(value))
        self.pairs += len(x)
        self._last = float(c[-1])

    def result(self) -> TestResult:
        sx, sy, sxx, syy, sxy = (fsum(s) for s in self._sums)
        m = self.pairs
        cov = sxy - sx * sy / m
        with np.errstate(divide="ignore", invalid="ignore"):
            r = float(
                np.float64(cov)
                / np.sqrt(
                    np.float64((sxx - sx * sx / m) * (syy - sy * sy / m))
                )
            )
        n = m + 1  # the stream's length
        mean = -1 / (n - 1)
        sd = sqrt((n * (n - 3)) / ((n + 1) * (n - 1) ** 2))
        z = (r - mean) / sd
        return TestResult(
            "serial correlation",
            r,
            _normal_p(z),
            "lag-1 correlation of the stream (Knuth's bounds), normal",
        )


class _Subsequences:
    d, step = 8, 3

    def __init__(self) -> None:
        self.counts = np.zeros(self.d * self.d, dtype=np.int64)
        self.values = 0
        self._left: Ints = np.empty(0, dtype=np.int64)

    def add(self, u: Floats) -> None:
        # every third value of the whole stream: from its index 0 on
        start = (-self.values) % self.step
        self.values += len(u)
        sub = (u[start :: self.step] * self.d).astype(np.int64)
        if len(self._left):
            sub = np.concatenate([self._left, sub])
        whole = len(sub) // 2 * 2
        self._left = sub[whole:].copy()
        pairs = sub[:whole].reshape(-1, 2)
        self.counts += np.bincount(
            pairs[:, 0] * self.d + pairs[:, 1], minlength=self.d * self.d
        )

    def _probabilities(self) -> Floats:
        cells = self.d * self.d
        return np.full(cells, 1 / cells)

    def plan(self, values: int) -> None:
        # every third value from index 0, in pairs
        pairs = -(-values // self.step) // 2
        cochran("subsequences", self._probabilities() * pairs)

    def result(self) -> TestResult:
        stat, p = chisq(self.counts, self._probabilities(), "subsequences")
        return TestResult(
            "subsequences",
            stat,
            p,
            "serial pairs of every third value, 64 cells, chi-square",
        )


def stream_tests(values: int) -> list[StreamTest]:
    """Every stream test, in the battery's order, for a stream of ``values``.

    The length is known before the stream is read (shuffles times cards
    less one); the Kolmogorov–Smirnov tests allocate their samples by it.
    """
    return [
        _Equidistribution(),
        _Gap(),
        _Overlaps(),
        _Poker(),
        _Coupon(),
        _Permutation(),
        _KolmogorovSmirnov(values),
        _OrderStatistic(values),
        _Runs(),
        _SerialCorrelation(),
        _Subsequences(),
    ]
