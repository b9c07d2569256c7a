"""Report shapes for exact and simulated results (the JSON contract).

A wager's return table reads the way the field reads it (the Wizard of
Odds shape): event, pays, probability, return; then the house edge (the
player's expected loss per unit of the initial wager, as a fraction),
the standard deviation, and for simulations a 95 % confidence interval.

>>> from fractions import Fraction
>>> rows = [ExactEvent("win", Fraction(1), Fraction(9, 19)),
...         ExactEvent("lose", Fraction(-1), Fraction(10, 19))]
>>> report = WagerReport.exact(rows)
>>> report.house_edge_exact, round(report.house_edge, 6)
(Fraction(1, 19), 0.052632)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from croupier.money import dollars

__all__ = [
    "SHOE_RAN_OUT_EVENT",
    "ExactEvent",
    "GameReport",
    "WagerReport",
    "WagerSums",
    "dollars",  # croupier.money's, where report tables have read it
]

Z95 = 1.959963984540054
"""The two-sided 95 % normal quantile."""

SHOE_RAN_OUT_EVENT = "the shoe ran out (D69)"
"""How a simulated return table's row of void rounds ends: rounds the
shoe could not finish (a deep cover card in a small shoe), void as the
engine voids them."""


@dataclass(frozen=True, slots=True)
class ExactEvent:
    """One row of an exact return table."""

    event: str
    """What happens (``Banker wins``, ``Perfect pair``...)."""
    net: Fraction
    """The player's net per unit of the initial wager."""
    probability: Fraction
    """Its exact probability."""
    pays: str = ""
    """The payout as printed (``19:20``); defaults to ``net``."""
    combinations: int | None = None
    """The number of equally likely combinations, where counted."""

    @property
    def ret(self) -> Fraction:
        """The row's contribution to the expected return."""
        return self.net * self.probability

    def to_dict(self) -> dict[str, object]:
        """The contract row."""
        row: dict[str, object] = {
            "event": self.event,
            "pays": self.pays or pays_text(self.net),
            "probability": float(self.probability),
            "return": float(self.ret),
        }
        if self.combinations is not None:
            row["combinations"] = self.combinations
        return row


def pays_text(net: Fraction) -> str:
    """The "pays" column for a fixed net per unit staked.

    >>> pays_text(Fraction(3, 2)), pays_text(Fraction(-1, 2))
    ('3:2', 'loses 1/2')
    """
    if net < 0:
        return "loss" if net == -1 else f"loses {-net}"
    if net == 0:
        return "push"
    return f"{net.numerator}:{net.denominator}"


def average_pays_text(net: Fraction) -> str:
    """The "pays" column of a row whose net varies (its average).

    >>> average_pays_text(Fraction(-3, 10))
    'avg -3/10'
    """
    if net in (-1, 0):
        return pays_text(net)
    if net.denominator <= 20:  # a plain fraction reads best
        return f"avg {'+' if net > 0 else '-'}{abs(net)}"
    return f"avg {float(net):+.4f}"


@dataclass(slots=True)
class WagerSums:
    """Exact integer sums of a simulated wager, mergeable across chunks.

    Nets are in minor units of a stake of ``unit`` per initial wager.
    """

    unit: int
    """The initial stake used by the simulator, in minor units."""
    count: int = 0
    """Rounds in which the wager was placed."""
    total: int = 0
    """Sum of the nets."""
    total_sq: int = 0
    """Sum of the squared nets."""
    outcomes: dict[str, int] = field(default_factory=dict)
    """Counts per outcome label, for the return table."""
    outcome_nets: dict[str, int] = field(default_factory=dict)
    """Sum of nets per outcome label."""
    pays: dict[str, str] = field(default_factory=dict)
    """The payout as printed per outcome label (``19:20``, ``push``),
    where the simulator knows it; the return table's "pays" column."""
    stake_basis: str | None = None
    """Why the figures hold at a stake of ``unit`` only (a wager that
    pays fixed amounts, as the Envy Bonus does); ``None``: they hold per
    unit at any stake."""

    def merge(self, other: WagerSums) -> None:
        """Add another chunk's sums (exact: integers only)."""
        if other.unit != self.unit:
            msg = f"cannot merge units {self.unit} and {other.unit}"
            raise ValueError(msg)
        if self.stake_basis is None:
            self.stake_basis = other.stake_basis
        self.count += other.count
        self.total += other.total
        self.total_sq += other.total_sq
        for key, value in other.outcomes.items():
            self.outcomes[key] = self.outcomes.get(key, 0) + value
        for key, value in other.outcome_nets.items():
            self.outcome_nets[key] = self.outcome_nets.get(key, 0) + value
        for key, text in other.pays.items():
            self.pays.setdefault(key, text)


