"""Rules Submission options of Six-Card Fortune Pai Gow Poker (670a).

Every choice the retrieved text leaves to the casino, or does not
state, is an option here with its provenance and project decision
(SUMMARY.md §8, D18-D25). Paytables use the category names of
:class:`croupier.hands.paigow.Category` (``three_of_a_kind`` ...).

>>> rules = SixCardRules.from_mapping({"commission": "1/20"})
>>> rules.commission, rules.dealing.value, rules.house_way
(Fraction(1, 20), 'hand', 'standard')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum, unique
from fractions import Fraction
from types import MappingProxyType

from croupier.hands.paigow import CATEGORY_KEYS, HOUSE_WAYS
from croupier.rules import GameRules, Paytable, Provenance, option

__all__ = ["WAGER_TITLES", "Dealing", "HoldingHand", "SixCardRules", "Wager"]


@unique
class Wager(StrEnum):
    """The wagers of the game, named as in the scenario contract."""

    PAI_GOW = "pai_gow"
    """The Six-Card Fortune Pai Gow Poker Wager (670a.7(d))."""
    DOUBLE_DOWN = "double_down"
    """The Double Down Wager, made after the cards are seen (670a.7(c))."""
    FORTUNE_BONUS = "fortune_bonus"
    """The Fortune Bonus Wager (with the Envy Bonus when qualifying)."""
    PROGRESSIVE = "progressive"
    """The Progressive Payout Wager (670a.9(a)(3)(ii))."""


WAGER_TITLES: Mapping[str, str] = MappingProxyType(
    {
        Wager.PAI_GOW: "Six-Card Fortune Pai Gow Poker Wager",
        Wager.DOUBLE_DOWN: "Double Down Wager",
        Wager.FORTUNE_BONUS: "Fortune Bonus Wager",
        Wager.PROGRESSIVE: "Progressive Payout Wager",
    }
)
"""Each wager's name as 670a.7 writes it, for a player's messages (the
round's :attr:`~croupier.round.Round.wager_titles`, D187; the ids are
the scenario contract's: "a fortune_bonus wager needs ..." read as code
on the web table)."""


@unique
class Dealing(StrEnum):
    """How the cards reach the positions (one procedure per table)."""

    HAND = "hand"
    """Dealt from the dealer's hand one card at a time (670a.9)."""
    MANUAL_SHOE = "manual_shoe"
    """Dealt from a manual dealing shoe (670a.8, text not retrieved)."""
    AUTOMATED_SHOE = "automated_shoe"
    """Stacks of six dispensed by an automated dealing shoe (670a.10)."""


@unique
class HoldingHand(StrEnum):
    """The hand in which the dealer holds the deck for the round."""

    LEFT = "left"
    """The left hand."""
    RIGHT = "right"
    """The right hand."""


