"""The pieces of a Double Back Jack round: phases, hands, actions, order.

The round (:mod:`.round`) is a state machine over :class:`Phase`; every
edge it may take is listed in :data:`TRANSITIONS` with the subsection
that takes it there. Hands are plain mutable records owned by the round.

>>> can_transition(Phase.CARD_READER, Phase.DEALER_BLACKJACK)
True
>>> can_transition(Phase.PLAYER_DECISIONS, Phase.INSURANCE)
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum, unique

from croupier.cards import Card
from croupier.events import Event
from croupier.hands.blackjack import blackjack_total, second_chance_total
from croupier.money import Outcome, WagerKey
from croupier.regs import Ref, implements

from .rules import CollectionProcedure

__all__ = [
    "PHASE_REFS",
    "TRANSITIONS",
    "CardReaderChecked",
    "DbjAction",
    "HandStatus",
    "Payment",
    "Phase",
    "PlayerHand",
    "can_transition",
    "settlement_order",
]

BLACKJACK = "blackjack"
"""The Blackjack Wager (and each split hand's wager)."""
SECOND_CHANCE = "second_chance"
"""The Second Chance Wager of 591.7(l)."""
INSURANCE = "insurance"
"""The Insurance Wager (673a.8)."""


@unique
class Phase(StrEnum):
    """The phases of a Double Back Jack round, in procedure order."""

    WAGERING = "wagering"
    """Blackjack Wagers are being placed (673a.6(c))."""
    DEALING = "dealing"
    """The initial deal of 591.7(e)."""
    PLAYER_BLACKJACKS = "player_blackjacks"
    """Player Blackjacks paid at once, right to left (591.7(f))."""
    INSURANCE = "insurance"
    """Insurance offered on an ace up card (591.7(g))."""
    CARD_READER = "card_reader"
    """The hole card checked in the card reader device (591.7(h))."""
    DEALER_BLACKJACK = "dealer_blackjack"
    """The dealer has Blackjack: remaining wagers collected (591.7(h))."""
    PLAYER_DECISIONS = "player_decisions"
    """Decisions, left to right (591.7(i)-(k), (m))."""
    SECOND_CHANCE = "second_chance"
    """A busted hand is offered a Second Chance (591.7(l))."""
    HOLE_CARD = "hole_card"
    """The hole card is turned face up (591.7(n))."""
    DEALER_DRAW = "dealer_draw"
    """The dealer draws to 17-21, or not at all (591.7(o), (p))."""
    SETTLEMENT = "settlement"
    """Remaining hands compared and settled (591.7(q)-(t))."""
    CLEARING = "clearing"
    """Cards to the discard rack, hand by hand (591.7(u))."""
    RESHUFFLE = "reshuffle"
    """The cover card came out: collect and reshuffle (591.7(d))."""
    COMPLETE = "complete"
    """The round is over."""


PHASE_REFS: dict[Phase, Ref] = {
    Phase.WAGERING: Ref.parse("673a.6(c)"),
    Phase.DEALING: Ref.parse("591.7(e)"),
    Phase.PLAYER_BLACKJACKS: Ref.parse("591.7(f)"),
    Phase.INSURANCE: Ref.parse("591.7(g)"),
    Phase.CARD_READER: Ref.parse("591.7(h)"),
    Phase.DEALER_BLACKJACK: Ref.parse("591.7(h)"),
    Phase.PLAYER_DECISIONS: Ref.parse("591.7(i)"),
    Phase.SECOND_CHANCE: Ref.parse("591.7(l)"),
    Phase.HOLE_CARD: Ref.parse("591.7(n)"),
    Phase.DEALER_DRAW: Ref.parse("591.7(o)"),
    Phase.SETTLEMENT: Ref.parse("591.7(q)"),
    Phase.CLEARING: Ref.parse("591.7(u)"),
    Phase.RESHUFFLE: Ref.parse("591.7(d)"),
    Phase.COMPLETE: Ref.parse("591.7(u)"),
}
"""The subsection each phase carries out."""

TRANSITIONS: dict[Phase, frozenset[Phase]] = {
    Phase.WAGERING: frozenset({Phase.DEALING}),
    Phase.DEALING: frozenset({Phase.PLAYER_BLACKJACKS}),
    Phase.PLAYER_BLACKJACKS: frozenset(
        {Phase.INSURANCE, Phase.CARD_READER, Phase.PLAYER_DECISIONS}
    ),
    Phase.INSURANCE: frozenset({Phase.CARD_READER}),
    Phase.CARD_READER: frozenset(
        {Phase.DEALER_BLACKJACK, Phase.PLAYER_DECISIONS}
    ),
    Phase.DEALER_BLACKJACK: frozenset({Phase.CLEARING}),
    Phase.PLAYER_DECISIONS: frozenset({Phase.SECOND_CHANCE, Phase.HOLE_CARD}),
    Phase.SECOND_CHANCE: frozenset({Phase.PLAYER_DECISIONS}),
    Phase.HOLE_CARD: frozenset({Phase.DEALER_DRAW}),
    Phase.DEALER_DRAW: frozenset({Phase.SETTLEMENT}),
    Phase.SETTLEMENT: frozenset({Phase.CLEARING}),
    Phase.CLEARING: frozenset({Phase.RESHUFFLE, Phase.COMPLETE}),
    Phase.RESHUFFLE: frozenset({Phase.COMPLETE}),
    Phase.COMPLETE: frozenset(),
}
"""Every phase the round may move to from each phase."""


def can_transition(source: Phase, target: Phase) -> bool:
    """Whether the transition table allows ``source`` -> ``target``."""
    return target in TRANSITIONS[source]


@unique
@implements("591.7(v)")
class DbjAction(StrEnum):
    """Every decision a Double Back Jack player may make.

    This is the whole vocabulary: there is no verb by which a player
    handles, removes or alters a card (591.7(v)).
    """

    SURRENDER = "surrender"
    """Give up the hand for part of the wager back (673a.9)."""
    DOUBLE = "double"
    """Add up to the wager and take exactly one card (673a.10)."""
    SPLIT = "split"
    """Split two cards of equal value into two hands (673a.11)."""
    STAND = "stand"
    """Draw no more cards."""
    HIT = "hit"
    """Draw one card."""
    INSURANCE = "insurance"
    """Take insurance against a dealer Blackjack (673a.8)."""
    NO_INSURANCE = "no_insurance"
    """Decline insurance."""
    SECOND_CHANCE = "second_chance"
    """Place a Second Chance Wager on a busted hand (591.7(l))."""
    NO_SECOND_CHANCE = "no_second_chance"
    """Decline the Second Chance."""


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

    @property
    def key(self) -> WagerKey:
        """The hand's Blackjack Wager."""
        return WagerKey(self.seat, BLACKJACK, self.index)

    @property
    def second_chance_key(self) -> WagerKey:
        """The hand's Second Chance Wager (if placed)."""
        return WagerKey(self.seat, SECOND_CHANCE, self.index)

    @property
    def label(self) -> str:
        """``seat N`` or ``seat N hand 2``, as in the scenario output."""
        suffix = f" hand {self.index + 1}" if self.index else ""
        return f"seat {self.seat}{suffix}"

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


@dataclass(frozen=True, slots=True, kw_only=True)
class CardReaderChecked(Event):
    """The hole card went through the card reader device, unseen.

    Only the answer is recorded: whether the dealer has a Blackjack.
    """

    blackjack: bool
    """Whether the hole card gives the dealer a Blackjack."""


@dataclass(frozen=True, slots=True)
class Payment:
    """A settlement the dealer is about to make."""

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
    payments: Iterable[Payment], procedure: CollectionProcedure
) -> list[Payment]:
    """Order settlements by the designated collection procedure.

    (t)(1) collects every losing wager right to left (the dealer's
    right is the highest seat), then pays and returns the others right
    to left; (t)(2) goes player by player right to left, collecting
    that player's losers before paying their winners. Within a hand the
    given order is kept.

    >>> key = lambda seat: WagerKey(seat, BLACKJACK)
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
    """
    items: Sequence[Payment] = list(payments)

    def losing_last(payment: Payment) -> int:
        return 0 if payment.outcome is Outcome.LOSE else 1

    if procedure is CollectionProcedure.COLLECT_THEN_PAY:
        return sorted(
            items, key=lambda p: (losing_last(p), *_right_to_left(p))
        )
    return sorted(
        items, key=lambda p: (-p.key.seat, losing_last(p), -p.key.hand)
    )
