"""The pai gow five-card value by hand class: a fast path, proven equal.

The plain evaluator (:func:`croupier.hands.paigow._evaluate_five`) works
a hand out from its cards; with the joker it tries the ace and every
missing card (D19), about fifty evaluations. But a five-card value
depends on less than the cards:

- without the joker, on the multiset of ranks and on whether all five
  suits are one (the flush test); nothing else is looked at;
- with the joker (and four distinct other cards), on the other cards'
  ranks and on whether those four share a suit: the ace costs nothing
  of the hand's suits, a straight needs a rank the hand lacks (any suit
  of it is free), a flush needs the one suit of the four.

So :class:`FiveValues` keys each hand by that class (sorted ranks, the
joker as a fourteenth rank, and the one-suit flag), works its value out
once and remembers the answer: about 10,000 classes instead of
2,869,685 hands, and a house way mostly costs look-ups. A class is
valued by the plain evaluator or, given a natural evaluator, from its
ranks and flag alone (:func:`natural_value` for five natural cards,
:func:`joker_value` for the joker); the table fills over the first
thousands of rounds, so that first valuation is itself a good part of
a round's cost. Anything outside those cases (not five cards, two
jokers, a repeated card beside the joker) goes to the plain evaluator
every time. ``tests/paigow/test_paigow_classes.py`` proves them equal
on every class and on random and structured hands (hypothesis).

>>> from croupier.cards import parse_cards
>>> values = FiveValues(lambda cards: len({c.suit for c in cards}))
>>> flush = parse_cards("2c 3c 4c 5c 7c"), parse_cards("2d 3d 4d 5d 7d")
>>> values(flush[0]), values(flush[1])
(1, 1)
>>> len(values.classes)
1
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter

from croupier.cards import JOKER_CODE, Card

__all__ = [
    "FiveValues",
    "hand_class",
    "house_way_low",
    "joker_value",
    "natural_class_value",
    "natural_value",
]

_code = attrgetter("code")
_MAX_CLASSES = 1 << 17
"""Bound of the table (the classes number about 13,000)."""
_MAX_SIXES = 64
"""Six-card hands whose values are kept (a round asks for seven)."""


def hand_class(cards: Sequence[Card]) -> tuple[int, ...] | None:
    """The class of five cards (``None``: not a class the rule covers).

    The sorted ranks (``code // 4``; the joker is 13) and 1 when the
    suits of the cards other than the joker are all one, else 0.

    >>> from croupier.cards import parse_cards
    >>> hand_class(parse_cards("Kd 2s JK 2c Ad"))
    (0, 0, 11, 12, 13, 0)
    >>> hand_class(parse_cards("Kd Kd JK 2c Ad")) is None
    True
    """
    return _sorted_class(sorted(map(_code, cards)))


def _sorted_class(codes: Sequence[int]) -> tuple[int, ...] | None:
    """:func:`hand_class` of cards given by their codes, sorted."""
    if len(codes) != 5:
        return None
    c0, c1, c2, c3, c4 = codes
    if c4 == JOKER_CODE:
        if c3 == JOKER_CODE or c0 == c1 or c1 == c2 or c2 == c3:
            return None  # two jokers, or a card twice beside the joker
        suit = c0 & 3
        same = (c1 & 3) == suit and (c2 & 3) == suit and (c3 & 3) == suit
    else:
        suit = c0 & 3
        same = (
            (c1 & 3) == suit
            and (c2 & 3) == suit
            and (c3 & 3) == suit
            and (c4 & 3) == suit
        )
    return (c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2, int(same))


_ACE = 14
_SHIFT = 20
"""Bit position of the category in a value (``paigow.CATEGORY_SHIFT``)."""
_HIGH_CARD, _STRAIGHT, _FLUSH = 0, 4, 5
_STRAIGHT_FLUSH, _ROYAL_FLUSH = 8, 9
_BY_SHAPE = {
    (4, 1): 7,  # four of a kind
    (3, 2): 6,  # full house
    (3, 1, 1): 3,  # three of a kind
    (2, 2, 1): 2,  # two pair
    (2, 1, 1, 1): 1,  # one pair
}
"""The category (``paigow.Category``) of each shape of repeated ranks:
the counts of the ranks, largest first."""


def natural_value(ranks: Sequence[int], flush: bool) -> int | None:
    """The value of five natural cards from their ranks (2-14) alone.

    ``flush``: the five share one suit. The same value as
    :func:`croupier.hands.paigow._evaluate_natural` (the category in
    bits 20 and up, then the ranks that break ties, most counted first,
    then highest first), worked out from the sorted ranks without the
    cards. ``None`` for what five distinct cards cannot hold (a rank
    five times, or a flush with a rank repeated): the caller asks the
    plain evaluator then.

    >>> from croupier.hands.paigow import describe
    >>> describe(natural_value([14, 2, 3, 4, 5], False))
    'straight, five high'
    >>> describe(natural_value([9, 9, 4, 9, 4], False))
    'full house'
    """
    a, b, c, d, e = sorted(ranks)
    return natural_class_value((a - 2, b - 2, c - 2, d - 2, e - 2, flush))


def natural_class_value(key: tuple[int, ...]) -> int | None:
    """:func:`natural_value` of a class without the joker (:func:`hand_class`).

    The ranks (``code // 4``, ascending) and the one-suit flag are the
    key's, so nothing is sorted or built: the path a class the table has
    not met yet takes (about 18 classes a round are asked for, most of
    them new in a round of the first thousands). ``None`` where
    :func:`natural_value` says ``None``, and for a class with the joker.

    >>> from croupier.cards import parse_cards
    >>> from croupier.hands.paigow import describe
    >>> key = hand_class(parse_cards("Kh Qh Jh Th 9h"))
    >>> describe(natural_class_value(key))
    'straight flush, king high'
    """
    a, b, c, d, e, flush = key
    if e == _JOKER_RANK:
        return None  # the joker's class: joker_value
    a += 2
    b += 2
    c += 2
    d += 2
    e += 2
    if a != b and b != c and c != d and d != e:
        if e - a == 4:
            top = e
        elif e == _ACE and d == 5:
            top = 5  # A-2-3-4-5, the lowest straight
        else:
            top = 0
        if top:
            if not flush:
                return _STRAIGHT << _SHIFT | top << 16
            category = _ROYAL_FLUSH if top == _ACE else _STRAIGHT_FLUSH
            return category << _SHIFT | top << 16
        category = _FLUSH if flush else _HIGH_CARD
        return category << _SHIFT | e << 16 | d << 12 | c << 8 | b << 4 | a
    if flush:
        return None  # a repeated rank in one suit: not five distinct cards
    # the ranks by (count, rank), both descending
    groups: list[tuple[int, int]] = []
    run = 1
    for low, high in ((a, b), (b, c), (c, d), (d, e)):
        if low == high:
            run += 1
        else:
            groups.append((run, low))
            run = 1
    groups.append((run, e))
    groups.sort(reverse=True)
    shaped = _BY_SHAPE.get(tuple(count for count, _ in groups))
    if shaped is None:
        return None  # a rank five times
    value = shaped
    for _, rank in groups:
        value = value << 4 | rank
    return value << 4 * (5 - len(groups))


Natural = Callable[[Sequence[int], Sequence[str | None]], int]
"""A natural five-card evaluator: ranks (2-14) and suits (``None``: none)."""

_JOKER_RANK = JOKER_CODE >> 2
_WINDOWS = (
    *(0x1F << (top - 4) for top in range(14, 5, -1)),
    (1 << 14) | 0b111100,
)
"""Each straight's ranks as a bit mask, best first (the wheel
A-2-3-4-5 last)."""


def joker_value(key: tuple[int, ...], natural: Natural) -> int:
    """The value of a joker class (:func:`hand_class`), worked out (D19).

    The joker is an ace, or the card that completes a straight, a flush
    or a straight flush: the best of the ace hand, the straight (flush,
    if the four share a suit) of the highest window holding the four
    ranks, and with one suit the flush of the highest rank that suit
    lacks. Every candidate is valued by ``natural``.

    >>> from croupier.cards import parse_cards
    >>> from croupier.hands.paigow import _evaluate_natural, describe
    >>> key = hand_class(parse_cards("Kh Qh Jh Th JK"))
    >>> describe(joker_value(key, _evaluate_natural))
    'royal flush'
    """
    ranks = [k + 2 for k in key[:4]]
    suited = bool(key[5])
    suits: list[str | None] = (
        ["c", "c", "c", "c"] if suited else ["c", "d", "c", "c"]
    )
    best = natural([*ranks, 14], [*suits, None])
    if len(set(ranks)) < 4:
        return best  # a pair among the four: neither straight nor flush
    mask = 0
    for rank in ranks:
        mask |= 1 << rank
    for window in _WINDOWS:
        if mask & ~window == 0:
            fill = (window & ~mask).bit_length() - 1
            best = max(best, natural([*ranks, fill], [*suits, "c"]))
            break
    if suited:
        fill = max(r for r in range(2, 15) if not mask >> r & 1)
        best = max(best, natural([*ranks, fill], [*suits, "c"]))
    return best


_ONE_SUIT = ("c", "c", "c", "c", "c")
_SUITS = ("c", "d", "c", "c", "c")
"""Suits standing for a class's: all one (a flush), or not."""


class FiveValues:
    """The plain evaluator's value, asked once per hand class."""

    def __init__(
        self,
        plain: Callable[[Sequence[Card]], int],
        *,
        natural: Natural | None = None,
        by_class: Callable[[tuple[int, ...]], int | None] | None = None,
    ) -> None:
        self.plain = plain
        """The reference evaluator (also used for what no class covers)."""
        self.natural = natural
        """The evaluator of five natural cards (ranks, suits), if given:
        a joker class is then valued from at most three natural hands
        (:func:`joker_value`) instead of the plain fifty, and a class
        without the joker from its ranks and one-suit flag."""
        self.by_class = by_class
        """The value of a class without the joker from its key alone
        (:func:`natural_class_value`), if given; where it answers
        ``None``, ``natural`` (else ``plain``) values the class."""
        self.classes: dict[tuple[int, ...], int] = {}
        """Each class's value, as the plain evaluator gave it."""
        self.sixes: dict[tuple[int, ...], tuple[int, ...]] = {}
        """:meth:`leave_one_out` of the six-card hands last asked, by
        their codes in order (equal codes, equal cards)."""

    def __call__(self, cards: Sequence[Card]) -> int:
        """The value of five cards (the plain evaluator's)."""
        return self._of_class(hand_class(cards), cards)

    def leave_one_out(self, cards: Sequence[Card]) -> tuple[int, ...]:
        """``self`` of ``cards`` less each card in turn, in hand order.

        Item ``i`` is the value of the five cards other than
        ``cards[i]`` (a high hand when ``cards[i]`` is the low one, and
        one of the six hands :func:`itertools.combinations` gives). For
        six cards their codes are sorted once, each five then being that
        order less one code; a round asks for the same six cards twice
        (setting them, and their best five at settlement), so the last
        answers are kept.
        """
        key = tuple(map(_code, cards))
        found = self.sixes.get(key)
        if found is not None:
            return found
        if len(key) != 6:
            return tuple(
                self([*cards[:i], *cards[i + 1 :]]) for i in range(len(key))
            )
        order = sorted(range(6), key=key.__getitem__)
        codes = [key[i] for i in order]
        values = [0] * 6
        classes = self.classes
        for k, i in enumerate(order):
            key_k = _sorted_class(codes[:k] + codes[k + 1 :])
            value = None if key_k is None else classes.get(key_k)
            if value is None:
                value = self._of_class(key_k, [*cards[:i], *cards[i + 1 :]])
            values[i] = value
        found = tuple(values)
        if len(self.sixes) >= _MAX_SIXES:
            self.sixes.clear()
        self.sixes[key] = found
        return found

    def _of_class(
        self, key: tuple[int, ...] | None, cards: Sequence[Card]
    ) -> int:
        """The value of five ``cards`` of class ``key``."""
        if key is None:
            return self.plain(cards)
        value = self.classes.get(key)
        if value is None:
            natural = self.natural
            joker = key[4] == _JOKER_RANK
            if not joker and self.by_class is not None:
                value = self.by_class(key)
            if value is None:
                if natural is None:
                    value = self.plain(cards)
                elif joker:
                    value = joker_value(key, natural)
                else:
                    # five natural cards: their ranks and whether one suit
                    suits = _ONE_SUIT if key[5] else _SUITS
                    value = natural([k + 2 for k in key[:5]], suits)
            if len(self.classes) >= _MAX_CLASSES:  # pragma: no cover
                self.classes.clear()
            self.classes[key] = value
        return value


def house_way_low(
    cards: Sequence[Card],
    value: Callable[[Sequence[Card]], int],
    *,
    best_high: bool = False,
    values: Sequence[int] | None = None,
) -> int:
    """Where in ``cards`` the low card of a house way's setting lies.

    The same choice as :func:`croupier.hands.paigow._choose` with the
    ``standard`` score (best high-hand category, then the highest low
    card, then the best high hand) or, with ``best_high``, the
    ``best_high`` score (best high hand, then the highest low card): of
    every non-foul setting, one per distinct low card in hand order, the
    first with the highest score, the lowest low-card code breaking
    ties. Each high hand is valued once (the plain way values it three
    times and builds every setting); ``-1`` when no setting is legal.
    ``values``, when given, are those values already worked out
    (``values[i]``: ``value`` of the cards other than ``cards[i]``).

    >>> from croupier.cards import parse_cards
    >>> from croupier.hands.paigow import evaluate_five
    >>> cards = parse_cards("2c 2d Ah Ks 9d 7c")
    >>> house_way_low(cards, evaluate_five)
    2
    >>> house_way_low(cards, evaluate_five, best_high=True)
    5
    """
    best: tuple[int, ...] | None = None
    chosen = -1
    seen: set[int] = set()
    for i, card in enumerate(cards):
        code = card.code
        if code in seen:
            continue
        seen.add(code)
        high = (
            value([*cards[:i], *cards[i + 1 :]])
            if values is None
            else values[i]
        )
        low = _ACE if code == JOKER_CODE else (code >> 2) + 2
        category = high >> _SHIFT
        if category == 0 and (high >> 16) & 0xF < low:
            continue  # foul: a no-pair high hand below the low card (D18)
        score = (
            (high, low, -code) if best_high else (category, low, high, -code)
        )
        if best is None or score > best:
            best, chosen = score, i
    return chosen
