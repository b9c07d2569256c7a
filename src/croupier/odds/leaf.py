"""The leaf rules the kernels read, computed from the engine's functions.

A compiled kernel sees a card as its integer code
(:attr:`croupier.cards.Card.code`, joker 52). Every per-card rule it
needs is a table here, built once at import by calling the engine's own
function on every code, so that a rule lives in one place only:

- :data:`POINT`: the baccarat value (:func:`croupier.hands.baccarat.
  point_value`);
- :data:`BURN`: the Midibaccarat burn count (:func:`croupier.procedures.
  ch629a.burn_count`, 629a.5(f));
- :data:`VALUE`: the hard blackjack value, ace 1
  (:func:`croupier.hands.blackjack.card_value`);
- :data:`LOW_RANK`: the rank of a one-card pai gow low hand, joker an ace
  (:func:`croupier.hands.paigow.low_rank`);
- :data:`PAIR_KIND`: the Perfect Pairs kind of two cards
  (:func:`croupier.hands.baccarat.pair_kind`);
- :data:`PLAYER_DRAWS`, :data:`BANKER_STOOD`, :data:`BANKER_AFTER`: the
  baccarat third-card rules (:func:`~croupier.hands.baccarat.
  player_draws`, :func:`~croupier.hands.baccarat.banker_draws`).

:func:`soft_total` is the one compiled form of the blackjack total
(:func:`croupier.hands.blackjack.blackjack_total`), and
:data:`DEALER_STANDS` / :data:`BACCARAT21_DRAW_BELOW` are the engine's
drawing thresholds (591.7(o); 681a.7(g)).

Tables are passed to the kernels as arguments (never read as globals
inside a cached kernel, whose on-disk cache would not notice an engine
change). The scalar thresholds (:data:`DEALER_STANDS`, 21 Baccarat's
17, the ace's extra 10) are compile-time constants of the kernels that
read them: after changing one in the engine, remove the kernels'
``__pycache__`` so that numba compiles them again (the differential
tests in ``tests/odds`` fail until then).

>>> int(POINT[Card.parse("Kd").code]), int(BURN[Card.parse("Kd").code])
(0, 10)
>>> int(VALUE[Card.parse("As").code]), int(LOW_RANK[JOKER_CODE])
(1, 14)
>>> soft_total(7, 1), soft_total(17, 1)
(17, 17)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from croupier.cards import JOKER_CODE, Card
from croupier.games.baccarat21.rules import DRAW_BELOW
from croupier.games.double_back_jack.procedure import DEALER_STANDS
from croupier.hands.baccarat import (
    PairKind,
    banker_draws,
    pair_kind,
    player_draws,
    point_value,
)
from croupier.hands.blackjack import blackjack_total, card_value
from croupier.hands.paigow import low_rank
from croupier.jit import jit
from croupier.procedures.ch629a import burn_count

__all__ = [
    "BACCARAT21_DRAW_BELOW",
    "BANKER_AFTER",
    "BANKER_STOOD",
    "BURN",
    "CARDS",
    "DEALER_STANDS",
    "JOKER_CODE",
    "LOW_RANK",
    "PAIR_KIND",
    "PAIR_KINDS",
    "PLAYER_DRAWS",
    "POINT",
    "VALUE",
    "IntArray",
    "dealer_stands",
    "soft_total",
]

IntArray = npt.NDArray[np.int64]
"""An array of int64 (the kernels' integer type)."""

CARDS = 52
"""Codes of the 52 standard cards: 0 to 51 (the joker is 52)."""

BACCARAT21_DRAW_BELOW = DRAW_BELOW
"""A 21 Baccarat hand under this total takes a card (681a.7(f)(2), (g))."""

_ACE_AS_ELEVEN = blackjack_total([Card.parse("As")]).value - card_value(
    Card.parse("As")
)
_BEST = blackjack_total([Card.parse("As"), Card.parse("Kd")]).value


def _per_card(rule: Callable[[Card], int], codes: int = CARDS) -> IntArray:
    """``rule`` of the card of every code ``0 .. codes - 1``."""
    return np.array(
        [rule(Card.from_code(code)) for code in range(codes)], dtype=np.int64
    )


POINT: IntArray = _per_card(point_value)
"""Baccarat value of each card code (ace 1, 10-K 0)."""
BURN: IntArray = _per_card(burn_count)
"""Face value of each card code for the 629a.5(f) burn (ace 1, 10-K 10)."""
VALUE: IntArray = _per_card(card_value)
"""Hard blackjack value of each card code (ace 1, 10-K 10)."""
LOW_RANK: IntArray = _per_card(low_rank, JOKER_CODE + 1)
"""Rank (2-14) of each code 0-52 as a one-card pai gow low hand."""

PAIR_KINDS: tuple[PairKind | None, ...] = (
    None,
    PairKind.PERFECT,
    PairKind.COLORED,
    PairKind.MIXED,
)
"""The pair kind of each code of :data:`PAIR_KIND` (0 is no pair)."""
PAIR_KIND: IntArray = np.array(
    [
        [
            PAIR_KINDS.index(
                pair_kind([Card.from_code(first), Card.from_code(second)])
            )
            for second in range(CARDS)
        ]
        for first in range(CARDS)
    ],
    dtype=np.int64,
)
"""``[first, second]``: the Perfect Pairs kind code of two card codes."""

_BY_POINT = [Card.from_code(int(np.argmax(v == POINT))) for v in range(10)]
"""A card of each baccarat value 0-9 (the rules read only the value)."""

PLAYER_DRAWS: IntArray = np.array(
    [player_draws(count) for count in range(8)], dtype=np.int64
)
"""Whether the Player's Hand draws on a two-card count 0-7."""
BANKER_STOOD: IntArray = np.array(
    [banker_draws(count, player_third=None) for count in range(8)],
    dtype=np.int64,
)
"""Whether the Banker draws (count 0-7) when the Player stood."""
BANKER_AFTER: IntArray = np.array(
    [
        [banker_draws(count, player_third=card) for card in _BY_POINT]
        for count in range(8)
    ],
    dtype=np.int64,
)
"""Whether the Banker draws: row = its count 0-7, column = the value
of the Player's third card."""


@jit
def soft_total(hard: int, aces: int) -> int:
    """The blackjack total: one ace counts 11 when that does not bust.

    ``hard`` counts every ace 1; ``aces`` is the number of aces (or a
    flag) in the hand.
    """
    if aces and hard + _ACE_AS_ELEVEN <= _BEST:
        return hard + _ACE_AS_ELEVEN
    return hard


@jit
def dealer_stands(hard: int, aces: int) -> bool:
    """Whether the Double Back Jack dealer stands (any 17-21, 591.7(o))."""
    return soft_total(hard, aces) >= DEALER_STANDS
