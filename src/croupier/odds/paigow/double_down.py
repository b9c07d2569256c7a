"""The Six-Card Wager with the Double Down Wager played (D22, D177).

Where the rules offer it (``double_down_offered``), a player who has seen
his six cards may add a Double Down Wager of up to his Six-Card Wager,
settled like it (D22). Settled like it, the Double Down's expectation is
the Six-Card Wager's given those six cards, times its size: the best use
is all or nothing, the whole Six-Card Wager doubled exactly when the
hand is ahead of the dealer's replies. That expectation over the
dealer's C(47, 6) replies is out of reach for every hand, so it is
estimated and the rounds are simulated:

- each round shuffles the 53-card deck (the automated shuffler), gives
  the player six cards and the dealer the next six (one seat against the
  dealer: the other positions' cards are as unknown to the player as
  the rest of the deck, so they are left undealt), and sets both hands
  the house way (the player asking for it, as the simulation's seats
  do);
- the player doubles when, over ``samples`` six-card hands drawn for the
  dealer from the 47 cards he does not see (drawn afresh, independent of
  the dealer's real hand), his hand wins more than it loses, a win
  counting its net after commission;
- the round is settled against the dealer's real hand: the Six-Card
  Wager, and the Double Down when made.

The decision is only as good as its sample: a hand near even may be
doubled when it is slightly behind, or not when slightly ahead. So the
figures are those of a strategy a player could follow, a lower bound of
the best use, which the sample size brings close (the cost of a wrong
call is the hand's small expectation). The round's figures are means
over independent rounds, each with its 95 % interval.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from croupier.hands.paigow_fast import five_card_table
from croupier.jit import jit
from croupier.odds.favour import favour_text
from croupier.rules import GameRules

from . import kernels as k
from .simulation import kernel_params, six_card_rules

__all__ = [
    "ANALYZE_ROUNDS",
    "DOUBLE_DOWN_SAMPLES",
    "DOUBLE_DOWN_SEED",
    "NOT_OFFERED",
    "WAGER",
    "DoubleDownFigures",
    "double_down_figures",
    "double_down_rounds",
    "double_down_warnings",
]

DOUBLE_DOWN_SAMPLES = 300
"""Dealer's hands drawn to decide each Double Down."""
DOUBLE_DOWN_SEED = 1
"""The seed of the Double Down's rounds."""
ANALYZE_ROUNDS = 20_000
"""Rounds ``croupier analyze`` (and so the math report) simulates."""
WAGER = "six_card_with_double_down"
"""The name a warning gives the Six-Card Wager with the Double Down."""
NOT_OFFERED = (
    "not offered: these rules offer no Double Down Wager "
    "(double_down_offered is false, the default: 670a.7(e) lets a casino "
    "offer it only where its Rules Submission says so, D182); the "
    "Six-Card Wager is played alone"
)
"""What ``croupier analyze`` says of the Double Down where the rules in
force do not offer it (its ``double_down`` entry's ``note``)."""

DOUBLED, BASE_NET, WINS, LOSSES = 0, 1, 2, 3
"""Columns of :func:`double_down_rounds`' record of each round."""
COLUMNS = 4

_BINOM = k.binomials()


