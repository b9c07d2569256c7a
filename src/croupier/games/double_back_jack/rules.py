"""Double Back Jack Rules Submission options (591.7, now 673a.7).

Every option records where its default comes from: ``REG`` (retrieved
regulation text), ``INFER`` (inferred from the structure of the text) or
``ASSUMED`` (an industry-typical choice made by this project), with the
project decision (D1-D8) behind it. A casino's Rules Submission (601a.2)
overrides any of them.

>>> rules = DoubleBackJackRules.from_mapping({"decks": 8})
>>> rules.decks, str(rules.blackjack_payout), rules.boxes
(8, '3:2', 6)
>>> rules.collection_procedure
<CollectionProcedure.COLLECT_THEN_PAY: 'collect_then_pay'>
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum, unique
from fractions import Fraction
from types import MappingProxyType

from croupier.money import Odds, Rounding
from croupier.rules import GameRules, Provenance, option

__all__ = [
    "WAGER_TITLES",
    "CollectionProcedure",
    "DoubleBackJackRules",
    "TwentyOnePaid",
    "Wager",
]

MAX_BOXES = 6
"""Betting positions on a Double Back Jack table (673a.2(a))."""


@unique
class Wager(StrEnum):
    """The wagers of a Double Back Jack round."""

    BLACKJACK = "blackjack"
    """The Blackjack Wager (673a.6), and each split hand's wager."""
    SECOND_CHANCE = "second_chance"
    """The Second Chance Wager on a busted hand (591.7(l))."""
    INSURANCE = "insurance"
    """The Insurance Wager (673a.8)."""


WAGER_TITLES: Mapping[str, str] = MappingProxyType(
    {
        Wager.BLACKJACK: "Blackjack Wager",
        Wager.SECOND_CHANCE: "Second Chance Wager",
        Wager.INSURANCE: "Insurance Wager",
    }
)
"""Each wager's name as 591.7 and 673a write it, for a player's messages
(the round's :attr:`~croupier.round.Round.wager_titles`, D187): "seat 2's
Second Chance Wager can no longer be changed", not "... second_chance
wager ..."."""


@unique
class CollectionProcedure(StrEnum):
    """The two collection procedures a casino may designate (591.7(t))."""

    COLLECT_THEN_PAY = "collect_then_pay"
    """(t)(1): every losing wager, right to left, then every winner."""
    PLAYER_BY_PLAYER = "player_by_player"
    """(t)(2): each player's losers then winners, right to left."""