_FORTUNE = Paytable.parse(
    {
        "five_aces": "1000:1",
        "royal_flush": "500:1",
        "straight_flush": "200:1",
        "four_of_a_kind": "75:1",
        "full_house": "15:1",
        "flush": "10:1",
        "straight": "7:1",
        "three_of_a_kind": "5:1",
    }
)
_ENVY = Paytable.parse(
    {
        "five_aces": "100:1",
        "royal_flush": "50:1",
        "straight_flush": "10:1",
        "four_of_a_kind": "5:1",
    }
)
_PROGRESSIVE_ODDS = Paytable.parse(
    {
        "straight_flush": "200:1",
        "four_of_a_kind": "50:1",
        "full_house": "10:1",
    }
)
_PROGRESSIVE_METER = Paytable.parse(
    {"five_aces": "1:1", "royal_flush": "1:10"}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class SixCardRules(GameRules):
    """The options of a Six-Card Fortune Pai Gow Poker table."""

    dealing: Dealing = option(
        Dealing.HAND,
        provenance=Provenance.REG,
        ref="670a.9",
        doc="dealing procedure: hand (670a.9), manual_shoe (670a.8) or "
        "automated_shoe (670a.10)",
    )
    holding_hand: HoldingHand = option(
        HoldingHand.LEFT,
        provenance=Provenance.ASSUMED,
        ref="670a.9(a)(2)",
        doc="the hand the dealer holds the deck in, kept for the round",
    )
    commission: Fraction = option(
        Fraction(0),
        provenance=Provenance.ASSUMED,
        decision="D20",
        ref="670a.11",
        minimum=Fraction(0),
        maximum=Fraction(1),
        doc="commission on winning Six-Card and Double Down Wagers, "
        "rounded down to whole minor units; 0 (none) per the published "
        "rules of the game",
    )
    joker_low_beats_all: bool = option(
        True,
        provenance=Provenance.ASSUMED,
        decision="D19",
        ref="670a.11",
        doc="a joker a player uses as the low hand beats any dealer low "
        "hand (published rules of the game); false: it is a plain ace",
    )
    house_way: str = option(
        "standard",
        provenance=Provenance.ASSUMED,
        decision="D21",
        ref="670a.11",
        choices=tuple(HOUSE_WAYS),
        doc="the house way that sets the dealer's hand (and a player's "
        "on request)",
    )
    double_down_offered: bool = option(
        False,
        provenance=Provenance.REG,
        decision="D182",
        ref="670a.7(e)",
        doc="whether the Double Down Wager is offered: not unless the "
        "Rules Submission says so (670a.7(e)); when offered, after the "
        "cards are seen, up to the Six-Card Wager and settled like it "
        "(D22, ASSUMED)",
    )
    fortune_bonus_offered: bool = option(
        True,
        provenance=Provenance.INFER,
        ref="670a.9(a)(3)(i)",
        doc="whether the Fortune Bonus Wager is offered",
    )
    fortune_bonus_paytable: Paytable = option(
        _FORTUNE,
        provenance=Provenance.ASSUMED,
        decision="D23",
        choices=CATEGORY_KEYS,
        doc="Fortune Bonus odds by the best five-card hand of the six cards",
    )
    envy_bonus_offered: bool = option(
        True,
        provenance=Provenance.INFER,
        ref="670a.9(a)(3)(i)",
        doc="whether a Qualifying Fortune Bonus Wager earns the Envy Bonus",
    )
    envy_qualifying_minimum: int = option(
        500,
        provenance=Provenance.ASSUMED,
        decision="D23",
        ref="670a.9(a)(3)(i)",
        minimum=1,
        doc="smallest Fortune Bonus Wager (minor units) that qualifies "
        "for an Envy lammer",
    )
    envy_paytable: Paytable = option(
        _ENVY,
        provenance=Provenance.ASSUMED,
        decision="D23",
        choices=CATEGORY_KEYS,
        doc="Envy Bonus per other position holding the hand, as odds on "
        "the qualifying minimum ('10:1' pays ten minimums)",
    )
    envy_counts_dealer: bool = option(
        False,
        provenance=Provenance.ASSUMED,
        decision="D23",
        ref="670a.9(a)(3)(i)",
        doc="whether the dealer's hand earns Envy Bonuses like a position "
        "(false: other players' hands only, per the published rules)",
    )
    progressive_offered: bool = option(
        True,
        provenance=Provenance.INFER,
        ref="670a.9(a)(3)(ii)",
        doc="whether the Progressive Payout Wager is offered",
    )
    progressive_wager_amount: int = option(
        100,
        provenance=Provenance.ASSUMED,
        decision="D23",
        ref="670a.9(a)(3)(ii)",
        minimum=1,
        doc="the fixed amount of one Progressive Payout Wager (one chip)",
    )
    progressive_odds_paytable: Paytable = option(
        _PROGRESSIVE_ODDS,
        provenance=Provenance.ASSUMED,
        decision="D23",
        choices=CATEGORY_KEYS,
        doc="fixed-odds progressive payouts by the best five-card hand",
    )
    progressive_meter_paytable: Paytable = option(
        _PROGRESSIVE_METER,
        provenance=Provenance.ASSUMED,
        decision="D23",
        choices=CATEGORY_KEYS,
        doc="meter payouts: 'n:d' pays n/d of the meter ('1:1' the whole "
        "meter, which then resets)",
    )
    progressive_reset: int = option(
        1_000_000,
        provenance=Provenance.ASSUMED,
        decision="D23",
        minimum=0,
        doc="the meter after a whole-meter payout (minor units)",
    )
    progressive_meter: int = option(
        1_000_000,
        provenance=Provenance.ASSUMED,
        decision="D23",
        minimum=0,
        doc="the meter at the start of the round (round input state)",
        carried=True,
    )
    progressive_contribution: Fraction = option(
        Fraction(1, 5),
        provenance=Provenance.ASSUMED,
        decision="D23",
        minimum=Fraction(0),
        maximum=Fraction(1),
        doc="share of each settled progressive wager added to the meter",
    )
    progressive_system_count_offset: int = option(
        0,
        provenance=Provenance.ASSUMED,
        ref="670a.9(a)(3)(ii)",
        doc="replay input: the progressive system's accepted count minus "
        "the wagers on the layout (non-zero refuses the deal)",
        round_input=True,
    )
    dealing_irregularities: tuple[str, ...] = option(
        (),
        provenance=Provenance.ASSUMED,
        decision="D25",
        ref="670a.9(e)",
        doc="replay input for a dealer's error in a one-at-a-time deal: "
        "'skip:N' (position N passed over on its first turn) or "
        "'double:N' (two cards on its first turn), 'skip:N@T' or "
        "'double:N@T' on its turn T (1-6); N is a seat 1-6 or 7 for the "
        "dealer (croupier verify reads a record's from its card_dealt "
        "steps when its rules give none, D92)",
        round_input=True,
    )
