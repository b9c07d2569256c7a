"""What a seat or a spectator sees of a Midibaccarat round.

Face-down cards (the 629a.8(c)(2) option) show as ``??`` until turned;
the counts show only once no card is face down. A seat also sees its
own settlements. The builders take the state's parts, never the round.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NotRequired

from croupier.cards import Card
from croupier.round import RoundView, StakeView

__all__ = ["HIDDEN", "MidibaccaratView", "visible"]

HIDDEN = "??"
"""How a face-down card appears in a view."""


class MidibaccaratView(RoundView):
    """The round: both hands, the layout, a seat's settlements."""

    player: list[str]
    """The Player's Hand (face-down cards hidden)."""
    banker: list[str]
    """The Banker's Hand (face-down cards hidden)."""
    cover_card_reached: bool
    """Whether the second cover card came out."""
    player_count: NotRequired[int]
    """The Player's point count, once no card is face down."""
    banker_count: NotRequired[int]
    """The Banker's point count, once no card is face down."""
    layout: list[StakeView]
    """Every stake on the layout."""
    seat: NotRequired[int]
    """The seat viewing (absent for a spectator)."""
    settlements: NotRequired[list[dict[str, object]]]
    """That seat's settlements so far."""


def visible(
    label: str, hand: Sequence[Card], face_down: Collection[tuple[str, int]]
) -> list[str]:
    """The hand ``label`` with its face-down cards hidden.

    >>> visible("player", [Card.parse("9c"), Card.parse("5h")],
    ...         {("player", 1)})
    ['9c', '??']
    """
    return [
        HIDDEN if (label, i) in face_down else str(card)
        for i, card in enumerate(hand)
    ]
