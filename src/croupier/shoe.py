"""The dealing shoe (or the deck in the dealer's hand) and the discard rack.

The :class:`Shoe` holds an ordered stack, top card first, with cover
cards at their positions, and the discard rack in the order cards
arrive, so that every hand can be reconstructed (591.7(u), 681a.7(l)).
Its conservation check proves that no card was lost or duplicated.

The stack, the rack and the set-aside cards are plain lists that anyone
may change; the conservation check counts them afresh every time (by
integer card code, so that counting a shoe of eight decks costs a few
microseconds, not a pass of Python-level hashing and comparing). Only
the complement's sorted codes are kept between checks, while no
reference to the complement has left the shoe (D56).

>>> shoe = Shoe.stacked("As Kd 9c")
>>> shoe.draw(), len(shoe)
(Card.parse('As'), 2)
>>> shoe.verify_conservation(on_table=[Card.parse("As")])
>>> Shoe.stacked(shoe.notation()).notation()
'Kd 9c'
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter, countOf
from typing import ClassVar

from croupier.cards import Card, full_deck, parse_cards
from croupier.errors import (
    CardConservationError,
    ShoeError,
    ShoeExhaustedError,
)
from croupier.rng import Rng, fisher_yates

__all__ = ["COVER_CARD", "CoverCard", "Shoe"]


@dataclass(frozen=True, slots=True)
class CoverCard:
    """A plastic cover card (cut card); it is equipment, not a card."""

    code: ClassVar[int] = -1
    """Not a card code (those run 0-52): lets a stack be counted by code."""

    def __str__(self) -> str:
        return "CC"

    def __repr__(self) -> str:
        return "COVER_CARD"

    def __reduce__(self) -> str:
        # copies and pickles are the one cover card (``item is COVER_CARD``)
        return "COVER_CARD"


COVER_CARD = CoverCard()
"""The cover card. Written ``CC`` in stacked notation."""

StackItem = Card | CoverCard

_BUILT: Counter[Card] = Counter()
"""Marks the sorted codes a shoe keeps as those of its stack as built
(:meth:`Shoe._built_codes`), not of a counted complement."""

_code = attrgetter("code")
"""An item's integer code (a card's :attr:`Card.code`, a cover card -1)."""

_TEXTS: dict[int, str] = {
    card.code: str(card) for card in full_deck(jokers=1)
} | {CoverCard.code: "CC"}
"""Each code's notation."""


def _text(items: Iterable[StackItem]) -> str:
    """``items`` in notation, separated by single spaces."""
    return " ".join(map(_TEXTS.__getitem__, map(_code, items)))


def _parse_stack(raw: str | Iterable[str]) -> list[StackItem]:
    tokens = raw.split() if isinstance(raw, str) else list(raw)
    items: list[StackItem] = []
    for token in tokens:
        if token.upper() == "CC":
            items.append(COVER_CARD)
        else:
            items.extend(parse_cards(token.replace(",", " ")))
    return items


