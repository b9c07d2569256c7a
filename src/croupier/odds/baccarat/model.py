"""How every Midibaccarat wager settles on a cell, and the exact analysis.

The settlement of each wager is written once here, as a function of the
coup's cell (see :mod:`croupier.odds.baccarat.kernels`) or of a hand's
pair kind, and the exact analysis and the simulator both read it: the
analysis groups exact weights by event, the simulator turns the same
events into integer nets per stake of :func:`stake_unit`.

>>> from croupier.games.midibaccarat.rules import MidibaccaratRules
>>> report = analyze(MidibaccaratRules())
>>> round(100 * report.wagers["banker"].house_edge, 4)
1.0579
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from croupier.games.midibaccarat.rules import (
    BaccaratRules,
    CommissionFreeRule,
    CommissionFreeRules,
    MidibaccaratRules,
    Wager,
)
from croupier.money import Odds
from croupier.odds.baccarat import kernels
from croupier.odds.report import ExactEvent, GameReport, WagerReport
from croupier.rules import GameRules

__all__ = [
    "PAIR_KINDS",
    "Event",
    "analyze",
    "cell_event",
    "cell_weights",
    "game_name",
    "pair_event",
    "pair_weights",
    "stake_unit",
    "wagers_of",
]

PAIR_KINDS = ("none", "perfect", "colored", "mixed")
"""Pair kind codes 0-3 of the kernels, as Perfect Pairs categories."""
_PAIR_EVENTS = ("No pair", "Perfect pair", "Colored pair", "Mixed pair")
_LOSS = Fraction(-1)
_PUSH = Fraction(0)
_PERFECT_PAIRS = (Wager.PERFECT_PAIRS_PLAYER, Wager.PERFECT_PAIRS_BANKER)


@dataclass(frozen=True, slots=True)
class Event:
    """A settlement class of a wager: label, printed payout and net."""

    label: str
    """What happened, as the return table reads."""
    pays: str
    """The payout as printed (``19:20``, ``push``, ``loss``)."""
    net: Fraction
    """The player's net per unit of the wager."""


def _win(label: str, odds: Odds) -> Event:
    return Event(label, str(odds), odds.fraction)


def game_name(rules: GameRules) -> str:
    """The registry name of the game these rules belong to."""
    if isinstance(rules, CommissionFreeRules):
        return "midibaccarat-commission-free"
    return "midibaccarat"


def wagers_of(rules: BaccaratRules) -> tuple[Wager, ...]:
    """The wagers these rules offer, in the engine's order."""
    names = [Wager.PLAYER, Wager.BANKER, Wager.TIE]
    if rules.perfect_pairs_offered:
        names += list(_PERFECT_PAIRS)
    if isinstance(rules, CommissionFreeRules):
        if rules.dragon7_offered:
            names.append(Wager.DRAGON7)
        if rules.panda8_offered:
            names.append(Wager.PANDA8)
    return tuple(names)


def _banker_win(rules: BaccaratRules, bc: int, dragon7: bool) -> Event:
    if isinstance(rules, CommissionFreeRules):
        rule = rules.commission_free_rule
        if rule is CommissionFreeRule.DRAGON7_PUSH and dragon7:
            return Event("Banker wins with a three-card 7", "push", _PUSH)
        if rule is CommissionFreeRule.BANKER6_PAYS_HALF and bc == 6:
            return _win("Banker wins with 6", rules.banker_six_payout)
        return _win("Banker wins", rules.banker_payout)
    if isinstance(rules, MidibaccaratRules):
        return _win("Banker wins", rules.banker_payout)
    msg = f"no banker payout in {type(rules).__name__}"
    raise TypeError(msg)


def cell_event(
    rules: BaccaratRules, wager: Wager, cell: tuple[int, int, int, int]
) -> Event:
    """How ``wager`` settles on the coup ``(pc, bc, p drew, b drew)``."""
    pc, bc, drew_p, drew_b = cell
    dragon7 = drew_b == 1 and bc == 7 and pc < 7
    panda8 = drew_p == 1 and pc == 8 and bc < 8
    if wager is Wager.TIE:
        if pc == bc:
            return _win("Tie", rules.tie_payout)
        return Event("No tie", "loss", _LOSS)
    if wager in (Wager.PLAYER, Wager.BANKER):
        if pc == bc:
            return Event("Tie", "push", _PUSH)
        player_won = pc > bc
        if (wager is Wager.PLAYER) != player_won:
            other = "Banker" if player_won is False else "Player"
            return Event(f"{other} wins", "loss", _LOSS)
        if player_won:
            return _win("Player wins", rules.player_payout)
        return _banker_win(rules, bc, dragon7)
    if not isinstance(rules, CommissionFreeRules):
        msg = f"{wager} is a commission-free wager"
        raise TypeError(msg)
    if wager is Wager.DRAGON7:
        if dragon7:
            return _win("Dragon 7", rules.dragon7_payout)
        return Event("No Dragon 7", "loss", _LOSS)
    if wager is Wager.PANDA8:
        if panda8:
            return _win("Panda 8", rules.panda8_payout)
        return Event("No Panda 8", "loss", _LOSS)
    msg = f"{wager} does not settle on the coup"
    raise ValueError(msg)


