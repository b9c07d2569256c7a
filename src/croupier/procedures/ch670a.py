"""Six-Card Fortune Pai Gow Poker dealing procedures (670a.8-670a.10).

Seven positions receive six cards each: the six betting positions
(seats 1-6, clockwise from the dealer's left) and the dealer, who sits
between seat 6 and seat 1 in the clockwise rotation and is position 7
here. Each function carries out one regulated step over a
:class:`~croupier.shoe.Shoe` (the deck in the dealer's hand or in a
dealing shoe) and an :class:`~croupier.events.EventLog`, and returns
what it did; every event cites its subsection.

Dealing never refuses a short or long deck: it deals what there is and
the count of 670a.9(d) finds the fault, which 670a.9(e) then handles.

>>> clockwise_from(5)
[5, 6, 7, 1, 2, 3, 4]
>>> position_label(7), position_label(2)
('dealer', 'seat 2')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum, unique

from croupier.cards import Card
from croupier.errors import ProcedureError
from croupier.events import CardDealt, CardsCollected, Event, EventLog
from croupier.regs import Ref, implements
from croupier.rng import Rng
from croupier.shoe import Shoe

__all__ = [
    "CARDS_PER_HAND",
    "CARDS_REMAINING",
    "DEALER",
    "POSITIONS",
    "CardsCounted",
    "Deal",
    "DealFault",
    "DeckRemoved",
    "StartingPositionDetermined",
    "clockwise_from",
    "count_remaining",
    "deal_from_hand",
    "deal_from_manual_shoe",
    "deliver_stacks",
    "determine_starting_position",
    "discard_unwagered_stacks",
    "find_fault",
    "irregularities_shown",
    "parse_irregularities",
    "position_label",
    "position_of",
    "remove_deck",
]

CARDS_PER_HAND = 6
"""Cards each position and the dealer receive (670a.9(c))."""
CARDS_REMAINING = 11
"""Cards that must remain after a correct deal of 53 (670a.9(d))."""
DEALER = 7
"""The dealer's position number in the clockwise rotation."""
POSITIONS = (1, 2, 3, 4, 5, 6, DEALER)
"""Every position that receives cards, clockwise from seat 1."""


def _label(position: int) -> str:
    return "dealer" if position == DEALER else f"seat {position}"


_LABELS = {position: _label(position) for position in POSITIONS}
"""Each position's label, worked out once (a round asks about 70 times)."""


def position_label(position: int) -> str:
    """``seat N`` for a betting position, ``dealer`` for position 7."""
    label = _LABELS.get(position)
    return _label(position) if label is None else label


_POSITIONS_BY_LABEL = {label: p for p, label in _LABELS.items()}


def position_of(label: object) -> int | None:
    """The position a label names (:func:`position_label`'s inverse).

    >>> position_of("seat 3"), position_of("dealer"), position_of("seat 9")
    (3, 7, None)
    """
    return _POSITIONS_BY_LABEL.get(label) if isinstance(label, str) else None


_SLIP_COUNTS = {"skip": 0, "double": 2}
"""Cards a position receives on a turn of the deal after a dealer's slip."""


def clockwise_from(start: int) -> list[int]:
    """The seven positions clockwise, beginning with ``start``."""
    if start not in POSITIONS:
        msg = f"no position {start}: seats are 1-6 and the dealer is 7"
        raise ProcedureError(msg, ref=Ref.parse("670a.9(b)"))
    index = POSITIONS.index(start)
    return list(POSITIONS[index:] + POSITIONS[:index])


@dataclass(frozen=True, slots=True, kw_only=True)
class StartingPositionDetermined(Event):
    """The position to receive the first card (670a.5(i), D24)."""

    position: int
    """Seat 1-6, or 7 for the dealer."""
    number: int | None
    """The random number drawn (counted from the dealer as 1), if any."""
    method: str
    """``rng`` (the table's random number generator) or ``given``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsCounted(Event):
    """The dealer spread the remaining cards face down and counted them."""

    count: int
    """Cards counted."""
    expected: int
    """Cards that must remain (eleven)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckRemoved(Event):
    """The entire deck was removed from the table (670a.9(e))."""

    cards: tuple[Card, ...]
    """Every card of the deck, for reconstruction (never exposed)."""
    exposed: bool = False
    """Always ``False``: the cards are recorded, never shown."""


