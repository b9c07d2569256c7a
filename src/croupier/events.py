"""The event record: frozen, sequenced events, each citing its subsection.

Events are nouns in the past tense (``CardDealt``); the round's verbs
return them. The :class:`EventLog` is append-only and serialises to JSON
Lines; :func:`EventLog.loads` rebuilds identical events, and replaying a
round's inputs (see :mod:`croupier.history`) rebuilds the same state.

>>> log = EventLog()
>>> burn = Ref.parse("591.7(c)")
>>> event = log.emit(CardBurned, ref=burn, card=Card.parse("Kd"))
>>> event.seq, event.type_name, str(event.card)
(1, 'card_burned', 'Kd')
>>> EventLog.loads(log.dumps()).events == log.events
True
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from functools import partial
from typing import (
    Any,
    ClassVar,
    Concatenate,
    ParamSpec,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from croupier.cards import Card, parse_cards
from croupier.event_codec import (
    compiled_appender,
    compiled_maker,
    compiled_to_dict,
)
from croupier.money import Outcome
from croupier.regs import Ref

__all__ = [
    "Announced",
    "CardBurned",
    "CardDealt",
    "CardExposed",
    "CardsCollected",
    "CoverCardInserted",
    "CoverCardReached",
    "CutOffered",
    "DecisionMade",
    "Event",
    "EventLog",
    "PhaseEntered",
    "RoundVoided",
    "Shuffled",
    "WagerChanged",
    "WagerPlaced",
    "WagerSettled",
    "event_type",
]

_E = TypeVar("_E", bound="Event")
_P = ParamSpec("_P")
_EVENT_TYPES: dict[str, type[Event]] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base of every event: a sequence number and the subsection cited."""

    type_name: ClassVar[str] = "event"
    seq: int = field(kw_only=False)
    """Position in the round's log, from 1 (given by :meth:`EventLog.emit`,
    the one keyword-or-positional field, so that ``emit`` is checked)."""
    ref: Ref
    """The subsection of 58 Pa. Code under which this step happened."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super(Event, cls).__init_subclass__(**kwargs)
        name = "".join(
            "_" + c.lower() if c.isupper() else c for c in cls.__name__
        ).lstrip("_")
        cls.type_name = name
        _EVENT_TYPES[name] = cls
        # each class holds its own to_dict, replaced at its first call by
        # the class's compiled encoder (a subclass never inherits it);
        # a class that defines its own to_dict keeps it
        if "to_dict" not in cls.__dict__:
            cls.to_dict = Event.to_dict  # type: ignore[method-assign]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form: ``seq``, ``ref``, ``type``, then the fields.

        Built by the class's compiled encoder
        (:mod:`croupier.event_codec`), equal to :func:`plain_dict`.
        """
        cls = type(self)
        encode = _TO_DICT.get(cls)
        if encode is None:
            encode = _TO_DICT[cls] = compiled_to_dict(
                cls, field_names(cls), _PLAIN, _encode, card_fields(cls)
            )
            if cls.__dict__.get("to_dict") is Event.__dict__["to_dict"]:
                setattr(cls, "to_dict", encode)  # noqa: B010
        return encode(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Event:
        """Rebuild an event from :meth:`to_dict` output."""
        event_type = _EVENT_TYPES[str(data["type"])]
        decoders = _DECODERS.get(event_type)
        if decoders is None:
            decoders = _decoders(event_type)
        kwargs = {
            name: decode(data[name])
            for name, decode in decoders.items()
            if name in data
        }
        build: Callable[..., Event] = event_type
        return build(**kwargs)


_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}
"""Each event class's own field names (after ``seq`` and ``ref``)."""
_PLAIN: frozenset[type] = frozenset({int, str, bool, type(None)})
"""Types :func:`_encode` returns unchanged (checked by exact type)."""
PLAIN_TYPES = _PLAIN
"""The types an event's JSON form holds as they are (exact type)."""
_TO_DICT: dict[type[Event], Callable[[Event], dict[str, object]]] = {}
"""Each event class's compiled :meth:`Event.to_dict`."""
_MAKERS: dict[object, Callable[..., Any]] = {}
"""Each event class's compiled constructor, for :meth:`EventLog.emit`."""


def event_type(name: str) -> type[Event] | None:
    """The event class whose steps are of type ``name``, if any is loaded.

    A game's own event classes register when its module is imported
    (:func:`croupier.registry.all_games` imports every game's).

    >>> event_type("card_dealt").__name__, event_type("a_note") is None
    ('CardDealt', True)
    """
    return _EVENT_TYPES.get(name)


