"""A simple, deterministic decision policy for demonstrations and load.

Not a strategy for analysis (see :mod:`croupier.odds`): it plays
blackjack-style hands to 17, takes the house way at pai gow, declines
insurance and double downs, and takes a Second Chance when offered so
that demonstrations show it.
"""

from __future__ import annotations

from enum import StrEnum

from croupier.cards import parse_cards
from croupier.games.double_back_jack.phases import DbjAction
from croupier.games.six_card_fortune_pai_gow.phases import PaiGowAction
from croupier.hands.blackjack import blackjack_total
from croupier.round import Action, Pending, Round

__all__ = ["auto_action", "hand_label"]

_STAND_ON = 17
_PREFERRED: tuple[StrEnum, ...] = (
    PaiGowAction.HOUSE_WAY,
    DbjAction.NO_INSURANCE,
    PaiGowAction.NO_DOUBLE_DOWN,
    DbjAction.SECOND_CHANCE,
    DbjAction.NO_SECOND_CHANCE,
)
"""The decisions taken whenever they are legal, in this order."""


def hand_label(seat: int, hand: int) -> str:
    """The ``hands()`` label of a seat's hand (split hands numbered)."""
    return f"seat {seat}" if hand == 0 else f"seat {seat} hand {hand + 1}"


def auto_action(rnd: Round, pending: Pending) -> Action:
    """The policy's choice among ``pending.legal``."""
    for name in _PREFERRED:
        if name in pending.legal:
            return Action(seat=pending.seat, name=name)
    if DbjAction.HIT in pending.legal and DbjAction.STAND in pending.legal:
        cards = rnd.hands().get(hand_label(pending.seat, pending.hand), [])
        total = blackjack_total(parse_cards(cards)).value
        name = DbjAction.HIT if total < _STAND_ON else DbjAction.STAND
        return Action(seat=pending.seat, name=name)
    return Action(seat=pending.seat, name=pending.legal[0])