@dataclass(slots=True)
class Deal:
    """The cards each position received, in the order received."""

    stacks: dict[int, list[Card]] = field(
        default_factory=lambda: {p: [] for p in POSITIONS}
    )
    """Position (1-6, dealer 7) to its cards."""

    def cards(self) -> list[Card]:
        """Every dealt card, position by position."""
        return [card for p in POSITIONS for card in self.stacks[p]]

    def wrong_counts(self) -> list[int]:
        """Positions holding more or fewer than six cards."""
        return [p for p in POSITIONS if len(self.stacks[p]) != CARDS_PER_HAND]


@implements("670a.9(b)", "670a.10(b)")
def determine_starting_position(
    log: EventLog, rng: Rng, ref: Ref, given: int | None = None
) -> int:
    """Determine the starting position (670a.5(i); D24).

    Without ``given``, a number from 1 to 7 is drawn from the table's
    RNG and counted from the dealer as position 1, counter-clockwise
    (dealer, seat 6, seat 5 ... seat 1). A replay gives the position.
    """
    if given is not None:
        clockwise_from(given)  # validates
        log.emit(
            StartingPositionDetermined,
            ref=ref,
            position=given,
            number=None,
            method="given",
        )
        return given
    number = rng.randbelow(len(POSITIONS)) + 1
    position = DEALER + 1 - number
    log.emit(
        StartingPositionDetermined,
        ref=ref,
        position=position,
        number=number,
        method="rng",
    )
    return position


def parse_irregularities(raw: Iterable[str]) -> dict[tuple[int, int], str]:
    """Parse replay entries of dealer's slips to (turn, position) → kind.

    ``skip:N`` passes position N over on its first turn of the deal and
    ``double:N`` gives it two cards then; ``skip:N@T`` and
    ``double:N@T`` slip on its turn T (1-6) instead.

    >>> parse_irregularities(["skip:3", "double:7@2"])
    {(1, 3): 'skip', (2, 7): 'double'}
    """
    out: dict[tuple[int, int], str] = {}
    for entry in raw:
        kind, _, where = entry.partition(":")
        number, at, turn = where.partition("@")
        if (
            kind not in _SLIP_COUNTS
            or not number.isdigit()
            or (at and not turn.isdigit())
        ):
            msg = (
                f"dealing irregularity {entry!r}: write skip:N or double:N "
                f"(its first turn), or skip:N@T or double:N@T (turn T)"
            )
            raise ProcedureError(msg, ref=Ref.parse("670a.9(e)"))
        position = int(number)
        clockwise_from(position)
        when = int(turn) if at else 1
        if not 1 <= when <= CARDS_PER_HAND:
            msg = (
                f"dealing irregularity {entry!r}: the deal has turns 1 to "
                f"{CARDS_PER_HAND}"
            )
            raise ProcedureError(msg, ref=Ref.parse("670a.9(e)"))
        out[(when, position)] = kind
    return out


