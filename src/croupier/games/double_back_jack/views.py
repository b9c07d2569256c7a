"""What a seat or a spectator sees of a Double Back Jack round.

Built from the state, never a copy of it: the hole card appears only
once turned face up (591.7(h) on a dealer Blackjack, else (n)), and no
undealt card ever appears, only how many remain. The builders take the
state's parts, never the round.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from croupier.round import RoundView

__all__ = ["BoxView", "DoubleBackJackView", "HandView", "ShoeView"]


class HandView(TypedDict):
    """One player hand at a box."""

    label: str
    """``seat N`` or ``seat N hand 2``."""
    cards: list[str]
    """Its cards while on the layout (Second Chance card included)."""
    total: int | None
    """Its total while on the layout."""
    status: str
    """Where the hand stands (playing, busted, standing, settled)."""
    doubled: bool
    """Whether the player doubled down on it."""


class BoxView(TypedDict):
    """A box: its hands and its open wagers."""

    seat: int
    """The box."""
    hands: list[HandView]
    """Its hands, the first then the split one."""
    wagers: dict[str, int]
    """Open stakes by ``wager/hand``."""


class ShoeView(TypedDict):
    """What anybody may know of the shoe."""

    cards_left: int
    """Cards still in the shoe."""


class DoubleBackJackView(RoundView):
    """The round: the dealer's cards, the boxes, whose turn, the results."""

    seat: int | None
    """The seat viewing (``None``: a spectator)."""
    dealer: list[str]
    """The up card, then ``hidden`` or the rest once exposed."""
    boxes: list[BoxView]
    """Every box with a wager."""
    shoe: ShoeView
    """How many cards remain."""
    to_act: int | None
    """The seat to decide, if any."""
    settlements: list[dict[str, object]]
    """Every settlement so far."""
    legal: NotRequired[list[str]]
    """The viewing seat's legal decisions, when it is to act."""
