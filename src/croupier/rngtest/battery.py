"""The § 810a.5 statistical battery, applied to shuffled shoes.

Two kinds of test. **Card tests** look at the shoes themselves: where
each card lands (chi-square), which card follows which (adjacency),
how many cards stay where they were (Poisson), how one shoe relates to
the next (interplay correlation) and to the order before the shuffle
(position correlation). **Stream tests** look at a stream of uniform
numbers the shuffles define: a uniformly random permutation's Lehmer
code (for each position, how many later cards were earlier in the
unshuffled order) has independent digits, digit ``i`` uniform on
``0 .. n-1-i``; with a seeded jitter (``(digit + V) / range``, V uniform)
they become independent U(0, 1) variates exactly when the shuffle is
uniform, and Knuth's classic tests apply (equidistribution, gap,
overlaps, poker, coupon collector, permutation, Kolmogorov–Smirnov,
order statistic, runs, serial correlation, subsequences). Copies of
one card in a multi-deck shoe are told apart by a random (seeded)
labelling, which keeps a uniform shuffle uniform.

Each test gives a statistic and a two-sided or upper-tail p-value from
:mod:`scipy.stats`; the family of tests is judged at 95 % with Holm's
step-down correction (:func:`holm`), so the chance that a good shuffler
fails any test is at most 5 %.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import factorial

import numpy as np
import numpy.typing as npt
from scipy import stats

from croupier.errors import CroupierError
from croupier.jit import jit

__all__ = [
    "ALPHA",
    "Battery",
    "TestResult",
    "TooFewShufflesError",
    "holm",
    "run_battery",
]

ALPHA = 0.05
"""Family-wise significance level (95 % confidence)."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class TestResult:
    """One test's outcome."""

    name: str
    """The test (as § 810a.5 names it)."""
    statistic: float
    """The test statistic."""
    p_value: float
    """Its p-value under a uniform shuffle."""
    detail: str
    """What was counted and against which distribution."""
    adjusted_p: float = 1.0
    """Holm-adjusted p-value (compare with :data:`ALPHA`)."""

    @property
    def passed(self) -> bool:
        """Whether the test passes after the correction."""
        return self.adjusted_p >= ALPHA


@dataclass(frozen=True, slots=True)
class Battery:
    """Every test's result and the verdict on the source."""

    results: tuple[TestResult, ...]
    """In the order run."""
    shuffles: int
    """Shuffles tested."""
    cards: int
    """Cards per shuffle."""

    @property
    def passed(self) -> bool:
        """Whether the source passes every test (after Holm)."""
        return all(r.passed for r in self.results)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error control).

    >>> [round(p, 3) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, (m - rank) * p_values[i])
        adjusted[i] = min(1.0, running)
    return adjusted


# -- preparing the data ---------------------------------------------------


_BLOCK = 256
"""Shoes worked on at once: a block's arrays stay small (the Lehmer
code compares every pair of places, ``n * n`` per shoe)."""


def _labels(shoes: Ints, original: Ints, gen: np.random.Generator) -> Ints:
    """Each shoe as a permutation of the original positions.

    Copies of a card get the original positions of that card's copies in
    a random order, so a uniform multiset shuffle gives a uniform
    permutation. (The random keys are drawn a block of shoes at a time,
    the same numbers in the same order as one shoe at a time.)
    """
    count = shoes.shape[0]
    by_code = np.argsort(original, kind="stable")
    perms = np.empty_like(shoes)
    for start in range(0, count, _BLOCK):
        block = shoes[start : start + _BLOCK]
        keys = gen.random(block.shape)
        idx = np.lexsort((keys, block), axis=-1)
        np.put_along_axis(
            perms[start : start + _BLOCK],
            idx,
            np.broadcast_to(by_code, block.shape),
            axis=1,
        )
    return perms


def _stream(perms: Ints, gen: np.random.Generator) -> Floats:
    """The jittered Lehmer-code stream (i.i.d. U(0, 1) if uniform).

    Place ``i``'s digit is how many later places hold a smaller label;
    with ``U(0, 1)`` jitter and divided by the ``n - i`` values it can
    take, each digit is uniform exactly when the permutation is.
    """
    count, n = perms.shape
    ranges = n - np.arange(n - 1)
    digits = _lehmer_digits(perms)
    out = np.empty((count, n - 1))
    for start in range(0, count, _BLOCK):
        jitter = gen.random((min(_BLOCK, count - start), n - 1))
        out[start : start + _BLOCK] = (
            digits[start : start + _BLOCK] + jitter
        ) / ranges
    return out.ravel()


