"""21 Baccarat's phases and the table of their edges, each edge cited.

The state machine that moves along them is :mod:`.round`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum, unique

from croupier.regs import Ref
from croupier.round import PhaseTable, phase_titles

__all__ = ["PHASES", "PHASE_TITLES", "SECTION", "TRANSITIONS", "Phase"]

SECTION = "681a.7"
"""The seed section that governs the round."""


@unique
class Phase(StrEnum):
    """The phases of a 21 Baccarat round."""

    WAGERING = "wagering"
    """Wagers are taken (the new-shoe burn, if any, is done)."""
    DEALING = "dealing"
    """The four cards of (e) are dealt."""
    DRAWING = "drawing"
    """No natural: one card to each hand under 17 (g)."""
    BONUS_DRAWING = "bonus_drawing"
    """A natural with a Bonus Wager: the Bonus-only cards (f)(2)."""
    SETTLING = "settling"
    """Totals compared and every wager settled (h)-(k)."""
    COLLECTING = "collecting"
    """The hands go to the discard rack (l)."""
    VOID = "void"
    """The shoe ran out mid-round: the round is void (a), D69."""
    RESHUFFLING = "reshuffling"
    """The cover card came out: collect and reshuffle (d)."""
    COMPLETE = "complete"
    """The round is over."""


PHASE_TITLES: Mapping[str, str] = phase_titles(Phase)
"""Each phase's words as the web table's narration heads it ("— Bonus
drawing —"): the round's :attr:`~croupier.round.Round.phase_titles`,
for a player's messages (D189): "wagers are placed before the deal, not
in the Complete phase", not "... not in complete"."""


PHASES: PhaseTable[Phase] = PhaseTable(
    Phase.WAGERING,
    {
        Phase.WAGERING: {Phase.DEALING: Ref.parse("681a.7(e)")},
        Phase.DEALING: {
            Phase.DRAWING: Ref.parse("681a.7(g)"),
            Phase.BONUS_DRAWING: Ref.parse("681a.7(f)(2)"),
            Phase.SETTLING: Ref.parse("681a.7(f)(1)"),
            Phase.VOID: Ref.parse("681a.7(a)"),
        },
        Phase.DRAWING: {
            Phase.SETTLING: Ref.parse("681a.7(h)"),
            Phase.VOID: Ref.parse("681a.7(a)"),
        },
        Phase.BONUS_DRAWING: {
            Phase.SETTLING: Ref.parse("681a.7(h)"),
            Phase.VOID: Ref.parse("681a.7(a)"),
        },
        Phase.SETTLING: {Phase.COLLECTING: Ref.parse("681a.7(l)")},
        Phase.COLLECTING: {
            Phase.RESHUFFLING: Ref.parse("681a.7(d)"),
            Phase.COMPLETE: Ref.parse("681a.7(l)"),
        },
        Phase.VOID: {Phase.RESHUFFLING: Ref.parse("681a.7(d)")},
        Phase.RESHUFFLING: {Phase.COMPLETE: Ref.parse("681a.7(d)(2)")},
        Phase.COMPLETE: {},
    },
    start_ref=Ref.parse("681a.7(e)"),
)
"""Every legal phase change, with the subsection that makes it."""
TRANSITIONS = PHASES.edges
"""The edges of :data:`PHASES` (the registry's form)."""