def plain_dict(event: Event) -> dict[str, object]:
    """The JSON form of ``event``, field by field (the reference encoder).

    :meth:`Event.to_dict` gives the same dictionary, keys in the same
    order, from a compiled encoder (:mod:`croupier.event_codec`).
    """
    out: dict[str, object] = {
        "seq": event.seq,
        "ref": str(event.ref),
        "type": event.type_name,
    }
    names = _FIELD_NAMES.get(type(event))
    if names is None:
        names = field_names(type(event))
    cards = card_fields(type(event))
    for name in names:
        value = getattr(event, name)
        if type(value) in _PLAIN:
            out[name] = value
        elif value == () and name in cards:
            out[name] = ""  # no cards: the empty card notation
        else:
            out[name] = _encode(value)
    return out


_CARD_FIELDS: dict[type[Event], frozenset[str]] = {}
"""Each event class's fields declared as cards (``tuple[Card, ...]``)."""


def card_fields(cls: type[Event]) -> frozenset[str]:
    """The fields of ``cls`` typed ``tuple[Card, ...]`` (cached).

    Such a field is written as one card-notation string, and so when it
    holds no card at all it is the empty string, not an empty list: the
    value alone (``()``) cannot say it would have held cards.
    """
    found = _CARD_FIELDS.get(cls)
    if found is None:
        hints = get_type_hints(cls)
        found = _CARD_FIELDS[cls] = frozenset(
            f.name
            for f in fields(cls)
            if get_origin(hints[f.name]) is tuple
            and get_args(hints[f.name])[:1] == (Card,)
        )
    return found


def field_names(cls: type[Event]) -> tuple[str, ...]:
    """The field names of ``cls`` other than ``seq`` and ``ref`` (cached)."""
    found = _FIELD_NAMES.get(cls)
    if found is not None:
        return found
    names = tuple(f.name for f in fields(cls) if f.name not in ("seq", "ref"))
    _FIELD_NAMES[cls] = names
    return names


def _encode(value: object) -> object:
    kind = type(value)
    if kind is Card or kind is Ref or isinstance(value, Card | Ref):
        return str(value)
    if isinstance(value, tuple) and value and isinstance(value[0], Card):
        return " ".join([str(card) for card in value])
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


encode_value = _encode
"""A field's JSON value: cards and references as text, tuples listed."""


_Decoder = Callable[[object], object]
_DECODERS: dict[type[Event], dict[str, _Decoder]] = {}
"""Each event class's field decoders, by field name (built once)."""


def _decoders(cls: type[Event]) -> dict[str, _Decoder]:
    """The decoder of each field of ``cls``, from its resolved type."""
    hints = get_type_hints(cls)
    out = {f.name: _decoder_for(hints[f.name]) for f in fields(cls)}
    _DECODERS[cls] = out
    return out


def _decoder_for(hint: object) -> _Decoder:
    """How a JSON value becomes a field of type ``hint``.

    ``None`` stays ``None`` for optional fields; references, cards,
    card tuples (written as one notation string) and enums are rebuilt
    from their text; other lists become tuples.
    """
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        inner = [a for a in get_args(hint) if a is not type(None)]
        decode = _decoder_for(inner[0]) if len(inner) == 1 else _same
        return lambda value: None if value is None else decode(value)
    if hint is Ref:
        return lambda value: Ref.parse(str(value))
    if hint is Card:
        return lambda value: Card.parse(str(value))
    if origin is tuple and get_args(hint)[:1] == (Card,):
        return lambda value: parse_cards(
            value if isinstance(value, list) else str(value)
        )
    if isinstance(hint, type) and issubclass(hint, Enum):
        enum_type = hint
        return lambda value: enum_type(value)
    if origin is tuple:
        return lambda value: tuple(value) if isinstance(value, list) else value
    return _same


