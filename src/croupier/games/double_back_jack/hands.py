"""A Double Back Jack round's hands and the order settlements are made in.

Hands are plain mutable records owned by the round (:mod:`.round`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum, unique
from typing import NamedTuple

from croupier.cards import Card
from croupier.hands.blackjack import blackjack_total, second_chance_total
from croupier.money import Outcome, WagerKey
from croupier.regs import Ref, implements

from .rules import CollectionProcedure, Wager

__all__ = [
    "HandStatus",
    "Payment",
    "PlayerHand",
    "settlement_order",
]


@unique
class HandStatus(StrEnum):
    """Where a player hand stands in the round."""

    PLAYING = "playing"
    """Waiting for (or about to receive) the player's decisions."""
    BUSTED = "busted"
    """Over 21, the Second Chance question pending."""
    STANDING = "standing"
    """Complete and waiting for the dealer's total."""
    SETTLED = "settled"
    """Every wager on the hand is settled."""


@dataclass(slots=True)
class PlayerHand:
    """One hand at a box: its cards and how it was played.

    ``seat`` and ``index`` are fixed when the hand is made: its wager
    keys and label are derived from them then.

    >>> from croupier.cards import parse_cards
    >>> hand = PlayerHand(seat=2, cards=list(parse_cards("Kd 9s 6h")))
    >>> hand.total(), hand.label
    (25, 'seat 2')
    >>> hand.second_chance_card = Card.parse("5c")
    >>> hand.total(), [str(c) for c in hand.all_cards()]
    (20, ['Kd', '9s', '6h', '5c'])
    """

    seat: int
    """The box."""
    index: int = 0
    """0 for the first (or only) hand, 1 for the second split hand."""
    cards: list[Card] = field(default_factory=list)
    """The cards, in the order dealt (without the Second Chance card)."""
    status: HandStatus = HandStatus.PLAYING
    """Where the hand stands."""
    split: bool = False
    """Whether the hand comes from a split."""
    doubled: bool = False
    """Whether the player doubled down on it."""
    second_chance_card: Card | None = None
    """The card dealt sideways for a Second Chance (591.7(l))."""
    on_table: bool = True
    """Whether its cards are still on the layout."""
    key: WagerKey = field(init=False, repr=False, compare=False)
    """The hand's Blackjack Wager."""
    second_chance_key: WagerKey = field(init=False, repr=False, compare=False)
    """The hand's Second Chance Wager (if placed)."""
    label: str = field(init=False, repr=False, compare=False)
    """``seat N`` or ``seat N hand 2``, as in the scenario output."""

    def __post_init__(self) -> None:
        # a hand keeps its box and index for life: what names it is
        # worked out once, not at every card and settlement
        seat, index = self.seat, self.index
        self.key = WagerKey(seat, Wager.BLACKJACK, index)
        self.second_chance_key = WagerKey(seat, Wager.SECOND_CHANCE, index)
        suffix = f" hand {index + 1}" if index else ""
        self.label = f"seat {seat}{suffix}"

    def all_cards(self) -> list[Card]:
        """The cards including the Second Chance card, in dealt order."""
        extra = (
            []
            if self.second_chance_card is None
            else [self.second_chance_card]
        )
        return [*self.cards, *extra]

    def total(self) -> int:
        """The hand's total (less the Second Chance card, if any)."""
        if self.second_chance_card is not None:
            return second_chance_total(self.cards, self.second_chance_card)
        return blackjack_total(self.cards).value


class Payment(NamedTuple):
    """A settlement the dealer is about to make.

    A named tuple: the round makes one for every wager it settles.
    """

    key: WagerKey
    """The wager."""
    outcome: Outcome
    """Win, lose or push."""
    net: int
    """The player's gain (negative: loss)."""
    ref: Ref
    """The subsection under which it is settled."""


def _right_to_left(payment: Payment) -> tuple[int, int]:
    return (-payment.key.seat, -payment.key.hand)


@implements("591.7(t)")
def settlement_order(
    payments: Iterable[Payment],
    procedure: CollectionProcedure,
    players: Mapping[int, str] | None = None,
) -> list[Payment]:
    """Order settlements by the designated collection procedure.

    (t)(1) collects every losing wager right to left (the dealer's
    right is the highest seat), then pays and returns the others right
    to left; (t)(2) goes player by player right to left, collecting
    that player's losers before paying their winners. A player is the
    person at the boxes (``players``, box to player id, D85): one who
    plays several boxes is settled at once, from the rightmost of them,
    all the losers first; a box with no player named is a player of its
    own. Within a hand the given order is kept.

    >>> key = lambda seat: WagerKey(seat, Wager.BLACKJACK)
    >>> ref = Ref.parse("591.7(s)")
    >>> items = [Payment(key(1), Outcome.LOSE, -5, ref),
    ...          Payment(key(2), Outcome.WIN, 5, ref),
    ...          Payment(key(3), Outcome.WIN, 5, ref)]
    >>> [p.key.seat for p in settlement_order(
    ...     items, CollectionProcedure.COLLECT_THEN_PAY)]
    [1, 3, 2]
    >>> [p.key.seat for p in settlement_order(
    ...     items, CollectionProcedure.PLAYER_BY_PLAYER)]
    [3, 2, 1]
    >>> [p.key.seat for p in settlement_order(
    ...     items, CollectionProcedure.PLAYER_BY_PLAYER, {1: "ann", 3: "ann"})]
    [1, 3, 2]
    """
    items: Sequence[Payment] = list(payments)
    if len(items) < 2:  # nothing to order
        return list(items)

    def losing_last(payment: Payment) -> int:
        return 0 if payment.outcome is Outcome.LOSE else 1

    if procedure is CollectionProcedure.COLLECT_THEN_PAY:
        return sorted(
            items, key=lambda p: (losing_last(p), *_right_to_left(p))
        )
    owners = players or {}
    # each player's rightmost box: where the dealer comes to them
    rightmost: dict[object, int] = {}
    for payment in items:
        seat = payment.key.seat
        person = owners.get(seat, seat)
        rightmost[person] = max(rightmost.get(person, seat), seat)
    return sorted(
        items,
        key=lambda p: (
            -rightmost[owners.get(p.key.seat, p.key.seat)],
            losing_last(p),
            -p.key.seat,
            -p.key.hand,
        ),
    )
