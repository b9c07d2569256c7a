"""Midibaccarat Monte Carlo through real shoes, on compiled kernels.

Each shoe is shuffled (Fisher–Yates from the chunk's generator), cut as
629a.5(b)-(d) prescribe (the cut's cover card uniformly at least 10
cards from either end, the cards above it to the bottom), the second
cover card is placed ``second_cover_from_bottom`` cards above the
bottom, and the first card is exposed and burned with as many more as
its face value (f). Coups follow until the second cover card comes out;
that round is finished, then the cards are reshuffled.

Every wager the rules offer is on the layout every round. The kernel
counts coups per cell and pair kinds per hand; the nets follow exactly
(integers, per stake of :func:`~croupier.odds.baccarat.model.
stake_unit`) from :mod:`croupier.odds.baccarat.model`, the same
settlement the exact analysis uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from croupier.cards import Card
from croupier.games.midibaccarat.rules import BaccaratRules, Wager
from croupier.odds.baccarat import kernels
from croupier.odds.baccarat.model import (
    Event,
    cell_event,
    cells,
    pair_event,
    stake_unit,
    wagers_of,
)
from croupier.odds.baccarat.shoe import IntArray, random_block
from croupier.odds.report import WagerSums
from croupier.procedures.ch629a import CUT_MARGIN
from croupier.rules import GameRules
from croupier.shoe import Shoe

__all__ = [
    "RoundResult",
    "burn_start",
    "play_round",
    "prepared_shoe",
    "run_chunk",
    "shoe_rounds",
    "sums_from_counts",
    "warm_up",
]

BLOCK = 1 << 18
"""Random words drawn from the generator per kernel call."""
_PERFECT_PAIRS = (Wager.PERFECT_PAIRS_PLAYER, Wager.PERFECT_PAIRS_BANKER)


def _rules(rules: GameRules) -> BaccaratRules:
    if not isinstance(rules, BaccaratRules):
        msg = f"Midibaccarat needs BaccaratRules, not {type(rules).__name__}"
        raise TypeError(msg)
    if rules.second_cover_from_bottom > 52 * rules.decks - CUT_MARGIN:
        msg = (
            f"a second cover card {rules.second_cover_from_bottom} cards "
            f"above the bottom does not fit a {rules.decks}-deck shoe"
        )
        raise ValueError(msg)
    return rules


def _codes(decks: int) -> IntArray:
    """A full shoe's codes in the order of :meth:`Shoe.new`."""
    shoe = Shoe.new(decks=decks)
    return np.array([card.code for card in shoe.cards_in_stack()], np.int64)


def _add(sums: WagerSums, event: Event, unit: int, count: int) -> None:
    if count == 0:
        return
    net = event.net * unit
    if net.denominator != 1:  # pragma: no cover - stake_unit prevents it
        msg = f"net {net} is not whole on a stake of {unit}"
        raise ValueError(msg)
    value = int(net)
    sums.count += count
    sums.total += value * count
    sums.total_sq += value * value * count
    sums.outcomes[event.label] = sums.outcomes.get(event.label, 0) + count
    sums.pays.setdefault(event.label, event.pays)
    sums.outcome_nets[event.label] = (
        sums.outcome_nets.get(event.label, 0) + value * count
    )


def sums_from_counts(
    rules: BaccaratRules, cell_counts: IntArray, pair_counts: IntArray
) -> dict[str, WagerSums]:
    """Exact per-wager sums from the kernel's cell and pair-kind counts."""
    unit = stake_unit(rules)
    out: dict[str, WagerSums] = {}
    for wager in wagers_of(rules):
        sums = WagerSums(unit=unit)
        if wager in _PERFECT_PAIRS:
            hand = _PERFECT_PAIRS.index(wager)
            for kind in range(4):
                event = pair_event(rules, kind)
                _add(sums, event, unit, int(pair_counts[hand, kind]))
        else:
            for cell in cells():
                event = cell_event(rules, wager, cell)
                _add(sums, event, unit, int(cell_counts[cell]))
        out[str(wager)] = sums
    return out


