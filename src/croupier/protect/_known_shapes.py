"""The data shapes of :mod:`croupier.protect.known` (D50)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypedDict

import numpy as np

from croupier.jsontypes import JsonObject
from croupier.odds.baccarat.shoe import IntArray

__all__ = ["Bonus", "CoupModel", "KnownEdge", "Pairs", "SortSplit"]


@dataclass(frozen=True, slots=True)
class Pairs:
    """The Perfect Pairs wagers' rank-level tables (positions 1-4)."""

    wagers: tuple[str, ...]
    """The two Perfect Pairs wagers' names."""
    scale: int
    """The denominator of every scaled net."""
    weights: IntArray
    """``(13,) * 4`` sequence weights."""
    sums: IntArray
    """``(len(wagers),) + (13,) * 4`` scaled nets."""


@dataclass(frozen=True, slots=True)
class Bonus:
    """21 Baccarat's Bonus Wagers' rank-level sums (float64)."""

    wagers: tuple[str, ...]
    """The two Bonus Wagers' names."""
    total: float
    """All ordered six-card sequences."""
    prefix: np.ndarray
    """``(13,) * 5 + (3,)``: weight, weight x Player and Banker EVs."""
    position: np.ndarray
    """``(6, 13, 3)``: the same by one position's rank."""
    full: np.ndarray
    """``(2,)``: weight x max(0, EV) summed over whole sequences."""


@dataclass(frozen=True, slots=True)
class CoupModel:
    """Exact weights and nets of every six-card class sequence."""

    game: str
    """The registry name."""
    classes: tuple[str, ...]
    """Labels of the ten card classes, in index order."""
    wagers: tuple[str, ...]
    """The wagers settled on the coup's cells."""
    unit: int
    """Every net is scaled by this to an integer."""
    weights: IntArray = field(repr=False)
    """``(10,) * 6``: ordered card sequences per class sequence."""
    sums: IntArray = field(repr=False)
    """``(len(wagers),) + (10,) * 6``: weight times scaled net."""
    pairs: Pairs | None = field(default=None, repr=False)
    """The Perfect Pairs wagers, when offered."""
    bonus: Bonus | None = field(default=None, repr=False)
    """21 Baccarat's Bonus Wagers."""

    @property
    def total(self) -> int:
        """All ordered six-card sequences, ``N (N-1) ... (N-5)``."""
        return int(self.weights.sum())


class SortSplit(TypedDict):
    """A wager's own best split of the classes for an edge sort."""

    edge: Fraction | float
    """Its edge (exact; the Bonus wagers' as a float)."""
    groups: tuple[tuple[str, ...], tuple[str, ...]]
    """The two groups the classes are sorted into."""


@dataclass(frozen=True, slots=True)
class KnownEdge:
    """The player's edge for one kind of knowledge of the coup."""

    information: str
    """What the player knows before wagering."""
    edge: Fraction
    """Per coup, betting the best cell wager when it is positive."""
    bet_frequency: Fraction
    """Share of coups with a positive best cell wager."""
    by_wager: dict[str, Fraction | float]
    """Per coup, betting only that wager when it is positive (a float
    for the Bonus Wagers, exact fractions otherwise)."""
    groups: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    """The two groups of an edge sort (None: ranks known)."""

    @property
    def edge_when_betting(self) -> Fraction:
        """The edge per unit actually bet."""
        if self.bet_frequency == 0:
            return Fraction(0)
        return self.edge / self.bet_frequency

    def to_json(self) -> JsonObject:
        """JSON-ready figures (floats)."""
        out: JsonObject = {
            "information": self.information,
            "edge": float(self.edge),
            "bet_frequency": float(self.bet_frequency),
            "edge_when_betting": float(self.edge_when_betting),
            "by_wager": {w: float(e) for w, e in self.by_wager.items()},
        }
        if self.groups is not None:
            out["groups"] = [list(g) for g in self.groups]
        return out