@dataclass(slots=True)
class WagerReport:
    """One wager's figures."""

    house_edge: float
    """Expected player loss per unit of the initial wager."""
    std_dev: float
    """Standard deviation of the net per unit of the initial wager."""
    events: list[dict[str, Any]]
    """The return table rows."""
    ci95: tuple[float, float] | None = None
    """95 % confidence interval of the house edge (simulation only)."""
    house_edge_exact: Fraction | None = None
    """The exact edge (exact analysis only)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Anything else worth reporting (hit and push frequencies...)."""

    @classmethod
    def exact(cls, rows: Sequence[ExactEvent], **extra: object) -> WagerReport:
        """From exact rows whose probabilities sum to 1."""
        total = sum((row.probability for row in rows), Fraction(0))
        if total != 1:
            msg = f"probabilities sum to {total}, not 1"
            raise ValueError(msg)
        mean = sum((row.ret for row in rows), Fraction(0))
        second = sum(
            (row.net * row.net * row.probability for row in rows), Fraction(0)
        )
        hit = sum((r.probability for r in rows if r.net > 0), Fraction(0))
        push = sum((r.probability for r in rows if r.net == 0), Fraction(0))
        extra.setdefault("hit_frequency", float(hit))
        extra.setdefault("push_frequency", float(push))
        return cls(
            house_edge=float(-mean),
            std_dev=math.sqrt(float(second - mean * mean)),
            events=[row.to_dict() for row in rows],
            house_edge_exact=-mean,
            extra=extra,
        )

    @classmethod
    def simulated(cls, sums: WagerSums) -> WagerReport:
        """From simulated sums: edge, σ, CI and the observed table."""
        n = max(sums.count, 1)
        mean = sums.total / (n * sums.unit)
        second = sums.total_sq / (n * sums.unit * sums.unit)
        std = math.sqrt(max(second - mean * mean, 0.0))
        half = Z95 * std / math.sqrt(n)

        def average(label: str) -> Fraction:
            count = sums.outcomes[label]
            return Fraction(
                sums.outcome_nets.get(label, 0), max(count, 1) * sums.unit
            )

        # the exact tables' order: best net first, then by name
        labels = sorted(sums.outcomes, key=lambda k: (-average(k), k))
        events = [
            {
                "event": label,
                "pays": sums.pays.get(label)
                or average_pays_text(average(label)),
                "probability": sums.outcomes[label] / n,
                "return": sums.outcome_nets.get(label, 0) / (n * sums.unit),
            }
            for label in labels
        ]
        extra: dict[str, Any] = {"rounds": sums.count}
        if sums.stake_basis is not None:
            # the figures are those of this one stake (D134)
            extra["stake"] = sums.unit
            extra["stake_basis"] = sums.stake_basis
        return cls(
            house_edge=-mean,
            std_dev=std,
            events=events,
            ci95=(-mean - half, -mean + half),
            extra=extra,
        )

    def to_dict(self) -> dict[str, Any]:
        """The contract form."""
        out: dict[str, Any] = {
            "house_edge": self.house_edge,
            "std_dev": self.std_dev,
        }
        if self.ci95 is not None:
            out["ci95"] = list(self.ci95)
        if self.house_edge_exact is not None:
            out["house_edge_exact"] = str(self.house_edge_exact)
        out.update(self.extra)
        out["events"] = self.events
        return out


@dataclass(slots=True)
class GameReport:
    """The whole output of ``croupier analyze`` or ``croupier simulate``."""

    game: str
    """Registry name."""
    rules: dict[str, object]
    """The options in force."""
    method: str
    """``exact`` or ``simulation``."""
    seconds: float
    """Wall time of the computation (JIT compilation excluded)."""
    wagers: dict[str, WagerReport]
    """Per wager name (the scenario's names)."""
    rounds: int | None = None
    """Rounds simulated."""
    compile_seconds: float = 0.0
    """Time spent compiling kernels (reported, not counted)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Game-specific figures (dealer outcome table, strategy...)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract."""
        out: dict[str, Any] = {
            "game": self.game,
            "rules": self.rules,
            "method": self.method,
        }
        if self.rounds is not None:
            out["rounds"] = self.rounds
        out["seconds"] = self.seconds
        if self.rounds is not None:
            out["rounds_per_second"] = (
                self.rounds / self.seconds if self.seconds > 0 else None
            )
        out["compile_seconds"] = self.compile_seconds
        out["wagers"] = {k: v.to_dict() for k, v in self.wagers.items()}
        out.update(self.extra)
        return out