@jit
def _lehmer_digits(perms: Ints) -> Ints:
    """Each permutation's Lehmer code but its last digit (always 0).

    Digit ``i`` counts the later places holding a smaller label, read
    from the right with a Fenwick tree of the labels seen: ``n log n``
    a permutation, where comparing every pair is ``n * n``.
    """
    count, n = perms.shape
    out = np.empty((count, n - 1), dtype=np.int64)
    tree = np.zeros(n + 1, dtype=np.int64)
    for k in range(count):
        tree[:] = 0
        for i in range(n - 1, -1, -1):
            label = perms[k, i]
            # labels below this one seen so far (later places)
            below = 0
            j = label
            while j > 0:
                below += tree[j]
                j -= j & -j
            if i < n - 1:
                out[k, i] = below
            j = label + 1
            while j <= n:
                tree[j] += 1
                j += j & -j
    return out


class TooFewShufflesError(CroupierError):
    """Too few shuffles for a test's chi-square to mean anything (exit 2).

    Bad input, not a verdict: a statistic whose cells expect almost
    nothing says nothing about the shuffler.
    """


class _Sparse(Exception):  # noqa: N818 - an internal signal, not an error
    """A chi-square whose expected counts break Cochran's rule."""

    def __init__(self, name: str, expected: Floats) -> None:
        super().__init__(name)
        self.name = name
        self.cells = len(expected)
        self.smallest = float(expected.min()) if len(expected) else 0.0


def _cochran(name: str, expected: npt.ArrayLike) -> None:
    """Raise unless the expected counts meet Cochran's rule.

    At least two cells, none expecting under 1, at most a fifth under 5:
    below that the chi-square distribution no longer describes the
    statistic, and a p-value read off it is meaningless (D40).
    """
    cells = np.asarray(expected, dtype=float).ravel()
    if len(cells) < 2 or cells.min() < 1 or (cells < 5).mean() > 0.2:
        raise _Sparse(name, cells)


def _chisq(
    observed: npt.ArrayLike, probabilities: npt.ArrayLike, name: str
) -> tuple[float, float]:
    obs = np.asarray(observed, dtype=float)
    expected = np.asarray(probabilities, dtype=float) * obs.sum()
    _cochran(name, expected)
    result = stats.chisquare(obs, expected)
    return float(result.statistic), float(result.pvalue)


def _two_sided_normal(z: float) -> float:
    return float(2 * stats.norm.sf(abs(z)))


def _stirling2(n: int, k: int) -> int:
    """Stirling numbers of the second kind (small arguments)."""
    table = [[0] * (k + 1) for _ in range(n + 1)]
    table[0][0] = 1
    for i in range(1, n + 1):
        for j in range(1, min(i, k) + 1):
            table[i][j] = j * table[i - 1][j] + table[i - 1][j - 1]
    return table[n][k]


# -- stream tests (Knuth, TAOCP vol. 2, 3.3.2) -----------------------------


def _equidistribution(u: Floats) -> TestResult:
    bins = 64
    counts = np.bincount((u * bins).astype(int), minlength=bins)
    stat, p = _chisq(counts, np.full(bins, 1 / bins), "equidistribution")
    return TestResult(
        "equidistribution", stat, p, f"{bins} equal cells, chi-square"
    )


def _gap(u: Floats) -> TestResult:
    """Gaps between values below 1/2: geometric, 1/2 each step.

    Gaps of ``top`` and more are one cell, ``top`` up to 12 while that
    tail (the rarest cell) still expects 5 gaps: a short stream pools
    sooner instead of leaving cells that expect almost nothing.
    """
    inside = u < 0.5
    where = np.flatnonzero(inside)
    gaps = np.diff(where) - 1
    top = 12
    while top > 1 and len(gaps) * 0.5**top < 5:
        top -= 1
    counts = np.bincount(np.minimum(gaps, top), minlength=top + 1)
    probs = [0.5 * 0.5**r for r in range(top)] + [0.5**top]
    try:
        stat, p = _chisq(counts, probs, "gap")
    except _Sparse:
        # too few gaps: from a short stream (more shuffles are needed), or
        # from too few values below 1/2 for a uniform stream of this
        # length, whose number is binomial (n, 1/2): then the fault is
        # the stream's, and that test is the gap test's verdict
        below = int(inside.sum())
        p_below = float(stats.binomtest(below, len(u), 0.5).pvalue)
        if p_below >= ALPHA:
            raise
        return TestResult(
            "gap",
            float(below),
            p_below,
            f"too few values below 1/2 to count gaps ({below} of "
            f"{len(u)}): binomial test of their number",
        )
    return TestResult(
        "gap",
        stat,
        p,
        f"gaps between values below 1/2, up to {top}, chi-square",
    )


