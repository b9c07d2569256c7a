"""Six-Card Fortune Pai Gow Poker hands: ranking, setting, house way.

This is the readable reference evaluator (pure Python, one hand at a
time); :mod:`croupier.hands.paigow_fast` is the table-driven kernel for
the simulator, and the tests prove that both agree.

Rules carried here (project decisions, the real 670a sections on hand
rankings and completion of the round were not retrieved):

- D18: 53 cards; each position sets its six cards as a five-card high
  hand and a one-card low hand; the high hand must outrank the low card.
- D19: the joker acts as an ace, or completes a straight, a flush or a
  straight flush. In a flush it takes the highest rank missing from that
  suit (never a duplicate card). Alone in the low hand it ranks as an
  ace for setting the hand; a player's joker low beats any dealer low
  hand (option ``joker_low_beats_all``, see :func:`compare`), the
  dealer's counts as an ace.
- D20: a hand wins if it outranks the dealer's hand of the same kind;
  identical ranks ("copies") go to the dealer.
- Rankings: five aces (four aces and the joker) is the highest hand,
  then royal flush, straight flush, four of a kind, full house, flush,
  straight, three of a kind, two pair, one pair, high card. A-2-3-4-5 is
  the lowest straight.

A hand value is an ``int``: the category in bits 20 and up, then up to
five tie-break ranks of four bits each, so values compare like hands.

>>> from croupier.cards import parse_cards
>>> describe(evaluate(parse_cards("As Ks Qs Js JK")))
'royal flush'
>>> describe(evaluate(parse_cards("9h 8d 7c 6s JK 2c")))
'straight, ten high'
>>> describe(evaluate(parse_cards("4h 9h Kh 2h JK 7c")))
'flush, ace high'
>>> describe(evaluate(parse_cards("Ac Ad Ah As JK 7c")))
'five aces'
>>> setting = HOUSE_WAYS["standard"].set_hand(parse_cards("Kd 9c 7h 5s 3d Ac"))
>>> [str(c) for c in setting.high], str(setting.low)
(['9c', '7h', '5s', '3d', 'Ac'], 'Kd')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum, unique
from itertools import combinations
from typing import Protocol

from croupier.cards import CARD_TEXTS, Card, Rank, Suit
from croupier.errors import IllegalActionError
from croupier.frozen import frozen_constructor
from croupier.hands.paigow_classes import (
    FiveValues,
    house_way_low,
    natural_class_value,
    natural_value,
)
from croupier.jsontypes import json_text
from croupier.regs import Ref

__all__ = [
    "HOUSE_WAYS",
    "BestHighHouseWay",
    "Category",
    "Comparison",
    "FoulSettingError",
    "HandOutcome",
    "HouseWay",
    "Setting",
    "StandardHouseWay",
    "best_five",
    "category_of",
    "compare",
    "describe",
    "evaluate",
    "evaluate_five",
    "find_house_way",
    "is_foul",
    "legal_settings",
    "low_rank",
    "register_house_way",
    "set_hand",
]

SETTING_REF = Ref.parse("670a.11")
"""Hand setting and settlement (670a.11, not retrieved; D18-D21)."""

CATEGORY_SHIFT = 20
"""Bit position of the category in a hand value."""

ACE = int(Rank.ACE)
_WHEEL = (14, 5, 4, 3, 2)


@unique
class Category(IntEnum):
    """Poker hand categories, in ranking order (higher beats lower)."""

    HIGH_CARD = 0
    """No pair."""
    PAIR = 1
    """One pair."""
    TWO_PAIR = 2
    """Two pairs."""
    THREE_OF_A_KIND = 3
    """Three cards of one rank."""
    STRAIGHT = 4
    """Five consecutive ranks (A-2-3-4-5 lowest, 10-J-Q-K-A highest)."""
    FLUSH = 5
    """Five cards of one suit."""
    FULL_HOUSE = 6
    """Three of a kind and a pair."""
    FOUR_OF_A_KIND = 7
    """Four cards of one rank."""
    STRAIGHT_FLUSH = 8
    """A straight in one suit, below the royal flush."""
    ROYAL_FLUSH = 9
    """10-J-Q-K-A in one suit (the joker may complete it)."""
    FIVE_ACES = 10
    """Four aces and the joker: the highest hand."""

    @property
    def key(self) -> str:
        """The snake_case name used in paytables (``full_house``)."""
        return self.name.lower()


CATEGORY_KEYS: tuple[str, ...] = tuple(c.key for c in Category)
"""Every category's paytable name, lowest first."""

_RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}


def _pack(category: Category, ranks: Sequence[int]) -> int:
    value = int(category)
    padded = list(ranks)[:5] + [0] * (5 - min(5, len(ranks)))
    for rank in padded:
        value = (value << 4) | rank
    return value


def category_of(value: int) -> Category:
    """The category of a hand value.

    >>> from croupier.cards import parse_cards
    >>> category_of(evaluate(parse_cards("2c 2d 5h 9s Jc"))).key
    'pair'
    """
    return Category(value >> CATEGORY_SHIFT)


_DESCRIBED: dict[int, str] = {}
""":func:`describe`'s answers by value (a round describes each setting
twice, and a value has one description)."""


def describe(value: int) -> str:
    """A short English description of a hand value."""
    text = _DESCRIBED.get(value)
    if text is None:
        if len(_DESCRIBED) >= 1 << 14:  # pragma: no cover - about 7,500
            _DESCRIBED.clear()
        text = _DESCRIBED[value] = _describe(value)
    return text


def _describe(value: int) -> str:
    """:func:`describe` worked out."""
    category = category_of(value)
    top = (value >> 16) & 0xF
    text = category.key.replace("_", " ")
    if category in (Category.STRAIGHT, Category.FLUSH, Category.HIGH_CARD):
        return f"{text}, {_RANK_NAMES[top]} high"
    if category is Category.STRAIGHT_FLUSH:
        return f"{text}, {_RANK_NAMES[top]} high"
    return text


_WINDOWS = tuple((top, 0x1F << (top - 4)) for top in range(14, 5, -1))
"""Each straight's top rank and its five ranks as a bit mask, best first."""
_WHEEL_MASK = sum(1 << r for r in _WHEEL)
"""The wheel (A-2-3-4-5) as a bit mask."""


def _straight_top(ranks: set[int]) -> int:
    """The top rank of the best straight in ``ranks`` (0 if none).

    >>> _straight_top({14, 13, 12, 11, 10}), _straight_top({14, 2, 3, 4, 5})
    (14, 5)
    >>> _straight_top({9, 8, 7, 6, 4})
    0
    """
    mask = 0
    for rank in ranks:
        mask |= 1 << rank
    for top, window in _WINDOWS:
        if mask & window == window:
            return top
    if mask & _WHEEL_MASK == _WHEEL_MASK:
        return 5
    return 0