@unique
class TwentyOnePaid(StrEnum):
    """When a 21 made without a Second Chance is paid (591.7(m), D96)."""

    AT_ONCE = "at_once"
    """As soon as the hand reaches 21, before the next decision."""
    BEFORE_HOLE_CARD = "before_hole_card"
    """When every player has acted, before the hole card is turned
    ((n): "after settling any player's hand who had ... 21")."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DoubleBackJackRules(GameRules):
    """The options of a Double Back Jack table (591.7 / 673a)."""

    decks: int = option(
        6,
        provenance=Provenance.ASSUMED,
        decision="D8",
        ref="673a.3(a)",
        minimum=1,
        maximum=8,
        doc="Decks in the dealing shoe (the regulation asks for one or more).",
    )
    penetration: Fraction = option(
        Fraction(3, 4),
        provenance=Provenance.ASSUMED,
        decision="D8",
        ref="591.7(d)",
        minimum=Fraction(1, 10),
        maximum=Fraction(19, 20),
        doc="Share of the shoe dealt before the cover card comes out.",
    )
    boxes: int = option(
        MAX_BOXES,
        provenance=Provenance.REG,
        decision="D8",
        ref="673a.2(a)",
        minimum=1,
        maximum=MAX_BOXES,
        doc="Betting positions (boxes) on the layout; at most six.",
    )
    boxes_per_player: int = option(
        MAX_BOXES,
        provenance=Provenance.ASSUMED,
        ref="673a.6(e)",
        minimum=1,
        maximum=MAX_BOXES,
        doc="Adjacent boxes one player may wager on in a round.",
    )
    table_minimum: int = option(
        1,
        provenance=Provenance.ASSUMED,
        ref="673a.6(a)",
        minimum=1,
        doc="Smallest Blackjack Wager, in minor units (table limits).",
    )
    table_maximum: int = option(
        100_000_000,
        provenance=Provenance.ASSUMED,
        ref="673a.6(a)",
        minimum=1,
        doc="Largest Blackjack Wager, in minor units (table limits).",
    )
    blackjack_payout: Odds = option(
        Odds(3, 2),
        provenance=Provenance.ASSUMED,
        decision="D4",
        ref="591.7(f)",
        doc="Odds paid on a player Blackjack (673a.12(a)).",
    )
    win_payout: Odds = option(
        Odds(1, 1),
        provenance=Provenance.ASSUMED,
        decision="D4",
        ref="591.7(s)(1)(ii)",
        doc="Odds paid on a Blackjack Wager that beats the dealer.",
    )
    twenty_one_payout: Odds = option(
        Odds(1, 1),
        provenance=Provenance.ASSUMED,
        decision="D4",
        ref="591.7(m)",
        doc="Odds paid at once on a 21 made without a Second Chance.",
    )
    twenty_one_paid: TwentyOnePaid = option(
        TwentyOnePaid.AT_ONCE,
        provenance=Provenance.INFER,
        decision="D96",
        ref="591.7(m)",
        choices=[p.value for p in TwentyOnePaid],
        doc="When a 21 made without a Second Chance is paid: at_once, or "
        "before_hole_card (when every player has acted, (n)).",
    )
    second_chance_21_payout: Odds = option(
        Odds(1, 1),
        provenance=Provenance.ASSUMED,
        decision="D3",
        ref="591.7(l)(2)",
        doc="Odds paid on a Second Chance Wager whose hand lands on 21.",
    )
    second_chance_win_payout: Odds = option(
        Odds(1, 1),
        provenance=Provenance.ASSUMED,
        decision="D3",
        ref="591.7(s)(1)(i)",
        doc="Odds paid on a Second Chance Wager whose hand beats the dealer.",
    )
    second_chance_on_doubled: bool = option(
        True,
        provenance=Provenance.INFER,
        decision="D2",
        ref="591.7(l)",
        doc="Whether a busted doubled hand is offered a Second Chance "
        "(stake = the doubled wager).",
    )
    second_chance_on_split: bool = option(
        True,
        provenance=Provenance.INFER,
        decision="D2",
        ref="591.7(l)",
        doc="Whether a busted split hand is offered a Second Chance.",
    )
    collect_busts_at_once: bool = option(
        True,
        provenance=Provenance.ASSUMED,
        decision="D1",
        ref="591.7(l)",
        doc="A busted hand whose Second Chance is declined is lost and "
        "collected at once (never pushed by a dealer 22); false keeps "
        "it on the layout until (q), where a dealer 22 returns it.",
    )
    insurance: bool = option(
        True,
        provenance=Provenance.REG,
        fixed=True,
        decision="D5",
        ref="591.7(g)",
        doc="Whether insurance is offered when the up card is an ace.",
    )
    insurance_payout: Odds = option(
        Odds(2, 1),
        provenance=Provenance.ASSUMED,
        decision="D5",
        ref="673a.8",
        doc="Odds paid on insurance when the dealer has Blackjack.",
    )
    insurance_max: Fraction = option(
        Fraction(1, 2),
        provenance=Provenance.ASSUMED,
        decision="D5",
        ref="673a.8",
        minimum=Fraction(0),
        maximum=Fraction(1),
        doc="Largest insurance, as a share of the box's Blackjack Wager "
        "(rounded down to a whole minor unit).",
    )
    surrender: bool = option(
        True,
        provenance=Provenance.ASSUMED,
        decision="D6",
        ref="591.7(i)",
        doc="Late surrender (after the card-reader check) on the first "
        "two cards, not after a split or double.",
    )
    surrender_refund: Fraction = option(
        Fraction(1, 2),
        provenance=Provenance.ASSUMED,
        decision="D6",
        ref="673a.9",
        minimum=Fraction(0),
        maximum=Fraction(1),
        doc="Share of the wager returned on surrender (rounded down).",
    )
    double_for_less: bool = option(
        True,
        provenance=Provenance.REG,
        fixed=True,
        decision="D7",
        ref="673a.10(a)",
        doc="A double may be for less than the original wager.",
    )
    double_after_split: bool = option(
        True,
        provenance=Provenance.REG,
        fixed=True,
        decision="D7",
        ref="673a.10(c)",
        doc="Doubling is allowed on the first two cards of a split hand.",
    )
    max_split_hands: int = option(
        2,
        provenance=Provenance.REG,
        fixed=True,
        decision="D7",
        ref="673a.11(a)",
        minimum=1,
        maximum=2,
        doc="Hands a box may hold after splitting (1 = no split).",
    )
    split_aces_may_draw: bool = option(
        True,
        provenance=Provenance.REG,
        fixed=True,
        decision="D7",
        ref="673a.11(c)",
        doc="Split aces may draw and double like any split hand; false "
        "gives each split ace exactly one card.",
    )
    collection_procedure: CollectionProcedure = option(
        CollectionProcedure.COLLECT_THEN_PAY,
        provenance=Provenance.ASSUMED,
        ref="591.7(t)",
        choices=[p.value for p in CollectionProcedure],
        doc="(t)(1) collect_then_pay or (t)(2) player_by_player.",
    )
    rounding: Rounding = option(
        Rounding.DOWN,
        provenance=Provenance.ASSUMED,
        ref="673a.12",
        doc="How winnings that are not whole minor units are rounded.",
    )