class Shoe:
    """An ordered stack of cards (top first), a discard rack, set-asides.

    ``complement`` is the full set of cards this shoe is accountable for;
    by default the cards it was built with.
    """

    def __init__(
        self,
        stack: Iterable[StackItem],
        *,
        complement: Counter[Card] | None = None,
    ) -> None:
        self.stack: list[StackItem] = list(stack)
        """The cards in the shoe, top first, cover cards included."""
        self.discard: list[Card] = []
        """The discard rack, in the order cards were placed in it."""
        self.set_aside: list[Card] = []
        """Cards removed from play (a withdrawn deck, say)."""
        self.covers_aside: int = 0
        """Cover cards taken out of the stack during play."""
        self._complement: Counter[Card] | None = (
            None if complement is None else _Owed(complement)
        )
        self._built_from: list[StackItem] | None = (
            self.stack.copy() if complement is None else None
        )
        """The stack as built, while its count is not yet needed: the
        complement is counted from it when first asked for
        (:meth:`_counted`), as the constructor would have counted it (a
        replay's shoe is often never asked)."""
        self._owed: tuple[Counter[Card], list[int]] | None = None
        """The complement's codes, sorted, while nobody else can have
        changed it (:meth:`_owed_codes`)."""

    @property
    def complement(self) -> Counter[Card]:
        """Every card the shoe is accountable for.

        The counter itself, which the caller may change: from now on
        every check counts it afresh.
        """
        found = self._counted()
        if isinstance(found, _Owed):
            found.handed_out = True
        self._owed = None
        return found

    @complement.setter
    def complement(self, value: Counter[Card]) -> None:
        if isinstance(value, _Owed):
            value.handed_out = True  # the caller holds it
        self._complement = value
        self._built_from = None
        self._owed = None

    def account_for(self, cards: Iterable[Card]) -> None:
        """Make the shoe accountable for ``cards`` too (a discard rack)."""
        self._counted().update(cards)
        self._owed = None

    def _counted(self) -> Counter[Card]:
        """The complement, counted from the stack as built if not yet."""
        found = self._complement
        if found is None:
            built = self._built_from or ()
            found = self._complement = _Owed(
                [item for item in built if isinstance(item, Card)]
            )
            self._built_from = None
        return found

    def _owed_codes(self) -> list[int] | None:
        """The complement's card codes, sorted, each as often as owed.

        Only while no reference to the complement has left the shoe (the
        counter is built here and handed out only by :attr:`complement`,
        which marks it), so that nobody can have changed it since the
        codes were taken; and only when every count is a positive integer
        and no two cards share a code, so that the sorted codes say
        exactly what the count by code says. Otherwise ``None``.
        """
        built = self._built_from
        if self._complement is None and built is not None:
            return self._built_codes(built)
        owed = self._counted()
        if type(owed) is not _Owed or owed.handed_out:
            return None
        cached = self._owed
        if cached is not None and cached[0] is owed:
            return cached[1]
        counts = owed.values()
        if not all(type(n) is int and n > 0 for n in counts):
            return None
        if len({_code(card) for card in owed}) != len(owed):
            return None
        codes = sorted(map(_code, owed.elements()))
        self._owed = (owed, codes)
        return codes

    def _built_codes(self, built: list[StackItem]) -> list[int]:
        """:meth:`_owed_codes` of a complement not yet counted.

        Those of the stack as built, by code (cover cards left out): the
        stack as built is the complement, each card as often as it stands
        in it, so no counter of cards is made (each card hashed by a call
        to Python; a card's code says what it is, as the check's own
        count assumes). Kept while the complement is not counted.
        """
        cached = self._owed
        if cached is not None and cached[0] is _BUILT:
            return cached[1]
        codes = sorted(map(_code, built))
        codes = codes[bisect_right(codes, CoverCard.code) :]
        self._owed = (_BUILT, codes)
        return codes

    @classmethod
    def new(cls, *, decks: int = 1, jokers: int = 0) -> Shoe:
        """``decks`` fresh decks in code order, each with ``jokers``."""
        if decks < 1:
            msg = f"a shoe needs at least one deck, not {decks}"
            raise ShoeError(msg)
        cards: list[Card] = []
        for _ in range(decks):
            cards.extend(full_deck(jokers=jokers))
        return cls(cards)

    @classmethod
    def stacked(
        cls, notation: str | Iterable[str], *, discard: str = ""
    ) -> Shoe:
        """A shoe stacked from notation, top first (``CC`` = cover card).

        ``discard`` is a discard rack to start with (in arrival order); the
        shoe is accountable for its cards too.

        >>> shoe = Shoe.stacked("As CC Kd", discard="2c 3c")
        >>> shoe.notation(), shoe.discard_notation(), len(shoe.complement)
        ('As CC Kd', '2c 3c', 4)
        """
        shoe = cls(_parse_stack(notation))
        if discard:
            shoe.discard = list(parse_cards(discard))
            shoe.account_for(shoe.discard)
        return shoe

    def notation(self) -> str:
        """The stack in notation, top first."""
        return _text(self.stack)

    def discard_notation(self) -> str:
        """The discard rack in notation, in the order cards arrived."""
        return _text(self.discard)

    def cards_in_stack(self) -> list[Card]:
        """The cards in the stack, top first, without cover cards."""
        return [item for item in self.stack if isinstance(item, Card)]

    def __len__(self) -> int:
        """Number of cards (not cover cards) left in the stack."""
        # cover cards only ever lie in the stack (the rack holds cards)
        stack = self.stack
        return len(stack) - countOf(map(type, stack), CoverCard)

    @property
    def empty(self) -> bool:
        """Whether no card (cover cards aside) is left: ``len(self) == 0``.

        Answered at the top of the stack when a card lies there; only a
        cover card on top needs the stack counted.
        """
        stack = self.stack
        if not stack:
            return True
        return type(stack[0]) is CoverCard and len(self) == 0

    def __repr__(self) -> str:
        return f"Shoe.stacked({self.notation()!r})"

    @property
    def next_is_cover_card(self) -> bool:
        """Whether the cover card is the next item in the shoe."""
        return bool(self.stack) and isinstance(self.stack[0], CoverCard)

    def remove_cover_card(self) -> None:
        """Take the cover card at the top of the stack and set it aside."""
        if not self.next_is_cover_card:
            msg = "the next item in the shoe is not the cover card"
            raise ShoeError(msg)
        self.stack.pop(0)
        self.covers_aside += 1

    def draw(self, on_cover_card: Callable[[], None] | None = None) -> Card:
        """Remove and return the top card.

        A cover card met on the way is set aside and ``on_cover_card`` is
        called (591.7(d), 681a.7(d)); the card beneath it is returned.
        """
        while (stack := self.stack) and isinstance(stack[0], CoverCard):
            self.remove_cover_card()
            if on_cover_card is not None:
                on_cover_card()
        if not stack:
            msg = "the shoe is empty: no card to deal"
            raise ShoeExhaustedError(msg)
        item = stack.pop(0)
        if not isinstance(item, Card):  # pragma: no cover - loop above
            msg = "cover card where a card was expected"
            raise ShoeError(msg)
        return item

    def burn(
        self,
        count: int = 1,
        on_cover_card: Callable[[], None] | None = None,
    ) -> list[Card]:
        """Move ``count`` cards from the top to the discard rack.

        A cover card met on the way is handled as in :meth:`draw`.
        """
        burned = [self.draw(on_cover_card) for _ in range(count)]
        self.discard.extend(burned)
        return burned

    def discard_cards(self, cards: Iterable[Card]) -> None:
        """Place cards from the layout in the discard rack, in order."""
        self.discard.extend(cards)

    def insert_cover_card(self, index: int) -> None:
        """Put a cover card so that ``index`` items lie above it."""
        if not 0 <= index <= len(self.stack):
            msg = f"no position {index} in a stack of {len(self.stack)}"
            raise ShoeError(msg)
        self.stack.insert(index, COVER_CARD)

    def gather(self) -> None:
        """Collect the discard rack and the stack into one stack.

        Cover cards are removed; the table must already be cleared.
        """
        cards = self.cards_in_stack() + self.discard
        self.stack = list(cards)
        self.discard = []
        self.covers_aside = 0

    def shuffle(self, rng: Rng) -> None:
        """Fisher–Yates shuffle of the whole stack (cover cards removed)."""
        cards = self.cards_in_stack()
        fisher_yates(cards, rng)
        self.stack = list(cards)

    def withdraw(self, cards: Sequence[Card]) -> None:
        """Set cards aside from play (a deck removed from the table)."""
        self.set_aside.extend(cards)

    def verify_conservation(self, *, on_table: Iterable[Card] = ()) -> None:
        """Raise unless shoe + table + discard + set-aside = complement.

        A real ``if``/``raise`` (not an ``assert``), so it survives ``-O``.
        Everything is counted afresh, by card code (equal cards have
        equal codes and different cards different ones): first as sorted
        codes against the complement's (:meth:`_owed_codes`, when it
        keeps them), which settles a check that passes; otherwise, or
        when they differ, by the count that decides and words the error.
        """
        items = chain(self.stack, self.discard, self.set_aside, on_table)
        held = list(map(_code, items))
        owed_codes = self._owed_codes()
        if owed_codes is not None:
            held.sort()
            # cover cards (code -1) sort first and are not owed
            if held[bisect_right(held, CoverCard.code) :] == owed_codes:
                return
        seen = Counter(held)
        seen.pop(CoverCard.code, None)
        complement = self._counted()
        codes = map(_code, complement)
        plain = dict(zip(codes, complement.values(), strict=True))
        # the plain dict test first (Counter's own ``==`` is Python code);
        # counted items are never zero, so it fails only on a zero owed
        if dict.__eq__(seen, plain):
            return
        owed = Counter(plain)
        if seen == owed:
            return
        missing = owed - seen
        extra = seen - owed
        msg = (
            f"card conservation failed: missing "
            f"{_cards(missing)}, extra {_cards(extra)}"
        )
        raise CardConservationError(msg)


class _Owed(Counter[Card]):
    """A shoe's own complement, marked once a reference leaves the shoe."""

    handed_out: bool = False
    """Whether anyone outside the shoe may hold (and change) it."""

    def __reduce__(self) -> tuple[object, ...]:
        # a copy keeps the mark (a copy of a marked counter is held too)
        return (_rebuilt, (dict(self), self.handed_out))


def _rebuilt(counts: dict[Card, int], handed_out: bool) -> _Owed:
    """An :class:`_Owed` from its counts and its mark (copies, pickles)."""
    owed = _Owed()
    dict.update(owed, counts)
    owed.handed_out = handed_out
    return owed


def _cards(codes: Counter[int]) -> list[Card]:
    """The cards of a count by code, in code order."""
    return [Card.from_code(code) for code in sorted(codes.elements())]
