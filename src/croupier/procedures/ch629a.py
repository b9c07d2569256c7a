"""Midibaccarat shuffle, cut, second cover card and burn: 629a.5 (a)-(f).

Each step is a function over a :class:`~croupier.shoe.Shoe` and an
:class:`~croupier.events.EventLog`; it verifies first, then mutates, and
returns the events it emitted, each citing its subsection. Commission-
free Midibaccarat (629b.2) cites 629a.5, so it uses the same steps.

Seats are numbered from 1 at the dealer's left; clockwise is ascending
seat order, wrapping from the highest seat to seat 1.

>>> from croupier.rng import SeededRng
>>> shoe, log = Shoe.new(decks=1), EventLog()
>>> events = prepare_shoe(shoe, log, rng=SeededRng(3), occupied_seats=(2, 7),
...     accepting=(2,), cut_position=20, second_cover_from_bottom=14)
>>> [e.type_name for e in events]  # doctest: +NORMALIZE_WHITESPACE
['shuffled', 'cut_offered', 'cut_offered', 'cover_card_inserted',
 'cut_completed', 'cover_card_inserted']
>>> shoe.notation().count("CC"), len(shoe)
(2, 52)
>>> burned = burn_new_shoe(shoe, log)
>>> len(burned) == 1 + burn_count(burned[0].card), burned[0].face_up
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum, unique

from croupier.cards import Card, Rank
from croupier.errors import ShoeError, ShoeExhaustedError
from croupier.events import (
    Announced,
    CardBurned,
    CoverCardInserted,
    CutOffered,
    Event,
    EventLog,
    Shuffled,
)
from croupier.regs import Ref, implements
from croupier.rng import Rng, SecureRng
from croupier.shoe import COVER_CARD, CoverCard, Shoe

__all__ = [
    "CUT_MARGIN",
    "SECOND_COVER_MARGIN",
    "CutCompleted",
    "ShuffleMethod",
    "burn_count",
    "burn_new_shoe",
    "complete_cut",
    "cut",
    "cut_order",
    "cutter_of",
    "insert_second_cover_card",
    "offer_cut",
    "prepare_shoe",
    "recut",
    "seated_at_cut",
    "shuffle",
    "verify_cut",
]

SECTION = "629a.5"
CUT_MARGIN = 10
"""The cut's cover card lies at least this many cards from either end
(629a.5(c))."""
SECOND_COVER_MARGIN = 14
"""The second cover card lies at least this many cards above the bottom
(629a.5(d))."""
DEALER = "dealer"


@dataclass(frozen=True, slots=True, kw_only=True)
class CutCompleted(Event):
    """The cards above the cut's cover card, and it, went to the bottom."""

    moved: int
    """How many cards were moved from the top to the bottom."""


@unique
class ShuffleMethod(StrEnum):
    """How the cards were randomly intermixed (629a.5(a))."""

    AUTOMATED = "automated"
    """A shuffling device (modelled by the injected RNG)."""
    MANUAL = "manual"
    """By hand: the stack is then left feathered for the floorperson."""
    PRESHUFFLED = "preshuffled"
    """Arrived preshuffled under 603a.16(u)/(v): no shuffle at the table."""


@implements("629a.5(a)")
def shuffle(
    shoe: Shoe,
    log: EventLog,
    rng: Rng | None = None,
    *,
    method: ShuffleMethod = ShuffleMethod.AUTOMATED,
) -> list[Event]:
    """Shuffle the cards so that they are randomly intermixed.

    The RNG is a CSPRNG unless a seeded one is given. Preshuffled cards
    are not shuffled again; they are only recorded. Cards in the discard
    bucket are gathered into the stack first (cover cards removed), so
    the table must be clear. After a manual shuffle the dealer leaves
    the stack feathered so that the floorperson can verify it.
    """
    ref = Ref.parse("629a.5(a)")
    shoe.gather()
    if method is ShuffleMethod.PRESHUFFLED:
        return [
            log.emit(Shuffled, ref=ref, source="preshuffled", cards=len(shoe))
        ]
    source = rng if rng is not None else SecureRng()
    shoe.shuffle(source)
    described = source.describe()
    seed = described.get("seed")
    events: list[Event] = [
        log.emit(
            Shuffled,
            ref=ref,
            source=str(described["kind"]),
            cards=len(shoe),
            seed=seed if isinstance(seed, int) else None,
        )
    ]
    if method is ShuffleMethod.MANUAL:
        events.append(
            log.emit(
                Announced,
                ref=ref,
                text="manual shuffle: stack left feathered for the "
                "floorperson to verify the distribution",
            )
        )
    return events


