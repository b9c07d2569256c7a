"""Simulation of Double Back Jack: chunk runner and one-round replay.

:func:`run_chunk` is the registered simulator's chunk runner (the box's
whole net per round, wager ``blackjack``); :func:`play_one_round` plays
one round from a given stack of cards, by the strategy or by a given
sequence of decisions, and returns every wager's net, so that the kernel
can be checked settlement by settlement against the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from croupier.cards import Card
from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.money import Odds, Rounding
from croupier.odds.report import WagerSums

from .analysis import Solution, solve
from .kernels import (
    CODE_VALUES,
    N_OUT,
    N_WORK,
    O_CATEGORY,
    O_DECISIONS,
    O_FLAGS,
    O_INS,
    O_MAIN,
    O_SC,
    play_round,
    simulate_shoes,
)

__all__ = [
    "DECISION_NAMES",
    "UNIT",
    "RoundResult",
    "category_label",
    "integer_parameters",
    "play_one_round",
    "run_chunk",
    "warm_up",
]

UNIT = 1000
"""Initial Blackjack Wager of simulated rounds, in minor units."""

DECISION_NAMES = (
    "stand",
    "hit",
    "double",
    "split",
    "surrender",
    "insurance",
    "no_insurance",
    "second_chance",
    "no_second_chance",
)
"""Engine action name of each decision code."""

_BASE_LABELS = {
    0: "blackjack",
    1: "dealer blackjack",
    2: "surrender",
    3: "split",
    4: "21 paid at once",
    5: "win",
    6: "push",
    7: "lose",
    8: "dealer 22 push",
    9: "bust, Second Chance declined",
    10: "bust, dealer 22 push",
    11: "Second Chance over 21",
    12: "Second Chance 21",
    13: "Second Chance win",
    14: "Second Chance push",
    15: "Second Chance lose",
    16: "Second Chance, dealer 22 push",
}


def category_label(code: int) -> str:
    """The return-table label of a kernel outcome category.

    >>> category_label(5), category_label(32 + 7), category_label(64 + 3)
    ('win', 'double: lose', 'insured: split')
    """
    label = _BASE_LABELS[code % 32]
    if code & 32:
        label = "double: " + label
    if code & 64:
        label = "insured: " + label
    return label


def _pair(value: Odds | Fraction) -> list[int]:
    if isinstance(value, Odds):
        return [value.numerator, value.denominator]
    return [value.numerator, value.denominator]


def integer_parameters(rules: DoubleBackJackRules) -> np.ndarray:
    """The kernel's integer rule vector (see :mod:`.kernels`)."""
    values = [
        *_pair(rules.blackjack_payout),
        *_pair(rules.win_payout),
        *_pair(rules.twenty_one_payout),
        *_pair(rules.second_chance_21_payout),
        *_pair(rules.second_chance_win_payout),
        *_pair(rules.insurance_payout),
        *_pair(rules.insurance_max),
        *_pair(rules.surrender_refund),
        int(rules.insurance),
        int(rules.surrender),
        int(rules.double_after_split),
        rules.max_split_hands,
        int(rules.split_aces_may_draw),
        int(rules.second_chance_on_doubled),
        int(rules.second_chance_on_split),
        int(rules.collect_busts_at_once),
        int(rules.rounding is Rounding.HALF_UP),
    ]
    return np.array(values, dtype=np.int64)


def _strategy(
    solution: Solution,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (
        solution.fd,
        solution.ins,
        solution.hs,
        solution.spd,
        solution.scd,
    )


def run_chunk(
    rules: DoubleBackJackRules,
    rounds: int,
    seed: int,
    spawn_key: tuple[int, ...],
) -> dict[str, WagerSums]:
    """Play ``rounds`` rounds; randomness from ``SeedSequence`` only."""
    rng = np.random.default_rng(
        np.random.SeedSequence(seed, spawn_key=spawn_key)
    )
    fd, ins, hs, spd, scd = _strategy(solve(rules))
    sums = np.zeros(3, dtype=np.int64)
    cat_count = np.zeros(128, dtype=np.int64)
    cat_net = np.zeros(128, dtype=np.int64)
    cut = int(52 * rules.decks * rules.penetration)
    failed = simulate_shoes(
        rng,
        rounds,
        rules.decks,
        cut,
        UNIT,
        integer_parameters(rules),
        fd,
        ins,
        hs,
        spd,
        scd,
        sums,
        cat_count,
        cat_net,
    )
    if failed:
        msg = (
            "the shoe ran out of cards in a round (penetration too deep "
            "for this number of decks)"
        )
        raise RuntimeError(msg)
    outcomes = {
        category_label(int(code)): int(cat_count[code])
        for code in np.nonzero(cat_count)[0]
    }
    outcome_nets = {
        category_label(int(code)): int(cat_net[code])
        for code in np.nonzero(cat_count)[0]
    }
    return {
        "blackjack": WagerSums(
            unit=UNIT,
            count=int(sums[0]),
            total=int(sums[1]),
            total_sq=int(sums[2]),
            outcomes=outcomes,
            outcome_nets=outcome_nets,
        )
    }


def warm_up(rules: DoubleBackJackRules) -> None:
    """Solve the strategy and compile (or load) the kernels."""
    run_chunk(rules, 10, 0, (0,))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round as the kernel played it."""

    nets: dict[tuple[str, int], int]
    """Net per wager, keyed ``(wager, hand)`` (hand 0 or 1), minor units."""
    cards_used: int
    """Cards taken from the stack."""
    decisions: tuple[str, ...]
    """The decisions taken, as engine action names."""
    category: str
    """The return-table category of the round."""


def play_one_round(
    cards: Sequence[Card | int],
    rules: DoubleBackJackRules,
    *,
    amount: int = UNIT,
    decisions: Sequence[str] = (),
) -> RoundResult:
    """Play one round from ``cards`` (top first, no burn) with the kernel.

    ``decisions`` (engine action names) are taken first, in order; the
    analyzer's strategy decides whatever they leave open. Only wagers
    that were placed appear in ``nets``.
    """
    codes = [c.code if isinstance(c, Card) else int(c) for c in cards]
    shoe = CODE_VALUES[np.array(codes, dtype=np.int64)]
    forced = np.array(
        [DECISION_NAMES.index(name) for name in decisions], dtype=np.int8
    )
    dlog = np.zeros(64, dtype=np.int8)
    out = np.zeros(N_OUT, dtype=np.int64)
    fd, ins, hs, spd, scd = _strategy(solve(rules))
    used = play_round(
        shoe,
        0,
        amount,
        integer_parameters(rules),
        fd,
        ins,
        hs,
        spd,
        scd,
        forced,
        dlog,
        out,
        np.zeros(N_WORK, dtype=np.int64),
    )
    if used < 0:
        msg = "the stack ran out of cards"
        raise ValueError(msg)
    flags = int(out[O_FLAGS])
    nets: dict[tuple[str, int], int] = {("blackjack", 0): int(out[O_MAIN])}
    if flags & 1:
        nets[("blackjack", 1)] = int(out[O_MAIN + 1])
    for hand in range(2):
        if flags & (2 << hand):
            nets[("second_chance", hand)] = int(out[O_SC + hand])
    if flags & 8:
        nets[("insurance", 0)] = int(out[O_INS])
    count = int(out[O_DECISIONS])
    return RoundResult(
        nets=nets,
        cards_used=used,
        decisions=tuple(DECISION_NAMES[int(c)] for c in dlog[:count]),
        category=category_label(int(out[O_CATEGORY])),
    )
