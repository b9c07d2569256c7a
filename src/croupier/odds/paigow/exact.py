"""Exact figures of Six-Card Fortune Pai Gow Poker (``croupier analyze``).

- The Fortune Bonus: every one of the C(53,6) = 22,957,480 six-card
  hands of the 53-card deck is valued (best five of six, the joker rule
  of the engine) and counted by category; the paytable gives the return
  table, the house edge and sigma.
- The Envy Bonus, for the default layout (six seats and the dealer):
  any other position's six cards are, on their own, a uniformly random
  six-card hand, so the chance that a given other position holds a
  paying hand, and (by linearity) the expected Envy paid per Qualifying
  Fortune Bonus Wager, follow exactly from the same counts. The chance
  that at least one of the others does is bracketed exactly by
  Bonferroni's inequalities, using the exact number of pairs of
  disjoint paying hands and a bound on the third term.
- The Progressive Wager: fixed-odds entries exactly, meter entries at
  the rules' ``progressive_meter``.

The Six-Card Wager with the house way on both sides is not enumerated
(the dealer's 47-choose-6 replies to every hand are out of reach in
seconds): the report carries it beside the exact wagers, in
``extra["pai_gow"]``, from a seeded simulation of
:data:`MAIN_WAGER_ROUNDS` rounds, labelled as such (``"method":
"simulation"``; ``croupier simulate`` runs longer ones).
"""

from __future__ import annotations

import time
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from croupier.hands.paigow import CATEGORY_KEYS
from croupier.hands.paigow_fast import five_card_table
from croupier.money import dollars
from croupier.odds.report import ExactEvent, GameReport, WagerReport
from croupier.rules import GameRules, Paytable

from . import kernels as k
from .double_down import (
    ANALYZE_ROUNDS,
    NOT_OFFERED,
    double_down_figures,
    double_down_warnings,
)
from .largest import largest_payouts
from .simulation import run_chunk, six_card_rules

__all__ = [
    "HANDS",
    "MAIN_WAGER_ROUNDS",
    "analyze",
    "category_counts",
    "envy_figures",
    "fortune_report",
    "progressive_report",
]

HANDS = comb(53, 6)
"""Six-card hands of the 53-card deck: 22,957,480."""
OTHER_SEATS = 5
"""Other betting positions at the default table (six seats)."""
MAIN_WAGER_ROUNDS = 200_000
"""Rounds of the simulation that reports the Six-Card Wager."""
MAIN_WAGER_SEED = 1
"""Its seed (one chunk, spawn key (0,))."""

_BINOM = k.binomials()


def _label(category: str) -> str:
    return category.replace("_", " ")


def category_counts() -> list[int]:
    """How many six-card hands fall in each category (index = category).

    >>> sum(category_counts()) == HANDS
    True
    """
    return [int(c) for c in k.count_categories(five_card_table(), _BINOM, 53)]


def _table_rows(
    counts: list[int], paying: dict[str, ExactEvent]
) -> list[ExactEvent]:
    """The paying rows best first, then one losing row for the rest."""
    rows = [paying[key] for key in reversed(CATEGORY_KEYS) if key in paying]
    losing = sum(
        count
        for key, count in zip(CATEGORY_KEYS, counts, strict=True)
        if key not in paying
    )
    if losing:
        rows.append(
            ExactEvent(
                "loss",
                Fraction(-1),
                Fraction(losing, HANDS),
                pays="loss",
                combinations=losing,
            )
        )
    return rows


def fortune_report(counts: list[int], table: Paytable) -> WagerReport:
    """The Fortune Bonus return table from the category counts."""
    paying = {
        key: ExactEvent(
            _label(key),
            odds.fraction,
            Fraction(counts[CATEGORY_KEYS.index(key)], HANDS),
            pays=str(odds),
            combinations=counts[CATEGORY_KEYS.index(key)],
        )
        for key, odds in table
    }
    return WagerReport.exact(_table_rows(counts, paying), hands=HANDS)