def cut_order(occupied_seats: Iterable[int]) -> list[int]:
    """The order in which the cut is offered (629a.5(b)).

    The highest-numbered occupied seat first, then clockwise (ascending
    seat numbers), wrapping round to the lowest occupied seat.

    >>> cut_order([5, 2, 7])
    [7, 2, 5]
    >>> cut_order([])
    []
    """
    seats = sorted(set(occupied_seats))
    if not seats:
        return []
    return [seats[-1], *seats[:-1]]


def seated_at_cut(
    preparation: Iterable[Mapping[str, object]], seated: Iterable[int] | None
) -> tuple[int, ...] | None:
    """The seats a record names as seated at the cut, if there was one.

    ``preparation`` is the table's steps before the round (as written:
    ``{"type": ...}``), ``seated`` the seats occupied when the table
    prepared the shoe (``None``: not known). Only a preparation that
    offers the stack for the cut (a ``cut_offered`` step, 629a.5(b))
    gives them: a hand history's ``shoe.seated_at_cut`` (D78).

    >>> offer = {"type": "cut_offered", "to": "seat 7", "accepted": True}
    >>> seated_at_cut([offer], [7, 2]), seated_at_cut([], [7, 2])
    ((2, 7), None)
    """
    if seated is None:
        return None
    if not any(step.get("type") == "cut_offered" for step in preparation):
        return None
    return tuple(sorted(set(seated)))


@implements("629a.5(b)")
def offer_cut(
    log: EventLog,
    occupied_seats: Iterable[int],
    accepting: Collection[int] = (),
    *,
    after: int | None = None,
    ref: Ref | None = None,
) -> list[CutOffered]:
    """Offer the stack for the cut until a seat accepts, else the dealer.

    ``accepting`` names the seats that would accept. With ``after`` (a
    recut, 629a.5(e)) the offer starts with the seat after that one in
    the (b) order and does not wrap back to it. The last event names
    who cuts (``seat N`` or ``dealer``).

    >>> log = EventLog()
    >>> [(e.to, e.accepted) for e in offer_cut(log, [3, 8], accepting=[3])]
    [('seat 8', False), ('seat 3', True)]
    """
    cite = ref if ref is not None else Ref.parse("629a.5(b)")
    order = cut_order(occupied_seats)
    if after is not None:
        order = order[order.index(after) + 1 :] if after in order else []
    events: list[CutOffered] = []
    for seat in order:
        accepted = seat in accepting
        events.append(
            log.emit(
                CutOffered, ref=cite, to=f"seat {seat}", accepted=accepted
            )
        )
        if accepted:
            return events
    events.append(log.emit(CutOffered, ref=cite, to=DEALER, accepted=True))
    return events


def cutter_of(offers: Iterable[CutOffered]) -> str:
    """Who cuts: the ``to`` of the accepted offer (``seat N``/``dealer``)."""
    for offer in offers:
        if offer.accepted:
            return offer.to
    return DEALER


def _verify_no_cover_cards(shoe: Shoe, ref: Ref) -> None:
    if any(isinstance(item, CoverCard) for item in shoe.stack):
        msg = "the stack already holds a cover card; cut a clean stack"
        raise ShoeError(msg, ref=ref)


def _verify_cut_position(size: int, position: int) -> None:
    if position < CUT_MARGIN or size - position < CUT_MARGIN:
        msg = (
            f"a cover card {position} cards from the top and "
            f"{size - position} from the bottom is closer than "
            f"{CUT_MARGIN} cards to an end of the stack"
        )
        raise ShoeError(msg, ref=Ref.parse("629a.5(c)"))


def _verify_second_cover(size: int, from_bottom: int) -> None:
    if from_bottom < SECOND_COVER_MARGIN:
        msg = (
            f"the second cover card {from_bottom} cards above the bottom is "
            f"closer than {SECOND_COVER_MARGIN} cards"
        )
        raise ShoeError(msg, ref=Ref.parse("629a.5(d)"))
    if from_bottom > size:
        msg = f"only {size} cards in the stack, not {from_bottom}"
        raise ShoeError(msg, ref=Ref.parse("629a.5(d)"))


