"""The events only Double Back Jack records."""

from __future__ import annotations

from dataclasses import dataclass

from croupier.events import Event

__all__ = ["CardReaderChecked"]


@dataclass(frozen=True, slots=True, kw_only=True)
class CardReaderChecked(Event):
    """The hole card went through the card reader device, unseen.

    Only the answer is recorded: whether the dealer has a Blackjack.
    """

    blackjack: bool
    """Whether the hole card gives the dealer a Blackjack."""