def pair_event(rules: BaccaratRules, kind: int) -> Event:
    """How a Perfect Pairs wager settles on a pair kind code (0-3)."""
    odds = rules.perfect_pairs.get(PAIR_KINDS[kind]) if kind else None
    if odds is None:
        return Event(_PAIR_EVENTS[kind], "loss", _LOSS)
    return _win(_PAIR_EVENTS[kind], odds)


def cells() -> Iterator[tuple[int, int, int, int]]:
    """Every cell ``(pc, bc, p drew, b drew)``."""
    for pc in range(10):
        for bc in range(10):
            for drew_p in range(2):
                for drew_b in range(2):
                    yield pc, bc, drew_p, drew_b


def _counts(decks: int) -> np.ndarray[tuple[int], np.dtype[np.int64]]:
    counts = np.full(10, 4 * decks, dtype=np.int64)
    counts[0] = 16 * decks
    return counts


def cell_weights(
    decks: int,
) -> np.ndarray[tuple[int, ...], np.dtype[np.int64]]:
    """Exact weights of every cell (six-card sequences) for ``decks``."""
    return kernels.enumerate_cells(
        _counts(decks),
        kernels.PLAYER,
        kernels.BANKER_STOOD,
        kernels.BANKER_AFTER,
    )


def pair_weights(decks: int) -> tuple[int, int, int, int]:
    """Ordered two-card weights of no pair, perfect, colored and mixed.

    Each of the 52 cards appears ``decks`` times: a perfect pair is the
    same card twice, a colored pair the same rank in the other suit of
    the colour, a mixed pair the same rank in one of the two other
    suits. The four weights sum to ``N (N-1)``.
    """
    n = 52 * decks
    perfect = 52 * decks * (decks - 1)
    colored = 52 * decks * decks
    mixed = 52 * decks * 2 * decks
    return (n * (n - 1) - perfect - colored - mixed, perfect, colored, mixed)


def stake_unit(rules: BaccaratRules) -> int:
    """The smallest stake on which every payout is whole minor units."""
    unit = 1
    for wager in wagers_of(rules):
        for event in _events(rules, wager):
            unit = math.lcm(unit, event.net.denominator)
    return unit


def _events(rules: BaccaratRules, wager: Wager) -> list[Event]:
    if wager in _PERFECT_PAIRS:
        return [pair_event(rules, kind) for kind in range(4)]
    return [cell_event(rules, wager, cell) for cell in cells()]


def _rows(groups: dict[Event, int], total: int) -> list[ExactEvent]:
    ordered = sorted(groups, key=lambda e: (-e.net, e.label))
    return [
        ExactEvent(
            event.label,
            event.net,
            Fraction(groups[event], total),
            pays=event.pays,
            combinations=groups[event],
        )
        for event in ordered
    ]


def wager_rows(
    rules: BaccaratRules,
    wager: Wager,
    weights: np.ndarray[tuple[int, ...], np.dtype[np.int64]],
    pairs: tuple[int, int, int, int],
) -> list[ExactEvent]:
    """The exact return table of ``wager`` from the weights."""
    groups: dict[Event, int] = {}
    if wager in _PERFECT_PAIRS:
        for kind, weight in enumerate(pairs):
            event = pair_event(rules, kind)
            groups[event] = groups.get(event, 0) + weight
        return _rows(groups, sum(pairs))
    for cell in cells():
        weight = int(weights[cell])
        if weight:
            event = cell_event(rules, wager, cell)
            groups[event] = groups.get(event, 0) + weight
    return _rows(groups, int(weights.sum()))


def analyze(rules: GameRules) -> GameReport:
    """Exact house edge and return table of every wager these rules offer.

    Finite shoe, without replacement; probabilities are exact fractions
    of ordered six-card sequences (the Wizard of Odds' combinations).
    """
    if not isinstance(rules, BaccaratRules):
        msg = f"Midibaccarat needs BaccaratRules, not {type(rules).__name__}"
        raise TypeError(msg)
    started = time.perf_counter()
    cell_weights(1)  # compile or load the cached kernel
    compiled = time.perf_counter()
    weights = cell_weights(rules.decks)
    pairs = pair_weights(rules.decks)
    wagers = {
        str(wager): WagerReport.exact(wager_rows(rules, wager, weights, pairs))
        for wager in wagers_of(rules)
    }
    finished = time.perf_counter()
    return GameReport(
        game=game_name(rules),
        rules=rules.to_dict(),
        method="exact",
        seconds=finished - compiled,
        wagers=wagers,
        compile_seconds=compiled - started,
        extra={"combinations_total": int(weights.sum())},
    )
