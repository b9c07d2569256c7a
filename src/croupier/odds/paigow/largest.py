"""The most a Fortune Bonus Wager can win in one round, Envy included.

A Qualifying Fortune Bonus Wager is paid on the player's own six cards
(the Fortune Bonus paytable) and, for each other player's hand holding
an Envy category, a fixed Envy Bonus (D23; the dealer's hand too with
``envy_counts_dealer``). The simulation's return table groups those
outcomes (its "net win" row is an average), so the largest payout is
worked out here instead: the hands are disjoint six-card hands of one
53-card deck, and the most the wager wins is the best packing of
categories into them.

Each hand is represented by a five-card *core* of its category (the
best five of a six-card hand decide its category; a sixth card can only
raise it, and 6 x 7 = 42 cards leave enough to complete every hand).
Every core of a paying category is taken from the five-card value
table (:func:`croupier.hands.paigow_fast.five_card_table`); a
depth-first search picks disjoint cores, the best first, and stops a
branch when even the best award on every hand left could not beat the
best found.

At the default paytables a full table (five other players) the most is
1,050 units per unit of the smallest Qualifying Wager: the player's
five aces (1000:1) while the others hold five straight flushes (10:1
each), the aces and the joker being gone for any royal flush.

>>> from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
>>> largest_payouts(SixCardRules())
LargestPayouts(fortune_with_envy=Fraction(1050, 1), envy=Fraction(210, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from croupier.hands.paigow_fast import five_card_table
from croupier.rules import GameRules

from . import kernels as k
from .simulation import kernel_params

__all__ = ["LargestPayouts", "largest_payouts"]

_BINOM = k.binomials()


class LargestPayouts(NamedTuple):
    """The largest nets, per unit of the simulation's Qualifying Wager."""

    fortune_with_envy: Fraction
    """The Fortune Bonus Wager as settled: its own paytable and Envy."""
    envy: Fraction
    """The Envy Bonus part alone (whatever the player's own hand)."""


def _unrank(index: int) -> int:
    """The five cards of a colex ``index``, as a bit mask of codes."""
    mask = 0
    for size in range(5, 0, -1):
        code = size - 1
        while _BINOM[code + 1, size] <= index:
            code += 1
        index -= int(_BINOM[code, size])
        mask |= 1 << code
    return mask


def _cores(categories: np.ndarray, wanted: int) -> list[int]:
    """Every five-card set of category ``wanted``, as bit masks."""
    return [_unrank(int(i)) for i in np.flatnonzero(categories == wanted)]


def _best_packing(
    cores: Sequence[tuple[int, int]], hands: int, used: int
) -> int:
    """The largest sum of awards over ``hands`` disjoint cores.

    ``cores`` are ``(award, mask)`` pairs, the largest award first;
    none of them may meet ``used``. A hand may also hold no core (an
    award of 0), so the sum is never negative.
    """
    best = 0

    def search(start: int, taken: int, left: int, total: int) -> None:
        nonlocal best
        best = max(best, total)
        if left == 0:
            return
        for i in range(start, len(cores)):
            award, mask = cores[i]
            if total + left * award <= best:
                return  # sorted: no later core can do better
            if mask & taken:
                continue
            search(i + 1, taken | mask, left - 1, total + award)

    search(0, used, hands, 0)
    return best


def largest_payouts(rules: GameRules) -> LargestPayouts:
    """The largest nets of the Fortune Bonus Wager and of its Envy part.

    Per unit of the Qualifying Wager the simulation prices them at (the
    smallest that qualifies, :func:`~.simulation.kernel_params`), with
    every other seat of a six-seat table holding a wagered hand of
    another player (and the dealer's counted with ``envy_counts_dealer``).
    """
    params = kernel_params(rules)
    fortune = [int(v) for v in params.fortune_net]
    award = [int(v) for v in params.envy_award]
    stake = params.fortune_stake
    others = k.SEATS - 1 + int(params.iparams[k.P_ENVY_DEALER])
    categories = five_card_table() >> 20
    envy_cores = sorted(
        (
            (award[c], mask)
            for c in range(k.CATEGORIES)
            if award[c] > 0
            for mask in _cores(categories, c)
        ),
        key=lambda core: -core[0],
    )
    unconstrained = _best_packing(envy_cores, others, 0)
    # the player's own hand: no paying category (its six cards taken
    # from the rest), or a paying one, the best paid first
    best = -stake + unconstrained
    paying = sorted(
        (c for c in range(k.CATEGORIES) if fortune[c] > 0),
        key=lambda c: -fortune[c],
    )
    for c in paying:
        if fortune[c] + unconstrained <= best:
            break  # the others can win no more than unconstrained
        for mask in _cores(categories, c):
            usable = [core for core in envy_cores if not core[1] & mask]
            total = fortune[c] + _best_packing(usable, others, mask)
            best = max(best, total)
            if best == fortune[c] + unconstrained:
                break
    return LargestPayouts(
        fortune_with_envy=Fraction(best, stake),
        envy=Fraction(unconstrained, stake),
    )
