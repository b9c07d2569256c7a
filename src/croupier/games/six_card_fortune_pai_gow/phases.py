"""The phases of a Six-Card Fortune Pai Gow round, their edges, decisions.

Every edge cites the subsection under which the round moves along it;
where the deal runs under 670a.9 or 670a.10 (:mod:`.refs`), the edge
carries both. :class:`PaiGowAction` is every decision a player makes.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum, unique
from types import MappingProxyType

from croupier.round import PhaseTable, phase_titles

from .refs import AUTOMATED_SHOE, BY_HAND_OR_MANUAL_SHOE, SETTLE_REF

__all__ = [
    "ACTION_TITLES",
    "PHASES",
    "PHASE_TITLES",
    "TRANSITIONS",
    "PaiGowAction",
    "Phase",
]


@unique
class Phase(StrEnum):
    """The phases of a round."""

    WAGERING = "wagering"
    """Wagers are being placed."""
    DEALING = "dealing"
    """No more bets; the cards are being dealt and counted."""
    DECISIONS = "decisions"
    """Players decide on the Double Down and set their hands."""
    SETTLEMENT = "settlement"
    """The dealer's hand is set and every wager settled."""
    COMPLETE = "complete"
    """Every wager settled and the cards cleared."""
    VOID = "void"
    """The round was void (670a.9(e)); every wager returned."""


PHASE_TITLES: Mapping[str, str] = phase_titles(Phase)
"""Each phase's words as the web table's narration heads it ("—
Decisions —"): the round's :attr:`~croupier.round.Round.phase_titles`,
for a player's messages (D189): "no decision is pending in the Complete
phase", not "... (phase complete)"."""


PHASES: PhaseTable[Phase] = PhaseTable(
    Phase.WAGERING,
    {
        Phase.WAGERING: {
            Phase.DEALING: (BY_HAND_OR_MANUAL_SHOE.deal, AUTOMATED_SHOE.deal),
        },
        Phase.DEALING: {
            Phase.DECISIONS: SETTLE_REF,
            Phase.VOID: (BY_HAND_OR_MANUAL_SHOE.void, AUTOMATED_SHOE.void),
        },
        Phase.DECISIONS: {Phase.SETTLEMENT: SETTLE_REF},
        Phase.SETTLEMENT: {Phase.COMPLETE: SETTLE_REF},
        Phase.COMPLETE: {},
        Phase.VOID: {},
    },
)
"""Allowed phase transitions, each with its citation(s); a round begins
in wagering without a ``phase_entered`` event."""
TRANSITIONS = PHASES.edges
"""The edges of :data:`PHASES` (the registry's form)."""


@unique
class PaiGowAction(StrEnum):
    """The decisions a Six-Card Fortune Pai Gow player makes."""

    SET = "set"
    """Set the hand: name the low card (670a.11)."""
    HOUSE_WAY = "house_way"
    """Have the hand set the house way (670a.11)."""
    DOUBLE_DOWN = "double_down"
    """Add the Double Down Wager after seeing the cards (670a.7(c))."""
    NO_DOUBLE_DOWN = "no_double_down"
    """Decline the Double Down."""


ACTION_TITLES: Mapping[str, str] = MappingProxyType(
    {
        PaiGowAction.SET: "Set my hands",
        PaiGowAction.HOUSE_WAY: "House way",
        PaiGowAction.DOUBLE_DOWN: "Double Down Wager",
        PaiGowAction.NO_DOUBLE_DOWN: "No Double Down",
    }
)
"""Each decision's words as the web table's button shows it
(``Croupier.ACTIONS``): the round's
:attr:`~croupier.round.Round.action_titles`, for a player's messages
(D189): "House way takes no amount, not $5.00", "seat 2 tried Set my
hands; legal now: Double Down Wager (double_down), No Double Down
(no_double_down)"."""