def _kernel_args() -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
    return (
        kernels.POINT,
        kernels.PAIR_KIND,
        kernels.PLAYER,
        kernels.BANKER_STOOD,
        kernels.BANKER_AFTER,
    )


def run_chunk(
    rules: GameRules, rounds: int, seed: int, spawn_key: tuple[int, ...]
) -> dict[str, WagerSums]:
    """Simulate ``rounds`` rounds from ``SeedSequence(seed, spawn_key)``."""
    options = _rules(rules)
    gen = np.random.default_rng(
        np.random.SeedSequence(seed, spawn_key=spawn_key)
    )
    codes = _codes(options.decks)
    work = np.empty_like(codes)
    cell_counts = np.zeros((10, 10, 2, 2), dtype=np.int64)
    pair_counts = np.zeros((2, 4), dtype=np.int64)
    done = 0
    while done < rounds:
        done = kernels.run_shoes(
            codes,
            work,
            random_block(gen, BLOCK),
            rounds,
            done,
            options.second_cover_from_bottom,
            kernels.BURN,
            *_kernel_args(),
            cell_counts,
            pair_counts,
        )
    return sums_from_counts(options, cell_counts, pair_counts)


def warm_up(rules: GameRules) -> None:
    """Compile (or load) the kernels on a few rounds."""
    run_chunk(rules, 10, 0, (0,))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One coup played by the kernel: nets per wager and cards used."""

    nets: dict[str, int]
    """Net per wager name, in minor units of a stake of ``unit``."""
    used: int
    """Cards taken from the top of the given stack."""
    unit: int
    """The stake of every wager."""
    cell: tuple[int, int, int, int]
    """``(player count, banker count, player drew, banker drew)``."""


def play_round(rules: GameRules, codes: Sequence[int]) -> RoundResult:
    """Play ONE coup through the kernel from the top of ``codes``.

    Every wager the rules offer is on, at a stake of
    :func:`~croupier.odds.baccarat.model.stake_unit`.
    """
    options = _rules(rules)
    stack = np.asarray(codes, dtype=np.int64)
    pc, bc, dp, db, kp, kb, used = kernels.coup(stack, 0, *_kernel_args())
    unit = stake_unit(options)
    nets: dict[str, int] = {}
    for wager in wagers_of(options):
        if wager in _PERFECT_PAIRS:
            kind = kp if wager is Wager.PERFECT_PAIRS_PLAYER else kb
            event = pair_event(options, kind)
        else:
            event = cell_event(options, wager, (pc, bc, dp, db))
        nets[str(wager)] = int(event.net * unit)
    return RoundResult(nets, used, unit, (pc, bc, dp, db))


def prepared_shoe(rules: GameRules, gen: np.random.Generator) -> IntArray:
    """A shoe shuffled and cut by the simulator's kernel, top first.

    The second cover card belongs ``second_cover_from_bottom`` cards
    above the bottom; nothing is burned yet (see :func:`burn_start`).
    """
    options = _rules(rules)
    codes = _codes(options.decks)
    work = np.empty_like(codes)
    raw = random_block(gen, codes.shape[0] + 64)
    kernels.shoe_start(codes, work, raw, 0, kernels.BURN)
    return codes


def burn_start(codes: Sequence[int]) -> int:
    """Index of the first card dealt after the 629a.5(f) burn."""
    first = Card.from_code(int(codes[0]))
    return 1 + int(kernels.BURN[first.code])


def shoe_rounds(rules: GameRules, codes: Sequence[int]) -> int:
    """Coups the kernel plays from a prepared shoe before reshuffling.

    ``codes`` as :func:`prepared_shoe` returns them: the burn is taken
    first, then coups until the second cover card comes out.
    """
    options = _rules(rules)
    stack = np.asarray(codes, dtype=np.int64)
    cover = stack.shape[0] - options.second_cover_from_bottom
    return int(
        kernels.play_shoe(
            stack,
            burn_start(codes),
            cover,
            stack.shape[0],
            *_kernel_args(),
            np.zeros((10, 10, 2, 2), dtype=np.int64),
            np.zeros((2, 4), dtype=np.int64),
        )
    )