@jit
def double_down_rounds(
    rng: np.random.Generator,
    rounds: int,
    samples: int,
    table: k.I32,
    binom: k.I64,
    low_ranks: k.I64,
    iparams: k.I64,
    out: k.I64,
) -> None:
    """Play ``rounds`` rounds, writing each one's record in ``out``.

    ``out[r]``: whether the player doubled (0 or 1), the Six-Card
    Wager's net against the dealer's real hand (minor units, stake
    ``iparams[P_PAI_GOW_STAKE]``), and the wins and losses of his hand
    over the ``samples`` hands drawn for the decision.
    """
    deck = np.arange(53, dtype=np.int64)
    player = np.zeros(6, dtype=np.int64)
    dealer = np.zeros(6, dtype=np.int64)
    pool = np.zeros(47, dtype=np.int64)
    drawn = np.zeros(6, dtype=np.int64)
    vals = np.zeros(6, dtype=np.int64)
    stake = iparams[k.P_PAI_GOW_STAKE]
    win_net = iparams[k.P_PAI_GOW_WIN]
    way = iparams[k.P_HOUSE_WAY]
    joker_low = iparams[k.P_JOKER_LOW]
    for r in range(rounds):
        k.shuffle_deck(rng, deck)
        for i in range(6):
            player[i] = deck[i]
            dealer[i] = deck[6 + i]
        for i in range(47):
            pool[i] = deck[6 + i]
        _, high, low = k.set_six(
            table, binom, low_ranks, player, vals, way, joker_low
        )
        wins = 0
        losses = 0
        for _ in range(samples):
            # six of the 47 unseen cards, drawn by a partial shuffle
            for i in range(6):
                j = i + k._below(rng, 47 - i)
                swap = pool[i]
                pool[i] = pool[j]
                pool[j] = swap
                drawn[i] = pool[i]
            _, d_high, d_low = k.set_six(
                table, binom, low_ranks, drawn, vals, way, 0
            )
            if high > d_high and low > d_low:
                wins += 1
            elif high <= d_high and low <= d_low:
                losses += 1
        _, d_high, d_low = k.set_six(
            table, binom, low_ranks, dealer, vals, way, 0
        )
        if high > d_high and low > d_low:
            net = win_net
        elif high <= d_high and low <= d_low:
            net = -stake
        else:
            net = 0
        out[r, DOUBLED] = 1 if win_net * wins > stake * losses else 0
        out[r, BASE_NET] = net
        out[r, WINS] = wins
        out[r, LOSSES] = losses