def _evaluate_natural(
    ranks: Sequence[int], suits: Sequence[str | None]
) -> int:
    """Value of five cards given as ranks (joker already substituted)."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    if counts.get(ACE, 0) == 5:
        return _pack(Category.FIVE_ACES, [])
    flush = suits[0] is not None and len(set(suits)) == 1
    distinct = set(ranks)
    top = _straight_top(distinct) if len(distinct) == 5 else 0
    if flush and top:
        category = (
            Category.ROYAL_FLUSH if top == ACE else Category.STRAIGHT_FLUSH
        )
        return _pack(category, [top])
    # ranks ordered by (count, rank), both descending
    ordered = sorted(
        counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True
    )
    shape = [count for _, count in ordered]
    keys = [rank for rank, _ in ordered]
    if shape[0] == 4:
        return _pack(Category.FOUR_OF_A_KIND, keys)
    if shape[:2] == [3, 2]:
        return _pack(Category.FULL_HOUSE, keys)
    if flush:
        return _pack(Category.FLUSH, sorted(ranks, reverse=True))
    if top:
        return _pack(Category.STRAIGHT, [top])
    if shape[0] == 3:
        return _pack(Category.THREE_OF_A_KIND, keys)
    if shape[:2] == [2, 2]:
        return _pack(Category.TWO_PAIR, keys)
    if shape[0] == 2:
        return _pack(Category.PAIR, keys)
    return _pack(Category.HIGH_CARD, keys)


_JOKER_COMPLETES = (
    Category.STRAIGHT,
    Category.FLUSH,
    Category.STRAIGHT_FLUSH,
    Category.ROYAL_FLUSH,
)


def evaluate_five(cards: Sequence[Card]) -> int:
    """The value of exactly five cards, applying the joker rule (D19).

    The value is :func:`_evaluate_five`'s (pure Python), worked out
    once per hand class (:mod:`croupier.hands.paigow_classes`, from the
    class's ranks and one-suit flag by :func:`_natural_by_ranks`):
    hands of one class (the same ranks, the same one-suit flag) have
    one value, so a house way mostly looks values up.

    >>> from croupier.cards import parse_cards
    >>> describe(evaluate_five(parse_cards("Kc Kd JK 5s 2h")))
    'pair'
    """
    return _FIVE_VALUES(cards)


def _evaluate_five(cards: Sequence[Card]) -> int:
    """The value of exactly five cards, applying the joker rule (D19).

    The joker is tried as an ace (with no suit) and as every card not
    already in the hand; a substitution other than the ace counts only
    when it makes a straight, flush or straight flush.

    >>> from croupier.cards import parse_cards
    >>> describe(evaluate_five(parse_cards("Kc Kd JK 5s 2h")))
    'pair'
    >>> describe(evaluate_five(parse_cards("Ac Ad JK 5s 2h")))
    'three of a kind'
    """
    if len(cards) != 5:
        msg = f"a poker hand has five cards, not {len(cards)}"
        raise ValueError(msg)
    real = [card for card in cards if not card.is_joker]
    jokers = len(cards) - len(real)
    if jokers > 1:
        msg = "a hand may hold at most one joker"
        raise ValueError(msg)
    ranks = [int(card.rank) for card in real]
    suits: list[str | None] = [
        None if card.suit is None else card.suit.value for card in real
    ]
    if not jokers:
        return _evaluate_natural(ranks, suits)
    best = _evaluate_natural([*ranks, ACE], [*suits, None])
    present = set(real)
    for suit in Suit:
        for rank in range(2, 15):
            card = Card(Rank(rank), suit)
            if card in present:
                continue
            value = _evaluate_natural([*ranks, rank], [*suits, suit.value])
            if category_of(value) in _JOKER_COMPLETES and value > best:
                best = value
    return best


def _natural_by_ranks(
    ranks: Sequence[int], suits: Sequence[str | None]
) -> int:
    """:func:`_evaluate_natural`, from the ranks and the one-suit flag.

    :func:`~croupier.hands.paigow_classes.natural_value` works it out
    without the cards (``tests/paigow/test_paigow_classes.py`` proves it
    equal on every rank pattern); what it does not cover goes to
    :func:`_evaluate_natural`.
    """
    flush = suits[0] is not None and len(set(suits)) == 1
    value = natural_value(ranks, flush)
    return _evaluate_natural(ranks, suits) if value is None else value


_FIVE_VALUES = FiveValues(
    _evaluate_five, natural=_natural_by_ranks, by_class=natural_class_value
)
"""Values by hand class, each worked out once (the plain evaluator's)."""


def best_five(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best five-card hand among ``cards`` (five or more cards)."""
    if len(cards) < 5:
        msg = f"a poker hand needs five cards, not {len(cards)}"
        raise ValueError(msg)
    best_value = -1
    best_cards: tuple[Card, ...] = ()
    for five in combinations(cards, 5):
        value = evaluate_five(five)
        if value > best_value:
            best_value, best_cards = value, five
    return best_value, best_cards


def evaluate(cards: Sequence[Card]) -> int:
    """The value of the best five-card hand of five or six cards.

    Of six cards, the best of the six hands that leave one card out
    (:meth:`FiveValues.leave_one_out`): the six :func:`best_five` tries.
    """
    if len(cards) == 6:
        return max(_FIVE_VALUES.leave_one_out(cards))
    return best_five(cards)[0]


def _high_values(cards: Sequence[Card]) -> tuple[int, ...] | None:
    """The high-hand value for each low card of six cards (else ``None``)."""
    return _FIVE_VALUES.leave_one_out(cards) if len(cards) == 6 else None


def low_rank(card: Card) -> int:
    """The rank of a one-card low hand; the joker counts as an ace (D19)."""
    return ACE if card.is_joker else int(card.rank)


class FoulSettingError(IllegalActionError):
    """A hand setting whose high hand does not outrank its low hand."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Setting:
    """Six cards set as a five-card high hand and a one-card low hand."""

    high: tuple[Card, ...]
    """The five-card high hand."""
    low: Card
    """The one-card low hand."""
    _high_value: int = field(default=-1, init=False, repr=False, compare=False)
    """:attr:`high_value` once asked (-1: not yet): a setting is
    immutable, so its high hand has one value."""

    @property
    def high_value(self) -> int:
        """The value of the high hand."""
        value = self._high_value
        if value < 0:
            value = evaluate_five(self.high)
            object.__setattr__(self, "_high_value", value)
        return value

    @property
    def low_value(self) -> int:
        """The rank of the low card (joker = ace)."""
        return low_rank(self.low)

    def describe(self) -> str:
        """``high: <cards> (<hand>); low: <card>``."""
        cards = " ".join([CARD_TEXTS[c.code] for c in self.high])
        return f"high: {cards} ({describe(self.high_value)}); low: {self.low}"


def _valued(high: tuple[Card, ...], low: Card, value: int) -> Setting:
    """``Setting(high=high, low=low)`` whose high hand's value is known.

    ``value`` is ``evaluate_five(high)`` (worked out by the caller), so
    :attr:`Setting.high_value` need not work it out again.
    """
    setting = Setting(high=high, low=low)
    object.__setattr__(setting, "_high_value", value)
    return setting


def _is_foul_value(value: int, low: Card) -> bool:
    """:func:`is_foul` of a high hand of value ``value``."""
    if value >> CATEGORY_SHIFT != Category.HIGH_CARD:
        return False
    return (value >> 16) & 0xF < low_rank(low)


def is_foul(high: Sequence[Card], low: Card) -> bool:
    """Whether a high hand fails to outrank the low card (D18).

    A high hand with a pair or better always outranks a single card; a
    no-pair high hand outranks it unless its highest card ranks below the
    low card (equal top ranks favour the five-card hand: it has kickers).

    >>> from croupier.cards import parse_cards
    >>> is_foul(parse_cards("Kd 9c 7h 5s 3d"), Card.parse("Ac"))
    True
    >>> is_foul(parse_cards("Ad 9c 7h 5s 3d"), Card.parse("Ac"))
    False
    """
    return _is_foul_value(evaluate_five(high), low)


def set_hand(cards: Sequence[Card], low: Card) -> Setting:
    """Set six cards with ``low`` as the low hand; refuse a foul setting.

    >>> from croupier.cards import parse_cards
    >>> set_hand(parse_cards("Kd 9c 7h 5s 3d Ac"), Card.parse("Ac"))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    croupier.hands.paigow.FoulSettingError: foul setting: ... [670a.11]
    """
    hand = list(cards)
    if len(hand) != 6:
        msg = f"a six-card hand is set from six cards, not {len(hand)}"
        raise IllegalActionError(msg, ref=SETTING_REF)
    if low not in hand:
        shown = " ".join(str(c) for c in hand)
        msg = f"the low hand {low} is not one of the cards {shown}"
        raise IllegalActionError(msg, ref=SETTING_REF)
    at = hand.index(low)
    six = tuple(hand)
    del hand[at]
    high = tuple(hand)
    try:
        # the value of the cards less the low one, from the six cards'
        # values (those the house way and the settlement's best five use)
        value = _FIVE_VALUES.leave_one_out(six)[at]
    except ValueError:
        # another five of the six has no value (two jokers): this one alone
        value = evaluate_five(high)
    if _is_foul_value(value, low):
        shown = " ".join(str(c) for c in high)
        msg = (
            f"foul setting: the high hand {shown} "
            f"({describe(value)}) does not outrank the low hand {low}"
        )
        raise FoulSettingError(msg, ref=SETTING_REF)
    return _valued(high, low, value)


def legal_settings(cards: Sequence[Card]) -> list[Setting]:
    """Every non-foul setting, one per distinct low card, in hand order."""
    settings: list[Setting] = []
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            continue
        seen.add(card)
        rest = list(cards)
        rest.remove(card)
        if not is_foul(rest, card):
            settings.append(Setting(high=tuple(rest), low=card))
    return settings


@unique
class HandOutcome(StrEnum):
    """How a player's hand fares against the dealer's (one of two hands)."""

    WIN = "win"
    """The player's hand outranks the dealer's."""
    LOSE = "lose"
    """The dealer's hand outranks the player's, or it is a copy."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    """The comparison of a player's setting with the dealer's (D20)."""

    high: HandOutcome
    """The high hands."""
    low: HandOutcome
    """The low hands."""
    high_copy: bool
    """Whether the high hands were identical in rank (a copy)."""
    low_copy: bool
    """Whether the low cards were identical in rank (a copy)."""

    @property
    def result(self) -> str:
        """``win`` (both won), ``lose`` (both lost) or ``push``."""
        if self.high is self.low:
            return self.high.value
        return "push"


_new_comparison = frozen_constructor(Comparison)
"""``Comparison(...)``, faster: one for every seat settled
(:func:`croupier.frozen.frozen_constructor`)."""


def compare(
    player: Setting, dealer: Setting, *, joker_low_beats_all: bool = True
) -> Comparison:
    """Compare both hands with the dealer's; copies go to the dealer.

    With ``joker_low_beats_all`` (D19) a joker the player uses as the
    one-card low hand beats any dealer low hand, an ace included;
    without it, it is a plain ace (and a dealer ace copies it).

    >>> from croupier.cards import parse_cards
    >>> p = set_hand(parse_cards("Kd Kc 7h 5s 3d Ac"), Card.parse("Ac"))
    >>> d = set_hand(parse_cards("Kh Ks 7c 5d 3h Ad"), Card.parse("Ad"))
    >>> compare(p, d).result
    'lose'
    >>> j = set_hand(parse_cards("Kd Kc 7h 5s 3d Jk"), Card.parse("Jk"))
    >>> compare(j, d).low.value, compare(j, d, joker_low_beats_all=False).low
    ('win', <HandOutcome.LOSE: 'lose'>)
    """
    p_high, d_high = player.high_value, dealer.high_value
    p_low, d_low = player.low_value, dealer.low_value
    if joker_low_beats_all and player.low.is_joker:
        p_low = ACE + 1  # above any dealer low card
    return _new_comparison(
        high=HandOutcome.WIN if p_high > d_high else HandOutcome.LOSE,
        low=HandOutcome.WIN if p_low > d_low else HandOutcome.LOSE,
        high_copy=p_high == d_high,
        low_copy=p_low == d_low,
    )


class HouseWay(Protocol):
    """A deterministic way of setting six cards (D21), pluggable by name."""

    @property
    def name(self) -> str:
        """The registry name (the ``house_way`` Rules Submission option)."""
        ...

    def set_hand(self, cards: Sequence[Card]) -> Setting:
        """The setting this house way gives ``cards``."""
        ...


def _choose(
    cards: Sequence[Card], score: Callable[[Setting], tuple[int, ...]]
) -> Setting:
    settings = legal_settings(cards)
    if not settings:  # pragma: no cover - a legal setting always exists
        msg = "no legal setting"
        raise IllegalActionError(msg, ref=SETTING_REF)
    # max() keeps the first of equal scores; the low card's code breaks
    # any remaining tie so the result never depends on the dealing order.
    return max(settings, key=lambda s: (*score(s), -s.low.code))


def _setting_at(
    cards: Sequence[Card], low: int, values: Sequence[int] | None = None
) -> Setting:
    """The setting with ``cards[low]`` as the low hand.

    ``low`` comes from :func:`~croupier.hands.paigow_classes.house_way_low`;
    ``values``, when given, are :func:`_high_values` of ``cards`` (so
    ``values[low]`` is the high hand's value).
    """
    if low < 0:  # pragma: no cover - a legal setting always exists
        msg = "no legal setting"
        raise IllegalActionError(msg, ref=SETTING_REF)
    high = (*cards[:low], *cards[low + 1 :])
    if values is None:
        return Setting(high=high, low=cards[low])
    return _valued(high, cards[low], values[low])


@dataclass(frozen=True, slots=True)
class StandardHouseWay:
    """The default house way (``standard``), deterministic and documented.

    1. Consider every legal (non-foul) setting.
    2. Keep those whose high hand has the best category achievable
       (never break a pair, two pair, trips, straight, flush... to
       improve the low hand).
    3. Among them, play the highest low card.
    4. Then the best high hand; then the lowest card code as the low.

    So with no pair the second-highest card is the low hand; with a pair
    the best other card; with a straight or flush the highest card that
    keeps it.

    >>> from croupier.cards import parse_cards
    >>> str(StandardHouseWay().set_hand(parse_cards("2c 2d Ah Ks 9d 7c")).low)
    'Ah'
    """

    name: str = "standard"
    """Registry name."""

    def set_hand(self, cards: Sequence[Card]) -> Setting:
        """Set ``cards`` the standard way (as :meth:`plain_set_hand`)."""
        values = _high_values(cards)
        low = house_way_low(cards, evaluate_five, values=values)
        return _setting_at(cards, low, values)

    def plain_set_hand(self, cards: Sequence[Card]) -> Setting:
        """The reference: every legal setting built and scored."""
        return _choose(
            cards,
            lambda s: (
                int(category_of(s.high_value)),
                s.low_value,
                s.high_value,
            ),
        )


@dataclass(frozen=True, slots=True)
class BestHighHouseWay:
    """A house way that maximises the high hand first (``best_high``).

    The best high hand achievable, then the highest low card, then the
    lowest card code as the low.

    >>> from croupier.cards import parse_cards
    >>> str(BestHighHouseWay().set_hand(parse_cards("2c 2d Ah Ks 9d 7c")).low)
    '7c'
    """

    name: str = "best_high"
    """Registry name."""

    def set_hand(self, cards: Sequence[Card]) -> Setting:
        """Set ``cards`` with the best possible high hand (fast path)."""
        values = _high_values(cards)
        low = house_way_low(
            cards, evaluate_five, best_high=True, values=values
        )
        return _setting_at(cards, low, values)

    def plain_set_hand(self, cards: Sequence[Card]) -> Setting:
        """The reference: every legal setting built and scored."""
        return _choose(cards, lambda s: (s.high_value, s.low_value))


HOUSE_WAYS: dict[str, HouseWay] = {}
"""The registered house ways by name."""


def register_house_way(way: HouseWay) -> HouseWay:
    """Register a house way under its name (a Rules Submission choice)."""
    HOUSE_WAYS[way.name] = way
    return way


def find_house_way(name: str) -> HouseWay:
    """The house way registered as ``name``."""
    try:
        return HOUSE_WAYS[name]
    except KeyError:
        known = ", ".join(sorted(HOUSE_WAYS))
        msg = f"unknown house way {json_text(name, 60)}; known: {known}"
        raise IllegalActionError(msg, ref=SETTING_REF) from None


register_house_way(StandardHouseWay())
register_house_way(BestHighHouseWay())


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in notation separated by spaces."""
    return " ".join(str(card) for card in cards)
