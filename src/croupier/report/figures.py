"""The figures of a math report that the analyzers do not print.

Each is a small function of a wager's figures, derived here and in the
report's "Method" section: true odds, one-in-N frequencies, the house
edge excluding ties, the element of risk, the z-score of a simulation
against the exact value, the volatility index, the theoretical win per
hour and the bankroll needed for a given risk of ruin (a Brownian motion
with drift, first-passage formula).

>>> true_odds(0.25)
'3 to 1'
>>> round(edge_excluding_ties(0.010579, 0.095156), 6)
0.011692
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

__all__ = [
    "DECISIONS_PER_HOUR",
    "GLI_RAREST",
    "VOLATILITY_Z",
    "PacePerHour",
    "edge_excluding_ties",
    "element_of_risk",
    "one_in",
    "ruin_probability",
    "true_odds",
    "units_for_ruin",
    "volatility_index",
    "z_score",
]

GLI_RAREST = 100_000_000
"""GLI-11 § 4.8.2: an advertised award must occur at least once in this
many plays; rarer awards are flagged."""

VOLATILITY_Z = 1.645
"""The volatility index is this many standard deviations (the 90 %
two-sided normal quantile, the convention of PAR sheets)."""


@dataclass(frozen=True, slots=True)
class PacePerHour:
    """Decisions per hour at a full table, with its source."""

    decisions: int
    """Rounds (decisions) per hour."""
    basis: str
    """The game family the figure is for."""
    source: str
    """Where the figure comes from."""


_WOO = "Wizard of Odds, 'Hands per Hour' (wizardofodds.com)"
DECISIONS_PER_HOUR: dict[str, PacePerHour] = {
    "midibaccarat": PacePerHour(72, "baccarat", _WOO),
    "midibaccarat-commission-free": PacePerHour(72, "baccarat", _WOO),
    # 21 Baccarat has no player decision either; paced as baccarat.
    "21-baccarat": PacePerHour(72, "baccarat (no player decision)", _WOO),
    "double-back-jack": PacePerHour(70, "blackjack", _WOO),
    "six-card-fortune-pai-gow": PacePerHour(34, "pai gow poker", _WOO),
}
"""The pace used for the operating figures, per game."""


def true_odds(probability: float) -> str:
    """The odds against an event, ``N to 1`` (``N = (1 - p) / p``).

    >>> true_odds(1 / 3), true_odds(0.6), true_odds(1.0), true_odds(0.0)
    ('2 to 1', '0.6667 to 1', '0 to 1', 'never')
    """
    if probability <= 0:
        return "never"
    against = (1 - probability) / probability
    if against >= 100:
        return f"{against:,.0f} to 1"
    text = f"{against:.4f}".rstrip("0").rstrip(".")
    return f"{text} to 1"


def one_in(probability: float) -> float | None:
    """The ``N`` of "once in N rounds" (``None`` for an impossible event).

    >>> one_in(0.0001), one_in(0.0)
    (10000.0, None)
    """
    return 1 / probability if probability > 0 else None


def edge_excluding_ties(house_edge: float, push: float) -> float | None:
    """The house edge per wager that is resolved (ties, pushes left out).

    The expected loss divided by the probability that the wager does not
    push: ``edge / (1 - P(push))``; ``None`` when nothing pushes.
    """
    if push <= 0 or push >= 1:
        return None
    return house_edge / (1 - push)


def element_of_risk(house_edge: float, average_stake: float) -> float:
    """The expected loss per unit of *all* money wagered.

    ``house_edge`` is per unit of the initial wager; a wager that can
    grow (doubles, splits, Second Chance) puts ``average_stake`` units on
    the layout per initial unit, on average.
    """
    return house_edge / average_stake


def z_score(estimate: float, exact: float, ci_half: float) -> float:
    """How many standard errors a simulated edge lies from the exact one.

    The standard error is the 95 % half-width divided by 1.96 (normal).
    """
    se = ci_half / NormalDist().inv_cdf(0.975)
    if se == 0:
        return 0.0 if estimate == exact else math.copysign(math.inf, 1)
    return (estimate - exact) / se


def volatility_index(std_dev: float) -> float:
    """``VOLATILITY_Z`` standard deviations of one round, in units."""
    return VOLATILITY_Z * std_dev


def ruin_probability(
    bankroll: float, drift: float, std_dev: float, rounds: float
) -> float:
    """P(the bankroll is lost within ``rounds`` rounds), in a diffusion.

    The player's result after ``t`` rounds is approximated by a Brownian
    motion ``X(t) = mu t + sigma W(t)`` with ``mu = drift`` (the player's
    expectation per round, ``-house edge``) and ``sigma = std_dev`` per
    round. The probability that ``X`` reaches ``-b`` by time ``T`` is the
    first-passage (reflection) formula::

        Phi((-b - mu T) / (sigma sqrt T))
          + exp(-2 mu b / sigma^2) Phi((-b + mu T) / (sigma sqrt T))

    With no drift it is ``2 Phi(-b / (sigma sqrt T))``:

    >>> round(ruin_probability(1.96, 0.0, 1.0, 1.0), 4)
    0.05
    """
    if bankroll <= 0:
        return 1.0
    phi = NormalDist().cdf
    spread = std_dev * math.sqrt(rounds)
    mu_t = drift * rounds
    first = phi((-bankroll - mu_t) / spread)
    exponent = -2 * drift * bankroll / (std_dev * std_dev)
    second_phi = phi((-bankroll + mu_t) / spread)
    if second_phi == 0:
        return min(first, 1.0)
    # exp(exponent) * second_phi, computed in logs (it may overflow).
    log_second = exponent + math.log(second_phi)
    second = math.exp(log_second) if log_second < 700 else math.inf
    return min(first + second, 1.0)


def units_for_ruin(
    risk: float, drift: float, std_dev: float, rounds: float
) -> float:
    """The bankroll, in units, whose ruin probability is ``risk``.

    Bisection on :func:`ruin_probability`, which falls as the bankroll
    grows.

    >>> round(units_for_ruin(0.05, 0.0, 1.0, 1.0), 3)
    1.96
    """
    low, high = 0.0, max(std_dev * math.sqrt(rounds), 1.0)
    while ruin_probability(high, drift, std_dev, rounds) > risk:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if ruin_probability(middle, drift, std_dev, rounds) > risk:
            low = middle
        else:
            high = middle
    return high
