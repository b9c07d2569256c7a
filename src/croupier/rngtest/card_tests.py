"""The tests that read the shoes themselves, a block of shoes at a time.

Where each card lands (chi-square by tenth of the shoe; card x position
place by place, and its most extreme cell), which card follows which
(adjacency), how one shoe relates to the next (interplay correlation),
how many cards stay where they were (Poisson), and how each shoe's
order relates to the order before the shuffle (position correlation).
:class:`CardTests` takes the blocks in order (:meth:`CardTests.add`)
and keeps counts and one number a shoe at most, never the shoes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt
from scipy import stats

from croupier.cards import Card

from .results import Floats, Ints, Sparse, TestResult, chisq, cochran
from .results import two_sided_normal as _normal_p

__all__ = [
    "CardTests",
    "matching_law",
    "mean_positions",
    "shoe_chi_square",
    "successions",
]

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


def matching_law(copies: Sequence[int]) -> Floats:
    """The law of how many cards a uniform shuffle leaves where they were.

    ``copies`` gives each card (code) of the shoe its number of copies;
    the result's item ``m`` is the probability that a uniformly shuffled
    shoe holds, at exactly ``m`` places, a copy of the card it held
    before the shuffle (``m`` = 0 .. n). It is exact, each probability
    rounded once to a float.

    Derivation. Tell the copies apart: a uniform shuffle is a uniform
    permutation of the n places, and place i keeps its card when it is
    sent to one of the places that held a copy of that card. Those pairs
    of places form a board: one c x c square per card of c copies, the
    squares in distinct rows and columns. Its rook numbers r_j (ways to
    pick j of its cells, no two in a row or a column) multiply square by
    square, a c x c square having C(c, j)^2 j! ways. A set of j such
    cells lies in (n - j)! permutations, so A_j = r_j (n - j)! counts the
    permutations and the j-sets they contain, and inclusion and exclusion
    (the hit numbers of a board: Riordan, *An Introduction to
    Combinatorial Analysis*, ch. 7 and 8) count the permutations that
    meet exactly m cells:

        N_m = sum over j >= m of (-1)^(j - m) C(j, m) A_j, that is,
        sum_m N_m t^m = sum_j A_j (t - 1)^j,

    and the probability is N_m / n!. One deck (every c = 1) gives the
    rencontres law, (1/m!) sum_{i <= n - m} (-1)^i / i!: Poisson(1) to
    within 1/(n - m + 1)!. A shoe of d decks keeps d cards on average,
    as Poisson(d) does, but with a smaller variance (six decks: 5.904,
    not 6), which Poisson's law never has: the two laws are 0.0038
    apart in total variation, and a chi-square fit of N six-deck shoes
    to Poisson(6) sees a noncentrality of about 1.3e-4 N. Uniform shoes
    failed it at 5 % in 10 to 13 % of sets of 20,000, about half the
    sets of 100,000, and every set of a million (after Holm; D108).

    One deck of three, and the 90 orders of two copies each of three
    cards (counted by hand: 10 of them keep no card in place):

    >>> [round(float(p) * 6) for p in matching_law([1, 1, 1])]
    [2, 3, 0, 1]
    >>> round(float(matching_law([2, 2, 2])[0]) * 90)
    10
    """
    return np.array(_matching_law(tuple(sorted(copies))))


@cache
def _matching_law(copies: tuple[int, ...]) -> tuple[float, ...]:
    """:func:`matching_law` of ``copies`` (sorted), in integers, cached."""
    rooks = [1]
    for c in copies:
        square = [
            math.comb(c, j) ** 2 * math.factorial(j) for j in range(c + 1)
        ]
        product = [0] * (len(rooks) + c)
        for i, a in enumerate(rooks):
            for j, b in enumerate(square):
                product[i + j] += a * b
        rooks = product
    n = sum(copies)
    # sum_j A_j (t - 1)^j by Horner's rule in t - 1: additions only
    hits: list[int] = []
    for j in range(n, -1, -1):
        shifted = [0] * (len(hits) + 1)
        for i, h in enumerate(hits):
            shifted[i + 1] += h
            shifted[i] -= h
        shifted[0] += rooks[j] * math.factorial(n - j)
        hits = shifted
    whole = math.factorial(n)
    return tuple(h / whole for h in hits)


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
    _REACH = 1e-50
    """Below this tail probability a count of cards left in place is
    pooled at any number of shoes (:meth:`_poisson_settled`)."""

    def __init__(self, original: Ints) -> None:
        n = len(original)
        self.original = original
        self.shoes = 0
        self._codes = np.unique(original)
        self._copies = np.bincount(np.searchsorted(self._codes, original))
        self._bins = (np.arange(n) * self._BINS) // n
        # each card (code) at each place, every test of places reads it
        self._places = np.zeros((len(self._codes), n), dtype=np.int64)
        pairs = successions(original)
        self._pairs = pairs
        self._pair_codes = np.array([a * _CODES + b for a, b in pairs])
        self._adjacent = 0
        self._fixed = np.zeros(n + 1, dtype=np.int64)
        self._interplay: list[float] = []
        self._last_means: Floats | None = None
        self._correlations: list[Floats] = []
        # the Poisson test's law: cards left in place by a uniform
        # shuffle, exactly (D108); its mean is the copies a card has,
        # on the average
        law = matching_law(self._copies.tolist())
        kept = np.arange(n + 1)
        self._lam = float(law @ kept)
        self._variance = float(law @ (kept - self._lam) ** 2)
        self._pmf: Floats = law
        self._cdf: Floats = np.cumsum(law)
        # P(X > m), summed from the top so that a far tail keeps its
        # digits; 0 from the last count on
        self._sf: Floats = np.append(np.cumsum(law[::-1])[::-1][1:], 0.0)

    def add(self, shoes: Ints, perms: Ints) -> None:
        """Count the next block of shoes (and their labelled permutations)."""
        self.shoes += len(shoes)
        # chi-square, card x position and its largest cell: card x place
        n = shoes.shape[1]
        cells = np.searchsorted(self._codes, shoes) * n + np.arange(n)
        self._places += np.bincount(
            cells.ravel(), minlength=self._places.size
        ).reshape(self._places.shape)
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
        # a shoe that puts every card at one mean place (four cards of
        # two kinds: 0 and 3 against 1 and 2) has no correlation with the
        # next; that pair is left out (under a uniform shuffle the others
        # keep their law), where it made the whole test undefined
        spread = np.ptp(means, axis=1) > 0
        self._interplay.extend(_next_correlations(means, spread).tolist())
        self._last_means = means[-1]
        # position correlation: a permutation has no ties, its ranks are
        # its labels, and Spearman's correlation is Pearson's of the
        # ranks (every shoe of the block in one call)
        place = np.broadcast_to(np.arange(perms.shape[1]), perms.shape)
        self._correlations.append(
            np.asarray(stats.pearsonr(place, perms, axis=1).statistic)
        )

    def plan(self, shoes: int) -> None:
        """Raise :class:`Sparse` if ``shoes`` shoes are too few to test.

        Every chi-square of these tests has cells whose expected counts
        follow from the number of shoes alone (the margins of a card x
        place table are fixed: each card's copies, each group's places;
        the Poisson test's law is the shoe's): this checks them by
        Cochran's rule before any shoe is read, with the cells the tests
        themselves take (:meth:`chi_square`, :meth:`card_position`,
        :meth:`poisson`), so that a count is refused here exactly when
        the tests would refuse it.
        """
        self.plan_places(shoes)
        self.plan_poisson(shoes)

    def plan_places(self, shoes: int) -> None:
        """:meth:`plan` for the tests of places, whose cells only grow.

        A card's cells by tenth expect more with every shoe; the runs of
        :meth:`card_position` are as wide as every cell needs to expect
        5, and get no fewer as the shoes grow: a count that meets
        Cochran's rule here, any larger count meets.
        """
        cochran("chi-square", self._expected(self._bins, self._BINS, shoes))
        group, runs, _ = self._runs(shoes)
        cochran(
            "card x position (additional)",
            self._expected(group, runs, shoes),
        )

    def plan_poisson(self, shoes: int) -> None:
        """:meth:`plan` for the Poisson test, whose cells come and go.

        Its tails are pooled anew for each count (:meth:`poisson`): one
        more shoe can open a cell that expects under 5, so that a count
        may meet Cochran's rule and a larger one not
        (:meth:`poisson_minimum`).
        """
        probs = self._poisson_cells(shoes)[3]
        cochran("Poisson", np.asarray(probs) * shoes)

    def poisson_minimum(self) -> int:
        """The fewest shoes from which every count meets :meth:`plan_poisson`.

        Past :meth:`_poisson_settled` shoes every cell expects 5, so the
        counts below it are all there is to look at.
        """
        for shoes in range(self._poisson_settled() - 1, 1, -1):
            try:
                self.plan_poisson(shoes)
            except Sparse:
                return shoes + 1
        return 2

    def _poisson_settled(self) -> int:
        """A count of shoes from which no Poisson cell expects under 5.

        With ``N`` shoes a count ``r`` of cards left in place is a cell
        of its own when the counts below it expect 5 shoes together
        (``cdf(r - 1) N >= 5``, else the bottom pool takes it) and so do
        the counts above it (``sf(r) N >= 5``, else the top pool takes
        it). Up to ``low`` each count is at least as likely as all the
        counts below it, and from ``high`` on at least as likely as all
        those above it (found on the law itself; for Poisson's they are
        about half the mean and twice it): there, a cell of its own
        expects 5 shoes. The counts between expect 5 from ``5 / pmf(r)``
        shoes on; then the pools expect 5 too, and there are two cells
        or more (the cells about the mean). Counts above ``_REACH``
        (fewer than one shoe in 1e50: near the whole shoe, where the
        exact law has gaps, no shuffle keeps all but one card) get a
        cell of their own at no number of shoes anyone reads.
        """
        pmf, sf = self._pmf, self._sf
        below = np.append(0.0, self._cdf[:-1])
        low = 0
        while low + 1 < len(pmf) and pmf[low + 1] >= below[low + 1]:
            low += 1
        high = int(np.argmax(sf < self._REACH))
        while high > low and pmf[high - 1] >= sf[high - 1]:
            high -= 1
        return math.ceil(5 / float(pmf[low : high + 1].min()))

    def _expected(self, group: Ints, groups: int, shoes: int) -> Floats:
        """What each card x group cell expects of ``shoes`` uniform shoes.

        A card of ``c`` copies lands in a group of ``w`` of the ``n``
        places ``c w / n`` times a shoe: the cells the contingency
        table's fixed margins give (``expected_freq``).
        """
        n = len(self.original)
        widths = np.bincount(group, minlength=groups)
        cells = np.outer(self._copies, widths) * (shoes / n)
        return np.asarray(cells, dtype=np.float64)

    def chi_square(self) -> TestResult:
        """Each card's places, by tenth of the shoe, against uniform."""
        table = self._grouped(self._bins, self._BINS)
        cochran(
            "chi-square", self._expected(self._bins, self._BINS, self.shoes)
        )
        statistic, p, _ = shoe_chi_square(table, len(self.original))
        return TestResult(
            "chi-square",
            statistic,
            p,
            f"card x position tenth, {len(self._codes)} x {self._BINS} "
            "table, times (n - 1)/n",
        )

    def _grouped(self, group: Ints, groups: int) -> Floats:
        """The card x place counts, places summed by ``group`` (0 up)."""
        table: Floats = self._places @ np.eye(groups)[group]
        return table

    def card_position(self) -> TestResult:
        """Each card at each place against uniform: the whole table.

        Every cell expects ``shoes x copies / n``; when that is under 5
        (Cochran's rule, as for every chi-square here) the places are
        taken in runs of the fewest consecutive places that let every
        cell expect 5 (the last run takes the places left over), so a
        few hundred shuffles test place by place and fewer test pairs
        or triples of places. Pearson's statistic, times ``(n - 1)/n``
        (:func:`shoe_chi_square`), against chi-square with
        ``(cards - 1)(runs - 1)`` degrees of freedom.
        """
        name = "card x position (additional)"
        n = len(self.original)
        group, runs, width = self._runs(self.shoes)
        table = self._grouped(group, runs)
        cochran(name, self._expected(group, runs, self.shoes))
        statistic, p, dof = shoe_chi_square(table, n)
        places = "place" if width == 1 else f"run of {width} places"
        return TestResult(
            name,
            statistic,
            p,
            f"card x {places}, {len(self._codes)} x {runs} table, "
            f"{dof} df, times (n - 1)/n",
        )

    def _runs(self, shoes: int) -> tuple[Ints, int, int]:
        """The runs of places :meth:`card_position` counts ``shoes`` in.

        Each place's run, the number of runs and their width (the last
        run takes the places left over); :class:`Sparse` when even two
        runs would leave a card's cells expecting under 5.
        """
        n = len(self.original)
        fewest = int(self._copies.min())
        width = max(1, math.ceil(5 * n / (max(shoes, 1) * fewest)))
        runs = n // width
        if runs < 2:
            raise Sparse(
                "card x position (additional)", shoes * self._copies / n
            )
        group: Ints = np.minimum(np.arange(n) // width, runs - 1)
        return group, runs, width

    def largest_cell(self) -> TestResult:
        """The card x place cell furthest from uniform, exact at any count.

        Under a uniform shuffle a card with ``c`` copies is at a given
        place ``Binomial(shoes, c / n)`` times. Each cell's two-sided
        p-value is twice its smaller binomial tail
        (:func:`scipy.stats.binom`); the test's is the smallest of them
        times the number of cells (Bonferroni: valid however the cells
        depend on one another, and at any number of shuffles). It sees
        one card drawn to one place, which the tenths and the whole
        table's chi-square spread over many cells. The statistic is
        that cell's standardized residual.
        """
        n, shoes = len(self.original), self.shoes
        prob = (self._copies / n)[:, None]
        low = stats.binom.cdf(self._places, shoes, prob)
        high = stats.binom.sf(self._places - 1, shoes, prob)
        cell_p = np.minimum(1.0, 2 * np.minimum(low, high))
        code, place = np.unravel_index(np.argmin(cell_p), cell_p.shape)
        seen = int(self._places[code, place])
        p_card = float(prob[code, 0])
        expected = shoes * p_card
        z = (seen - expected) / math.sqrt(expected * (1 - p_card))
        card = Card.from_code(int(self._codes[code]))
        return TestResult(
            "card x position maximum (additional)",
            z,
            min(1.0, float(cell_p[code, place]) * cell_p.size),
            f"{card} at place {int(place) + 1} of {n}: {seen} times against "
            f"{expected:.1f} expected; exact binomial, Bonferroni over "
            f"{cell_p.size} cells",
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
        """Correlation of each card's mean place in a shoe and the next.

        Each correlation of two shuffled shoes has mean 0 and variance
        ``1 / (m - 1)`` for ``m`` kinds of card, so their sum over the
        pairs that have one is read as normal. With no such pair the
        statistic is undefined (NaN), which the battery fails.
        """
        rs = self._interplay
        m = len(self._codes)
        pairs = len(rs)
        z = (
            float(np.sum(rs) * np.sqrt(m - 1) / np.sqrt(pairs))
            if pairs
            else float("nan")
        )
        return TestResult(
            "interplay correlation",
            float(np.mean(rs)) if pairs else float("nan"),
            _normal_p(z),
            "correlation of each card's place in one shoe and the next, "
            "normal",
        )

    def poisson(self) -> TestResult:
        """Cards left where they were, per shoe, against their exact law.

        § 810a.5's Poisson test. The count of a shoe is read against
        :func:`matching_law` (Poisson(1) for one deck to 1e-17; for a
        shoe of d decks mean d but variance less than d, so Poisson(d)
        failed good shoes more and more often as they were more: D108).
        Both tails are pooled until each expects at least 5 shoes: the
        top counts from ``top`` up, and, for a shoe of many decks (whose
        mean is the number of decks), the bottom counts up to
        ``bottom``, which a few thousand shoes would otherwise leave
        expecting under one each.
        """
        return self.poisson_of(self._fixed)

    def poisson_of(self, fixed: Ints) -> TestResult:
        """:meth:`poisson` on counts alone, not on shoes :meth:`add` read.

        ``fixed[k]`` is the number of shoes that left ``k`` cards of
        :attr:`original` where they were (``len(original) + 1`` counts).
        A million shoes counted this way need no shoe kept: the size of
        the test is measured so (``bench/bench_rngtest_calibration.py``).
        """
        fixed = np.asarray(fixed, dtype=np.int64)
        if fixed.shape != self._fixed.shape or (fixed < 0).any():
            msg = (
                f"fixed counts are {len(self._fixed)} counts of shoes "
                f"(0 to {len(self.original)} cards in place), not "
                f"{fixed.tolist()[:8]}"
            )
            raise ValueError(msg)
        mean, bottom, top, probs = self._poisson_cells(int(fixed.sum()))
        # each shoe's count of fixed cards in its cell: up to bottom, each
        # count between, top and over (one cell when even the top expects
        # under 5: Cochran's rule refuses that)
        cells = np.clip(np.arange(len(fixed)), bottom, top) - bottom
        counts = np.bincount(cells, weights=fixed, minlength=top - bottom + 1)
        stat, p = chisq(counts, probs, "Poisson")
        return TestResult(
            "Poisson",
            stat,
            p,
            "cards left where they were, per shoe, against their exact "
            f"law (mean {mean:.2f}, variance {self._variance:.3f})",
        )

    def _poisson_cells(
        self, shoes: int
    ) -> tuple[float, int, int, list[float]]:
        """The Poisson test's law and cells for ``shoes`` shoes.

        Its mean ``lam``, the ``bottom`` and ``top`` counts its tails are
        pooled at (:meth:`poisson`) and each cell's probability.
        """
        top = 0
        while self._sf[top] * shoes >= 5:
            top += 1
        bottom = 0
        while bottom < top - 1 and self._cdf[bottom] * shoes < 5:
            bottom += 1
        probs = [float(self._cdf[bottom])] if top else []
        probs += [float(self._pmf[r]) for r in range(bottom + 1, top)]
        probs.append(1 - sum(probs))
        return self._lam, bottom, top, probs

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


def _next_correlations(means: Floats, spread: npt.NDArray[np.bool_]) -> Floats:
    """Pearson's correlation of each row of ``means`` with the next.

    Only the pairs whose two rows both have a ``spread``; the block's
    pairs at once, as :func:`numpy.corrcoef` computes one pair (the
    rows centred, their products summed over the norms' product, held
    to [-1, 1]): a call of it a pair took a third of the battery's time
    on 1,000 pai gow decks.
    """
    centred = means - means.mean(axis=1, keepdims=True)
    norms = np.sqrt(np.einsum("ij,ij->i", centred, centred))
    both = spread[:-1] & spread[1:]
    products = np.einsum("ij,ij->i", centred[:-1], centred[1:])[both]
    r: Floats = np.clip(products / (norms[:-1] * norms[1:])[both], -1, 1)
    return r
