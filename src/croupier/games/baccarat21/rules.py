"""21 Baccarat's rules: the hands, the wagers, the options, the comparison.

Everything here is data or a pure function of the cards' totals; the
state machine that uses it is :mod:`.round`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum, unique
from fractions import Fraction
from types import MappingProxyType
from typing import Self

from croupier.errors import RulesError
from croupier.hands.bonus21 import (
    BONUS_PAYTABLES,
    DEFAULT_BONUS_PAYTABLE,
    BonusCategory,
)
from croupier.jsontypes import json_text
from croupier.money import Odds, Outcome, Rounding
from croupier.rules import (
    GameRules,
    Paytable,
    Provenance,
    option,
    options_table,
)

__all__ = [
    "DEFAULT_SEATS",
    "DRAW_BELOW",
    "WAGER_TITLES",
    "Baccarat21Rules",
    "Side",
    "Wager",
    "compare_totals",
    "main_wager_outcome",
]

DRAW_BELOW = 17
"""A hand under this total draws (681a.7(f)(2), (g))."""
_TWENTY_ONE = 21
DEFAULT_SEATS = 7
"""Numbered betting positions unless the rules say otherwise."""


@unique
class Side(StrEnum):
    """The two hands on the layout."""

    PLAYER = "player"
    """The Player's Hand."""
    BANKER = "banker"
    """The Banker's Hand."""

    @property
    def other(self) -> Side:
        """The opposite hand."""
        return Side.BANKER if self is Side.PLAYER else Side.PLAYER


@unique
class Wager(StrEnum):
    """The wagers a patron may place before the deal (e)."""

    PLAYER = "player"
    """On the Player's Hand, settled under (i)."""
    BANKER = "banker"
    """On the Banker's Hand, settled under (j)."""
    TIE = "tie"
    """On equal totals, settled under (k)(1)."""
    BONUS_PLAYER = "bonus_player"
    """Pair or better in the Player's Hand, settled under (k)(2)."""
    BONUS_BANKER = "bonus_banker"
    """Pair or better in the Banker's Hand, settled under (k)(3)."""


WAGER_TITLES: Mapping[str, str] = MappingProxyType(
    {
        Wager.PLAYER: "Player Wager",
        Wager.BANKER: "Banker Wager",
        Wager.TIE: "Tie Wager",
        Wager.BONUS_PLAYER: "Bonus Wager on the Player's Hand",
        Wager.BONUS_BANKER: "Bonus Wager on the Banker's Hand",
    }
)
"""Each wager's name as 681a.7 writes it, for a player's messages (the
round's :attr:`~croupier.round.Round.wager_titles`, D187): "seat 3
already has a Banker Wager", not "... a banker wager"."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Baccarat21Rules(GameRules):
    """Rules Submission options for 21 Baccarat (§ 681a.8 not retrieved)."""

    decks: int = option(
        3,
        provenance=Provenance.INFER,
        decision="D15",
        doc="52-card decks in the shoe (the Tie holds fit 3 or 2 decks)",
        ref="681a.7(a)",
        minimum=1,
        maximum=8,
    )
    seats: int = option(
        DEFAULT_SEATS,
        provenance=Provenance.ASSUMED,
        doc="numbered betting positions (681a.2 not retrieved)",
        ref="681a.7(h)",
        minimum=1,
        maximum=14,
    )
    penetration: Fraction = option(
        Fraction(3, 4),
        provenance=Provenance.ASSUMED,
        decision="D8",
        doc="share of the reshuffled shoe placed above the cover card",
        ref="681a.7(d)",
        minimum=Fraction(1, 10),
        maximum=Fraction(19, 20),
    )
    player_payout: Odds = option(
        Odds(19, 20),
        provenance=Provenance.ASSUMED,
        decision="D14",
        doc="winning Player Wager: 1 to 1 less a 5 % commission",
        ref="681a.7(i)",
    )
    banker_payout: Odds = option(
        Odds(19, 20),
        provenance=Provenance.ASSUMED,
        decision="D14",
        doc="winning Banker Wager: 1 to 1 less a 5 % commission",
        ref="681a.7(j)",
    )
    tie_payout: Odds = option(
        Odds(10, 1),
        provenance=Provenance.INFER,
        decision="D15",
        doc="winning Tie Wager (equal totals, equal busts included)",
        ref="681a.7(k)(1)",
    )
    bonus_paytable: Paytable = option(
        DEFAULT_BONUS_PAYTABLE,
        provenance=Provenance.ASSUMED,
        decision="D16",
        doc="Bonus 'pair or better' odds: a named table (A-D, README) or "
        "category odds; unlisted categories lose",
        ref="681a.7(k)(2)",
        choices=[category.value for category in BonusCategory],
    )
    rounding: Rounding = option(
        Rounding.DOWN,
        provenance=Provenance.ASSUMED,
        doc="rounding of winnings that are not whole minor units",
        ref="681a.7(h)",
    )

    def with_overrides(self, mapping: Mapping[str, object]) -> Self:
        """A copy with ``mapping`` applied; ``bonus_paytable`` may be a name.

        >>> rules = Baccarat21Rules.from_mapping({"bonus_paytable": "B"})
        >>> rules.bonus_paytable == BONUS_PAYTABLES["B"]
        True
        """
        mapping = options_table(mapping)
        raw = mapping.get("bonus_paytable")
        if isinstance(raw, str):
            table = BONUS_PAYTABLES.get(raw.strip().upper())
            if table is None:
                msg = (
                    f"no named Bonus paytable {json_text(raw, 60)}; the "
                    f"named tables "
                    f"are {', '.join(BONUS_PAYTABLES)}"
                )
                raise RulesError(msg, key="bonus_paytable")
            mapping = {**mapping, "bonus_paytable": table}
        return GameRules.with_overrides(self, mapping)


def compare_totals(player: int, banker: int) -> Side | None:
    """The winning hand of (h)-(j), or ``None`` for equal totals.

    >>> compare_totals(19, 17), compare_totals(24, 23), compare_totals(22, 22)
    (<Side.PLAYER: 'player'>, <Side.BANKER: 'banker'>, None)
    >>> compare_totals(25, 12)
    <Side.BANKER: 'banker'>
    """
    if player == banker:
        return None
    outcome, _ = main_wager_outcome(player, banker)
    return Side.PLAYER if outcome is Outcome.WIN else Side.BANKER


def main_wager_outcome(own: int, other: int) -> tuple[Outcome, str]:
    """How a wager on the hand totalling ``own`` ends, with its clause.

    The clause is written for (i) (the Player Wager) and is the same
    numbered clause of (j) for the Banker Wager; ``""`` marks the case
    the subsection leaves implicit (own hand over 21, the other not).

    >>> main_wager_outcome(20, 23), main_wager_outcome(23, 24)
    ((<Outcome.WIN: 'win'>, '(1)'), (<Outcome.WIN: 'win'>, '(3)(i)'))
    >>> main_wager_outcome(23, 20)
    (<Outcome.LOSE: 'lose'>, '')
    """
    if own == other:
        return Outcome.PUSH, "(4)"
    if own <= _TWENTY_ONE < other:
        return Outcome.WIN, "(1)"
    if other <= _TWENTY_ONE < own:
        return Outcome.LOSE, ""
    if own <= _TWENTY_ONE:
        return (
            (Outcome.WIN, "(2)(i)")
            if own > other
            else (Outcome.LOSE, "(2)(ii)")
        )
    return (
        (Outcome.WIN, "(3)(i)") if own < other else (Outcome.LOSE, "(3)(ii)")
    )
