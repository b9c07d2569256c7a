"""Baccarat point count, naturals, the third-card rules as data, and pairs.

Shared by Midibaccarat (629a) and commission-free Midibaccarat (629b).
The Midibaccarat sections on card values (629a.6) and on the third card
(629a.10, with its Table 1) were not retrievable; the values follow the
usual baccarat count and the drawing rules follow the sister chapter's
631a.11 and its Table 1 (INFER: the three PA baccarat chapters were
adopted together with a parallel structure).

>>> from croupier.cards import parse_cards
>>> point_count(parse_cards("Kd 9h")), point_count(parse_cards("7s 8c As"))
(9, 6)
>>> is_natural(parse_cards("4d 4h")), is_natural(parse_cards("4d 4h Kc"))
(True, False)
>>> banker_draws(4, player_third=Card.parse("7c"))
True
>>> banker_draws(4, player_third=Card.parse("8c"))
False
>>> pair_kind(parse_cards("Qh Qd")), pair_kind(parse_cards("Th Jh"))
(<PairKind.COLORED: 'colored'>, None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum, unique
from types import MappingProxyType

from croupier.cards import Card, Rank
from croupier.errors import CardParseError

__all__ = [
    "BANKER_DRAWS_AFTER_PLAYER_THIRD",
    "BANKER_DRAWS_PLAYER_STOOD",
    "PLAYER_DRAWS",
    "Coup",
    "PairKind",
    "Winner",
    "banker_draws",
    "is_natural",
    "pair_kind",
    "play_coup",
    "player_draws",
    "point_count",
    "point_value",
]

NATURALS = frozenset({8, 9})
"""Two-card Point Counts that make a Natural (627a.1 definition)."""

PLAYER_DRAWS: str = "DDDDDDSS"
"""Player's Hand after two cards (index = Point Count 0-7): ``D`` draws,
``S`` stays (631a.11(b)); 8 and 9 are Naturals and never reach it."""

BANKER_DRAWS_PLAYER_STOOD: str = "DDDDDDSS"
"""Banker's Hand (index = Point Count 0-7) when the Player's Hand took no
third card: draws on 0-5, stays on 6-7 (631a.11(c)(1))."""

BANKER_DRAWS_AFTER_PLAYER_THIRD: Mapping[int, str] = MappingProxyType(
    {
        # Column = baccarat value of the Player's third card, 0..9.
        0: "DDDDDDDDDD",  # 631a.11(c)(2)(i): under 3 always draws
        1: "DDDDDDDDDD",
        2: "DDDDDDDDDD",
        3: "DDDDDDDDSD",  # 631a.11(c)(2)(iii), Table 1 row 3
        4: "SSDDDDDDSS",  # Table 1 row 4
        5: "SSSSDDDDSS",  # Table 1 row 5
        6: "SSSSSSDDSS",  # Table 1 row 6
        7: "SSSSSSSSSS",  # 631a.11(c)(2)(ii): 7 never draws
    }
)
"""Whether the Banker's Hand draws once the Player's Hand has drawn:
row = Banker's two-card Point Count (0-7), column = the value of the
Player's third card (0-9); ``D`` draws, ``S`` stays."""


def point_value(card: Card) -> int:
    """Baccarat value: ace 1, 2-9 face value, 10/J/Q/K 0.

    >>> [point_value(Card.parse(c)) for c in ("As", "9d", "Th", "Kc")]
    [1, 9, 0, 0]
    """
    if card.is_joker:
        msg = "a joker has no baccarat value"
        raise CardParseError(msg)
    if card.rank == Rank.ACE:
        return 1
    if card.rank >= Rank.TEN:
        return 0
    return int(card.rank)


_POINTS = tuple(point_value(Card.from_code(code)) for code in range(52))
""":func:`point_value` of every card code but the joker's (52)."""


def point_count(cards: Iterable[Card]) -> int:
    """The Point Count of a hand: the sum of values, modulo 10."""
    points = _POINTS
    try:
        return sum([points[card.code] for card in cards]) % 10
    except IndexError:  # the joker: point_value says why it has none
        return sum(point_value(card) for card in cards) % 10


def is_natural(cards: Sequence[Card]) -> bool:
    """A Point Count of 8 or 9 on the first two cards."""
    return len(cards) == 2 and point_count(cards) in NATURALS


