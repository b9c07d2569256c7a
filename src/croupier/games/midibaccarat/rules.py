"""Rules Submission options of both forms of Midibaccarat (D9-D12)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum, unique
from types import MappingProxyType

from croupier.errors import RulesError
from croupier.money import Odds, Rounding
from croupier.regs import Ref
from croupier.rules import GameRules, Paytable, Provenance, option

__all__ = [
    "PP_CATEGORIES",
    "SETTLE_ORDER",
    "WAGER_TITLES",
    "BaccaratRules",
    "CommissionFreeRule",
    "CommissionFreeRules",
    "Dealing",
    "MidibaccaratRules",
    "Wager",
]


@unique
class Dealing(StrEnum):
    """The two initial-deal options of 629a.8(c) (INFER from 627a.8)."""

    FACE_UP = "face_up"
    """(c)(1): four cards face up, Player, Banker, Player, Banker."""
    FACE_DOWN = "face_down"
    """(c)(2): face down; the Banker cards wait under the shoe until the
    Player's Hand is called, then are turned face up."""


@unique
class CommissionFreeRule(StrEnum):
    """How commission-free Midibaccarat takes its edge (D11)."""

    DRAGON7_PUSH = "dragon7_push"
    """A Banker win with a three-card 7 against a lower Player pushes."""
    BANKER6_PAYS_HALF = "banker6_pays_half"
    """A Banker win with a Point Count of 6 pays 1 to 2."""


@unique
class Wager(StrEnum):
    """Wager names, as in the scenario contract."""

    PLAYER = "player"
    """On the Player's Hand."""
    BANKER = "banker"
    """On the Banker's Hand."""
    TIE = "tie"
    """On equal Point Counts."""
    PERFECT_PAIRS_PLAYER = "perfect_pairs_player"
    """Perfect Pairs on the Player's Hand (629b.1)."""
    PERFECT_PAIRS_BANKER = "perfect_pairs_banker"
    """Perfect Pairs on the Banker's Hand (629b.1)."""
    DRAGON7 = "dragon7"
    """Dragon 7 (commission-free only)."""
    PANDA8 = "panda8"
    """Panda 8 (commission-free only)."""


WAGER_TITLES: Mapping[str, str] = MappingProxyType(
    {
        Wager.PLAYER: "Player Wager",
        Wager.BANKER: "Banker Wager",
        Wager.TIE: "Tie Wager",
        Wager.PERFECT_PAIRS_PLAYER: "Perfect Pairs Wager on the Player's Hand",
        Wager.PERFECT_PAIRS_BANKER: "Perfect Pairs Wager on the Banker's Hand",
        Wager.DRAGON7: "Dragon 7 Wager",
        Wager.PANDA8: "Panda 8 Wager",
    }
)
"""Each wager's name as 629a and 629b write it, for a player's messages
(the rounds' :attr:`~croupier.round.Round.wager_titles`, D187): "seat 3
already has a Banker Wager", not "... a banker wager"."""

