"""Blackjack-style totals, shared by Double Back Jack and 21 Baccarat.

2-10 count their face value, J/Q/K count 10, an ace counts 11 unless
that would take the total over 21, when it counts 1 (673a.3).

>>> from croupier.cards import parse_cards
>>> blackjack_total(parse_cards("As 6d"))
Total(value=17, soft=True)
>>> blackjack_total(parse_cards("As 6d Kh"))
Total(value=17, soft=False)
>>> is_blackjack(parse_cards("Kd As"))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from croupier.cards import Card, Rank

__all__ = [
    "Total",
    "blackjack_total",
    "card_value",
    "is_blackjack",
    "same_value",
    "second_chance_total",
]


class Total(NamedTuple):
    """A hand total; ``soft`` when an ace is counted as 11."""

    value: int
    """The best total (an ace as 11 only if that does not bust)."""
    soft: bool
    """Whether an ace is counted as 11 in ``value``."""


def card_value(card: Card) -> int:
    """Hard value of a card: ace 1, face cards 10, others face value."""
    if card.rank == Rank.ACE:
        return 1
    return min(int(card.rank), 10)


_HARD = tuple(card_value(Card.from_code(code)) for code in range(53))
""":func:`card_value` of every card code (the joker's included)."""


_SOFT_TOTALS = tuple(Total(hard + 10, soft=True) for hard in range(12))
"""The soft total of each hard total an ace may lift by 10 (up to 11)."""
_HARD_TOTALS = tuple(Total(hard, soft=False) for hard in range(64))
"""The hard totals a hand of a few cards reaches (longer ones built)."""


def blackjack_total(cards: Iterable[Card]) -> Total:
    """The total of a hand, counting one ace as 11 when it fits."""
    hard_values = _HARD
    values = [hard_values[card.code] for card in cards]
    hard = sum(values)
    if hard + 10 <= 21 and 1 in values:
        return _SOFT_TOTALS[hard]
    # the totals are immutable: one object for each, made once
    return _HARD_TOTALS[hard] if hard < 64 else Total(hard, soft=False)


def is_blackjack(cards: Sequence[Card]) -> bool:
    """An ace and a 10-value card as the first two cards."""
    return len(cards) == 2 and blackjack_total(cards).value == 21


def same_value(first: Card, second: Card) -> bool:
    """Whether two cards are identical in value (a king and a 10 are).

    >>> same_value(Card.parse("Kd"), Card.parse("10s"))
    True
    >>> same_value(Card.parse("As"), Card.parse("Kd"))
    False
    """
    return card_value(first) == card_value(second)


def second_chance_total(cards: Iterable[Card], extra: Card) -> int:
    """A busted hand's total less a Second Chance card (an ace as 1).

    The hand's total is over 21, so every ace in it already counts 1;
    the extra card's value is subtracted (Double Back Jack, 591.7(l)).

    >>> from croupier.cards import parse_cards
    >>> second_chance_total(parse_cards("10s 6d 9c"), Card.parse("5h"))
    20
    >>> second_chance_total(parse_cards("Kd 6d 9c"), Card.parse("Ah"))
    24
    """
    return blackjack_total(cards).value - card_value(extra)