def player_draws(player_count: int) -> bool:
    """Whether a Player's Hand of this two-card count takes a third card.

    Only for hands 0-7 with no Natural on either side.
    """
    return PLAYER_DRAWS[player_count] == "D"


def banker_draws(banker_count: int, *, player_third: Card | None) -> bool:
    """Whether a Banker's Hand of this two-card count takes a third card.

    ``player_third`` is the Player's third card, or ``None`` if the
    Player's Hand stayed. Only for hands 0-7 with no Natural.
    """
    if player_third is None:
        return BANKER_DRAWS_PLAYER_STOOD[banker_count] == "D"
    row = BANKER_DRAWS_AFTER_PLAYER_THIRD[banker_count]
    return row[point_value(player_third)] == "D"


@unique
class PairKind(StrEnum):
    """Perfect Pairs categories of the initial two cards (629b.1(a))."""

    PERFECT = "perfect"
    """Same rank and same suit."""
    COLORED = "colored"
    """Same rank and colour, different suits."""
    MIXED = "mixed"
    """Same rank, different colours."""


def pair_kind(cards: Sequence[Card]) -> PairKind | None:
    """The pair the first two cards form, or ``None``.

    Only identical ranks pair (629b.1(c)): a 10 and a jack do not.
    """
    first, second = cards[0], cards[1]
    if first.rank != second.rank or first.suit is None or second.suit is None:
        return None
    if first.suit == second.suit:
        return PairKind.PERFECT
    if first.suit.is_red == second.suit.is_red:
        return PairKind.COLORED
    return PairKind.MIXED


@unique
class Winner(StrEnum):
    """The result of a coup."""

    PLAYER = "player"
    """The Player's Hand has the higher Point Count."""
    BANKER = "banker"
    """The Banker's Hand has the higher Point Count."""
    TIE = "tie"
    """Equal Point Counts."""


@dataclass(frozen=True, slots=True)
class Coup:
    """The Player's and Banker's Hands of one round, in dealing order.

    >>> from croupier.cards import parse_cards
    >>> coup = Coup(parse_cards("4s 3d 8c"), parse_cards("6h Kd As"))
    >>> coup.winner, coup.is_dragon7, coup.is_panda8
    (<Winner.BANKER: 'banker'>, True, False)
    """

    player: tuple[Card, ...]
    """The Player's Hand."""
    banker: tuple[Card, ...]
    """The Banker's Hand."""

    @property
    def player_count(self) -> int:
        """The Player's Point Count."""
        return point_count(self.player)

    @property
    def banker_count(self) -> int:
        """The Banker's Point Count."""
        return point_count(self.banker)

    @property
    def winner(self) -> Winner:
        """Which hand won, or a tie."""
        if self.player_count > self.banker_count:
            return Winner.PLAYER
        if self.banker_count > self.player_count:
            return Winner.BANKER
        return Winner.TIE

    @property
    def is_dragon7(self) -> bool:
        """Banker three-card 7 against a Player below 7 (627a.1)."""
        return (
            len(self.banker) == 3
            and self.banker_count == 7
            and self.player_count < 7
        )

    @property
    def is_panda8(self) -> bool:
        """Player three-card 8 against a Banker below 8 (627a.1)."""
        return (
            len(self.player) == 3
            and self.player_count == 8
            and self.banker_count < 8
        )


def play_coup(draw: Callable[[], Card]) -> Coup:
    """Deal a whole coup from ``draw``: P, B, P, B, then the third cards.

    A pure reference implementation of the drawing rules, used as an
    oracle by tests and by analysis code.

    >>> from croupier.cards import parse_cards
    >>> cards = iter(parse_cards("2c 3d 2h 3s 9c 8d"))
    >>> coup = play_coup(lambda: next(cards))
    >>> [str(c) for c in coup.player], [str(c) for c in coup.banker]
    (['2c', '2h', '9c'], ['3d', '3s'])
    """
    player = [draw()]
    banker = [draw()]
    player.append(draw())
    banker.append(draw())
    if is_natural(player) or is_natural(banker):
        return Coup(tuple(player), tuple(banker))
    third: Card | None = None
    if player_draws(point_count(player)):
        third = draw()
        player.append(third)
    if banker_draws(point_count(banker), player_third=third):
        banker.append(draw())
    return Coup(tuple(player), tuple(banker))