def _same(value: object) -> object:
    """The JSON value as it is (numbers, text, booleans)."""
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseEntered(Event):
    """The round entered a new phase."""

    phase: str
    """The phase's name."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Shuffled(Event):
    """The cards were shuffled (or arrived preshuffled or stacked)."""

    source: str
    """``secure``, ``seeded``, ``preshuffled`` or ``stacked``."""
    cards: int
    """How many cards went into the stack."""
    seed: int | None = None
    """The seed of a seeded stream (analysis only)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CutOffered(Event):
    """The stack was offered for the cut to a seat (or taken by the dealer)."""

    to: str
    """``seat N`` or ``dealer``."""
    accepted: bool
    """Whether the offer was accepted."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CoverCardInserted(Event):
    """A cover card went into the stack."""

    position: int
    """Cards above the cover card once it is placed."""
    purpose: str
    """``cut`` or ``reshuffle marker``."""
    by: str = "dealer"
    """Who placed it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardBurned(Event):
    """A card went from the shoe to the discard rack unplayed."""

    card: Card
    """The card (recorded for reconstruction even when face down)."""
    face_up: bool = False
    """Whether it was exposed."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDealt(Event):
    """A card was dealt to a hand."""

    to: str
    """``seat N``, ``dealer``, ``player hand``, ``banker hand``..."""
    card: Card
    """The card."""
    face_up: bool = True
    """Whether it was dealt face up."""
    hand: int = 0
    """Hand index at the seat (split hands)."""
    purpose: str = ""
    """Special use: ``double``, ``second chance``, ``bonus only``..."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardExposed(Event):
    """A face-down card was turned face up."""

    to: str
    """Whose card."""
    card: Card
    """The card."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CoverCardReached(Event):
    """The cover card came out: set aside, finish the hand, reshuffle."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsCollected(Event):
    """Cards went from the layout to the discard rack, in this order."""

    source: str
    """Whose cards."""
    cards: tuple[Card, ...]
    """The cards, in the order placed in the rack."""
    exposed: bool = True
    """False when collected without being exposed."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WagerPlaced(Event):
    """A wager was placed on the layout."""

    seat: int
    """Layout position."""
    wager: str
    """Wager name."""
    amount: int
    """Minor units."""
    hand: int = 0
    """Hand index (split hands)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WagerChanged(Event):
    """A wager was raised, lowered or taken back before the deal."""

    seat: int
    """Layout position."""
    wager: str
    """Wager name."""
    amount: int
    """The new stake in minor units (0: the wager was taken back)."""
    previous: int
    """The stake before the change."""
    hand: int = 0
    """Hand index (always 0 before the deal)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DecisionMade(Event):
    """A player's decision."""

    seat: int
    """Layout position."""
    action: str
    """Action name as in the scenario contract."""
    hand: int = 0
    """Hand index."""
    amount: int | None = None
    """Amount wagered by the decision, if any."""
    detail: str = ""
    """Anything else the decision carried (a pai gow hand setting)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WagerSettled(Event):
    """A wager was paid, returned or collected."""

    seat: int
    """Layout position."""
    wager: str
    """Wager name."""
    amount: int
    """The stake."""
    outcome: Outcome
    """Win, lose, push or void."""
    net: int
    """The player's gain (negative: loss)."""
    hand: int = 0
    """Hand index."""
    commission: int = 0
    """Commission taken from the winnings."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Announced(Event):
    """The dealer announced something (a total, no more bets...)."""

    text: str
    """What was announced."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundVoided(Event):
    """The round was declared void; every wager is returned."""

    reason: str
    """Why."""


class EventLog:
    """An append-only, sequenced list of events."""

    def __init__(self) -> None:
        self._events: list[Event] = []

    def emit(
        self,
        event_type: Callable[Concatenate[int, _P], _E],
        /,
        *args: _P.args,
        **fields_: _P.kwargs,
    ) -> _E:
        """Create the next event (``seq`` assigned here) and append it.

        The fields are the event class's own keyword arguments, so mypy
        checks every call against the event's declared fields.
        """
        make = _MAKERS.get(event_type)
        if make is None:
            make = _MAKERS[event_type] = compiled_maker(event_type)
        events = self._events
        # without positional fields (every call: only ``seq`` is one)
        # the call passes no empty tuple on
        event: _E = (
            make(len(events) + 1, *args, **fields_)
            if args
            else make(len(events) + 1, **fields_)
        )
        events.append(event)
        return event

    def emitter(
        self, event_type: Callable[Concatenate[int, _P], _E], /
    ) -> Callable[_P, _E]:
        """:meth:`emit` of ``event_type`` as one function of its fields.

        ``log.emitter(CardDealt)(ref=..., card=...)`` is
        ``log.emit(CardDealt, ref=..., card=...)``: for a procedure that
        logs many events of one type, without passing the fields on.
        """
        return partial(compiled_appender(event_type), self._events)

    @property
    def events(self) -> tuple[Event, ...]:
        """The events so far."""
        return tuple(self._events)

    def since(self, start: int) -> list[Event]:
        """The events from position ``start`` on (``events[start:]``)."""
        return self._events[start:]

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def dumps(self) -> str:
        """JSON Lines, one event per line."""
        return "".join(
            json.dumps(e.to_dict(), separators=(",", ":")) + "\n"
            for e in self._events
        )

    @classmethod
    def loads(cls, text: str) -> EventLog:
        """Rebuild a log from :meth:`dumps` output."""
        log = cls()
        for line in text.splitlines():
            if line.strip():
                log._events.append(Event.from_dict(json.loads(line)))
        return log