def irregularities_shown(
    start: int, dealt: Iterable[int], remaining: int = 0
) -> tuple[str, ...] | None:
    """The dealer's slips that deal from ``start`` to ``dealt`` (D92).

    :func:`parse_irregularities`' inverse: ``dealt`` is the position
    each card went to, in order. Each turn the dealer gives every
    position, clockwise from ``start``, one card; a slip gives one none
    (``skip``) or two (``double``). The entries are in the order dealt
    (``()`` for a regular deal, or one the deck cut short). When the
    deal stopped with ``remaining`` cards left (the count of (d)), the
    positions it never reached were passed over. ``None`` when no slips
    give ``dealt`` (more cards than six turns of two each hold, in the
    order clockwise).

    >>> irregularities_shown(4, [4, 5, 6, 7, 1, 2, 4, 5, 6, 7, 1, 2, 3])
    ('skip:3',)
    >>> irregularities_shown(1, [1, 2, 3, 4, 5, 6, 7, 1, 1, 3])
    ('double:1@2', 'skip:2@2')
    >>> irregularities_shown(1, [1, 2, 3, 4, 5, 6, 7, 1], remaining=44)[-1]
    'skip:7@6'
    >>> irregularities_shown(1, [*range(1, 8)] * 6 + [1]) is None
    True
    """
    order = clockwise_from(start)
    cards = list(dealt)
    total = len(cards)
    k = 0
    out: list[str] = []
    for turn in range(1, CARDS_PER_HAND + 1):
        suffix = "" if turn == 1 else f"@{turn}"
        for position in order:
            if k == total and not remaining:
                return tuple(out)  # the deck ran out here
            n = 0
            while n < 2 and k < total and cards[k] == position:
                n += 1
                k += 1
            if n != 1:
                kind = "skip" if n == 0 else "double"
                out.append(f"{kind}:{position}{suffix}")
    return tuple(out) if k == total else None


def _deal_card(
    shoe: Shoe, log: EventLog, deal: Deal, position: int, ref: Ref
) -> None:
    card = shoe.draw()
    deal.stacks[position].append(card)
    log.emit(
        CardDealt,
        ref=ref,
        to=_LABELS[position],
        card=card,
        face_up=False,
    )


def _deal_regular(
    shoe: Shoe, log: EventLog, order: Sequence[int], ref: Ref, deal: Deal
) -> bool:
    """Deal six turns of one card each from a stack that holds them all.

    The regular deal when the top of the stack holds a card for every
    turn and no cover card: the cards are taken from the stack at once
    and the ``k``-th goes to ``order[k % 7]``, the same cards, events and
    stacks as one :meth:`Shoe.draw` a card (the slow path, taken when
    this returns ``False`` having changed nothing).
    """
    stack = shoe.stack
    need = CARDS_PER_HAND * len(order)
    top = [card for card in stack[:need] if isinstance(card, Card)]
    if len(top) != need:
        return False
    del stack[:need]
    turns = len(order)
    stacks = deal.stacks
    for k, position in enumerate(order):
        stacks[position] = top[k::turns]
    labels = [_LABELS[p] for p in order] * CARDS_PER_HAND
    dealt = log.emitter(CardDealt)
    for card, label in zip(top, labels, strict=True):
        dealt(ref=ref, to=label, card=card, face_up=False)
    return True


def _one_at_a_time(
    shoe: Shoe,
    log: EventLog,
    start: int,
    ref: Ref,
    irregularities: dict[tuple[int, int], str],
) -> Deal:
    deal = Deal()
    order = clockwise_from(start)
    if not irregularities and _deal_regular(shoe, log, order, ref, deal):
        return deal
    # each turn's (position, cards it receives): one card each, except
    # a slip (none when passed over, two when doubled)
    if irregularities:
        turns = [
            [
                (p, _SLIP_COUNTS.get(irregularities.get((t, p)) or "", 1))
                for p in order
            ]
            for t in range(1, CARDS_PER_HAND + 1)
        ]
    else:
        turns = [[(p, 1) for p in order]] * CARDS_PER_HAND
    stacks = deal.stacks
    draw = shoe.draw
    dealt = log.emitter(CardDealt)
    for turn in turns:
        for position, count in turn:
            # each card as _deal_card deals it, the calls looked up once
            stack = stacks[position]
            label = _LABELS[position]
            for _ in range(count):
                if shoe.empty:
                    return deal
                card = draw()
                stack.append(card)
                dealt(ref=ref, to=label, card=card, face_up=False)
    return deal


@implements("670a.9(c)")
def deal_from_hand(
    shoe: Shoe,
    log: EventLog,
    start: int,
    irregularities: dict[tuple[int, int], str] | None = None,
) -> Deal:
    """Deal one card at a time, face down, clockwise from ``start``.

    Every position receives cards whether or not it holds a wager, and
    the dealer too, until each has six (670a.9(c)). If the deck runs
    out the deal stops there; ``irregularities`` replays a dealer's slips
    (a position passed over, or given two cards, on a turn of the deal:
    :func:`parse_irregularities`).
    """
    return _one_at_a_time(
        shoe, log, start, Ref.parse("670a.9(c)"), irregularities or {}
    )


