"""Exact analysis of Double Back Jack: strategy, house edge, return table.

:func:`solve` runs the numba solver of :mod:`.strategy` over every
initial situation and keeps the strategy tables the simulator plays;
:func:`analyze` turns them into the ``croupier analyze`` report. The
single reported wager, ``blackjack``, is the box's whole result per unit
of the initial Blackjack Wager: the Blackjack Wager with its doubles and
splits, the Second Chance Wagers and the insurance the strategy places
(each wager's share is in ``extra``).

The house edge of the report is the exact CDZ- figure of :mod:`.ca`;
the tables of :func:`solve` (decisions after the first total
dependent, on the shoe less the three initial cards: an approximation)
remain the strategy the simulator and the chart play, reported as
``approximate``.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.money import Odds
from croupier.odds.report import (
    ExactEvent,
    GameReport,
    WagerReport,
    average_pays_text,
    pays_text,
)

from .ca import CAResult, solve_ca
from .carules import CARules, HoleCard, Surrender
from .dealer import DEALER_LABELS, N_DEALER, dealer_table, full_composition
from .kernels import float_parameters
from .strategy import HS_SIZE, N_STATES, solve_all

__all__ = [
    "Solution",
    "analyze",
    "hand_components",
    "max_net_per_unit",
    "rule_parameters",
    "solve",
]

GAME = "double-back-jack"
"""Registry name of the game."""


def _frac(odds: Odds) -> Fraction:
    return Fraction(odds.numerator, odds.denominator)


def rule_parameters(rules: DoubleBackJackRules) -> np.ndarray:
    """The float parameter vector of the solver (see :mod:`.strategy`).

    The rule vector of :func:`.kernels.rule_vector` as floats, the one
    encoding the simulator's kernels read as exact fractions.
    """
    return float_parameters(rules)


@dataclass(frozen=True, slots=True)
class Solution:
    """The solved strategy and its exact expectation.

    Arrays are indexed by value indices (1 = ace ... 10 = 10-value
    card); see :func:`.strategy.solve_all` for their layout.
    """

    rules: DoubleBackJackRules
    """The options solved for."""
    fd: np.ndarray
    """First decision ``[a, b, up]``."""
    evs: np.ndarray
    """Option EVs ``[a, b, up, action]`` given no dealer Blackjack."""
    ins: np.ndarray
    """Insurance taken ``[a, b]`` (ace up)."""
    hs: np.ndarray
    """Hit (1) or stand ``[a, b, up, split, hard, ace]``."""
    spd: np.ndarray
    """Split-hand first decision ``[pair value, up, drawn value]``."""
    scd: np.ndarray
    """Take the Second Chance ``[a, b, up, busted total]``."""
    sit: np.ndarray
    """``[a, b, up]`` -> (probability, EV per unit, P(dealer BJ))."""
    acc_a: np.ndarray
    """Unsplit round mass ``[insured, state, dealer]``."""
    acc_b: np.ndarray
    """Split round mass ``[insured, state 1, state 2, dealer]``."""
    rows: np.ndarray
    """Player BJ, dealer BJ, dealer BJ insured, surrender (x2)."""
    ev: float
    """Expected net per unit of the initial wager."""
    seconds: float
    """Time of the solve (after compilation)."""
    compile_seconds: float
    """Time to compile or load the cached kernels."""


def _run(rules: DoubleBackJackRules, decks: int) -> dict[str, np.ndarray]:
    arrays: dict[str, np.ndarray] = {
        "fd": np.zeros((11, 11, 11), dtype=np.int8),
        "evs": np.zeros((11, 11, 11, 5)),
        "ins": np.zeros((11, 11), dtype=np.int8),
        "hs": np.zeros((11, 11, 11, 2, HS_SIZE, 2), dtype=np.int8),
        "spd": np.zeros((11, 11, 11), dtype=np.int8),
        "scd": np.zeros((11, 11, 11, HS_SIZE), dtype=np.int8),
        "sit": np.zeros((11, 11, 11, 3)),
        "acc_a": np.zeros((2, N_STATES, N_DEALER)),
        "acc_b": np.zeros((2, N_STATES, N_STATES, N_DEALER)),
        "rows": np.zeros(5),
    }
    solve_all(
        full_composition(decks),
        rule_parameters(rules),
        arrays["fd"],
        arrays["evs"],
        arrays["ins"],
        arrays["hs"],
        arrays["spd"],
        arrays["scd"],
        arrays["sit"],
        arrays["acc_a"],
        arrays["acc_b"],
        arrays["rows"],
    )
    return arrays


_COMPILED: list[float] = []


@lru_cache(maxsize=16)
def solve(rules: DoubleBackJackRules) -> Solution:
    """Solve the strategy for ``rules`` (memoised per rules object)."""
    compile_seconds = 0.0
    if not _COMPILED:
        started = time.perf_counter()
        _run(rules, 1)
        compile_seconds = time.perf_counter() - started
        _COMPILED.append(compile_seconds)
    started = time.perf_counter()
    arrays = _run(rules, rules.decks)
    seconds = time.perf_counter() - started
    sit = arrays["sit"]
    ev = 0.0
    for a in range(1, 11):
        for b in range(a, 11):
            for up in range(1, 11):
                ev += float(sit[a, b, up, 0] * sit[a, b, up, 1])
    return Solution(
        rules=rules,
        ev=ev,
        seconds=seconds,
        compile_seconds=compile_seconds,
        **arrays,
    )


def _stand_total(slot: int) -> int:
    return 15 + slot  # slot 1 -> 16 (or less) ... slot 5 -> 20


def hand_components(
    rules: DoubleBackJackRules, state: int, dealer: int
) -> tuple[str, Fraction, Fraction]:
    """(label, Blackjack Wager net, Second Chance net) of a hand.

    ``state`` is one of the :data:`.strategy.N_STATES` final states,
    ``dealer`` an index of :data:`.dealer.DEALER_LABELS`; nets are per
    unit of the initial wager.

    >>> r = DoubleBackJackRules()
    >>> hand_components(r, 3, 0)  # stood on 18 against 17
    ('win', Fraction(1, 1), Fraction(0, 1))
    >>> hand_components(r, 14 + 8, 6)  # doubled, Second Chance 21
    ('double: Second Chance 21', Fraction(0, 1), Fraction(2, 1))
    """
    w = 2 if state >= 14 else 1
    kind = state % 14
    prefix = "double: " if w == 2 else ""
    zero = Fraction(0)
    push22 = dealer == 5
    over = dealer == 6
    dealer_total = 17 + dealer
    if kind == 0:
        return (
            prefix + "21 paid at once",
            w * _frac(rules.twenty_one_payout),
            zero,
        )
    if kind <= 5:
        total = _stand_total(kind)
        if push22:
            return prefix + "dealer 22 push", zero, zero
        if over or total > dealer_total:
            return prefix + "win", w * _frac(rules.win_payout), zero
        if total == dealer_total:
            return prefix + "push", zero, zero
        return prefix + "lose", Fraction(-w), zero
    if kind == 6:
        if push22 and not rules.collect_busts_at_once:
            return prefix + "bust, dealer 22 push", zero, zero
        return prefix + "bust, Second Chance declined", Fraction(-w), zero
    if kind == 7:
        return prefix + "Second Chance over 21", Fraction(-w), Fraction(-w)
    if kind == 8:
        sc21 = w * _frac(rules.second_chance_21_payout)
        return prefix + "Second Chance 21", zero, sc21
    total = _stand_total(kind - 8)
    if push22:
        return prefix + "Second Chance, dealer 22 push", zero, zero
    if over or total > dealer_total:
        scwin = w * _frac(rules.second_chance_win_payout)
        return prefix + "Second Chance win", zero, scwin
    if total == dealer_total:
        return prefix + "Second Chance push", zero, zero
    return prefix + "Second Chance lose", Fraction(-w), Fraction(-w)


def _return_rows(
    solution: Solution,
) -> tuple[list[ExactEvent], dict[str, float]]:
    """The return table rows and each wager's share of the return.

    The shares are the player's expected net per unit of the initial
    wager from the Blackjack Wagers (doubles and splits included), the
    Second Chance Wagers and insurance; they sum to minus the edge.
    """
    rules = solution.rules
    ins_loss = -rules.insurance_max
    parts: dict[tuple[str, Fraction], float] = defaultdict(float)
    shares = {"blackjack": 0.0, "second_chance": 0.0, "insurance": 0.0}
    second_chances = 0.0

    def add(
        label: str,
        main: Fraction,
        sc: Fraction,
        insurance: Fraction,
        mass: float,
    ) -> None:
        parts[(label, main + sc + insurance)] += mass
        shares["blackjack"] += float(main) * mass
        shares["second_chance"] += float(sc) * mass
        shares["insurance"] += float(insurance) * mass

    comp = [
        [hand_components(rules, s, d) for d in range(N_DEALER)]
        for s in range(N_STATES)
    ]
    sc_states = {s for s in range(N_STATES) if s % 14 >= 7}
    bj = _frac(rules.blackjack_payout)
    add("blackjack", bj, Fraction(0), Fraction(0), float(solution.rows[0]))
    ins_win = rules.insurance_max * _frac(rules.insurance_payout)
    add(
        "dealer blackjack",
        Fraction(-1),
        Fraction(0),
        Fraction(0),
        float(solution.rows[1]),
    )
    add(
        "insured: dealer blackjack",
        Fraction(-1),
        Fraction(0),
        ins_win,
        float(solution.rows[2]),
    )
    refund = rules.surrender_refund - 1
    add("surrender", refund, Fraction(0), Fraction(0), float(solution.rows[3]))
    add(
        "insured: surrender",
        refund,
        Fraction(0),
        ins_loss,
        float(solution.rows[4]),
    )
    for insured in range(2):
        prefix = "insured: " if insured else ""
        ins = ins_loss if insured else Fraction(0)
        acc_a = solution.acc_a[insured]
        for s, d in zip(*np.nonzero(acc_a), strict=True):
            label, main, sc = comp[s][d]
            mass = float(acc_a[s, d])
            add(prefix + label, main, sc, ins, mass)
            if s in sc_states:
                second_chances += mass
        acc_b = solution.acc_b[insured]
        for s1, s2, d in zip(*np.nonzero(acc_b), strict=True):
            _, main1, sc1 = comp[s1][d]
            _, main2, sc2 = comp[s2][d]
            mass = float(acc_b[s1, s2, d])
            add(prefix + "split", main1 + main2, sc1 + sc2, ins, mass)
            second_chances += mass * ((s1 in sc_states) + (s2 in sc_states))
    rows = [
        ExactEvent(label, net, Fraction(mass), pays=pays_text(net))
        for (label, net), mass in parts.items()
        if mass > 0
    ]
    rows.sort(key=lambda r: (r.event.startswith("insured"), -r.net, r.event))
    residual = 1 - sum((r.probability for r in rows), Fraction(0))
    largest = max(range(len(rows)), key=lambda i: rows[i].probability)
    big = rows[largest]
    rows[largest] = ExactEvent(
        big.event, big.net, big.probability + residual, pays=big.pays
    )
    shares["second_chance_wagers_per_round"] = second_chances
    shares["float_residual"] = float(residual)
    return rows, shares


def exact_rows(result: CAResult) -> list[dict[str, Any]]:
    """The exact CDZ- return table by kind of round.

    Rows: player Blackjack, dealer Blackjack (the original wager lost to
    the card reader), surrender, the rounds played out (doubles, splits
    and Second Chance Wagers included) and the insurance wager; their
    returns sum to minus the house edge.
    """
    rules = result.rules
    peek = rules.hole_card is not HoleCard.ENHC_ALL
    refund = float(rules.surrender_refund) - 1.0
    rows = {
        k: [0.0, 0.0]
        for k in (
            "blackjack",
            "dealer blackjack",
            "surrender",
            "played out",
            "insurance",
        )
    }
    for key, sit in result.situations.items():
        prob = result.probability[key]
        base = sit.value - sit.insurance_value
        if sit.insure:
            rows["insurance"][0] += prob
            rows["insurance"][1] += prob * sit.insurance_value
        if sit.best == "blackjack":
            rows["blackjack"][0] += prob
            rows["blackjack"][1] += prob * base
            continue
        early = rules.surrender is Surrender.EARLY and sit.best == "surrender"
        if early:
            rows["surrender"][0] += prob
            rows["surrender"][1] += prob * refund
            continue
        bj = sit.p_dealer_bj if peek else 0.0
        rows["dealer blackjack"][0] += prob * bj
        rows["dealer blackjack"][1] -= prob * bj
        name = "surrender" if sit.best == "surrender" else "played out"
        rows[name][0] += prob * (1.0 - bj)
        rows[name][1] += prob * (base + bj)
    fixed = {
        "blackjack": pays_text(_frac(rules.blackjack_payout)),
        "dealer blackjack": pays_text(Fraction(-1)),
        "surrender": pays_text(rules.surrender_refund - 1),
    }
    return [
        {
            "event": k,
            "pays": fixed.get(k)
            or average_pays_text(Fraction(r / p).limit_denominator(10**6)),
            "probability": p,
            "return": r,
        }
        for k, (p, r) in rows.items()
        if p > 0
    ]


def max_net_per_unit(rules: DoubleBackJackRules) -> Fraction:
    """The most one Blackjack Wager can win, per unit of the initial wager.

    A hand wins at most its stake (doubled: twice the wager, 673a.10)
    times the best odds it can be paid: a win or a 21 paid at once
    (591.7(m), (s)(1)(ii)) or, with a Second Chance Wager as large as
    the hand's (591.7(l)), the Second Chance's odds while the hand
    pushes; a two-card Blackjack its own odds. A split box (673a.11)
    wins that on each of its hands at once (the dealer busts).

    >>> max_net_per_unit(DoubleBackJackRules())  # two doubled hands
    Fraction(4, 1)
    """
    plain = [rules.win_payout.fraction, rules.twenty_one_payout.fraction]
    chance = [
        rules.second_chance_21_payout.fraction,
        rules.second_chance_win_payout.fraction,
    ]
    best = max(plain + chance)
    doubled = 2 * max(
        plain + (chance if rules.second_chance_on_doubled else [])
    )
    candidates = [rules.blackjack_payout.fraction, best, doubled]
    if rules.max_split_hands > 1:
        split_odds = plain + (chance if rules.second_chance_on_split else [])
        per_hand = max(split_odds)
        if rules.double_after_split:
            doubled_chance = (
                chance
                if rules.second_chance_on_split
                and rules.second_chance_on_doubled
                else []
            )
            per_hand = max(per_hand, 2 * max(plain + doubled_chance))
        candidates.append(rules.max_split_hands * per_hand)
    return max(candidates)


def analyze(rules: DoubleBackJackRules) -> GameReport:
    """The ``croupier analyze double-back-jack`` report.

    The house edge is the exact CDZ- figure of :mod:`.ca` (``method``
    ``exact``). The standard deviation is CDZ-'s: exact where no pair
    is split, otherwise ``approximate`` with bounds that hold the exact
    value (:meth:`.ca.CAResult.std_dev`). The simulator's strategy
    tables (the total-dependent approximation of :mod:`.strategy`) are
    reported beside it with their own approximate edge.
    """
    ca_rules = CARules.from_game(rules)
    result = solve_ca(ca_rules)
    approx = solve(rules)
    approx_rows, shares = _return_rows(approx)
    approx_wager = WagerReport.exact(approx_rows)
    table = dealer_table(rules.decks)
    rows = exact_rows(result)
    hit = sum(r["probability"] for r in rows if r["event"] == "blackjack")
    sigma, sigma_low, sigma_high = (float(x) for x in result.std_dev())
    exact_sigma = sigma_low == sigma_high
    wager = WagerReport(
        house_edge=result.edge,
        std_dev=sigma,
        events=rows,
        extra={
            "strategy": result.strategy,
            "method": "exact",
            "std_dev_method": (
                "exact"
                if exact_sigma
                else "approximate: CDZ- second moment exact but for the "
                "cross term of a split's two hands, taken as independent "
                "given no dealer Blackjack; the exact sigma lies within "
                "std_dev_bounds (that term bounded by Cauchy-Schwarz)"
            ),
            "std_dev_bounds": [sigma_low, sigma_high],
            "blackjack_frequency": hit,
            # the return table groups played-out hands: their best net
            # is the rules' (D135)
            "max_payout_units": float(max_net_per_unit(rules)),
        },
    )
    extra: dict[str, Any] = {
        "strategy": result.strategy,
        "dealer_outcomes": table.to_dict(),
        "dealer_labels": list(DEALER_LABELS),
        "simulator_strategy": {
            "method": "approximate",
            "description": (
                "first decision composition dependent; later decisions "
                "total dependent on the shoe less the three initial "
                "cards (what croupier simulate plays)"
            ),
            "house_edge": approx_wager.house_edge,
            "error_vs_exact": approx_wager.house_edge - result.edge,
            "return_by_wager": shares,
        },
    }
    return GameReport(
        game=GAME,
        rules=rules.to_dict(),
        method="exact",
        seconds=result.seconds,
        wagers={"blackjack": wager},
        compile_seconds=approx.compile_seconds,
        extra=extra,
    )