@dataclass(frozen=True, slots=True, kw_only=True)
class DoubleDownFigures:
    """The Six-Card Wager with and without the Double Down, simulated.

    Nets are per unit of the Six-Card Wager; each figure is a mean over
    independent rounds with its 95 % interval (``±`` half-width; ``None``
    where fewer than two rounds give the figure).
    """

    rounds: int
    samples: int
    seed: int
    double_frequency: float
    """The share of rounds in which the player doubles."""
    edge_without: float
    """The Six-Card Wager's house edge, never doubling."""
    edge_without_ci: float | None
    edge_with: float
    """The house edge per unit of the Six-Card Wager, doubling."""
    edge_with_ci: float | None
    double_down_value: float
    """What doubling gains the player per unit of the Six-Card Wager (the
    two edges' difference, from the same rounds)."""
    double_down_value_ci: float | None
    double_down_edge: float | None
    """The Double Down Wager's own house edge, per unit it stakes
    (``None`` when no round doubles)."""
    double_down_edge_ci: float | None
    average_stake: float
    """Units staked per unit of the Six-Card Wager (1 + the frequency)."""
    element_of_risk: float
    """The player's expected loss per unit staked, doubling."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "method": "simulation",
            "rounds": self.rounds,
            "samples": self.samples,
            "seed": self.seed,
            "decision": "double the whole Six-Card Wager when the hand wins "
            f"more than it loses against {self.samples} dealer's hands "
            "drawn from the 47 unseen cards (a strategy a player could "
            "follow: a lower bound of the best use)",
            "double_frequency": self.double_frequency,
            "house_edge_without_double_down": self.edge_without,
            "house_edge_without_double_down_ci95": self.edge_without_ci,
            "house_edge_with_double_down": self.edge_with,
            "house_edge_with_double_down_ci95": self.edge_with_ci,
            "double_down_value": self.double_down_value,
            "double_down_value_ci95": self.double_down_value_ci,
            "double_down_house_edge": self.double_down_edge,
            "double_down_house_edge_ci95": self.double_down_edge_ci,
            "average_stake": self.average_stake,
            "element_of_risk": self.element_of_risk,
        }


def _mean_ci(values: np.ndarray) -> tuple[float, float | None]:
    """The mean of ``values`` and the half-width of its 95 % interval.

    The half-width is ``None`` from fewer than two values.
    """
    n = values.shape[0]
    mean = float(values.mean())
    if n < 2:
        return mean, None
    return mean, 1.959963984540054 * float(values.std(ddof=1)) / math.sqrt(n)


def double_down_figures(
    rules: GameRules,
    rounds: int,
    *,
    samples: int = DOUBLE_DOWN_SAMPLES,
    seed: int = DOUBLE_DOWN_SEED,
) -> DoubleDownFigures:
    """Simulate ``rounds`` rounds of the Six-Card Wager, doubling or not.

    Raises ``ValueError`` when the rules do not offer the Double Down, or
    for a house way the kernels do not implement.
    """
    six = six_card_rules(rules)
    if not six.double_down_offered:
        msg = "the rules in force do not offer the Double Down Wager"
        raise ValueError(msg)
    params = kernel_params(six)
    out = np.zeros((rounds, COLUMNS), dtype=np.int64)
    rng = np.random.Generator(np.random.PCG64(seed))
    table = five_card_table()
    double_down_rounds(
        rng, rounds, samples, table, _BINOM, k.LOW_RANK, params.iparams, out
    )
    stake = params.pai_gow_stake
    doubled = out[:, DOUBLED].astype(bool)
    base = out[:, BASE_NET] / stake
    extra = np.where(doubled, base, 0.0)
    edge_without, without_ci = _mean_ci(-base)
    edge_with, with_ci = _mean_ci(-(base + extra))
    value, value_ci = _mean_ci(extra)
    frequency = float(doubled.mean())
    dd_edge, dd_ci = (
        _mean_ci(-base[doubled]) if doubled.any() else (None, None)
    )
    return DoubleDownFigures(
        rounds=rounds,
        samples=samples,
        seed=seed,
        double_frequency=frequency,
        edge_without=edge_without,
        edge_without_ci=without_ci,
        edge_with=edge_with,
        edge_with_ci=with_ci,
        double_down_value=value,
        double_down_value_ci=value_ci,
        double_down_edge=dd_edge,
        double_down_edge_ci=dd_ci,
        average_stake=1 + frequency,
        element_of_risk=edge_with / (1 + frequency),
    )


def double_down_warnings(extra: Mapping[str, Any]) -> list[dict[str, object]]:
    """D146's warning where doubling makes the Six-Card Wager the player's.

    ``extra`` is an analysis' figures (its ``double_down`` entry, the
    JSON of :class:`DoubleDownFigures`); none without one.

    >>> figures = {"house_edge_with_double_down": -0.07, "rounds": 20000}
    >>> [warning] = double_down_warnings({"double_down": figures})
    >>> warning["message"]  # doctest: +NORMALIZE_WHITESPACE
    'the Six-Card Wager with the Double Down Wager played well favours
    the player by 7.0000 % of the wager (per unit of the Six-Card Wager;
    a simulation of 20,000 rounds; D22, D177)'
    >>> double_down_warnings({"double_down": {"offered": False}})
    []
    """
    figures = extra.get("double_down")
    if (
        not isinstance(figures, Mapping)
        or "house_edge_with_double_down" not in figures
    ):
        return []  # no figures: the rules offer no Double Down (D182)
    edge = float(figures["house_edge_with_double_down"])
    if edge >= 0:
        return []
    rounds = int(figures["rounds"])
    return [
        {
            "wager": WAGER,
            "house_edge": edge,
            "message": "the Six-Card Wager with the Double Down Wager "
            f"played well {favour_text(edge)} (per unit of the Six-Card "
            f"Wager; a simulation of {rounds:,} rounds; D22, D177)",
        }
    ]
