"""Whether a Rules Submission lets a round run out of cards (D76).

A Double Back Jack or 21 Baccarat round whose shoe has no card left for
a step is void (D69). It can happen only when one round may need more
cards than lie behind the cover card: the cover card is cut at the
rules' ``penetration`` of the whole shoe (591.7(a), 681a.7(a); the
position rounded down, as :func:`~croupier.procedures.shoe_games.
insert_cover_card_at_penetration` places it), and a round that begins
with the cover card next in the shoe has only the cards behind it; the
round that meets the cover card is completed and the shoe reshuffled
after it (591.7(d), 681a.7(d)). :func:`round_run_out` sets the most
cards one round can take beside the fewest it may begin with.

The most cards are a deterministic upper bound worked out from the
rules alone, not an estimate of how often it happens:

* 21 Baccarat (681a.7(e)-(g)): four cards, then at most one more to
  each hand, a counting card (g) or a Bonus-only card (f)(2): six,
  however many seats wager (both hands are the table's).
* Double Back Jack (591.7(e)-(p)): every box wagers and splits
  (``max_split_hands`` hands a box); a hand draws only while its total
  is below 21 (591.7(j), (m)), so all its cards but the last add up to
  at most 20 counting every ace as 1, and the dealer's but the last to
  at most 16 (591.7(o)); each hand may take one Second Chance card
  (591.7(l); with ``second_chance_on_split`` false only an unsplit
  hand, one a box). All those "cards but the last" together add up to
  at most ``20 * hands + 16``, so there are at most as many as the
  shoe's smallest cards that fit in that sum (aces, then deuces, ...);
  add one last card per hand and the dealer's, and the Second Chance
  cards. Doubling (one card, then no more) and split aces that may not
  draw (``split_aces_may_draw``) take fewer cards than hitting, so they
  do not raise it. The bound is reached at six decks and six boxes (124
  cards, ``tests/foundation/test_d76_run_out.py`` stacks it).

That bound is a fact, not a forecast: six decks cut at 3/4 leave 78
cards behind the cover card, and a round that takes 124 needs some 99
of the shoe's smallest cards in it. So the warning (:meth:`RunOut.
warning`) is kept for a shoe that will often run out: fewer cards lie
behind the cover card than an ordinary round takes. An ordinary Double
Back Jack round takes about three cards a hand, the dealer's included
(2.65 in 3,000 sample rounds of two boxes; a Second Chance or a split
adds some); an ordinary 21 Baccarat round about five (5.2), within its
six. :attr:`RunOut.ordinary` is that many, never above the most.

Neither burn counts: the first card of a new shoe comes from above the
cover card, and a new dealer's burn before the deal (591.7(c),
681a.7(c)) takes one card more only when the dealer changes.

>>> from croupier.games.baccarat21 import Baccarat21Rules
>>> found = round_run_out(Baccarat21Rules(decks=1))
>>> found.behind, found.ordinary, found.most, found.can_run_out
(13, 6, 6, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.procedures.shoe_games import cover_card_position
from croupier.rules import GameRules

from .baccarat21.rules import Baccarat21Rules
from .double_back_jack.rules import DoubleBackJackRules

__all__ = [
    "RunOut",
    "baccarat21_most_cards",
    "double_back_jack_most_cards",
    "most_cards_within",
    "round_run_out",
]

DECK = 52
"""Cards in a deck (neither game deals jokers)."""
_PLAYER_DRAWS_BELOW = 21
"""A player hand takes another card only below 21 (591.7(j), (m))."""
_DEALER_DRAWS_BELOW = 17
"""The dealer draws only below 17 (591.7(o))."""
_BACCARAT21_MOST = 6
"""Four cards (681a.7(e)) and at most one more to each hand (f), (g)."""
_ORDINARY_PER_HAND = 3
"""Cards an ordinary Double Back Jack hand takes, the dealer's included,
rounded up (2.65 measured, D76)."""


def most_cards_within(total: int, decks: int) -> int:
    """The most cards of ``decks`` decks whose values add up to ``total``.

    Aces count 1 and tens and faces 10; the smallest cards first.

    >>> most_cards_within(20, 1), most_cards_within(36, 1)
    (10, 15)
    >>> most_cards_within(10_000, 1)
    52
    """
    count = 0
    left = total
    for value in range(1, 11):
        held = 4 * decks * (4 if value == 10 else 1)
        taken = min(held, left // value)
        count += taken
        left -= taken * value
        if taken < held:
            break
    return count


def double_back_jack_most_cards(rules: DoubleBackJackRules) -> int:
    """The most cards one Double Back Jack round can take (D76).

    See the module's docstring for the reasoning; capped at the shoe.

    >>> double_back_jack_most_cards(DoubleBackJackRules())
    124
    >>> double_back_jack_most_cards(DoubleBackJackRules(boxes=1))
    45
    """
    hands = rules.boxes * rules.max_split_hands
    chances = hands if rules.second_chance_on_split else rules.boxes
    # every hand's cards but its last, and the dealer's but the last
    below = (_PLAYER_DRAWS_BELOW - 1) * hands + _DEALER_DRAWS_BELOW - 1
    first = most_cards_within(below, rules.decks)
    return min(first + hands + 1 + chances, DECK * rules.decks)


def baccarat21_most_cards(rules: Baccarat21Rules) -> int:
    """The most cards one 21 Baccarat round can take: six (D76).

    >>> baccarat21_most_cards(Baccarat21Rules())
    6
    """
    del rules  # the Player's and Banker's hands, whatever the seats
    return _BACCARAT21_MOST


@dataclass(frozen=True, slots=True, kw_only=True)
class RunOut:
    """A round's worst case beside what the cover card leaves (D76)."""

    decks: int
    """Decks in the shoe."""
    cards: int
    """Cards in the shoe."""
    cover_card: int
    """Cards above the cover card, as the table cuts it."""
    behind: int
    """Cards behind the cover card: the fewest a round may begin with."""
    places: int
    """Boxes (Double Back Jack) or seats (21 Baccarat) at the table."""
    place: str
    """What a place is called: ``box`` or ``seat``."""
    most: int
    """The most cards one round can take from the shoe."""
    ordinary: int
    """About the cards an ordinary round takes (never above :attr:`most`)."""

    @property
    def can_run_out(self) -> bool:
        """Whether one round may need more cards than lie behind it."""
        return self.most > self.behind

    @property
    def often(self) -> bool:
        """Whether an ordinary round needs more cards than lie behind it."""
        return self.ordinary > self.behind

    def warning(self) -> str | None:
        """A one-line warning naming the numbers, or ``None``.

        Only for a shoe that will often run out (:attr:`often`); one
        that only can is told by :attr:`can_run_out`.

        >>> from fractions import Fraction
        >>> from croupier.games.baccarat21 import Baccarat21Rules
        >>> rules = Baccarat21Rules(decks=1, penetration=Fraction(19, 20))
        >>> print(round_run_out(rules).warning())
        ... # doctest: +NORMALIZE_WHITESPACE
        warning: with 1 deck and the cover card at 49 of 52, 3 cards are
        left behind it, but a round of 7 seats takes about 6 (up to 6):
        rounds will often run out of cards and be void (D69, D76)
        """
        if not self.often:
            return None
        decks = "1 deck" if self.decks == 1 else f"{self.decks} decks"
        plural = "es" if self.place == "box" else "s"
        places = f"{self.places} {self.place}"
        if self.places != 1:
            places += plural
        left = "1 card is" if self.behind == 1 else f"{self.behind} cards are"
        return (
            f"warning: with {decks} and the cover card at "
            f"{self.cover_card} of {self.cards}, {left} left behind it, "
            f"but a round of {places} takes about {self.ordinary} (up to "
            f"{self.most}): rounds will often run out of cards and be void "
            "(D69, D76)"
        )

    def to_dict(self) -> dict[str, object]:
        """The numbers, and whether a round can run out, as JSON values."""
        return {
            "decks": self.decks,
            "cards": self.cards,
            "cover_card": self.cover_card,
            "behind": self.behind,
            "places": self.places,
            "place": self.place,
            "most": self.most,
            "ordinary": self.ordinary,
            "can_run_out": self.can_run_out,
            "often": self.often,
        }


def round_run_out(rules: GameRules) -> RunOut | None:
    """The worst case of a round against the shoe, for ``rules`` (D76).

    ``None`` for a game whose shoe does not last across rounds with a
    cover card whose rounds are voided when it runs out (Midibaccarat,
    pai gow: D69).
    """
    if isinstance(rules, DoubleBackJackRules):
        most = double_back_jack_most_cards(rules)
        places, place = rules.boxes, "box"
        ordinary = min(_ORDINARY_PER_HAND * (rules.boxes + 1), most)
    elif isinstance(rules, Baccarat21Rules):
        most = ordinary = baccarat21_most_cards(rules)
        places, place = rules.seats, "seat"
    else:
        return None
    cards = DECK * rules.decks
    above = cover_card_position(cards, rules.penetration)
    return RunOut(
        decks=rules.decks,
        cards=cards,
        cover_card=above,
        behind=cards - above,
        places=places,
        place=place,
        most=most,
        ordinary=ordinary,
    )
