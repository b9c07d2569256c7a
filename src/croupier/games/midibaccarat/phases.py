"""The phases of a Midibaccarat round and the table of their edges.

Every edge cites the subsection under which the round moves along it;
most of Chapter 629a was not retrievable, so most citations are the
sections the steps belong to by the chapter's table of contents (INFER,
see :mod:`.refs`).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum, unique

from croupier.round import PhaseTable, phase_titles

from .refs import (
    REF_CALL,
    REF_DEAL_FACE_DOWN,
    REF_DEAL_FACE_UP,
    REF_PP_SETTLE,
    REF_RESULT,
    REF_THIRD_CARD,
    REF_WAGERS,
)

__all__ = ["PHASES", "PHASE_TITLES", "TRANSITIONS", "Phase"]


@unique
class Phase(StrEnum):
    """Phases of a Midibaccarat round."""

    WAGERING = "wagering"
    """Wagers may be placed."""
    INITIAL_DEAL = "initial_deal"
    """No more bets; two cards to each hand (629a.8)."""
    CALL = "call"
    """Face-down option: the hands are called and turned (629a.9)."""
    PERFECT_PAIRS = "perfect_pairs"
    """Perfect Pairs wagers settled on the initial cards (629b.1)."""
    THIRD_CARD = "third_card"
    """Naturals and the third-card rules (629a.10)."""
    SETTLEMENT = "settlement"
    """Result announced; wagers paid, pushed or collected (629a.11)."""
    COLLECTION = "collection"
    """Cards to the discard bucket."""
    COMPLETE = "complete"
    """The round is over."""


PHASE_TITLES: Mapping[str, str] = phase_titles(
    Phase, {Phase.PERFECT_PAIRS: "Perfect Pairs"}
)
"""Each phase's words as the web table's narration heads it ("— Third
card —"), the Perfect Pairs named as 629b.1 names its wagers: the
rounds' :attr:`~croupier.round.Round.phase_titles`, for a player's
messages (D189): "the round is past wagering, in the Complete phase",
not "... (complete)"."""


PHASES: PhaseTable[Phase] = PhaseTable(
    Phase.WAGERING,
    {
        Phase.WAGERING: {
            # 629a.8(c)(1) face up or (c)(2) face down, by the rules
            Phase.INITIAL_DEAL: (REF_DEAL_FACE_UP, REF_DEAL_FACE_DOWN),
        },
        Phase.INITIAL_DEAL: {
            Phase.CALL: REF_CALL,
            Phase.PERFECT_PAIRS: REF_PP_SETTLE,
        },
        Phase.CALL: {Phase.PERFECT_PAIRS: REF_PP_SETTLE},
        Phase.PERFECT_PAIRS: {Phase.THIRD_CARD: REF_THIRD_CARD},
        Phase.THIRD_CARD: {Phase.SETTLEMENT: REF_RESULT},
        Phase.SETTLEMENT: {Phase.COLLECTION: REF_RESULT},
        Phase.COLLECTION: {Phase.COMPLETE: REF_RESULT},
        Phase.COMPLETE: {},
    },
    start_ref=REF_WAGERS,
)
"""The legal phase transitions, each with its citation."""
TRANSITIONS = PHASES.edges
"""The edges of :data:`PHASES` (the registry's form)."""
