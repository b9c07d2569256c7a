"""How every 21 Baccarat wager settles, and the exact analysis.

The Player, Banker and Tie wagers settle on the two counting totals
(:func:`~croupier.games.baccarat21.rules.main_wager_outcome`);
a Bonus Wager on its hand's Bonus mask (the categories the final cards
qualify for, :mod:`croupier.odds.baccarat21.kernels`), paid at the
highest-paying category the paytable lists, as the engine pays it.

>>> from croupier.games.baccarat21 import Baccarat21Rules
>>> report = analyze(Baccarat21Rules())
>>> round(100 * report.wagers["tie"].house_edge, 2)
5.41
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from croupier.games.baccarat21.rules import (
    Baccarat21Rules,
    Wager,
    main_wager_outcome,
)
from croupier.hands.bonus21 import CATEGORY_ORDER, BonusCategory
from croupier.money import Odds, Outcome
from croupier.odds.baccarat.shoe import IntArray
from croupier.odds.baccarat21 import kernels
from croupier.odds.report import ExactEvent, GameReport, WagerReport
from croupier.rules import GameRules

__all__ = [
    "GAME",
    "MAIN_WAGERS",
    "Event",
    "analyze",
    "bonus_category",
    "bonus_event",
    "bonus_weights",
    "main_event",
    "stake_unit",
    "total_weights",
]

GAME = "21-baccarat"
"""The registry name."""
MAIN_WAGERS = (Wager.PLAYER, Wager.BANKER, Wager.TIE)
"""The wagers settled on the counting totals."""
BONUS_WAGERS = (Wager.BONUS_PLAYER, Wager.BONUS_BANKER)
"""The wagers settled on a hand's Bonus mask."""
_LOSS = Fraction(-1)


@dataclass(frozen=True, slots=True)
class Event:
    """A settlement class of a wager: label, printed payout and net."""

    label: str
    """What happened, as the return table reads."""
    pays: str
    """The payout as printed (``19:20``, ``push``, ``loss``)."""
    net: Fraction
    """The player's net per unit of the wager."""


def _rules(rules: GameRules) -> Baccarat21Rules:
    if not isinstance(rules, Baccarat21Rules):
        msg = f"21 Baccarat needs Baccarat21Rules, not {type(rules).__name__}"
        raise TypeError(msg)
    return rules


def main_event(
    rules: Baccarat21Rules, wager: Wager, player: int, banker: int
) -> Event:
    """How a Player, Banker or Tie wager settles on the two totals."""
    if wager is Wager.TIE:
        if player == banker:
            return Event(
                "Tie", str(rules.tie_payout), rules.tie_payout.fraction
            )
        return Event("No tie", "loss", _LOSS)
    side = "Player" if wager is Wager.PLAYER else "Banker"
    own, other = (player, banker) if side == "Player" else (banker, player)
    outcome, _ = main_wager_outcome(own, other)
    if outcome is Outcome.PUSH:
        return Event("Equal totals", "push", Fraction(0))
    if outcome is Outcome.LOSE:
        return Event(f"{side} loses", "loss", _LOSS)
    odds = rules.player_payout if side == "Player" else rules.banker_payout
    return Event(f"{side} wins", str(odds), odds.fraction)


def bonus_category(
    rules: Baccarat21Rules, mask: int
) -> tuple[BonusCategory, Odds] | None:
    """The category a hand with Bonus ``mask`` is paid at, and its odds.

    The highest-paying listed category the hand qualifies for; equal
    odds go to the higher-ranked category (as
    :func:`croupier.hands.bonus21.best_category`).
    """
    best: tuple[BonusCategory, Odds] | None = None
    for bit, category in enumerate(CATEGORY_ORDER):
        odds = rules.bonus_paytable.get(category.value)
        if not mask >> bit & 1 or odds is None:
            continue
        if best is None or odds.fraction > best[1].fraction:
            best = (category, odds)
    return best


