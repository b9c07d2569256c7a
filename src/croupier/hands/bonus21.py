"""21 Baccarat Bonus Wager: the "pair or better" categories.

§ 681a.7(k)(2)-(3) pays a Bonus Wager when its hand "contains a pair or
better" as § 681a.3(e) describes; that section was not retrieved, so the
categories below are project decision D16 (ASSUMED), and so are the
named paytables :data:`BONUS_PAYTABLES` (their holds lie in the range
the Board's preamble publishes, 5.8 %-8.0 %). They are evaluated
over the hand's *final* cards, the Bonus-only card of § 681a.7(f)(2)
included, so a hand has two or three cards:

- **pair**: two cards of identical rank (a 10 and a jack are *not* a
  pair, as in Perfect Pairs);
- **three of a kind**: three cards of identical rank;
- **suited three of a kind**: three identical cards (rank and suit;
  possible because the game uses two or more decks);
- **flush**: three cards of one suit;
- **straight**: three consecutive ranks. ASSUMED: the ace plays high
  (Q-K-A) or low (A-2-3) but does not wrap (K-A-2 is no straight);
- **straight flush**: a straight that is also a flush.

A two-card hand can only be a pair or nothing: straights and flushes
need three cards. A hand may qualify for several categories (a suited
three of a kind is also a three of a kind and a flush; with several
decks a pair can also be a flush). ASSUMED: it is paid once, at the
category that pays most under the paytable in force; equal odds go to
the higher-ranked category (:data:`CATEGORY_ORDER`).

>>> from croupier.cards import parse_cards
>>> str(classify(parse_cards("7h 7h 7h"))), str(classify(parse_cards("Kd Kc")))
('suited_three_of_a_kind', 'pair')
>>> classify(parse_cards("Th Jc")) is None
True
>>> best_category(parse_cards("5h 5h 9h"), DEFAULT_BONUS_PAYTABLE).value
'flush'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum, unique

from croupier.cards import Card, Rank
from croupier.errors import CroupierError
from croupier.money import Odds
from croupier.rules import Paytable

__all__ = [
    "BONUS_PAYTABLES",
    "CATEGORY_ORDER",
    "DEFAULT_BONUS_PAYTABLE",
    "DEFAULT_BONUS_PAYTABLE_NAME",
    "BonusCategory",
    "best_category",
    "bonus_categories",
    "bonus_payout",
    "classify",
    "is_straight",
    "paytable_name",
]

_THREE = 3
_PAIR = 2


@unique
class BonusCategory(StrEnum):
    """A "pair or better" category of the Bonus Wager (D16)."""

    SUITED_THREE_OF_A_KIND = "suited_three_of_a_kind"
    """Three identical cards, same rank and suit."""
    STRAIGHT_FLUSH = "straight_flush"
    """Three consecutive ranks of one suit."""
    THREE_OF_A_KIND = "three_of_a_kind"
    """Three cards of one rank."""
    STRAIGHT = "straight"
    """Three consecutive ranks (ace high or low, no wrap)."""
    FLUSH = "flush"
    """Three cards of one suit."""
    PAIR = "pair"
    """Two cards of identical rank."""


CATEGORY_ORDER: tuple[BonusCategory, ...] = tuple(BonusCategory)
"""Categories from highest to lowest rank (three-card poker order)."""


def _table(*odds: int) -> Paytable:
    return Paytable.parse(
        {c.value: f"{n}:1" for c, n in zip(CATEGORY_ORDER, odds, strict=True)}
    )


BONUS_PAYTABLES: dict[str, Paytable] = {
    "A": _table(30, 25, 20, 20, 4, 1),
    "B": _table(29, 29, 27, 25, 1, 1),
    "C": _table(32, 32, 25, 23, 2, 1),
    "D": _table(25, 25, 19, 16, 6, 1),
}
"""The named Bonus paytables of D16 (odds in :data:`CATEGORY_ORDER`).

