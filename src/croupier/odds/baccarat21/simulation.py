"""21 Baccarat Monte Carlo through real shoes, on compiled kernels.

Each shoe is shuffled (Fisher–Yates from the chunk's generator), the
cover card is placed at the rules' ``penetration`` (as the engine's
(d) reshuffle places it) and the first card is burned (c). Rounds
follow until the cover card comes out; that round is completed, then
the shoe is reshuffled (d).

Every wager is on the layout every round, Bonus Wagers included, so
after a natural each hand under 17 takes its Bonus-only card (f)(2).
The kernel counts rounds per pair of totals and Bonus masks per hand;
the nets follow exactly (integers, per stake of :func:`~croupier.odds.
baccarat21.model.stake_unit`) from :mod:`croupier.odds.baccarat21.
model`, the settlement the exact analysis uses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from croupier.games.baccarat21.rules import Baccarat21Rules
from croupier.odds.baccarat.shoe import IntArray, random_block, shuffle
from croupier.odds.baccarat21 import kernels
from croupier.odds.baccarat21.model import (
    BONUS_WAGERS,
    MAIN_WAGERS,
    Event,
    bonus_event,
    main_event,
    stake_unit,
)
from croupier.odds.report import SHOE_RAN_OUT_EVENT, WagerSums
from croupier.rules import GameRules
from croupier.shoe import Shoe

__all__ = [
    "RoundResult",
    "cover_position",
    "play_round",
    "prepared_shoe",
    "run_chunk",
    "shoe_rounds",
    "sums_from_counts",
    "warm_up",
]

BLOCK = 1 << 18
"""Random words drawn from the generator per kernel call."""


def _rules(rules: GameRules) -> Baccarat21Rules:
    if not isinstance(rules, Baccarat21Rules):
        msg = f"21 Baccarat needs Baccarat21Rules, not {type(rules).__name__}"
        raise TypeError(msg)
    return rules


def _codes(decks: int) -> IntArray:
    shoe = Shoe.new(decks=decks)
    return np.array([card.code for card in shoe.cards_in_stack()], np.int64)


def cover_position(rules: GameRules) -> int:
    """Cards above the cover card in a full shoe (the engine's rounding)."""
    options = _rules(rules)
    return math.floor(52 * options.decks * options.penetration)


def _add(sums: WagerSums, event: Event, unit: int, count: int) -> None:
    if count == 0:
        return
    value = int(event.net * unit)
    sums.count += count
    sums.total += value * count
    sums.total_sq += value * value * count
    sums.outcomes[event.label] = sums.outcomes.get(event.label, 0) + count
    sums.pays.setdefault(event.label, event.pays)
    sums.outcome_nets[event.label] = (
        sums.outcome_nets.get(event.label, 0) + value * count
    )


VOIDED = Event("Void: " + SHOE_RAN_OUT_EVENT, "returned", Fraction(0))
"""A round the shoe could not finish: every wager goes back (681a.7(a))."""


def sums_from_counts(
    rules: Baccarat21Rules, totals: IntArray, masks: IntArray, voids: int = 0
) -> dict[str, WagerSums]:
    """Exact per-wager sums from the kernel's counts.

    ``totals`` and ``masks`` count the rounds played out, ``voids`` the
    rounds voided because the shoe ran out (each wager returned).
    """
    unit = stake_unit(rules)
    out: dict[str, WagerSums] = {}
    for wager in MAIN_WAGERS:
        sums = WagerSums(unit=unit)
        for player, banker in zip(*np.nonzero(totals), strict=True):
            event = main_event(rules, wager, int(player), int(banker))
            _add(sums, event, unit, int(totals[player, banker]))
        _add(sums, VOIDED, unit, voids)
        out[str(wager)] = sums
    for hand, wager in enumerate(BONUS_WAGERS):
        sums = WagerSums(unit=unit)
        for mask in np.nonzero(masks[hand])[0]:
            event = bonus_event(rules, int(mask))
            _add(sums, event, unit, int(masks[hand, mask]))
        _add(sums, VOIDED, unit, voids)
        out[str(wager)] = sums
    return out


def run_chunk(
    rules: GameRules, rounds: int, seed: int, spawn_key: tuple[int, ...]
) -> dict[str, WagerSums]:
    """Simulate ``rounds`` rounds from ``SeedSequence(seed, spawn_key)``."""
    options = _rules(rules)
    gen = np.random.default_rng(
        np.random.SeedSequence(seed, spawn_key=spawn_key)
    )
    codes = _codes(options.decks)
    cover = cover_position(options)
    totals = np.zeros((kernels.MAX_TOTAL, kernels.MAX_TOTAL), np.int64)
    masks = np.zeros((2, 64), dtype=np.int64)
    voids = np.zeros(1, dtype=np.int64)
    done = 0
    while done < rounds:
        done = kernels.run_shoes(
            codes,
            random_block(gen, BLOCK),
            rounds,
            done,
            cover,
            True,
            kernels.VALUE,
            totals,
            masks,
            voids,
        )
    return sums_from_counts(options, totals, masks, int(voids[0]))


def warm_up(rules: GameRules) -> None:
    """Compile (or load) the kernels on a few rounds."""
    run_chunk(rules, 10, 0, (0,))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round played by the kernel: nets per wager and cards used."""

    nets: dict[str, int]
    """Net per wager on the layout, in minor units of ``unit``."""
    used: int
    """Cards taken from the top of the given stack."""
    unit: int
    """The stake of every wager."""


def play_round(
    rules: GameRules, codes: Sequence[int], *, bonus: bool = True
) -> RoundResult:
    """Play ONE round through the kernel from the top of ``codes``.

    Player, Banker and Tie are on; the two Bonus Wagers too when
    ``bonus`` (which brings the Bonus-only cards of (f)(2)). Every
    stake is :func:`~croupier.odds.baccarat21.model.stake_unit`. A
    stack too short for the round voids it (D69): every net is 0 and
    every card is used.
    """
    options = _rules(rules)
    stack = np.asarray(codes, dtype=np.int64)
    pt, bt, mp, mb, used = kernels.round_cells(stack, 0, bonus, kernels.VALUE)
    unit = stake_unit(options)
    if used == kernels.VOID:
        names = [*MAIN_WAGERS, *(BONUS_WAGERS if bonus else ())]
        return RoundResult(dict.fromkeys(map(str, names), 0), len(stack), unit)
    nets = {
        str(w): int(main_event(options, w, pt, bt).net * unit)
        for w in MAIN_WAGERS
    }
    if bonus:
        for wager, mask in zip(BONUS_WAGERS, (mp, mb), strict=True):
            nets[str(wager)] = int(bonus_event(options, mask).net * unit)
    return RoundResult(nets, used, unit)


def prepared_shoe(rules: GameRules, gen: np.random.Generator) -> IntArray:
    """A full shoe shuffled by the simulator's kernel, top first.

    Its cover card belongs at :func:`cover_position`; the first card
    is the one the (c) burn takes.
    """
    options = _rules(rules)
    codes = _codes(options.decks)
    shuffle(codes, random_block(gen, codes.shape[0] + 64), 0)
    return codes


def shoe_rounds(
    rules: GameRules, codes: Sequence[int], *, bonus: bool = True
) -> int:
    """Rounds the kernel plays from a prepared shoe before reshuffling.

    ``codes`` as :func:`prepared_shoe` returns them: one card is burned,
    then rounds until the cover card comes out (or a round the shoe
    cannot finish, which is void: D69).
    """
    stack = np.asarray(codes, dtype=np.int64)
    return int(
        kernels.play_shoe(
            stack,
            1,
            cover_position(rules),
            stack.shape[0],
            bonus,
            kernels.VALUE,
            np.zeros((kernels.MAX_TOTAL, kernels.MAX_TOTAL), np.int64),
            np.zeros((2, 64), dtype=np.int64),
            np.zeros(1, dtype=np.int64),
        )
    )
