"""Events and errors of Six-Card Fortune Pai Gow Poker (game-specific).

The shared events (cards dealt, wagers settled...) live in
:mod:`croupier.events`; these record the steps only this game has.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card
from croupier.errors import ProcedureError
from croupier.events import Event
from croupier.hands.paigow import HandOutcome
from croupier.money import Outcome

from .rules import HoldingHand

__all__ = [
    "DeckHeld",
    "EnvyBonusPaid",
    "EnvyLammerPlaced",
    "HandSet",
    "HandsCompared",
    "MeterChanged",
    "ProgressiveCountError",
    "ProgressiveWagersCollected",
]


class ProgressiveCountError(ProcedureError):
    """The chips collected differ from the progressive system's count."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckHeld(Event):
    """The dealer took the deck in one hand, kept for the round."""

    hand: HoldingHand
    """The dealer's left or right hand."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvyLammerPlaced(Event):
    """An Envy lammer next to a Qualifying Fortune Bonus Wager."""

    seat: int
    """The seat."""
    amount: int
    """The Fortune Bonus Wager."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ProgressiveWagersCollected(Event):
    """Progressive wagers locked, collected, counted and dropped."""

    count: int
    """Progressive wagers (chips) on the layout."""
    system_count: int
    """Wagers the progressive table game system accepted."""
    total: int
    """Minor units collected."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSet(Event):
    """A position's six cards set as a high and a low hand."""

    to: str
    """``seat N`` or ``dealer``."""
    high: tuple[Card, ...]
    """The five-card high hand."""
    low: Card
    """The one-card low hand."""
    hand: str
    """Description of the high hand."""
    way: str
    """``player`` or the house way's name."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandsCompared(Event):
    """A seat's two hands against the dealer's, before its settlement.

    Recorded so that a push or a loss is explained: each hand wins or
    loses, and identical ranks (a copy) go to the dealer (D20).
    """

    seat: int
    """The seat."""
    high: HandOutcome
    """Win or lose: the high hands."""
    low: HandOutcome
    """Win or lose: the low hands."""
    high_copy: bool
    """Whether the high hands were a copy (lost to the dealer)."""
    low_copy: bool
    """Whether the low cards were a copy (lost to the dealer)."""
    result: Outcome
    """Win (both won), lose (both lost) or push."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvyBonusPaid(Event):
    """An Envy Bonus paid to a seat for another position's hand."""

    seat: int
    """The seat paid."""
    source: str
    """The position whose hand earned it."""
    category: str
    """That hand's category."""
    amount: int
    """Minor units paid."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterChanged(Event):
    """The progressive meter changed."""

    meter: int
    """The meter now."""
    reason: str
    """``contribution``, ``payout`` or ``reset``."""
