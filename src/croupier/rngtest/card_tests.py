"""The tests that read the shoes themselves, a block of shoes at a time.

Where each card lands (chi-square), which card follows which
(adjacency), how one shoe relates to the next (interplay correlation),
how many cards stay where they were (Poisson), and how each shoe's
order relates to the order before the shuffle (position correlation).
:class:`CardTests` takes the blocks in order (:meth:`CardTests.add`)
and keeps counts and one number a shoe at most, never the shoes.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from .results import Floats, Ints, TestResult, chisq, cochran
from .results import two_sided_normal as _normal_p

__all__ = ["CardTests", "mean_positions", "shoe_chi_square", "successions"]

_CODES = 53
"""Card codes (the joker's the last), for pair codes ``a * 53 + b``."""


def successions(original: Ints) -> dict[tuple[int, int], int]:
    """Each pair of codes that follow one another before the shuffle."""
    pairs: dict[tuple[int, int], int] = {}
    for a, b in zip(
        original[:-1].tolist(), original[1:].tolist(), strict=True
    ):
        pairs[(a, b)] = pairs.get((a, b), 0) + 1
    return pairs


def shoe_chi_square(table: Floats, n: int) -> tuple[float, float, int]:
    """Pearson's chi-square of a card x place table summed over shoes.

    ``table`` counts, over the shoes, each card (a row: a code, with its
    copies) in each group of places (a column) of shoes of ``n`` cards;
    gives the statistic, its p-value and degrees of freedom. One shoe's
    table is a contingency table of its ``n`` cards whose margins are
    fixed (each code's copies, each group's places), so under a uniform
    shuffle Pearson's statistic has mean ``(r - 1)(c - 1) n / (n - 1)``
    (Haldane's hypergeometric mean), not the ``(r - 1)(c - 1)`` of
    independent draws; the shoes are independent, so the summed table's
    statistic has the same mean and, times ``(n - 1) / n``, is
    chi-square with ``(r - 1)(c - 1)`` degrees of freedom
    (:func:`scipy.stats.chi2`; D87). Unscaled, a 53 x 53 table of
    uniform shuffles failed at 5 % one time in five. Cochran's rule is
    the caller's (:func:`.results.cochran`).

    Every order of three cards, one shoe each, places in halves (the
    first place, the other two): the scaled statistic's mean is its
    2 degrees of freedom.

    >>> from itertools import permutations
    >>> tables = [np.eye(3)[list(p)] @ [[1, 0], [0, 1], [0, 1]]
    ...           for p in permutations(range(3))]
    >>> stats_ = [shoe_chi_square(t, 3)[0] for t in tables]
    >>> round(float(np.mean(stats_)), 12), shoe_chi_square(tables[0], 3)[2]
    (2.0, 2)
    """
    result = stats.chi2_contingency(table, correction=False)
    statistic = float(result.statistic) * (n - 1) / n
    dof = int(result.dof)
    return statistic, float(stats.chi2.sf(statistic, dof)), dof


def mean_positions(shoes: Ints, codes: Ints) -> Floats:
    """Each shoe's mean place of each card (of ``codes``, in order)."""
    count, n = shoes.shape
    index = np.searchsorted(codes, shoes)
    sums = np.zeros((count, len(codes)))
    rows = np.broadcast_to(np.arange(count)[:, None], shoes.shape)
    np.add.at(sums, (rows, index), np.broadcast_to(np.arange(n), shoes.shape))
    copies: Floats = sums / np.bincount(index[0], minlength=len(codes))
    return copies


class CardTests:
    """The card tests' counts over shoes of ``original``'s cards."""

    _BINS = 10
    """Tenths of the shoe the chi-square counts places in."""

    def __init__(self, original: Ints) -> None:
        n = len(original)
        self.original = original
        self.shoes = 0
        self._codes = np.unique(original)
        self._bins = (np.arange(n) * self._BINS) // n
        self._table = np.zeros((len(self._codes), self._BINS))
        pairs = successions(original)
        self._pairs = pairs
        self._pair_codes = np.array([a * _CODES + b for a, b in pairs])
        self._adjacent = 0
        self._fixed = np.zeros(n + 1, dtype=np.int64)
        self._interplay: list[float] = []
        self._last_means: Floats | None = None
        self._correlations: list[Floats] = []

    def add(self, shoes: Ints, perms: Ints) -> None:
        """Count the next block of shoes (and their labelled permutations)."""
        self.shoes += len(shoes)
        # chi-square: card x place tenth
        np.add.at(
            self._table,
            (
                np.searchsorted(self._codes, shoes),
                np.broadcast_to(self._bins, shoes.shape),
            ),
            1,
        )
        # adjacency: a card followed by its unshuffled successor
        seen = shoes[:, :-1] * _CODES + shoes[:, 1:]
        self._adjacent += int(np.isin(seen, self._pair_codes).sum())
        # Poisson: cards left where they were
        fixed = (shoes == self.original[None, :]).sum(axis=1)
        self._fixed += np.bincount(fixed, minlength=len(self._fixed))
        # interplay: each shoe's mean places against the next shoe's
        means = mean_positions(shoes, self._codes)
        if self._last_means is not None:
            means = np.concatenate([self._last_means[None, :], means])
        self._interplay.extend(
            float(np.corrcoef(means[k], means[k + 1])[0, 1])
            for k in range(len(means) - 1)
        )
        self._last_means = means[-1]
        # position correlation: a permutation has no ties, its ranks are
        # its labels, and Spearman's correlation is Pearson's of the
        # ranks (every shoe of the block in one call)
        place = np.broadcast_to(np.arange(perms.shape[1]), perms.shape)
        self._correlations.append(
            np.asarray(stats.pearsonr(place, perms, axis=1).statistic)
        )

    def chi_square(self) -> TestResult:
        """Each card's places, by tenth of the shoe, against uniform."""
        cochran("chi-square", stats.contingency.expected_freq(self._table))
        statistic, p, _ = shoe_chi_square(self._table, len(self.original))
        return TestResult(
            "chi-square",
            statistic,
            p,
            f"card x position tenth, {len(self._codes)} x {self._BINS} "
            "table, times (n - 1)/n",
        )

    def adjacency(self) -> TestResult:
        """Unshuffled successions kept, against their Poisson mean."""
        n = len(self.original)
        copies = np.bincount(self.original, minlength=_CODES)
        lam = (
            sum(copies[a] * (copies[b] - (a == b)) / n for a, b in self._pairs)
            * self.shoes
        )
        total = self._adjacent
        low = float(stats.poisson.cdf(total, lam))
        high = float(stats.poisson.sf(total - 1, lam))
        return TestResult(
            "adjacency",
            float(total),
            min(1.0, 2 * min(low, high)),
            f"card followed by its unshuffled successor: {total} against "
            f"Poisson mean {lam:.1f}",
        )

    def interplay(self) -> TestResult:
        """Correlation of each card's mean place in a shoe and the next."""
        rs = self._interplay
        m = len(self._codes)
        z = float(np.sum(rs) * np.sqrt(m - 1) / np.sqrt(self.shoes - 1))
        return TestResult(
            "interplay correlation",
            float(np.mean(rs)),
            _normal_p(z),
            "correlation of each card's place in one shoe and the next, "
            "normal",
        )

    def poisson(self) -> TestResult:
        """Cards left where they were, per shoe, against their Poisson law.

        Both tails are pooled until each expects at least 5 shoes: the
        top counts from ``top`` up, and, for a shoe of many decks (whose
        mean is the number of decks), the bottom counts up to
        ``bottom``, which a few thousand shoes would otherwise leave
        expecting under one each.
        """
        n, count = len(self.original), self.shoes
        copies = np.bincount(self.original, minlength=_CODES)
        lam = float(copies[self.original].sum() / n)
        top = 0
        while stats.poisson.sf(top, lam) * count >= 5:
            top += 1
        bottom = 0
        while bottom < top - 1 and stats.poisson.cdf(bottom, lam) * count < 5:
            bottom += 1
        # each shoe's count of fixed cards in its cell: up to bottom, each
        # count between, top and over (one cell when even the top expects
        # under 5: Cochran's rule refuses that)
        cells = np.clip(np.arange(len(self._fixed)), bottom, top) - bottom
        counts = np.bincount(
            cells, weights=self._fixed, minlength=top - bottom + 1
        )
        probs = [float(stats.poisson.cdf(bottom, lam))] if top else []
        probs += [
            float(stats.poisson.pmf(r, lam)) for r in range(bottom + 1, top)
        ]
        probs.append(1 - sum(probs))
        stat, p = chisq(counts, probs, "Poisson")
        return TestResult(
            "Poisson",
            stat,
            p,
            "cards left where they were, per shoe, against "
            f"Poisson({lam:.2f})",
        )

    def position_correlation(self) -> TestResult:
        """Spearman's correlation of place before and after the shuffle."""
        rs = np.concatenate(self._correlations)
        n = len(self.original)
        z = float(np.sum(rs) * np.sqrt(n - 1) / np.sqrt(self.shoes))
        return TestResult(
            "position correlation (additional)",
            float(np.mean(rs)),
            _normal_p(z),
            "Spearman correlation of place before and after the shuffle",
        )