PP_CATEGORIES = ("perfect", "colored", "mixed")
SETTLE_ORDER = (
    Wager.PLAYER,
    Wager.BANKER,
    Wager.TIE,
    Wager.DRAGON7,
    Wager.PANDA8,
)
"""Order of a seat's wagers at the final settlement (ASSUMED)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BaccaratRules(GameRules):
    """Options shared by both forms of Midibaccarat."""

    decks: int = option(
        8,
        provenance=Provenance.ASSUMED,
        decision="D9",
        doc="decks in the shoe (629a.3 not retrieved)",
        ref="629a.3",
        minimum=1,
        maximum=8,
    )
    player_payout: Odds = option(
        Odds(1, 1),
        provenance=Provenance.ASSUMED,
        decision="D9",
        doc="a winning Player Wager pays these odds",
        ref="629a.12",
    )
    tie_payout: Odds = option(
        Odds(8, 1),
        provenance=Provenance.ASSUMED,
        decision="D9",
        doc="a winning Tie Wager pays these odds (9:1 is the usual option)",
        ref="629a.12",
    )
    perfect_pairs_offered: bool = option(
        True,
        provenance=Provenance.ASSUMED,
        decision="D12",
        doc="whether the Perfect Pairs wagers are offered",
        ref="629b.1(c)",
    )
    perfect_pairs: Paytable = option(
        Paytable.parse({"perfect": "25:1", "colored": "12:1", "mixed": "6:1"}),
        provenance=Provenance.ASSUMED,
        decision="D12",
        doc="Perfect Pairs paytable: perfect, colored and mixed pairs",
        ref="629b.1(c)",
        choices=PP_CATEGORIES,
    )
    dealing: Dealing = option(
        Dealing.FACE_UP,
        provenance=Provenance.INFER,
        doc="initial deal: face_up (629a.8(c)(1)) or face_down ((c)(2))",
        ref="629a.8(c)",
    )
    rounding: Rounding = option(
        Rounding.DOWN,
        provenance=Provenance.ASSUMED,
        decision="D10",
        doc="rounding of fractional winnings (commission) to minor units",
        ref="629a.12",
    )
    second_cover_from_bottom: int = option(
        14,
        provenance=Provenance.ASSUMED,
        doc="cards below the second cover card when a shoe is prepared",
        ref="629a.5(d)",
        minimum=14,
    )

    def check(self) -> None:
        """The second cover card must lie inside the shoe (629a.5(d))."""
        size = 52 * self.decks
        if self.second_cover_from_bottom > size:
            msg = (
                f"{self.second_cover_from_bottom} cards above the bottom "
                f"is deeper than a {self.decks}-deck shoe of {size} cards"
            )
            raise RulesError(
                msg, key="second_cover_from_bottom", ref=Ref.parse("629a.5(d)")
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class MidibaccaratRules(BaccaratRules):
    """Midibaccarat (629a) options."""

    banker_payout: Odds = option(
        Odds(19, 20),
        provenance=Provenance.ASSUMED,
        decision="D9",
        doc="a winning Banker Wager pays these odds (19:20 = 5 % vigorish)",
        ref="629a.12",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class CommissionFreeRules(BaccaratRules):
    """Commission-free Midibaccarat (629b.2) options."""

    banker_payout: Odds = option(
        Odds(1, 1),
        provenance=Provenance.INFER,
        decision="D11",
        doc="a winning Banker Wager pays these odds (no commission)",
        ref="629b.2",
    )
    commission_free_rule: CommissionFreeRule = option(
        CommissionFreeRule.DRAGON7_PUSH,
        provenance=Provenance.INFER,
        decision="D11",
        doc="dragon7_push, or banker6_pays_half (banker_six_payout)",
        ref="629b.2",
    )
    banker_six_payout: Odds = option(
        Odds(1, 2),
        provenance=Provenance.ASSUMED,
        decision="D11",
        doc="Banker win on 6 under the banker6_pays_half rule",
        ref="629b.2",
    )
    dragon7_offered: bool = option(
        True,
        provenance=Provenance.ASSUMED,
        decision="D12",
        doc="whether the Dragon 7 wager is offered",
        ref="629b.2",
    )
    dragon7_payout: Odds = option(
        Odds(40, 1),
        provenance=Provenance.ASSUMED,
        decision="D12",
        doc="a winning Dragon 7 wager pays these odds",
        ref="629b.2",
    )
    panda8_offered: bool = option(
        True,
        provenance=Provenance.ASSUMED,
        decision="D12",
        doc="whether the Panda 8 wager is offered",
        ref="629b.2",
    )
    panda8_payout: Odds = option(
        Odds(25, 1),
        provenance=Provenance.ASSUMED,
        decision="D12",
        doc="a winning Panda 8 wager pays these odds",
        ref="629b.2",
    )

    def check(self) -> None:
        """No commission on a winning Banker Wager (629b.2), and 629a.5(d).

        Commission-free Midibaccarat pays a winning Banker Wager at least
        even money (the Dragon 7 push or the Banker 6 paying half are its
        own rules): a ``banker_payout`` under 1:1 is a commission.
        """
        BaccaratRules.check(self)
        if self.banker_payout.fraction < 1:
            msg = (
                f"a Banker payout of {self.banker_payout} takes a "
                f"commission; the commission-free game pays at least 1:1"
            )
            raise RulesError(msg, key="banker_payout", ref=Ref.parse("629b.2"))
