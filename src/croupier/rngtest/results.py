"""What a test of the battery gives, and the helpers every test shares.

A test's outcome (:class:`TestResult`), the family's verdict
(:class:`Battery`), Holm's correction (:func:`holm`), and the chi-square
with Cochran's rule (:func:`chisq`) that most tests end in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import stats

from croupier.errors import CroupierError

__all__ = [
    "ALPHA",
    "Battery",
    "Floats",
    "Ints",
    "Sparse",
    "TestResult",
    "TooFewShufflesError",
    "chisq",
    "holm",
    "two_sided_normal",
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


class TooFewShufflesError(CroupierError):
    """Too few shuffles for a test's chi-square to mean anything (exit 2).

    Bad input, not a verdict: a statistic whose cells expect almost
    nothing says nothing about the shuffler. The message names the
    fewest shuffles of the shoe the battery can judge.
    """

    def __init__(
        self,
        shuffles: int,
        cards: int,
        minimum: int | None,
        shown: int,
        reason: str,
    ) -> None:
        self.shuffles = shuffles
        """The shuffles given."""
        self.cards = cards
        """The cards of each."""
        self.minimum = minimum
        """The fewest shuffles of such a shoe the battery can judge;
        ``None`` when ``shuffles`` are as many, and a test's cells,
        which hang on the values drawn, still came out too sparse."""
        self.reason = f"with {shown}, {reason}"
        """Which test's cells are too sparse, and by how much (at
        ``shuffles``, or at the last count refused below the minimum)."""
        if minimum is None:
            enough = "give more shuffles"
        else:
            enough = f"the battery needs at least {minimum} shuffles of it"
        super().__init__(
            f"{shuffles} shuffles are too few for a shoe of {cards} "
            f"cards: {enough} ({self.reason})"
        )


class Sparse(Exception):  # noqa: N818 - an internal signal, not an error
    """A chi-square whose expected counts break Cochran's rule."""

    def __init__(self, name: str, expected: Floats) -> None:
        super().__init__(name)
        self.name = name
        self.cells = len(expected)
        self.smallest = float(expected.min()) if len(expected) else 0.0


def cochran(name: str, expected: npt.ArrayLike) -> None:
    """Raise :class:`Sparse` unless the expected counts meet Cochran's rule.

    At least two cells, none expecting under 1, at most a fifth under 5:
    below that the chi-square distribution no longer describes the
    statistic, and a p-value read off it is meaningless (D40).
    """
    cells = np.asarray(expected, dtype=float).ravel()
    if len(cells) < 2 or cells.min() < 1 or (cells < 5).mean() > 0.2:
        raise Sparse(name, cells)


def chisq(
    observed: npt.ArrayLike, probabilities: npt.ArrayLike, name: str
) -> tuple[float, float]:
    """Pearson's chi-square of counts against cell probabilities."""
    obs = np.asarray(observed, dtype=float)
    expected = np.asarray(probabilities, dtype=float) * obs.sum()
    cochran(name, expected)
    result = stats.chisquare(obs, expected)
    return float(result.statistic), float(result.pvalue)


def two_sided_normal(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return float(2 * stats.norm.sf(abs(z)))