def verify_cut(shoe: Shoe, position: int) -> None:
    """Raise unless a cut ``position`` cards from the top is allowed."""
    _verify_no_cover_cards(shoe, Ref.parse("629a.5(c)"))
    _verify_cut_position(len(shoe), position)


@implements("629a.5(c)")
def cut(
    shoe: Shoe, log: EventLog, position: int, *, by: str = DEALER
) -> list[Event]:
    """Cut: place the cover card with ``position`` cards above it.

    Refused (stack unchanged) closer than 10 cards to the top or the
    bottom of the stack.
    """
    verify_cut(shoe, position)
    shoe.insert_cover_card(position)
    return [
        log.emit(
            CoverCardInserted,
            ref=Ref.parse("629a.5(c)"),
            position=position,
            purpose="cut",
            by=by,
        )
    ]


@implements("629a.5(d)")
def complete_cut(shoe: Shoe, log: EventLog) -> list[Event]:
    """Move the cards above the cover card, and the cover card, to the bottom.

    The cut's cover card thus ends as the bottom item of the stack.
    """
    ref = Ref.parse("629a.5(d)")
    covers = [i for i, item in enumerate(shoe.stack) if item is COVER_CARD]
    if len(covers) != 1:
        msg = f"expected one cover card in the stack, found {len(covers)}"
        raise ShoeError(msg, ref=ref)
    index = covers[0]
    moved = shoe.stack[: index + 1]
    shoe.stack = shoe.stack[index + 1 :] + moved
    return [log.emit(CutCompleted, ref=ref, moved=index)]


def _index_above_bottom(shoe: Shoe, from_bottom: int) -> int:
    """The stack index with exactly ``from_bottom`` cards below it."""
    below = 0
    index = len(shoe.stack)
    while below < from_bottom:
        index -= 1
        if isinstance(shoe.stack[index], Card):
            below += 1
    return index


@implements("629a.5(d)")
def insert_second_cover_card(
    shoe: Shoe, log: EventLog, from_bottom: int = SECOND_COVER_MARGIN
) -> list[Event]:
    """Insert the second cover card with ``from_bottom`` cards below it.

    Refused (stack unchanged) closer than 14 cards to the bottom. When
    it comes out, the shoe ends after that round.
    """
    ref = Ref.parse("629a.5(d)")
    _verify_second_cover(len(shoe), from_bottom)
    index = _index_above_bottom(shoe, from_bottom)
    shoe.insert_cover_card(index)
    position = sum(1 for item in shoe.stack[:index] if isinstance(item, Card))
    return [
        log.emit(
            CoverCardInserted,
            ref=ref,
            position=position,
            purpose="reshuffle marker",
        )
    ]


def _chosen_position(size: int, rng: Rng, position: int | None) -> int:
    """The cut position given, or a uniform choice among allowed ones."""
    if position is not None:
        return position
    span = size - 2 * CUT_MARGIN + 1
    if span < 1:
        msg = f"a stack of {size} cards is too small to cut"
        raise ShoeError(msg, ref=Ref.parse("629a.5(c)"))
    return CUT_MARGIN + rng.randbelow(span)


@implements("629a.5(e)")
def recut(
    shoe: Shoe,
    log: EventLog,
    *,
    previous: str,
    occupied_seats: Iterable[int],
    accepting: Collection[int] = (),
    position: int | None = None,
    second_cover_from_bottom: int = SECOND_COVER_MARGIN,
    rng: Rng | None = None,
) -> list[Event]:
    """A floorperson orders a recut before the stack goes into the shoe.

    The cover cards come out (the order of the cards is kept) and the
    cut is offered again from the next person entitled in the (b) order
    after ``previous`` (``seat N`` or ``dealer``); if none of them
    accepts (or the dealer cut before), the dealer cuts. Then (c) and
    (d) again. INFER: "next person entitled" read as the next seat in
    the (b) order, without wrapping back to seats that already declined.
    """
    ref = Ref.parse("629a.5(e)")
    source = rng if rng is not None else SecureRng()
    seats = list(occupied_seats)
    after = (
        int(previous.removeprefix("seat "))
        if previous.startswith("seat ")
        else None
    )
    size = len(shoe)
    chosen = _chosen_position(size, source, position)
    _verify_cut_position(size, chosen)
    _verify_second_cover(size, second_cover_from_bottom)
    events: list[Event] = [
        log.emit(
            Announced,
            ref=ref,
            text=f"floorperson requires a recut (previous cut by {previous})",
        )
    ]
    shoe.stack = list(shoe.cards_in_stack())
    if after is None:
        offers: list[CutOffered] = [
            log.emit(CutOffered, ref=ref, to=DEALER, accepted=True)
        ]
    else:
        offers = offer_cut(log, seats, accepting, after=after, ref=ref)
    events.extend(offers)
    events.extend(cut(shoe, log, chosen, by=cutter_of(offers)))
    events.extend(complete_cut(shoe, log))
    events.extend(
        insert_second_cover_card(shoe, log, second_cover_from_bottom)
    )
    return events


