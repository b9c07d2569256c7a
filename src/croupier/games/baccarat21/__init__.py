"""21 Baccarat: dealing and completion of each round (§ 681a.7 (a)-(m)).

Two hands, Player and Banker, are dealt face up from a shoe and counted
like blackjack (ace 1 or 11; soft and hard totals). Patrons wager on
either hand, on a Tie, and on a Bonus ("pair or better") for either
hand. Nobody decides anything once the cards come out: :meth:`deal`
runs the whole round, and :meth:`pending` is always ``None``.

The round, step by step (each step's events cite it):

- (a)-(c): the shoe is loaded after the shuffle and cut; a new batch
  (``new_shoe``) burns one card, and so does a new dealer
  (:meth:`Baccarat21Round.change_dealer`).
- (e): Player, Banker, Player, Banker, all face up.
- (f): a natural (D13: an ace and a 10-value card as the first two cards)
  stops the counting draws. (f)(1) with no Bonus Wager on the layout no
  card follows; (f)(2) with any Bonus Wager, each hand under 17 (soft or
  hard) gets one face-up Bonus-only card, Player first (D17), that counts
  for the Bonus Wagers only.
- (g): otherwise each hand under 17 gets one card, Player first; a hand
  never has more than three cards, and a soft 17 stands.
- (h)-(j): Player and Banker Wagers settle from the dealer's right
  (highest seat) counter-clockwise. Both hands 21 or less: the higher
  wins; both over 21: the *lower* wins; one over 21: the other wins
  (the case (i) and (j) leave implicit cites the lettered subsection);
  equal totals, busted or not, push.
- (k): Tie Wagers win on equal totals (equal busts too); Bonus Wagers
  win on "pair or better" over the hand's final cards, Bonus-only card
  included (:mod:`croupier.hands.bonus21`). ASSUMED: the (k) wagers
  settle after the (h) pass, in the same counter-clockwise order.
- (l): each hand goes to the discard rack as a unit, in dealing order.
- (d): if the cover card came out (before or during the round), the
  round is completed, then the shoe is collected and reshuffled and the
  cover card is placed at ``penetration``; the next round must then be
  created with ``new_shoe=True`` so that (c) burns the first card.
- (m): players never handle the cards: the round has no player action
  at all, and :meth:`Baccarat21Round.apply` refuses every action.

Payouts (§ 681a.8, not retrieved) are Rules Submission options:
Player and Banker 19:20, i.e. 1 to 1 less a 5 % commission (D14,
ASSUMED: the rules are symmetric, so even money would give no edge);
Tie 10:1 (D15, INFER); the Bonus paytable of D16 (ASSUMED). The
commission reported on a settlement is what even money would have paid
minus what was paid; winnings round down (option ``rounding``).

Further choices where the text is silent (each ASSUMED or INFER):

- seats: 7 numbered positions by default (option ``seats``; § 681a.2
  was not retrieved); seat 1 is farthest to the dealer's left.
- wagers (§ 681a.6 not retrieved): any combination per seat, one of
  each kind; a Tie or Bonus Wager needs no Player or Banker Wager. The
  dealer deals only when at least one wager is on the layout.
- (f)(2): a natural is 21, so only the *other* hand can be under 17;
  at most one Bonus-only card is ever dealt in a round. It is dealt for
  any Bonus Wager on the table, whichever hand that wager is on.
- (g): the Player's draw comes before the Banker's, as in (e).
- the Bonus categories and their overlaps: see
  :mod:`croupier.hands.bonus21`.
- (d): the cover card is placed at ``penetration`` of the reshuffled
  shoe (§ 681a.5, the cut, was not retrieved).

>>> from croupier.shoe import Shoe
>>> rnd = Baccarat21Round(
...     rules=Baccarat21Rules(), shoe=Shoe.stacked("2c 9h Kd 5s 7c 9d")
... )
>>> rnd.place_wager(3, "banker", 1000).amount
1000
>>> _ = rnd.deal()
>>> rnd.hands()
{'player': ['9h', '5s', '9d'], 'banker': ['Kd', '7c']}
>>> [(s.outcome.value, s.net, s.commission) for s in rnd.settlements]
[('win', 950, 50)]
"""

from __future__ import annotations

from croupier.errors import CroupierError
from croupier.games.baccarat21.phases import (
    PHASES,
    SECTION,
    TRANSITIONS,
    Phase,
)
from croupier.games.baccarat21.round import Baccarat21Round
from croupier.games.baccarat21.rules import (
    DEFAULT_SEATS,
    Baccarat21Rules,
    Side,
    Wager,
    compare_totals,
    main_wager_outcome,
)
from croupier.registry import GameSpec, register_game
from croupier.rng import Rng
from croupier.rules import GameRules
from croupier.shoe import Shoe

__all__ = [
    "PHASES",
    "SECTION",
    "TRANSITIONS",
    "Baccarat21Round",
    "Baccarat21Rules",
    "Phase",
    "Side",
    "Wager",
    "compare_totals",
    "main_wager_outcome",
]


def _full_shoe(rules: GameRules, rng: Rng) -> Shoe:
    """A full, unshuffled shoe of ``decks`` decks."""
    del rng
    if not isinstance(rules, Baccarat21Rules):
        msg = f"21 Baccarat needs Baccarat21Rules, not {type(rules)}"
        raise CroupierError(msg)
    return Shoe.new(decks=rules.decks)


register_game(
    GameSpec(
        name=Baccarat21Round.game,
        title="21 Baccarat",
        section=SECTION,
        rules_type=Baccarat21Rules,
        new_round=Baccarat21Round,
        new_shoe=_full_shoe,
        wagers=Baccarat21Round.wager_names,
        wager_titles=Baccarat21Round.wager_titles,
        actions=(),
        max_seats=DEFAULT_SEATS,
        seats_ref=Baccarat21Round.seats_ref,
        offered_ref=Baccarat21Round.offered_ref,
        transitions=TRANSITIONS,
        uses_starting_position=False,
    )
)