@implements("670a.8")
def deal_from_manual_shoe(
    shoe: Shoe,
    log: EventLog,
    start: int,
    irregularities: dict[tuple[int, int], str] | None = None,
) -> Deal:
    """Deal from a manual dealing shoe: one card at a time, clockwise.

    670a.8 was not retrieved; this follows the order 670a.9(c) and
    670a.10(c) share (every position and the dealer, clockwise from the
    starting position), with each card drawn from the shoe.
    """
    return _one_at_a_time(
        shoe, log, start, Ref.parse("670a.8"), irregularities or {}
    )


@implements("670a.10(c)")
def deliver_stacks(shoe: Shoe, log: EventLog, start: int) -> Deal:
    """Deliver the stacks of six the automated dealing shoe dispenses.

    The first stack goes to the starting position, the others clockwise
    to every position whether or not it holds a wager, and the dealer
    (670a.10(c)). A short deck makes the last stacks short.
    """
    deal = Deal()
    ref = Ref.parse("670a.10(c)")
    for position in clockwise_from(start):
        for _ in range(CARDS_PER_HAND):
            if shoe.empty:
                return deal
            _deal_card(shoe, log, deal, position, ref)
    return deal


@implements("670a.9(d)")
def count_remaining(shoe: Shoe, log: EventLog, ref: Ref) -> list[Card]:
    """Spread the cards left face down and count them (670a.9(d)).

    The cards leave the deck (they lie on the layout, unexposed) and are
    returned; the caller places them in the discard rack or removes the
    deck. The count, not the cards, is recorded here.
    """
    remaining = shoe.cards_in_stack()
    shoe.stack = []
    log.emit(
        CardsCounted,
        ref=ref,
        count=len(remaining),
        expected=CARDS_REMAINING,
    )
    return remaining


@unique
class DealFault(StrEnum):
    """What the count of 670a.9(d)-(e) found wrong."""

    MISDEALT = "misdealt"
    """A position or the dealer holds more or fewer than six cards."""
    WRONG_DECK = "wrong deck"
    """Every position holds six, but not eleven cards remain."""


@implements("670a.9(e)")
def find_fault(deal: Deal, remaining: Sequence[Card]) -> DealFault | None:
    """The fault the dealer finds, or ``None`` for a correct deal.

    With a wrong count the dealer checks the positions (670a.9(e)). A
    position holding the wrong number with eleven remaining is treated
    as a misdeal too (D25), though (e) speaks only of a wrong count.
    """
    if deal.wrong_counts():
        return DealFault.MISDEALT
    if len(remaining) != CARDS_REMAINING:
        return DealFault.WRONG_DECK
    return None


@implements("670a.9(e)")
def remove_deck(
    shoe: Shoe, log: EventLog, cards: Sequence[Card], ref: Ref
) -> Event:
    """Remove the entire deck from the table (670a.9(e), wrong deck)."""
    shoe.withdraw(cards)
    return log.emit(DeckRemoved, ref=ref, cards=tuple(cards))


@implements("670a.9(f)")
def discard_unwagered_stacks(
    shoe: Shoe,
    log: EventLog,
    deal: Deal,
    wagered: Iterable[int],
    ref: Ref,
) -> list[int]:
    """Discard, unexposed, the stacks of positions without a wager.

    Returns the positions whose stacks went to the discard rack.
    """
    keep = set(wagered) | {DEALER}
    discarded = []
    for position in POSITIONS:
        if position in keep:
            continue
        cards = deal.stacks[position]
        shoe.discard_cards(cards)
        log.emit(
            CardsCollected,
            ref=ref,
            source=position_label(position),
            cards=tuple(cards),
            exposed=False,
        )
        discarded.append(position)
    return discarded
