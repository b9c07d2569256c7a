"""What a seat or a spectator sees of a 21 Baccarat round.

Every card on the layout is face up (681a.7(e)); the burned card never
shows. The builders take the state's parts, never the round, so this
module sits below :mod:`.round`.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from croupier.round import RoundView

__all__ = ["Baccarat21View", "HandView"]


class HandView(TypedDict):
    """One hand as everybody sees it."""

    cards: list[str]
    """The counting cards, in dealing order."""
    bonus_only: list[str]
    """The Bonus-only card of (f)(2), if one was dealt."""
    total: int | None
    """The blackjack-style total once dealt."""
    soft: bool
    """Whether the total is soft."""
    natural: bool
    """Whether the hand is a natural (D13)."""
    bonus: str | None
    """The Bonus category its final cards reach, if any."""


class Baccarat21View(RoundView):
    """The round: both hands, and a seat's own wagers and settlements."""

    player: HandView
    """The Player's Hand."""
    banker: HandView
    """The Banker's Hand."""
    cover_card_reached: bool
    """Whether the cover card came out (reshuffle after the round)."""
    seat: NotRequired[int]
    """The seat viewing (absent for a spectator)."""
    wagers: NotRequired[dict[str, int]]
    """That seat's stakes by wager."""
    settlements: NotRequired[list[dict[str, object]]]
    """That seat's settlements so far."""