def progressive_report(
    counts: list[int],
    odds_table: Paytable,
    meter_table: Paytable,
    *,
    stake: int,
    meter: int,
) -> WagerReport:
    """The Progressive Wager's table, meter entries at ``meter``.

    A meter entry ``n:d`` pays ``n/d`` of the meter (rounded down to a
    minor unit, as the engine pays it) on a stake of ``stake``; it takes
    precedence over a fixed-odds entry of the same category.
    """
    paying: dict[str, ExactEvent] = {}
    for key, odds in odds_table:
        paying[key] = ExactEvent(
            _label(key),
            odds.fraction,
            Fraction(counts[CATEGORY_KEYS.index(key)], HANDS),
            pays=str(odds),
            combinations=counts[CATEGORY_KEYS.index(key)],
        )
    for key, share in meter_table:
        paid = int(meter * share.fraction)
        what = "meter" if share.fraction == 1 else f"{share} of meter"
        paying[key] = ExactEvent(
            _label(key),
            Fraction(paid, stake),
            Fraction(counts[CATEGORY_KEYS.index(key)], HANDS),
            pays=f"{what} ({dollars(paid)})",
            combinations=counts[CATEGORY_KEYS.index(key)],
        )
    return WagerReport.exact(
        _table_rows(counts, paying), meter=meter, stake=stake
    )


def envy_figures(
    counts: list[int],
    rules: GameRules,
    fortune: WagerReport,
    *,
    pairs: int | None,
) -> dict[str, Any]:
    """Envy Bonus figures for the default six seats and the dealer.

    ``pairs`` is the number of ordered pairs of disjoint six-card hands
    that both earn an Envy Bonus (``None``: not counted).
    """
    six = six_card_rules(rules)
    others = OTHER_SEATS + int(six.envy_counts_dealer)
    minimum = six.envy_qualifying_minimum
    awards = {key: odds.winnings(minimum) for key, odds in six.envy_paytable}
    qualifying = sum(
        counts[CATEGORY_KEYS.index(key)] for key, a in awards.items() if a
    )
    p_each = Fraction(qualifying, HANDS)
    award_each = sum(
        (
            Fraction(counts[CATEGORY_KEYS.index(key)] * a, HANDS)
            for key, a in awards.items()
        ),
        Fraction(0),
    )
    envy_per_unit = others * award_each / minimum
    fortune_minor = sum(
        (
            Fraction(
                counts[CATEGORY_KEYS.index(key)] * odds.winnings(minimum),
                HANDS,
            )
            for key, odds in six.fortune_bonus_paytable
        ),
        Fraction(0),
    ) - minimum * Fraction(
        sum(
            count
            for key, count in zip(CATEGORY_KEYS, counts, strict=True)
            if key not in dict(iter(six.fortune_bonus_paytable))
        ),
        HANDS,
    )
    combined = -(fortune_minor / minimum + envy_per_unit)
    out: dict[str, Any] = {
        "other_positions": others,
        "qualifying_minimum": minimum,
        "paying_hands": qualifying,
        "p_given_other_position_pays": float(p_each),
        "p_given_other_position_pays_exact": str(p_each),
        "expected_paying_others": float(others * p_each),
        "expected_envy_per_qualifying_wager": float(envy_per_unit),
        "expected_envy_per_qualifying_wager_exact": str(envy_per_unit),
        # the Envy part alone, as the simulation reports it (no stake of
        # its own: minus the Envy paid per unit of the qualifying wager)
        "envy_bonus_house_edge": float(-envy_per_unit),
        "envy_bonus_house_edge_exact": str(-envy_per_unit),
        "fortune_bonus_with_envy_house_edge": float(combined),
        "fortune_bonus_with_envy_house_edge_exact": str(combined),
        "fortune_bonus_house_edge": fortune.house_edge,
    }
    if pairs is not None and qualifying:
        p_two = Fraction(pairs, HANDS * comb(47, 6))
        s1 = others * p_each
        s2 = comb(others, 2) * p_two
        # a third hand from the 41 cards left pays with probability at
        # most (all paying hands) / C(41, 6)
        s3_max = comb(others, 3) * p_two * Fraction(qualifying, comb(41, 6))
        out["disjoint_paying_pairs"] = pairs
        out["p_two_given_others_pay"] = float(p_two)
        out["p_at_least_one_other_pays"] = [
            float(s1 - s2),
            float(s1 - s2 + s3_max),
        ]
        out["p_at_least_one_other_pays_method"] = (
            "exact Bonferroni bounds [S1 - S2, S1 - S2 + max S3] from the "
            "exact single and pair counts"
        )
    return out


