"""The dealing shoe (or the deck in the dealer's hand) and the discard rack.

The :class:`Shoe` holds an ordered stack, top card first, with cover
cards at their positions, and the discard rack in the order cards
arrive, so that every hand can be reconstructed (591.7(u), 681a.7(l)).
Its conservation check proves that no card was lost or duplicated.

>>> shoe = Shoe.stacked("As Kd 9c")
>>> shoe.draw(), len(shoe)
(Card.parse('As'), 2)
>>> shoe.verify_conservation(on_table=[Card.parse("As")])
>>> Shoe.stacked(shoe.notation()).notation()
'Kd 9c'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from typing import Any, SupportsIndex, TypeVar, cast

from croupier.cards import Card, full_deck, parse_cards
from croupier.errors import (
    CardConservationError,
    ShoeError,
    ShoeExhaustedError,
)
from croupier.rng import Rng, fisher_yates

__all__ = ["COVER_CARD", "CountedList", "CoverCard", "Shoe"]


@dataclass(frozen=True, slots=True)
class CoverCard:
    """A plastic cover card (cut card); it is equipment, not a card."""

    def __str__(self) -> str:
        return "CC"

    def __repr__(self) -> str:
        return "COVER_CARD"


COVER_CARD = CoverCard()
"""The cover card. Written ``CC`` in stacked notation."""

StackItem = Card | CoverCard


_T = TypeVar("_T")


class CountedList(list[_T]):
    """A list that keeps a :class:`Counter` of its items up to date.

    Every mutating method of :class:`list` is overridden, so the counts
    stay exact however the list is changed (slices included); with
    ``counted=False`` the owner promises to recount first. Several
    lists may share one Counter (``counts=``): it then holds the items
    of all of them, which lets :meth:`Shoe.verify_conservation` compare
    the whole shoe with its complement without recounting hundreds of
    cards at every step. Reordering (``sort``, ``reverse``) leaves the
    counts as they are.

    >>> items = CountedList("abca")
    >>> items.pop(0), items[1:], items.counts["a"]
    ('a', ['c', 'a'], 1)
    >>> items[0:2] = "zz"
    >>> sorted(items.counts.elements())
    ['a', 'z', 'z']
    """

    counts: Counter[_T]
    """How many times each item occurs (in every list sharing it)."""
    popped_front = 0
    """Items taken with ``pop(0)`` so far."""
    appended = 0
    """Items added at the end (``append``, ``extend``) so far."""
    reshaped = 0
    """Other changes so far (anything that is not a front pop or append)."""

    def __init__(
        self,
        items: Iterable[_T] = (),
        *,
        counts: Counter[_T] | None = None,
        counted: bool = True,
    ) -> None:
        super().__init__(items)
        if counts is None:
            self.counts = Counter(self) if counted else Counter()
        else:
            self.counts = counts
            if counted:
                self._added(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle appends the items (counted in a fresh Counter), then
        # sets the state: the (possibly shared) Counter as pickled.
        return (type(self), (), {"counts": self.counts}, iter(list(self)))

    def __copy__(self) -> CountedList[_T]:
        return type(self)(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> CountedList[_T]:
        out = type(self).__new__(type(self))
        memo[id(self)] = out
        list.extend(out, [deepcopy(item, memo) for item in self])
        out.counts = deepcopy(self.counts, memo)
        out.reshaped = self.reshaped + 1
        return out

    def _added(self, items: Iterable[_T]) -> None:
        counts = self.counts
        for item in items:
            counts[item] += 1

    def _removed(self, items: Iterable[_T]) -> None:
        counts = self.counts
        for item in items:
            left = counts[item] - 1
            if left:
                counts[item] = left
            else:
                del counts[item]

    def append(self, item: _T) -> None:
        """Append ``item``."""
        super().append(item)
        self.counts[item] += 1
        self.appended += 1

    def extend(self, items: Iterable[_T]) -> None:
        """Append every item of ``items``."""
        added = list(items)
        super().extend(added)
        self._added(added)
        self.appended += len(added)

    def insert(self, index: SupportsIndex, item: _T) -> None:
        """Insert ``item`` before ``index``."""
        super().insert(index, item)
        self.counts[item] += 1
        self.reshaped += 1

    def pop(self, index: SupportsIndex = -1) -> _T:
        """Remove and return the item at ``index``."""
        item = super().pop(index)
        self._removed((item,))
        if index == 0:
            self.popped_front += 1
        else:
            self.reshaped += 1
        return item

    def remove(self, item: _T) -> None:
        """Remove the first occurrence of ``item``."""
        index = self.index(item)
        self._removed((self[index],))
        super().__delitem__(index)
        self.reshaped += 1

    def clear(self) -> None:
        """Remove every item."""
        self._removed(self)
        super().clear()
        self.reshaped += 1

    def sort(self, *args: Any, **kwargs: Any) -> None:
        """Sort in place (the counts do not change)."""
        super().sort(*args, **kwargs)
        self.reshaped += 1

    def reverse(self) -> None:
        """Reverse in place (the counts do not change)."""
        super().reverse()
        self.reshaped += 1

    def __setitem__(self, index: Any, value: Any) -> None:
        self.reshaped += 1
        if isinstance(index, slice):
            old = self[index]
            new = list(value)
            super().__setitem__(index, new)
            self._removed(old)
            self._added(new)
        else:
            old_item = self[index]
            super().__setitem__(index, value)
            self._removed((old_item,))
            self._added((value,))

    def __delitem__(self, index: SupportsIndex | slice) -> None:
        self.reshaped += 1
        if isinstance(index, slice):
            old = self[index]
            super().__delitem__(index)
            self._removed(old)
        else:
            old_item = self[index]
            super().__delitem__(index)
            self._removed((old_item,))

    def __iadd__(  # type: ignore[override,misc]
        self, items: Iterable[_T]
    ) -> CountedList[_T]:
        self.extend(items)
        return self

    def __imul__(self, times: SupportsIndex) -> CountedList[_T]:
        before = list(self)
        super().__imul__(times)
        self.reshaped += 1
        self._removed(before)
        self._added(self)
        return self


def _drop_front(text: str, count: int) -> str:
    """``text`` (items separated by spaces) less its first ``count`` items.

    >>> _drop_front("As Kd CC 9c", 2), _drop_front("As Kd", 2)
    ('CC 9c', '')
    """
    position = 0
    for _ in range(count):
        position = text.find(" ", position) + 1
        if position == 0:
            return ""
    return text[position:]


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
        # Stack, rack and set-aside share one Counter of what the shoe
        # holds (:meth:`_shared_counts`), counted when first needed.
        self._counts: Counter[StackItem] = Counter()
        self._stack: CountedList[StackItem] = CountedList(stack, counted=False)
        self._discard: CountedList[Card] = CountedList(counted=False)
        self._set_aside: CountedList[Card] = CountedList(counted=False)
        self._counted = False
        self._texts: dict[int, tuple[StackItem, str]] = {}
        self._kept: dict[
            str, tuple[CountedList[StackItem], int, int, int, str, int]
        ] = {}
        self.covers_aside: int = 0
        """Cover cards taken out of the stack during play."""
        self.complement: Counter[Card] = (
            Counter(self.cards_in_stack())
            if complement is None
            else Counter(complement)
        )
        """Every card the shoe is accountable for."""

    @property
    def stack(self) -> list[StackItem]:
        """The cards in the shoe, top first, cover cards included."""
        return self._stack

    @stack.setter
    def stack(self, items: list[StackItem]) -> None:
        self._stack = CountedList(items, counted=False)
        self._counted = False

    @property
    def discard(self) -> list[Card]:
        """The discard rack, in the order cards were placed in it."""
        return self._discard

    @discard.setter
    def discard(self, cards: list[Card]) -> None:
        self._discard = CountedList(cards, counted=False)
        self._counted = False

    @property
    def set_aside(self) -> list[Card]:
        """Cards removed from play (a withdrawn deck, say)."""
        return self._set_aside

    @set_aside.setter
    def set_aside(self, cards: list[Card]) -> None:
        self._set_aside = CountedList(cards, counted=False)
        self._counted = False

    def _shared_counts(self) -> Counter[StackItem]:
        """What stack, rack and set-aside hold, counted together.

        Kept up to date by the lists' mutators; a list replaced whole
        (shuffle, gather, cut) is counted again here, once, the next
        time the count is needed.
        """
        if not self._counted:
            counts: Counter[StackItem] = Counter(self._stack)
            counts.update(self._discard)
            counts.update(self._set_aside)
            self._stack.counts = counts
            self._discard.counts = counts  # type: ignore[assignment]
            self._set_aside.counts = counts  # type: ignore[assignment]
            self._counts = counts
            self._counted = True
        return self._counts

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
            shoe.complement.update(shoe.discard)
        return shoe

    def notation(self) -> str:
        """The stack in notation, top first."""
        return self._kept_notation("stack", self._stack)

    def discard_notation(self) -> str:
        """The discard rack in notation, in the order cards arrived."""
        return self._kept_notation(
            "discard",
            self._discard,  # type: ignore[arg-type]
        )

    def _kept_notation(self, role: str, items: CountedList[StackItem]) -> str:
        # Between rounds the stack only loses cards from the top and the
        # rack only gains cards at the end: the last text is reused, cut
        # and extended, unless the list was changed in any other way.
        kept = self._kept.get(role)
        text = None
        if kept is not None and kept[0] is items:
            _, reshaped, popped, appended, old, length = kept
            removed = items.popped_front - popped
            added = items.appended - appended
            if (
                reshaped == items.reshaped
                and removed <= length
                and length - removed + added == len(items)
            ):
                # the list is old[removed:] + the items added since
                text = _drop_front(old, removed)
                if added:
                    tail = self._notation(items[len(items) - added :])
                    text = f"{text} {tail}" if text else tail
        if text is None:
            text = self._notation(items)
        self._kept[role] = (
            items,
            items.reshaped,
            items.popped_front,
            items.appended,
            text,
            len(items),
        )
        return text

    def _notation(self, items: Iterable[StackItem]) -> str:
        # Cards circulate between stack, table and rack as the same
        # objects, so their texts are kept by identity (with the object,
        # so that an id is never reused while its entry lives).
        texts = self._texts
        out: list[str] = []
        for item in items:
            entry = texts.get(id(item))
            if entry is None or entry[0] is not item:
                entry = texts[id(item)] = (item, str(item))
            out.append(entry[1])
        return " ".join(out)

    def cards_in_stack(self) -> list[Card]:
        """The cards in the stack, top first, without cover cards."""
        return [item for item in self.stack if isinstance(item, Card)]

    def __len__(self) -> int:
        """Number of cards (not cover cards) left in the stack."""
        # cover cards only ever lie in the stack (the rack holds cards)
        return len(self._stack) - self._shared_counts().get(COVER_CARD, 0)

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
        while self.next_is_cover_card:
            self.remove_cover_card()
            if on_cover_card is not None:
                on_cover_card()
        if not self.stack:
            msg = "the shoe is empty: no card to deal"
            raise ShoeExhaustedError(msg)
        item = self.stack.pop(0)
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
        The stack, rack and set-aside keep one shared count as they
        change (:class:`CountedList`), so the check costs a copy of that
        count and a pass over the cards on the table.
        """
        held = Counter(self._shared_counts())
        held.pop(COVER_CARD, None)
        seen = cast("Counter[Card]", held)
        for card in on_table:
            seen[card] += 1
        if dict.__eq__(seen, self.complement):
            return
        if seen != self.complement:
            missing = self.complement - seen
            extra = seen - self.complement
            msg = (
                f"card conservation failed: missing "
                f"{sorted(missing.elements())}, extra "
                f"{sorted(extra.elements())}"
            )
            raise CardConservationError(msg)
