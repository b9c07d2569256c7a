"""Whether a shoe can run out of cards while a hand is valued (D130).

The analyzer (:mod:`.exact`) deals a hand's round in Farmer's order:
the box's cards first (hits, a double's card, each split hand's second
card and hits, the pair cards that open resplit hands, the Second
Chance card of 591.7(l)), then the dealer's hole card, then his hits.
On a short shoe some of those orders want a card when none is left: the
outcomes of that path are lost (or valued as if the dealer had no hole
card), and the figure is not the game's. :func:`dry_play` finds such a
path, exactly, for every play the analysis values:

* the hand stands, hits while its total is below 21, doubles its first
  two cards, splits a pair (a pair card drawn as a split hand's second
  card opens a new hand while ``max_split_hands`` allows, aces only
  with ``resplit_aces``), and a bust takes the Second Chance or
  declines it, wherever the rules allow; a 21 paid at once (591.7(m))
  and a surrender are settled;
* the dealer's hole card is always dealt (591.7(e) deals it before the
  player's cards);
* the dealer then draws until he stands when some hand waits for him:
  it stood, it took the Second Chance (the analysis values that card
  jointly with the dealer's cards), or it busted and is kept for the 22
  push (591.7(q)(1), ``collect_busts_at_once`` false).

The check is cheap on real shoes: :func:`card_bound`, the most cards
the round can take (each hand's draws but the last keep its hard total
at 20 or less, the dealer's at 16 or less, so together they are at most
the most cards of the shoe whose values sum to those rooms), clears
every hand of 1 to 8 full decks at once. Only a shoe holding fewer
cards than the bound is searched: memoised, the bound pruning every
state it settles, and the dealer's part decided by arithmetic
(:meth:`_Search.dealer_short`).

>>> from croupier.odds.double_back_jack.carules import CARules
>>> shoe = [0] * 11
>>> shoe[10] = 1  # one 10 left: a hit takes the dealer's hole card
>>> dry_play(CARules(), shoe, [2, 3], 10)
('hit 10', 'no card is left for the hit')
>>> shoe[10] = 20
>>> dry_play(CARules(), shoe, [2, 3], 10) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import update_wrapper
from typing import Concatenate, ParamSpec

import numpy as np

from .carules import CARules, DoubleOn

__all__ = ["card_bound", "dry_play", "most_cards"]

Shoe = tuple[int, ...]
"""Counts per value index (entry 0 unused)."""
Counts = Sequence[int] | np.ndarray
"""A shoe as the callers hold it: counts per value index, entry 0 unused."""
Witness = tuple[str, ...]
"""The steps of a play that runs out, the last naming the missing card."""

_HARD_HITS = 20
"""A hand hits only below 21, so at a hard total of 20 or less."""
_DEALER_HITS = 16
"""The dealer draws only below 17 (or on a soft 17), at hard 16 or less."""


def most_cards(shoe: Counts, budget: int) -> int:
    """The most cards of ``shoe`` whose values sum to ``budget`` or less.

    The smallest cards first (ace 1) is best.

    >>> most_cards([0, 2, 3, 0, 0, 0, 0, 0, 0, 0, 9], 7)
    4
    """
    count = 0
    for value in range(1, 11):
        take = min(int(shoe[value]), max(budget, 0) // value)
        count += take
        budget -= take * value
        if take < shoe[value]:
            break
    return count


def _total(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard + 10 <= 21 else hard


def _name(card: int) -> str:
    return "A" if card == 1 else str(card)


def _minus(shoe: Shoe, card: int) -> Shoe:
    return (*shoe[:card], shoe[card] - 1, *shoe[card + 1 :])


_P = ParamSpec("_P")
_Step = Callable[Concatenate["_Search", _P], "Witness | None"]


def _memoised(tag: str) -> Callable[[_Step[_P]], _Step[_P]]:
    """A search step remembered in its search's memo.

    Keyed by ``tag`` and the step's arguments (all hashable); the
    parameters are written once, on the step itself.
    """

    def wrap(step: _Step[_P]) -> _Step[_P]:
        def memoised(
            search: _Search, /, *args: _P.args, **kwargs: _P.kwargs
        ) -> Witness | None:
            key = (tag, *args, *kwargs.items())
            memo = search.memo
            if key in memo:
                return memo[key]
            found = step(search, *args, **kwargs)
            memo[key] = found
            return found

        update_wrapper(memoised, step)
        return memoised

    return wrap


class _Search:
    """The exact search of one hand against one up card."""

    def __init__(self, rules: CARules, hand: Sequence[int], up: int) -> None:
        self.rules = rules
        self.up = up
        pair = hand[0] if len(hand) == 2 and hand[0] == hand[1] else 0
        self.pair = pair if rules.max_split_hands > 1 else 0
        self.max_hands = (
            rules.max_split_hands if pair != 1 or rules.resplit_aces else 2
        )
        self.one_card = pair == 1 and rules.split_aces_one_card
        self.kept = rules.dealer_22_push and not rules.collect_busts_at_once
        self.sc = 1 if rules.second_chance else 0
        self.sc_split = 1 if self.sc and rules.second_chance_on_split else 0
        self.memo: dict[tuple[object, ...], Witness | None] = {}

    # -- the bound ------------------------------------------------------

    def bound(
        self,
        shoe: Shoe,
        margin: int,
        split: bool,
        pending: int,
        hands: int,
        waits: bool,
    ) -> int:
        """The most cards the rest of the round can take.

        ``margin`` is the current hand's hard room below 21 (-1: it
        draws no more, but a Second Chance), ``split`` whether it is a
        split hand, ``pending`` the split hands still to play, ``hands``
        the hands made so far and ``waits`` whether a hand already waits
        for the dealer. Each hand's draws but its last, and the dealer's
        cards but his last, take values that sum to their rooms at most:
        together no more cards than the smallest of the shoe that fit
        the rooms summed. Then each hand's last card, its Second Chance
        card, the pair cards that open more hands and the dealer's last
        card (his hole card at least), one each. The dealer draws past
        his hole card only if a hand waits; where only a hand that
        stands can wait, that hand's cards all fit its room and one more
        point, with no last card of their own.
        """
        extra = 0
        budget = 0
        sc = self.sc_split if split else self.sc
        may_wait = waits or self.kept or sc > 0
        if margin >= 0:
            budget += margin
            extra += 1 + sc
        else:
            extra += sc
        pool = shoe
        if self.pair and split:
            pair = self.pair
            # the pair cards that can still open hands, and those hands
            more = min(self.max_hands - hands, shoe[pair])
            pool = (*shoe[:pair], shoe[pair] - more, *shoe[pair + 1 :])
            if self.one_card:
                extra += pending + more * 2
                may_wait = True  # a split ace stands on its one card
            else:
                room = _HARD_HITS - pair
                budget += (pending + more) * room
                sc = self.sc_split
                extra += pending * (1 + sc) + more * (2 + sc)
                may_wait = may_wait or (sc > 0 and pending + more > 0)
        hole_only = most_cards(pool, budget) + extra + 1
        dealer = budget + _DEALER_HITS - self.up
        if may_wait:
            drawing = most_cards(pool, dealer) + extra + 1
        else:
            drawing = most_cards(pool, dealer + 1) + extra
        return max(hole_only, drawing)

    # -- the box's hands ------------------------------------------------

    @_memoised("d")
    def decide(
        self,
        shoe: Shoe,
        hard: int,
        ace: bool,
        two: bool,
        split: bool,
        pending: int,
        hands: int,
        waits: bool,
    ) -> Witness | None:
        """A hand of hard total ``hard`` decides what to do.

        ``two``: it holds its first two cards; ``split``: a split hand.
        """
        rules = self.rules
        total = _total(hard, ace)
        if total == 21:
            if rules.twenty_one_paid_at_once:
                return self.next_hand(shoe, pending, hands, waits)
            return self.next_hand(shoe, pending, hands, True)
        if split and self.one_card and two:
            return self.next_hand(shoe, pending, hands, True)
        room = _HARD_HITS - hard
        if self.bound(shoe, room, split, pending, hands, waits) <= sum(shoe):
            return None
        # the draws first: a shoe that runs out mostly does so there
        args = (shoe, hard, ace, split, pending, hands, waits)
        found = self.draw(*args, double=False)
        if found is not None:
            return found
        may = rules.double_after_split or not split
        if two and may and _may_double(rules, total):
            found = self.draw(*args, double=True)
            if found is not None:
                return found
        found = self.next_hand(shoe, pending, hands, True)
        return None if found is None else ("stand", *found)

    def draw(
        self,
        shoe: Shoe,
        hard: int,
        ace: bool,
        split: bool,
        pending: int,
        hands: int,
        waits: bool,
        *,
        double: bool,
    ) -> Witness | None:
        """A hit (or a double's one card) of a hand of hard ``hard``."""
        what = "double" if double else "hit"
        if sum(shoe) == 0:
            return (f"no card is left for the {what}",)
        for card in range(1, 11):
            if not shoe[card]:
                continue
            left = _minus(shoe, card)
            new, soft = hard + card, ace or card == 1
            if new > 21:
                found = self.bust(
                    left, new, split, double, pending, hands, waits
                )
            elif double:
                paid = self.rules.twenty_one_paid_at_once
                if _total(new, soft) == 21 and paid:
                    found = self.next_hand(left, pending, hands, waits)
                else:
                    found = self.next_hand(left, pending, hands, True)
            else:
                found = self.decide(
                    left, new, soft, False, split, pending, hands, waits
                )
            if found is not None:
                return (f"{what} {_name(card)}", *found)
        return None

    def bust(
        self,
        shoe: Shoe,
        hard: int,
        split: bool,
        double: bool,
        pending: int,
        hands: int,
        waits: bool,
    ) -> Witness | None:
        """A bust of hard ``hard``: the Second Chance or the decline."""
        rules = self.rules
        offered = (
            rules.second_chance
            and (rules.second_chance_on_split or not split)
            and (rules.second_chance_on_doubled or not double)
        )
        found = self.next_hand(shoe, pending, hands, waits or self.kept)
        if found is not None:
            return ("no Second Chance" if offered else "bust", *found)
        if not offered:
            return None
        if sum(shoe) == 0:
            return ("no card is left for the Second Chance",)
        for card in range(1, 11):
            if shoe[card]:
                left = _minus(shoe, card)
                found = self.next_hand(left, pending, hands, True)
                if found is not None:
                    return (f"Second Chance {_name(card)}", *found)
        return None

    @_memoised("s")
    def second_card(
        self, shoe: Shoe, pending: int, hands: int, waits: bool
    ) -> Witness | None:
        """A split hand (the pair card alone) draws its second card."""
        pair = self.pair
        room = _HARD_HITS - pair
        if self.bound(shoe, room, True, pending, hands, waits) <= sum(shoe):
            return None
        if sum(shoe) == 0:
            return ("no card is left for a split hand's second card",)
        for card in range(1, 11):
            if not shoe[card]:
                continue
            left = _minus(shoe, card)
            if card == pair and hands < self.max_hands:
                found = self.second_card(left, pending + 1, hands + 1, waits)
            else:
                found = self.decide(
                    left,
                    pair + card,
                    pair == 1 or card == 1,
                    True,
                    True,
                    pending,
                    hands,
                    waits,
                )
            if found is not None:
                return (f"second card {_name(card)}", *found)
        return None

    def next_hand(
        self, shoe: Shoe, pending: int, hands: int, waits: bool
    ) -> Witness | None:
        """The next split hand, or the dealer once every hand is played."""
        if pending:
            return self.second_card(shoe, pending - 1, hands, waits)
        if sum(shoe) == 0:
            return ("no card is left for the dealer's hole card",)
        if not waits or not self.dealer_short(shoe):
            return None
        return self.dealer(shoe, self.up, self.up == 1, True)

    # -- the dealer -----------------------------------------------------

    def dealer_short(self, shoe: Shoe) -> bool:
        """Whether the dealer can still be drawing when ``shoe`` is out.

        Some order of all its cards must leave him below 17 at every
        card: the last leaves a hard total of 16 or less (a soft 17 with
        ``dealer_hits_soft_17``), and once an ace is in, the hard total
        must never sit where the ace counts 11 and he stands (7 to 11,
        8 to 11 when he hits a soft 17). With a hard total of 12 to 16
        at the end, the totals leap that window: the aces come after
        cards worth 11 or more, or one card leaps from below it.
        """
        key = ("S", shoe)
        if key in self.memo:
            return self.memo[key] is not None
        up = self.up
        hard = up + sum(v * shoe[v] for v in range(1, 11))
        low = 8 if self.rules.dealer_hits_soft_17 else 7
        if hard > _DEALER_HITS:
            short = False
        elif (up != 1 and not shoe[1]) or hard < low:
            short = True
        elif hard < 12:
            short = False
        elif up != 1 and hard - shoe[1] >= 11:
            short = True
        elif up == 1:
            short = _leaps(shoe, 1, low)
        else:
            short = _leaps(_minus(shoe, 1), up + 1, low)
        self.memo[key] = () if short else None
        return short

    def dealer(
        self, shoe: Shoe, hard: int, ace: bool, hole: bool
    ) -> Witness | None:
        """The dealer's hole card (``hole``) and hits until he stands."""
        total = _total(hard, ace)
        soft17 = ace and hard + 10 == 17 and self.rules.dealer_hits_soft_17
        if total >= 17 and not soft17:
            return None
        key = ("D", shoe, hard, ace, hole)
        if key in self.memo:
            return self.memo[key]
        found: Witness | None = None
        if sum(shoe) == 0:
            found = (f"the dealer's {total} has no card to draw",)
        for card in range(1, 11):
            if found is not None:
                break
            if shoe[card]:
                after = self.dealer(
                    _minus(shoe, card), hard + card, ace or card == 1, False
                )
                if after is not None:
                    step = "hole card" if hole else "dealer draws"
                    found = (f"{step} {_name(card)}", *after)
        self.memo[key] = found
        return found


def _leaps(shoe: Shoe, hard: int, low: int) -> bool:
    """Whether one card of ``shoe`` can take ``hard`` to 12 or more.

    Other cards may come first while the total stays below ``low``.
    """
    if hard >= low:
        return False
    if any(shoe[card] for card in range(max(12 - hard, 1), 11)):
        return True
    return any(
        shoe[card] and _leaps(_minus(shoe, card), hard + card, low)
        for card in range(1, low - hard)
    )


def _may_double(rules: CARules, total: int) -> bool:
    if rules.double_on is DoubleOn.ANY:
        return True
    low = 9 if rules.double_on is DoubleOn.NINE_TO_ELEVEN else 10
    return low <= total <= 11


def card_bound(
    rules: CARules, shoe: Counts, hand: Sequence[int], up: int
) -> int:
    """The most cards ``hand``'s round against ``up`` can take from ``shoe``.

    ``shoe`` is what is left after the hand and the up card. Every play
    (a split with its resplits included), the Second Chance card and the
    dealer's hole card and hits are counted; no play takes more, so a
    shoe holding at least this many cards cannot run out (D130).

    >>> from croupier.odds.double_back_jack.carules import CARules
    >>> card_bound(CARules(), [0, *[4] * 9, 16], [10, 6], 7)
    11
    """
    search = _Search(rules, hand, up)
    left = tuple(int(x) for x in shoe)
    hard = sum(hand)
    if hard > 21:
        return search.bound(left, -1, False, 0, 1, False)
    if search.pair:
        return search.bound(left, _HARD_HITS - search.pair, True, 1, 2, False)
    # a 21 not paid at once waits for the dealer without a card more
    waits = _total(hard, 1 in hand) == 21
    waits = waits and not rules.twenty_one_paid_at_once
    return search.bound(left, _HARD_HITS - hard, False, 0, 1, waits)


def dry_play(
    rules: CARules, shoe: Counts, hand: Sequence[int], up: int
) -> Witness | None:
    """A play of ``hand`` against ``up`` that runs ``shoe`` out, or None.

    ``shoe`` (counts per value index 1..10, entry 0 unused) is what is
    left after the hand and the up card were dealt; the plays are those
    :func:`.ca.hand_actions` values (the module's docstring). The
    answer is exact: None only if no play and no order of the cards
    wants a card the shoe no longer holds. A busted ``hand`` (hard
    total over 21) takes the Second Chance or declines it.
    """
    left = tuple(int(x) for x in shoe)
    if card_bound(rules, left, hand, up) <= sum(left):
        return None
    search = _Search(rules, hand, up)
    hard = sum(hand)
    ace = 1 in hand
    if hard > 21:
        return search.bust(left, hard, False, False, 0, 1, False)
    found = None
    if _total(hard, ace) < 21 or not rules.twenty_one_paid_at_once:
        # the hand stands at once: the dealer alone can run the shoe out
        found = search.next_hand(left, 0, 1, True)
    if found is not None:
        return ("stand", *found)
    found = search.decide(left, hard, ace, len(hand) == 2, False, 0, 1, False)
    if found is None and search.pair:
        found = search.second_card(left, 1, 2, False)
        if found is not None:
            found = ("split", *found)
    if found is None:
        # a surrender, a 21 paid at once: the dealer's hole card only
        found = search.next_hand(left, 0, 1, False)
    return found