def bonus_event(rules: Baccarat21Rules, mask: int) -> Event:
    """How a Bonus Wager settles on its hand's Bonus mask."""
    paid = bonus_category(rules, mask)
    if paid is None:
        return Event("No pair or better", "loss", _LOSS)
    category, odds = paid
    return Event(category.value.replace("_", " "), str(odds), odds.fraction)


def _odds_denominators(rules: Baccarat21Rules) -> list[int]:
    odds = [rules.player_payout, rules.banker_payout, rules.tie_payout]
    odds += [value for _, value in rules.bonus_paytable]
    return [o.fraction.denominator for o in odds]


def stake_unit(rules: GameRules) -> int:
    """The smallest stake on which every payout is whole minor units."""
    return math.lcm(1, *_odds_denominators(_rules(rules)))


def total_weights(decks: int) -> IntArray:
    """Exact weights of (Player total, Banker total) for ``decks``."""
    counts = np.zeros(11, dtype=np.int64)
    counts[1:10] = 4 * decks
    counts[10] = 16 * decks
    return kernels.enumerate_totals(counts)


def bonus_weights(decks: int) -> IntArray:
    """Exact weights of a hand's Bonus masks (a Bonus Wager on)."""
    return kernels.enumerate_bonus(decks, kernels.VALUE)


def _rows(groups: dict[Event, int], denominator: int) -> list[ExactEvent]:
    ordered = sorted(groups, key=lambda e: (-e.net, e.label))
    return [
        ExactEvent(
            e.label,
            e.net,
            Fraction(groups[e], denominator),
            pays=e.pays,
            combinations=groups[e],
        )
        for e in ordered
    ]


def main_rows(
    rules: Baccarat21Rules, wager: Wager, weights: IntArray
) -> list[ExactEvent]:
    """The exact return table of a Player, Banker or Tie wager."""
    groups: dict[Event, int] = {}
    for player, banker in zip(*np.nonzero(weights), strict=True):
        event = main_event(rules, wager, int(player), int(banker))
        groups[event] = groups.get(event, 0) + int(weights[player, banker])
    return _rows(groups, int(weights.sum()))


def bonus_rows(rules: Baccarat21Rules, weights: IntArray) -> list[ExactEvent]:
    """The exact return table of a Bonus Wager.

    Best paid first; categories of equal odds in rank order.
    """
    groups: dict[Event, int] = {}
    for mask in np.nonzero(weights)[0]:
        event = bonus_event(rules, int(mask))
        groups[event] = groups.get(event, 0) + int(weights[mask])
    rank = {c.value.replace("_", " "): i for i, c in enumerate(CATEGORY_ORDER)}
    rows = _rows(groups, int(weights.sum()))
    return sorted(rows, key=lambda r: (-r.net, rank.get(r.event, len(rank))))


def analyze(rules: GameRules) -> GameReport:
    """Exact house edge and return table of every 21 Baccarat wager.

    Finite shoe, without replacement. The Bonus figures assume a Bonus
    Wager on the layout (so the Bonus-only card of (f)(2) is dealt);
    the Player, Banker and Tie figures do not depend on it.
    """
    options = _rules(rules)
    started = time.perf_counter()
    total_weights(1)  # compile or load the cached kernels
    bonus_weights(1)
    compiled = time.perf_counter()
    totals = total_weights(options.decks)
    masks = bonus_weights(options.decks)
    wagers = {
        str(w): WagerReport.exact(main_rows(options, w, totals))
        for w in MAIN_WAGERS
    }
    bonus = WagerReport.exact(bonus_rows(options, masks))
    for wager in BONUS_WAGERS:
        wagers[str(wager)] = bonus
    finished = time.perf_counter()
    return GameReport(
        game=GAME,
        rules=options.to_dict(),
        method="exact",
        seconds=finished - compiled,
        wagers=wagers,
        compile_seconds=compiled - started,
        extra={
            "combinations_total": int(totals.sum()),
            "bonus_combinations_total": int(masks.sum()),
        },
    )