Each holds between 5.8 % and 8.0 % at 2 and at 3 decks (exactly, as
``croupier design 21-baccarat bonus`` prices them; the README lists the
holds), the range the Board's rulemaking preamble gives for the Bonus
Wager. A: round numbers; B: the table closest to the middle of the
range; C: flush 2 to 1; D: the lowest sigma of the four. A Rules
Submission names one (``bonus_paytable = "B"``) or lists its own odds.
"""

DEFAULT_BONUS_PAYTABLE_NAME = "A"
"""The default of the named tables (D16)."""
DEFAULT_BONUS_PAYTABLE = BONUS_PAYTABLES[DEFAULT_BONUS_PAYTABLE_NAME]
"""The D16 default paytable; a Rules Submission may replace it."""


def paytable_name(table: Paytable) -> str | None:
    """The name of ``table`` in :data:`BONUS_PAYTABLES`, if it is one.

    >>> paytable_name(DEFAULT_BONUS_PAYTABLE)
    'A'
    """
    for name, named in BONUS_PAYTABLES.items():
        if named.to_dict() == table.to_dict():
            return name
    return None


def is_straight(ranks: Sequence[Rank]) -> bool:
    """Whether three ranks are consecutive, the ace high or low.

    >>> is_straight([Rank.ACE, Rank.TWO, Rank.THREE])
    True
    >>> is_straight([Rank.QUEEN, Rank.KING, Rank.ACE])
    True
    >>> is_straight([Rank.KING, Rank.ACE, Rank.TWO])
    False
    """
    if len(ranks) != _THREE or len(set(ranks)) != _THREE:
        return False
    values = sorted(int(rank) for rank in ranks)
    if values == [int(Rank.TWO), int(Rank.THREE), int(Rank.ACE)]:
        return True
    return values[2] - values[0] == _THREE - 1


def bonus_categories(cards: Sequence[Card]) -> frozenset[BonusCategory]:
    """Every category the hand qualifies for (empty: no pair or better).

    >>> from croupier.cards import parse_cards
    >>> sorted(c.value for c in bonus_categories(parse_cards("7h 7h 7h")))
    ['flush', 'pair', 'suited_three_of_a_kind', 'three_of_a_kind']
    """
    if not _PAIR <= len(cards) <= _THREE:
        msg = f"a 21 Baccarat hand has 2 or 3 cards, not {len(cards)}"
        raise CroupierError(msg)
    found: set[BonusCategory] = set()
    rank_counts = Counter(card.rank for card in cards)
    top = max(rank_counts.values())
    if top >= _PAIR:
        found.add(BonusCategory.PAIR)
    if len(cards) == _THREE:
        suits = {card.suit for card in cards}
        flush = len(suits) == 1 and None not in suits
        straight = is_straight([card.rank for card in cards])
        if top == _THREE:
            found.add(BonusCategory.THREE_OF_A_KIND)
            if len(set(cards)) == 1:
                found.add(BonusCategory.SUITED_THREE_OF_A_KIND)
        if flush:
            found.add(BonusCategory.FLUSH)
        if straight:
            found.add(BonusCategory.STRAIGHT)
        if straight and flush:
            found.add(BonusCategory.STRAIGHT_FLUSH)
    return frozenset(found)


def classify(cards: Sequence[Card]) -> BonusCategory | None:
    """The highest-ranked category of the hand, or ``None``."""
    found = bonus_categories(cards)
    for category in CATEGORY_ORDER:
        if category in found:
            return category
    return None


def best_category(
    cards: Sequence[Card], paytable: Paytable
) -> BonusCategory | None:
    """The category the hand is paid at under ``paytable``, or ``None``.

    The highest-paying qualifying category that the paytable lists;
    ``None`` when the hand qualifies for no listed category (the Bonus
    Wager loses).
    """
    best: BonusCategory | None = None
    best_odds: Odds | None = None
    found = bonus_categories(cards)
    for category in CATEGORY_ORDER:
        odds = paytable.get(category.value)
        if category not in found or odds is None:
            continue
        if best_odds is None or odds.fraction > best_odds.fraction:
            best, best_odds = category, odds
    return best


def bonus_payout(
    cards: Sequence[Card], paytable: Paytable
) -> tuple[BonusCategory, Odds] | None:
    """The category and odds a Bonus Wager on ``cards`` wins, or ``None``.

    >>> from croupier.cards import parse_cards
    >>> bonus_payout(parse_cards("9c Td Jh"), DEFAULT_BONUS_PAYTABLE)
    (<BonusCategory.STRAIGHT: 'straight'>, Odds.parse('20:1'))
    """
    category = best_category(cards, paytable)
    if category is None:
        return None
    return category, paytable[category.value]