def largest_figures(rules: GameRules) -> dict[str, Any]:
    """The largest payouts of the Fortune Bonus with Envy and of Envy.

    Per unit of the simulation's Qualifying Wager
    (:func:`~croupier.odds.paigow.largest.largest_payouts`): the report
    takes them where the return table, which groups outcomes, cannot
    give them.
    """
    top = largest_payouts(rules)
    return {
        "fortune_bonus_with_envy_max_payout_units": float(
            top.fortune_with_envy
        ),
        "fortune_bonus_with_envy_max_payout_units_exact": str(
            top.fortune_with_envy
        ),
        "envy_bonus_max_payout_units": float(top.envy),
        "envy_bonus_max_payout_units_exact": str(top.envy),
        "max_payout_method": "the best packing of paying hands into one "
        "deck: the player's hand and every other player's, disjoint",
    }


def _warm_up() -> None:
    small = np.zeros(comb(6, 5), dtype=np.int32)
    k.count_categories(small, _BINOM, 6)
    k.count_disjoint_pairs(
        small,
        _BINOM,
        np.ones(k.CATEGORIES, dtype=np.int64),
        1,
        6,
    )


def analyze(rules: GameRules) -> GameReport:
    """Exact report: Fortune Bonus, Envy figures and the Progressive.

    The Six-Card Wager (``extra["pai_gow"]``) comes from a seeded
    simulation and says so.
    """
    six = six_card_rules(rules)
    started = time.perf_counter()
    _warm_up()
    compiled = time.perf_counter()
    table = five_card_table()
    tabled = time.perf_counter()
    counts = category_counts()
    counted = time.perf_counter()
    wagers: dict[str, WagerReport] = {}
    fortune = fortune_report(counts, six.fortune_bonus_paytable)
    extra: dict[str, Any] = {
        "category_counts": dict(zip(CATEGORY_KEYS, counts, strict=True)),
        "hands": HANDS,
    }
    if six.fortune_bonus_offered:
        wagers["fortune_bonus"] = fortune
        if six.envy_bonus_offered:
            qualifies = np.zeros(k.CATEGORIES, dtype=np.int64)
            for key, odds in six.envy_paytable:
                if odds.winnings(six.envy_qualifying_minimum):
                    qualifies[CATEGORY_KEYS.index(key)] = 1
            total = sum(c for c, q in zip(counts, qualifies, strict=True) if q)
            pairs = (
                k.count_disjoint_pairs(table, _BINOM, qualifies, total, 53)
                if total
                else 0
            )
            extra["envy"] = envy_figures(counts, six, fortune, pairs=pairs)
            extra["envy"].update(largest_figures(six))
    if six.progressive_offered:
        wagers["progressive"] = progressive_report(
            counts,
            six.progressive_odds_paytable,
            six.progressive_meter_paytable,
            stake=six.progressive_wager_amount,
            meter=six.progressive_meter,
        )
    main = run_chunk(six, MAIN_WAGER_ROUNDS, MAIN_WAGER_SEED, (0,))
    if six.double_down_offered:
        extra["double_down"] = {
            "offered": True,
            **double_down_figures(six, ANALYZE_ROUNDS).to_dict(),
        }
        # the warnings of play the wagers' edges cannot show (D146)
        extra["favourable_play"] = double_down_warnings(extra)
    else:
        # said plainly, not left out (D182: off unless the Rules
        # Submission offers it, 670a.7(e))
        extra["double_down"] = {"offered": False, "note": NOT_OFFERED}
    finished = time.perf_counter()
    extra["pai_gow"] = {
        "method": "simulation",
        "rounds": MAIN_WAGER_ROUNDS,
        "seed": MAIN_WAGER_SEED,
        "why": "the house way on both sides is not enumerated here (the "
        "dealer's C(47, 6) replies to every hand); croupier simulate "
        "runs longer",
        **WagerReport.simulated(main["pai_gow"]).to_dict(),
    }
    extra["table_seconds"] = tabled - compiled
    extra["enumeration_seconds"] = counted - tabled
    return GameReport(
        game="six-card-fortune-pai-gow",
        rules=six.to_dict(),
        method="exact",
        seconds=finished - compiled,
        wagers=wagers,
        compile_seconds=compiled - started,
        extra=extra,
    )
