"""Playing cards: ranks, suits, the joker, parsing and integer codes.

Per-game point values live with the games (``croupier.hands``), not here.

>>> Card.parse("As"), Card.parse("10h") == Card.parse("Th")
(Card.parse('As'), True)
>>> parse_cards("Kd 5h JK")
(Card.parse('Kd'), Card.parse('5h'), Card.parse('JK'))
>>> str(Card.parse("10h")), Card.parse("Td").code, JOKER.code
('Th', 33, 52)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum, unique

from croupier.errors import CardParseError
from croupier.jsontypes import json_text

__all__ = [
    "CARD_TEXTS",
    "JOKER",
    "Card",
    "Rank",
    "Suit",
    "card_texts",
    "full_deck",
    "parse_cards",
]


@unique
class Rank(IntEnum):
    """A card rank; the integer is the poker order (ace high = 14)."""

    TWO = 2
    """Deuce."""
    THREE = 3
    """Three."""
    FOUR = 4
    """Four."""
    FIVE = 5
    """Five."""
    SIX = 6
    """Six."""
    SEVEN = 7
    """Seven."""
    EIGHT = 8
    """Eight."""
    NINE = 9
    """Nine."""
    TEN = 10
    """Ten."""
    JACK = 11
    """Jack."""
    QUEEN = 12
    """Queen."""
    KING = 13
    """King."""
    ACE = 14
    """Ace."""
    JOKER = 15
    """The joker (Six-Card Fortune Pai Gow Poker's 53rd card)."""


_RANK_SYMBOLS = {
    Rank.TWO: "2",
    Rank.THREE: "3",
    Rank.FOUR: "4",
    Rank.FIVE: "5",
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "T",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
    Rank.JOKER: "JK",
}
_SYMBOL_RANKS = {v: k for k, v in _RANK_SYMBOLS.items() if k != Rank.JOKER}
_SYMBOL_RANKS["10"] = Rank.TEN


@unique
class Suit(StrEnum):
    """A suit; the order of members is the order of integer codes."""

    CLUBS = "c"
    """Clubs (black)."""
    DIAMONDS = "d"
    """Diamonds (red)."""
    HEARTS = "h"
    """Hearts (red)."""
    SPADES = "s"
    """Spades (black)."""

    @property
    def is_red(self) -> bool:
        """Whether the suit is red (diamonds, hearts)."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SUITS = tuple(Suit)
_CARD_RE = re.compile(r"^(10|[2-9TJQKA])([cdhs])$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Card:
    """An immutable playing card, or the joker (``suit`` is ``None``).

    ``repr`` is a constructor expression and ``str`` the short notation,
    so ``Card.parse(str(card)) == card`` always holds.
    """

    rank: Rank
    """The rank; :attr:`Rank.JOKER` for the joker."""
    suit: Suit | None
    """The suit; ``None`` only for the joker."""
    code: int = field(init=False, repr=False, compare=False, default=0)
    """Integer code for kernels: ``(rank - 2) * 4 + suit``; joker 52.

    Worked out once, at construction (a slot, read at C speed: hashing,
    counting, sorting and the hand evaluators ask for it constantly).
    """

    def __post_init__(self) -> None:
        if (self.rank == Rank.JOKER) != (self.suit is None):
            msg = f"a joker has no suit and every other card has one: {self!r}"
            raise CardParseError(msg)
        # the code is worked out once: hashing, sorting and the hand
        # evaluators ask for it at every step
        code = (
            JOKER_CODE
            if self.suit is None
            else (int(self.rank) - 2) * 4 + _SUITS.index(self.suit)
        )
        object.__setattr__(self, "code", code)

    def __hash__(self) -> int:
        # equal cards have equal (rank, suit), hence equal codes
        return self.code

    @classmethod
    def parse(cls, raw: str) -> Card:
        """Parse one card: ``As``, ``10h``/``Th``, ``JK``/``Jo`` (joker).

        A card written as :data:`CARD_TEXTS` writes it is the one card of
        its code (:meth:`from_code`), found without the pattern.
        """
        found = _BY_TEXT.get(raw) if cls is Card else None
        if found is not None:
            return found
        text = raw.strip()
        if text.upper() in ("JK", "JO", "JOKER"):
            return JOKER
        match = _CARD_RE.match(text)
        if match is None:
            msg = (
                f"unknown card {json_text(raw, 60)} (expected e.g. As, Th, "
                f"10h, JK)"
            )
            raise CardParseError(msg)
        rank_text, suit_text = match.groups()
        return cls(_SYMBOL_RANKS[rank_text.upper()], Suit(suit_text.lower()))

    @classmethod
    def from_code(cls, code: int) -> Card:
        """The card of an integer code (see :attr:`code`).

        Each code's card is made once and handed out again: a card is a
        value (frozen, compared and hashed by rank and suit), so one
        instance serves every shoe.
        """
        if cls is Card and type(code) is int and 0 <= code < len(_BY_CODE):
            return _BY_CODE[code]
        if code == JOKER_CODE:
            return JOKER
        if not 0 <= code < JOKER_CODE:
            msg = f"card codes run from 0 to 52, not {code}"
            raise CardParseError(msg)
        return cls(Rank(code // 4 + 2), _SUITS[code % 4])

    @property
    def is_joker(self) -> bool:
        """Whether this card is the joker."""
        return self.suit is None

    def __str__(self) -> str:
        suit = self.suit
        if suit is None:
            return "JK"
        # a Suit is its letter (StrEnum): no trip through Enum.value
        return _RANK_SYMBOLS[self.rank] + suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code


JOKER_CODE = 52
"""The integer code of the joker."""

JOKER = Card(Rank.JOKER, None)
"""The joker."""

_BY_CODE: tuple[Card, ...] = ()
"""Each code's one card, by code (:meth:`Card.from_code`)."""
# (empty while its cards are made: from_code makes each one that once)
_BY_CODE = (*(Card.from_code(code) for code in range(JOKER_CODE)), JOKER)

CARD_TEXTS: tuple[str, ...] = tuple(str(card) for card in _BY_CODE)
"""Each card's text by its code (``CARD_TEXTS[card.code] == str(card)``):
a card's code and its text are both functions of its rank and suit, the
code one-to-one; for writing many cards without a call per card."""


_BY_TEXT: dict[str, Card] = dict(zip(CARD_TEXTS, _BY_CODE, strict=True))
"""Each card by its text as :data:`CARD_TEXTS` writes it (for
:meth:`Card.parse`)."""


_CANONICAL = frozenset(CARD_TEXTS)
"""Every card's text as :data:`CARD_TEXTS` writes it."""


def card_texts(raw: str) -> tuple[str, ...]:
    """The cards of a space-separated list, as :data:`CARD_TEXTS` writes them.

    ``10h`` is written ``Th``, ``Jo`` ``JK``. A list written so already
    is only split (one set test for all of its cards), as a discard rack
    of hundreds of cards is at every round.

    >>> card_texts("As 10h Jo")
    ('As', 'Th', 'JK')
    """
    tokens = raw.split()
    if _CANONICAL.issuperset(tokens):
        return tuple(tokens)
    return tuple(CARD_TEXTS[Card.parse(token).code] for token in tokens)


def parse_cards(raw: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, or an iterable of them.

    >>> parse_cards("As,10h  Kd")
    (Card.parse('As'), Card.parse('Th'), Card.parse('Kd'))
    """
    tokens = re.split(r"[\s,]+", raw.strip()) if isinstance(raw, str) else raw
    return tuple(Card.parse(token) for token in tokens if token)


def full_deck(*, jokers: int = 0) -> list[Card]:
    """One 52-card deck in code order, followed by ``jokers`` jokers."""
    return [*_BY_CODE[:JOKER_CODE], *[JOKER] * jokers]