def _overlaps(u: Floats) -> TestResult:
    d = 8
    digits = (u * d).astype(int)
    ones = np.bincount(digits, minlength=d)
    pairs = np.bincount(digits * d + np.roll(digits, -1), minlength=d * d)
    n = len(digits)

    def psi(counts: Ints, cells: int) -> float:
        expected = n / cells
        return float(((counts - expected) ** 2).sum() / expected)

    stat = psi(pairs, d * d) - psi(ones, d)
    p = float(stats.chi2.sf(stat, d * d - d))
    return TestResult(
        "overlaps",
        stat,
        p,
        "overlapping pairs of octal digits, Good's ψ² difference, "
        "chi-square 56 df",
    )


def _distinct(hands: Ints) -> Ints:
    """How many distinct digits each row (a poker hand) holds."""
    ordered = np.sort(hands, axis=1)
    changes: Ints = (np.diff(ordered, axis=1) != 0).sum(axis=1)
    return changes + 1


def _poker(u: Floats) -> TestResult:
    d, k = 10, 5
    digits = (u[: len(u) // k * k] * d).astype(int).reshape(-1, k)
    distinct = _distinct(digits)
    counts = np.bincount(distinct, minlength=k + 1)[1:]
    probs = [
        np.prod([d - i for i in range(r)]) / d**k * _stirling2(k, r)
        for r in range(1, k + 1)
    ]
    # pool r = 1, 2 (too rare alone)
    counts = np.concatenate([[counts[0] + counts[1]], counts[2:]])
    probs = [probs[0] + probs[1], *probs[2:]]
    stat, p = _chisq(counts, probs, "poker")
    return TestResult(
        "poker", stat, p, "distinct digits in hands of five, chi-square"
    )


@jit
def _coupon_lengths(digits: Ints, d: int, t: int) -> Ints:
    """The length of each segment that sees all ``d`` digits, up to ``t``.

    Segments follow one another; the tail that never sees them all is
    left out. (A loop over the stream, compiled: numba.)
    """
    out = np.empty(len(digits) // d + 1, dtype=np.int64)
    seen = np.zeros(d, dtype=np.bool_)
    found = 0
    length = 0
    count = 0
    for digit in digits:
        length += 1
        if not seen[digit]:
            seen[digit] = True
            found += 1
        if found == d:
            out[count] = min(length, t)
            count += 1
            seen[:] = False
            found = 0
            length = 0
    return out[:count]


def _coupon(u: Floats) -> TestResult:
    d, t = 5, 20
    lengths = _coupon_lengths((u * d).astype(np.int64), d, t)
    if not len(
        lengths
    ):  # never saw every digit: as far from uniform as can be
        return TestResult(
            "coupon collector", float("inf"), 0.0, "no segment completed"
        )
    counts = np.bincount(lengths, minlength=t + 1)[d:]
    probs = [
        factorial(d) / d**r * _stirling2(r - 1, d - 1) for r in range(d, t)
    ]
    probs.append(1 - factorial(d) / d ** (t - 1) * _stirling2(t - 1, d))
    stat, p = _chisq(counts, probs, "coupon collector")
    return TestResult(
        "coupon collector",
        stat,
        p,
        "segment lengths to see all 5 digits, up to 20, chi-square",
    )


def _permutation(u: Floats) -> TestResult:
    t = 4
    groups = u[: len(u) // t * t].reshape(-1, t)
    ranks = np.argsort(np.argsort(groups, axis=1), axis=1)
    index = (ranks * np.array([t**i for i in range(t)])).sum(axis=1)
    counts = np.unique(index, return_counts=True)[1]
    cells = factorial(t)
    if len(counts) < cells:
        counts = np.concatenate([counts, np.zeros(cells - len(counts))])
    stat, p = _chisq(counts, np.full(cells, 1 / cells), "permutation")
    return TestResult(
        "permutation", stat, p, "order of groups of four, 24 cells"
    )


def _ks(u: Floats) -> TestResult:
    result = stats.kstest(u, "uniform")
    return TestResult(
        "Kolmogorov-Smirnov",
        float(result.statistic),
        float(result.pvalue),
        "the stream against U(0, 1)",
    )


def _order_statistic(u: Floats) -> TestResult:
    t = 5
    top = u[: len(u) // t * t].reshape(-1, t).max(axis=1) ** t
    result = stats.kstest(top, "uniform")
    return TestResult(
        "order statistic",
        float(result.statistic),
        float(result.pvalue),
        "maximum of five, raised to the 5th power, KS against U(0, 1)",
    )


def _runs(u: Floats) -> TestResult:
    above = u >= 0.5
    n1 = int(above.sum())
    n2 = len(u) - n1
    runs = 1 + int((above[1:] != above[:-1]).sum())
    mean = 2 * n1 * n2 / (n1 + n2) + 1
    var = (mean - 1) * (mean - 2) / (n1 + n2 - 1)
    # every value on one side of 1/2: no variance, the statistic is
    # undefined (run_battery reports it as such, p = 0), not a warning
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (runs - mean) / np.sqrt(var)
    return TestResult(
        "runs",
        float(z),
        _two_sided_normal(float(z)),
        "runs above and below 1/2 (Wald-Wolfowitz), normal",
    )


def _serial_correlation(u: Floats) -> TestResult:
    n = len(u)
    r = float(np.corrcoef(u[:-1], u[1:])[0, 1])
    mean = -1 / (n - 1)
    sd = np.sqrt((n * (n - 3)) / ((n + 1) * (n - 1) ** 2))
    z = (r - mean) / sd
    return TestResult(
        "serial correlation",
        r,
        _two_sided_normal(float(z)),
        "lag-1 correlation of the stream (Knuth's bounds), normal",
    )


def _subsequences(u: Floats) -> TestResult:
    d, step = 8, 3
    sub = (u[::step] * d).astype(int)
    sub = sub[: len(sub) // 2 * 2].reshape(-1, 2)
    counts = np.bincount(sub[:, 0] * d + sub[:, 1], minlength=d * d)
    stat, p = _chisq(counts, np.full(d * d, 1 / (d * d)), "subsequences")
    return TestResult(
        "subsequences",
        stat,
        p,
        "serial pairs of every third value, 64 cells, chi-square",
    )


# -- card tests ------------------------------------------------------------


def _chi_square_positions(shoes: Ints) -> TestResult:
    n = shoes.shape[1]
    bins = 10
    position_bin = (np.arange(n) * bins) // n
    codes = np.unique(shoes[0])
    code_index = np.searchsorted(codes, shoes)
    table = np.zeros((len(codes), bins))
    np.add.at(
        table, (code_index, np.broadcast_to(position_bin, shoes.shape)), 1
    )
    result = stats.chi2_contingency(table, correction=False)
    _cochran("chi-square", result.expected_freq)
    return TestResult(
        "chi-square",
        float(result.statistic),
        float(result.pvalue),
        f"card x position tenth, {len(codes)} x {bins} table",
    )


def _successions(original: Ints) -> dict[tuple[int, int], int]:
    pairs: dict[tuple[int, int], int] = {}
    for a, b in zip(
        original[:-1].tolist(), original[1:].tolist(), strict=True
    ):
        pairs[(a, b)] = pairs.get((a, b), 0) + 1
    return pairs


def _adjacency(shoes: Ints, original: Ints) -> TestResult:
    count, n = shoes.shape
    copies = np.bincount(original, minlength=53)
    pairs = _successions(original)
    keys = np.array([a * 53 + b for a, b in pairs])
    seen = shoes[:, :-1] * 53 + shoes[:, 1:]
    total = int(np.isin(seen, keys).sum())
    lam = sum(copies[a] * (copies[b] - (a == b)) / n for a, b in pairs) * count
    low = float(stats.poisson.cdf(total, lam))
    high = float(stats.poisson.sf(total - 1, lam))
    return TestResult(
        "adjacency",
        float(total),
        min(1.0, 2 * min(low, high)),
        f"card followed by its unshuffled successor: {total} against "
        f"Poisson mean {lam:.1f}",
    )


def _poisson_fixed(shoes: Ints, original: Ints) -> TestResult:
    """Cards left where they were, per shoe, against their Poisson law.

    Both tails are pooled until each expects at least 5 shoes: the top
    counts from ``top`` up, and, for a shoe of many decks (whose mean is
    the number of decks), the bottom counts up to ``bottom``, which a
    few thousand shoes would otherwise leave expecting under one each.
    """
    count, n = shoes.shape
    copies = np.bincount(original, minlength=53)
    lam = float(copies[original].sum() / n)
    fixed = (shoes == original[None, :]).sum(axis=1)
    top = 0
    while stats.poisson.sf(top, lam) * count >= 5:
        top += 1
    bottom = 0
    while bottom < top - 1 and stats.poisson.cdf(bottom, lam) * count < 5:
        bottom += 1
    cells = np.clip(fixed, bottom, top) - bottom
    counts = np.bincount(cells, minlength=top - bottom + 1)
    # cells: up to bottom, each count between, top and over (one cell
    # when even the top expects under 5: Cochran's rule refuses that)
    probs = [float(stats.poisson.cdf(bottom, lam))] if top else []
    probs += [float(stats.poisson.pmf(r, lam)) for r in range(bottom + 1, top)]
    probs.append(1 - sum(probs))
    stat, p = _chisq(counts, probs, "Poisson")
    return TestResult(
        "Poisson",
        stat,
        p,
        f"cards left where they were, per shoe, against Poisson({lam:.2f})",
    )


def _mean_positions(shoes: Ints) -> Floats:
    count, n = shoes.shape
    codes = np.unique(shoes[0])
    index = np.searchsorted(codes, shoes)
    sums = np.zeros((count, len(codes)))
    rows = np.broadcast_to(np.arange(count)[:, None], shoes.shape)
    np.add.at(sums, (rows, index), np.broadcast_to(np.arange(n), shoes.shape))
    return sums / np.bincount(index[0], minlength=len(codes))


def _interplay(shoes: Ints) -> TestResult:
    means = _mean_positions(shoes)
    count, m = means.shape
    rs = [
        float(np.corrcoef(means[k], means[k + 1])[0, 1])
        for k in range(count - 1)
    ]
    z = float(np.sum(rs) * np.sqrt(m - 1) / np.sqrt(count - 1))
    return TestResult(
        "interplay correlation",
        float(np.mean(rs)),
        _two_sided_normal(z),
        "correlation of each card's place in one shoe and the next, normal",
    )


def _position_correlation(perms: Ints) -> TestResult:
    count, n = perms.shape
    # a permutation has no ties: its ranks are its labels, and Spearman's
    # correlation is Pearson's of the ranks (all shoes in one call)
    place = np.broadcast_to(np.arange(n), perms.shape)
    rs = stats.pearsonr(place, perms, axis=1).statistic
    z = float(np.sum(rs) * np.sqrt(n - 1) / np.sqrt(count))
    return TestResult(
        "position correlation (additional)",
        float(np.mean(rs)),
        _two_sided_normal(z),
        "Spearman correlation of place before and after the shuffle",
    )


_STREAM_TESTS: tuple[Callable[[Floats], TestResult], ...] = (
    _equidistribution,
    _gap,
    _overlaps,
    _poker,
    _coupon,
    _permutation,
    _ks,
    _order_statistic,
    _runs,
    _serial_correlation,
    _subsequences,
)


def run_battery(
    shuffles: Sequence[Ints], original: Ints, *, seed: int = 0
) -> Battery:
    """Run every test on ``shuffles`` of the unshuffled ``original``.

    ``seed`` drives the jitter and the labelling of identical cards only
    (not the source), so a run is reproducible.
    """
    shoes = np.asarray(shuffles, dtype=np.int64)
    gen = np.random.default_rng(seed)
    perms = _labels(shoes, original, gen)
    u = _stream(perms, gen)
    try:
        results = [
            _chi_square_positions(shoes),
            *(test(u) for test in _STREAM_TESTS),
            _adjacency(shoes, original),
            _interplay(shoes),
            _poisson_fixed(shoes, original),
            _position_correlation(perms),
        ]
    except _Sparse as sparse:
        msg = (
            f"{len(shoes)} shuffles are too few for the {sparse.name} test: "
            f"its {sparse.cells} chi-square cell(s) expect as little as "
            f"{sparse.smallest:.2g} (Cochran's rule: two cells or more, "
            f"none under 1, at most a fifth under 5); give more shuffles"
        )
        raise TooFewShufflesError(msg) from None
    # a statistic that cannot be computed (no variance at all) is as far
    # from a uniform shuffle as it gets
    results = [
        r
        if np.isfinite(r.p_value)
        else TestResult(r.name, r.statistic, 0.0, r.detail + " (undefined)")
        for r in results
    ]
    adjusted = holm([r.p_value for r in results])
    final = tuple(
        TestResult(r.name, r.statistic, r.p_value, r.detail, a)
        for r, a in zip(results, adjusted, strict=True)
    )
    count, n = shoes.shape
    return Battery(final, count, n)