@implements("629a.5(a)", "629a.5(b)", "629a.5(c)", "629a.5(d)")
def prepare_shoe(
    shoe: Shoe,
    log: EventLog,
    *,
    rng: Rng | None = None,
    occupied_seats: Iterable[int] = (),
    accepting: Collection[int] = (),
    cut_position: int | None = None,
    second_cover_from_bottom: int = SECOND_COVER_MARGIN,
    method: ShuffleMethod = ShuffleMethod.AUTOMATED,
) -> list[Event]:
    """Shuffle (a), offer the cut (b), cut (c), complete it (d).

    ``occupied_seats`` are the seated positions of the table and
    ``accepting`` those that would accept the cut. ``cut_position``
    (cards above the cover card) defaults to a uniform choice among the
    allowed positions, drawn from ``rng``. The arguments are checked
    before anything moves; a refused cut leaves the shoe unchanged.
    The burn (f) runs separately, at the start of the first round
    (:func:`burn_new_shoe`).
    """
    source = rng if rng is not None else SecureRng()
    size = len(shoe) + len(shoe.discard)
    position = _chosen_position(size, source, cut_position)
    _verify_cut_position(size, position)
    _verify_second_cover(size, second_cover_from_bottom)
    events = shuffle(shoe, log, source, method=method)
    offers = offer_cut(log, occupied_seats, accepting)
    events.extend(offers)
    events.extend(cut(shoe, log, position, by=cutter_of(offers)))
    events.extend(complete_cut(shoe, log))
    events.extend(
        insert_second_cover_card(shoe, log, second_cover_from_bottom)
    )
    return events


def burn_count(card: Card) -> int:
    """How many more cards the burn takes: the first card's face value.

    10, jack, queen and king count ten and an ace one (629a.5(f)) -- not
    the baccarat Point Count.

    >>> [burn_count(Card.parse(c)) for c in ("As", "7d", "Th", "Kc")]
    [1, 7, 10, 10]
    """
    if card.is_joker:
        msg = "a joker has no face value for the burn"
        raise ShoeError(msg, ref=Ref.parse("629a.5(f)"))
    if card.rank == Rank.ACE:
        return 1
    return min(int(card.rank), 10)


@implements("629a.5(f)")
def burn_new_shoe(
    shoe: Shoe,
    log: EventLog,
    *,
    on_cover_card: Callable[[], None] | None = None,
) -> list[Event]:
    """Expose the first card, then burn face down as many as its face value.

    All of them go to the discard bucket. Verified before anything
    moves: a shoe too short for the burn raises
    :class:`~croupier.errors.ShoeExhaustedError`, shoe unchanged.
    """
    ref = Ref.parse("629a.5(f)")
    cards = shoe.cards_in_stack()
    if not cards:
        msg = "the shoe is empty: no card to expose for the burn"
        raise ShoeExhaustedError(msg, ref=ref)
    extra = burn_count(cards[0])
    if len(shoe) < extra + 1:
        msg = (
            f"the burn needs {extra + 1} cards but the shoe holds {len(shoe)}"
        )
        raise ShoeExhaustedError(msg, ref=ref)
    first = shoe.draw(on_cover_card=on_cover_card)
    shoe.discard_cards([first])
    events: list[Event] = [
        log.emit(CardBurned, ref=ref, card=first, face_up=True)
    ]
    for _ in range(extra):
        card = shoe.draw(on_cover_card=on_cover_card)
        shoe.discard_cards([card])
        events.append(log.emit(CardBurned, ref=ref, card=card, face_up=False))
    return events
