"""The phases of a Double Back Jack round, their edges, the decisions.

The round (:mod:`.round`) is a state machine over :class:`Phase`; every
edge it may take is listed in :data:`PHASES` with the subsection that
takes it there. :class:`DbjAction` is every decision a phase may wait
for: the players' whole vocabulary.

>>> PHASES.refs(Phase.CARD_READER, Phase.DEALER_BLACKJACK)
(Ref.parse('591.7(h)'),)
>>> PHASES.refs(Phase.PLAYER_DECISIONS, Phase.INSURANCE)
()
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum, unique
from types import MappingProxyType

from croupier.regs import Ref, implements
from croupier.round import PhaseTable, phase_titles

__all__ = [
    "ACTION_TITLES",
    "PHASES",
    "PHASE_TITLES",
    "TRANSITIONS",
    "DbjAction",
    "Phase",
]


@unique
class Phase(StrEnum):
    """The phases of a Double Back Jack round, in procedure order."""

    WAGERING = "wagering"
    """Blackjack Wagers are being placed (673a.6(c))."""
    DEALING = "dealing"
    """The initial deal of 591.7(e)."""
    PLAYER_BLACKJACKS = "player_blackjacks"
    """Player Blackjacks paid at once, right to left (591.7(f))."""
    INSURANCE = "insurance"
    """Insurance offered on an ace up card (591.7(g))."""
    CARD_READER = "card_reader"
    """The hole card checked in the card reader device (591.7(h))."""
    DEALER_BLACKJACK = "dealer_blackjack"
    """The dealer has Blackjack: remaining wagers collected (591.7(h))."""
    PLAYER_DECISIONS = "player_decisions"
    """Decisions, left to right (591.7(i)-(k), (m))."""
    SECOND_CHANCE = "second_chance"
    """A busted hand is offered a Second Chance (591.7(l))."""
    HOLE_CARD = "hole_card"
    """The hole card is turned face up (591.7(n))."""
    DEALER_DRAW = "dealer_draw"
    """The dealer draws to 17-21, or not at all (591.7(o), (p))."""
    SETTLEMENT = "settlement"
    """Remaining hands compared and settled (591.7(q)-(t))."""
    CLEARING = "clearing"
    """Cards to the discard rack, hand by hand (591.7(u))."""
    VOID = "void"
    """The shoe ran out mid-round: the round is void (591.7(a), D69)."""
    RESHUFFLE = "reshuffle"
    """The cover card came out: collect and reshuffle (591.7(d))."""
    COMPLETE = "complete"
    """The round is over."""


PHASE_TITLES: Mapping[str, str] = phase_titles(
    Phase, {Phase.SECOND_CHANCE: "Second Chance"}
)
"""Each phase's words as the web table's narration heads it ("— Player
decisions —"), the Second Chance named as 591.7(l) and the buttons
name it: the round's :attr:`~croupier.round.Round.phase_titles`, for a
player's messages (D189): "no decision is pending in the Dealer draw
phase", not "... in phase dealer_draw"."""


PHASES: PhaseTable[Phase] = PhaseTable(
    Phase.WAGERING,
    {
        Phase.WAGERING: {Phase.DEALING: Ref.parse("591.7(e)")},
        Phase.DEALING: {
            Phase.PLAYER_BLACKJACKS: Ref.parse("591.7(f)"),
            Phase.VOID: Ref.parse("591.7(a)"),
        },
        Phase.PLAYER_BLACKJACKS: {
            Phase.INSURANCE: Ref.parse("591.7(g)"),
            Phase.CARD_READER: Ref.parse("591.7(h)"),
            Phase.PLAYER_DECISIONS: Ref.parse("591.7(i)"),
        },
        Phase.INSURANCE: {Phase.CARD_READER: Ref.parse("591.7(h)")},
        Phase.CARD_READER: {
            Phase.DEALER_BLACKJACK: Ref.parse("591.7(h)"),
            Phase.PLAYER_DECISIONS: Ref.parse("591.7(i)"),
        },
        Phase.DEALER_BLACKJACK: {Phase.CLEARING: Ref.parse("591.7(u)")},
        Phase.PLAYER_DECISIONS: {
            Phase.SECOND_CHANCE: Ref.parse("591.7(l)"),
            Phase.HOLE_CARD: Ref.parse("591.7(n)"),
            Phase.VOID: Ref.parse("591.7(a)"),
        },
        Phase.SECOND_CHANCE: {
            Phase.PLAYER_DECISIONS: Ref.parse("591.7(i)"),
            Phase.VOID: Ref.parse("591.7(a)"),
        },
        Phase.HOLE_CARD: {Phase.DEALER_DRAW: Ref.parse("591.7(o)")},
        Phase.DEALER_DRAW: {
            Phase.SETTLEMENT: Ref.parse("591.7(q)"),
            Phase.VOID: Ref.parse("591.7(a)"),
        },
        Phase.SETTLEMENT: {Phase.CLEARING: Ref.parse("591.7(u)")},
        Phase.CLEARING: {
            Phase.RESHUFFLE: Ref.parse("591.7(d)"),
            Phase.COMPLETE: Ref.parse("591.7(u)"),
        },
        Phase.VOID: {Phase.RESHUFFLE: Ref.parse("591.7(d)")},
        Phase.RESHUFFLE: {Phase.COMPLETE: Ref.parse("591.7(u)")},
        Phase.COMPLETE: {},
    },
    start_ref=Ref.parse("673a.6(c)"),
)
"""Every phase the round may move to from each, with its subsection."""
TRANSITIONS = PHASES.edges
"""The edges of :data:`PHASES` (the registry's form)."""


@unique
@implements("591.7(v)")
class DbjAction(StrEnum):
    """Every decision a Double Back Jack player may make.

    This is the whole vocabulary: there is no verb by which a player
    handles, removes or alters a card (591.7(v)).
    """

    SURRENDER = "surrender"
    """Give up the hand for part of the wager back (673a.9)."""
    DOUBLE = "double"
    """Add up to the wager and take exactly one card (673a.10)."""
    SPLIT = "split"
    """Split two cards of equal value into two hands (673a.11)."""
    STAND = "stand"
    """Draw no more cards."""
    HIT = "hit"
    """Draw one card."""
    INSURANCE = "insurance"
    """Take insurance against a dealer Blackjack (673a.8)."""
    NO_INSURANCE = "no_insurance"
    """Decline insurance."""
    SECOND_CHANCE = "second_chance"
    """Place a Second Chance Wager on a busted hand (591.7(l))."""
    NO_SECOND_CHANCE = "no_second_chance"
    """Decline the Second Chance."""


ACTION_TITLES: Mapping[str, str] = MappingProxyType(
    {
        DbjAction.SURRENDER: "Surrender",
        DbjAction.DOUBLE: "Double down",
        DbjAction.SPLIT: "Split",
        DbjAction.STAND: "Stand",
        DbjAction.HIT: "Hit",
        DbjAction.INSURANCE: "Insurance",
        DbjAction.NO_INSURANCE: "No insurance",
        DbjAction.SECOND_CHANCE: "Second Chance",
        DbjAction.NO_SECOND_CHANCE: "No Second Chance",
    }
)
"""Each decision's words as the web table's button shows it
(``Croupier.ACTIONS``): the round's
:attr:`~croupier.round.Round.action_titles`, for a player's messages
(D189): "No insurance takes no amount", "Split is not allowed for seat
1 now; legal: Stand (stand), Hit (hit)"."""
