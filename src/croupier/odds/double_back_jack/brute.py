"""Exact CDZ- values by playing out every deal of a small shoe.

A second, independent method next to :mod:`.exact` (which uses dealer
multisets and exchangeability arguments): here the round is dealt in
its real order and nothing is assumed.

* The hole card is drawn *before* the player's cards (591.7(e)); when
  the card reader looks, each hole card is weighted by its probability
  given "no Blackjack", and the player's cards come from the shoe less
  that hole card.
* Decisions are Bayesian: at each of the player's information states
  (his cards; the hole card unknown) the value of each action is a
  vector over the hole card, and the action chosen maximises its
  average under the posterior of the hole card.
* Split hands play the CDZ- strategy: a hand holding the cards ``H``
  decides as the unsplit hand ``H`` would (the pre-split strategy: only
  ``H`` and the up card out of the shoe, the split hands' rules), but
  the play itself draws from the real shoe, hand after hand, then the
  dealer. A drawn pair card is
  resplit while ``max_split_hands`` allows (aces only with
  ``resplit_aces``), as the combinatorial analyzers do.

The cost grows quickly with the shoe: meant for shoes of a few dozen
cards (tests, ``croupier ev`` with resplits).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache, lru_cache

from croupier.errors import RulesError

from .carules import CARules, DoubleOn, HoleCard, Surrender

__all__ = ["BruteForce"]

Shoe = tuple[int, ...]
"""Counts per value index, entry 0 unused."""


def _f(odds: object) -> float:
    return float(Fraction(str(odds).replace(":", "/")))


def _total(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard + 10 <= 21 else hard


def _minus(shoe: Shoe, v: int) -> Shoe:
    return (*shoe[:v], shoe[v] - 1, *shoe[v + 1 :])


class ShoeExhaustedError(RulesError):
    """The shoe runs out of cards in some deal (shoe too small)."""

    def __init__(self) -> None:
        """The refusal, naming the shoe."""
        super().__init__(
            "the shoe runs out of cards in some deal; every deal must "
            "be possible for an exact enumeration",
            key="shoe",
        )


class BruteForce:
    """Every action value of one hand against one up card.

    ``shoe`` holds the cards left after the player's cards and the up
    card were dealt (hole card included), as counts per value index.
    """

    def __init__(
        self, rules: CARules, shoe: Shoe, hand: tuple[int, ...], up: int
    ) -> None:
        """Set up the enumeration (nothing is computed yet)."""
        if rules.hole_card is HoleCard.ENHC_ALL:
            msg = "enumeration supports peek and enhc_obo only"
            raise RulesError(msg, key="hole_card")
        self.rules = rules
        self.shoe = tuple(shoe)
        self.hand = tuple(hand)
        self.up = up
        self.bjc = 10 if up == 1 else 1 if up == 10 else 0
        self.win = _f(rules.win_payout)
        self.p21 = _f(rules.twenty_one_payout)
        self.sc21 = _f(rules.second_chance_21_payout)
        self.scwin = _f(rules.second_chance_win_payout)
        self.dealer = lru_cache(maxsize=None)(self._dealer)
        self.info = lru_cache(maxsize=None)(self._info)

    # -- dealer --------------------------------------------------------

    def _dealer(self, shoe: Shoe, hard: int, ace: bool) -> tuple[float, ...]:
        """Outcomes 17..21, 22, 23+ of a dealer holding hard/ace."""
        t = _total(hard, ace)
        soft = ace and hard + 10 <= 21
        hits17 = self.rules.dealer_hits_soft_17 and soft and t == 17
        if t >= 17 and not hits17:
            out = [0.0] * 7
            out[min(t, 23) - 17] = 1.0
            return tuple(out)
        n = sum(shoe)
        if n == 0:
            raise ShoeExhaustedError
        acc = [0.0] * 7
        for v in range(1, 11):
            if shoe[v]:
                sub = self.dealer(_minus(shoe, v), hard + v, ace or v == 1)
                p = shoe[v] / n
                for o in range(7):
                    acc[o] += p * sub[o]
        return tuple(acc)

    def _dist(self, shoe: Shoe, hole: int) -> tuple[float, ...]:
        return self.dealer(shoe, self.up + hole, self.up == 1 or hole == 1)

    def _stand(self, t: int, o: int) -> float:
        if o == 6 or (o == 5 and not self.rules.dealer_22_push):
            return self.win
        if o == 5:
            return 0.0
        d = 17 + o
        return self.win if t > d else 0.0 if t == d else -1.0

    def _sc(self, x: int, o: int) -> float:
        if x > 21:
            return -2.0
        if x == 21:
            return self.sc21
        if o == 6 or (o == 5 and not self.rules.dealer_22_push):
            return self.scwin
        if o == 5:
            return 0.0
        d = 17 + o
        return self.scwin if x > d else 0.0 if x == d else -2.0

    def _holes(self, view: Shoe) -> list[tuple[int, float]]:
        """(hole value, posterior weight) given the player's view."""
        peek = self.bjc != 0
        pairs = [
            (h, float(view[h]))
            for h in range(1, 11)
            if view[h] and not (peek and h == self.bjc)
        ]
        total = sum(w for _, w in pairs)
        return [(h, w / total) for h, w in pairs]

    # -- information states -------------------------------------------

    def _info(
        self, view: Shoe, cards: tuple[int, ...], split: bool, first: bool
    ) -> tuple[str, dict[int, float], dict[str, dict[int, float]]]:
        """Best action at an information state, with values per hole.

        ``view`` is the shoe as the player sees it (hole card inside).
        Returns (action, value per hole card, every action's values).
        """
        rules = self.rules
        hard = sum(cards)
        ace = 1 in cards
        t = _total(hard, ace)
        holes = self._holes(view)
        acts: dict[str, dict[int, float]] = {}
        if t == 21 and rules.twenty_one_paid_at_once:
            acts["paid"] = {h: self.p21 for h, _ in holes}
        else:
            acts["stand"] = {
                h: sum(
                    p * self._stand(t, o)
                    for o, p in enumerate(self._dist(_minus(view, h), h))
                )
                for h, _ in holes
            }
        if t < 21:
            acts["hit"] = self._draw(view, cards, split, holes, double=False)
            if first and self._may_double(t, split):
                acts["double"] = self._draw(
                    view, cards, split, holes, double=True
                )
        best = max(acts, key=lambda a: sum(acts[a][h] * w for h, w in holes))
        return best, acts[best], acts

    def _may_double(self, t: int, split: bool) -> bool:
        if split and not self.rules.double_after_split:
            return False
        if self.rules.double_on is DoubleOn.ANY:
            return True
        low = 9 if self.rules.double_on is DoubleOn.NINE_TO_ELEVEN else 10
        return low <= t <= 11

    def _draw(
        self,
        view: Shoe,
        cards: tuple[int, ...],
        split: bool,
        holes: list[tuple[int, float]],
        *,
        double: bool,
    ) -> dict[int, float]:
        out: dict[int, float] = {}
        for h, _ in holes:
            rest = _minus(view, h)
            n = sum(rest)
            if n == 0:
                raise ShoeExhaustedError
            e = 0.0
            for v in range(1, 11):
                if not rest[v]:
                    continue
                nxt = (*cards, v)
                nview = _minus(view, v)
                hard = sum(nxt)
                if hard > 21:
                    val = self._bust_value(nview, hard, split, double)[1][h]
                elif double:
                    acts = self.info(nview, nxt, split, False)[2]
                    key = "paid" if "paid" in acts else "stand"
                    val = acts[key][h]
                else:
                    val = self.info(nview, nxt, split, False)[1][h]
                e += rest[v] / n * val
            out[h] = (2.0 if double else 1.0) * e
        return out

    def _sc_offered(self, split: bool, double: bool) -> bool:
        r = self.rules
        return (
            r.second_chance
            and (not split or r.second_chance_on_split)
            and (not double or r.second_chance_on_doubled)
        )

    def _bust_value(
        self, view: Shoe, hard: int, split: bool, double: bool
    ) -> tuple[bool, dict[int, float]]:
        """(take the Second Chance?, per-unit value per hole) of a bust."""
        holes = self._holes(view)
        decline = {
            h: self._decline(_minus(view, h), h) for h in holes_of(holes)
        }
        if not self._sc_offered(split, double):
            return False, decline
        take: dict[int, float] = {}
        for h, _ in holes:
            rest = _minus(view, h)
            n = sum(rest)
            if n == 0:  # no card for the Second Chance
                raise ShoeExhaustedError
            e = 0.0
            for c in range(1, 11):
                if not rest[c]:
                    continue
                x = hard - c
                if x >= 21:
                    val = self._sc(x, 0)
                else:
                    dist = self._dist(_minus(rest, c), h)
                    val = sum(p * self._sc(x, o) for o, p in enumerate(dist))
                e += rest[c] / n * val
            take[h] = e
        avg_t = sum(take[h] * w for h, w in holes)
        avg_d = sum(decline[h] * w for h, w in holes)
        return (True, take) if avg_t > avg_d else (False, decline)

    def _decline(self, rest: Shoe, hole: int) -> float:
        r = self.rules
        if r.collect_busts_at_once or not r.dealer_22_push:
            return -1.0
        return -(1.0 - self._dist(rest, hole)[5])

    # -- the real play of split hands ---------------------------------

    def _play_split(
        self, pair: int, hole: int, rest: Shoe, view0: Shoe
    ) -> float:
        """Expected net of splitting ``pair`` with this hole card.

        ``rest`` is the real shoe (hole card out); ``view0`` the shoe
        the CDZ- strategy assumes (one pair card out, hole inside).
        """
        rules = self.rules
        resplit_ok = pair != 1 or rules.resplit_aces
        one_card = pair == 1 and rules.split_aces_one_card

        def decide(cards: tuple[int, ...], first: bool) -> str:
            view = view0
            for v in cards[1:]:
                view = _minus(view, v)
            return self.info(view, cards, True, first)[0]

        def sc_take(cards: tuple[int, ...], double: bool) -> bool:
            view = view0
            for v in cards[1:]:
                view = _minus(view, v)
            return self._bust_value(view, sum(cards), True, double)[0]

        @cache
        def play(
            shoe: Shoe,
            cards: tuple[int, ...],
            stake: int,
            first: bool,
            pending: int,
            hands: int,
            standing: tuple[tuple[int, int, bool], ...],
        ) -> float:
            def next_hand(st: tuple[tuple[int, int, bool], ...]) -> float:
                st = tuple(sorted(st))
                if pending:
                    return play(shoe, (pair,), 1, True, pending - 1, hands, st)
                if not st:
                    return 0.0
                dist = self._dist(shoe, hole)
                e = 0.0
                for total, w, sc in st:
                    for o, p in enumerate(dist):
                        if total > 21:  # declined bust kept on the layout
                            e += p * (0.0 if o == 5 else -w)
                        elif sc:
                            e += p * w * self._sc(total, o) / 2
                        else:
                            e += p * w * self._stand(total, o)
                return e

            n = sum(shoe)
            if len(cards) == 1:
                if n == 0:
                    raise ShoeExhaustedError
                e = 0.0
                for v in range(1, 11):
                    if not shoe[v]:
                        continue
                    p = shoe[v] / n
                    nshoe = _minus(shoe, v)
                    if (
                        v == pair
                        and resplit_ok
                        and hands < rules.max_split_hands
                    ):
                        e += p * play(
                            nshoe,
                            cards,
                            1,
                            True,
                            pending + 1,
                            hands + 1,
                            standing,
                        )
                    else:
                        e += p * play(
                            nshoe,
                            (pair, v),
                            1,
                            True,
                            pending,
                            hands,
                            standing,
                        )
                return e
            hard = sum(cards)
            t = _total(hard, 1 in cards)
            if hard > 21:
                raise AssertionError  # busts are settled where they occur
            if t == 21 and rules.twenty_one_paid_at_once:
                return stake * self.p21 + next_hand(standing)
            if one_card and len(cards) == 2:
                return next_hand((*standing, (t, stake, False)))
            action = "stand" if t == 21 else decide(cards, first)
            if action == "stand":
                return next_hand((*standing, (t, stake, False)))
            double = action == "double"
            w = 2 * stake if double else stake
            if n == 0:
                raise ShoeExhaustedError
            e = 0.0
            for v in range(1, 11):
                if not shoe[v]:
                    continue
                p = shoe[v] / n
                nshoe = _minus(shoe, v)
                nxt = (*cards, v)
                h2 = hard + v
                t2 = _total(h2, 1 in nxt)
                if h2 > 21:
                    e += p * self._real_bust(
                        nshoe,
                        nxt,
                        w,
                        double,
                        standing,
                        sc_take,
                        play,
                        pending,
                        hands,
                        hole,
                        pair,
                    )
                elif double:
                    if t2 == 21 and rules.twenty_one_paid_at_once:
                        e += p * (
                            w * self.p21
                            + _continue(
                                play,
                                nshoe,
                                pending,
                                hands,
                                standing,
                                pair,
                                self,
                                hole,
                            )
                        )
                    else:
                        e += p * _continue(
                            play,
                            nshoe,
                            pending,
                            hands,
                            (*standing, (t2, w, False)),
                            pair,
                            self,
                            hole,
                        )
                else:
                    e += p * play(
                        nshoe, nxt, w, False, pending, hands, standing
                    )
            return e

        return play(rest, (pair,), 1, True, 1, 2, ())

    def _real_bust(
        self,
        shoe: Shoe,
        cards: tuple[int, ...],
        w: int,
        double: bool,
        standing: tuple[tuple[int, int, bool], ...],
        sc_take: Callable[[tuple[int, ...], bool], bool],
        play: Callable[..., float],
        pending: int,
        hands: int,
        hole: int,
        pair: int,
    ) -> float:
        rules = self.rules
        hard = sum(cards)
        if self._sc_offered(True, double) and sc_take(cards, double):
            n = sum(shoe)
            if n == 0:
                raise ShoeExhaustedError
            e = 0.0
            for c in range(1, 11):
                if not shoe[c]:
                    continue
                p = shoe[c] / n
                nshoe = _minus(shoe, c)
                x = hard - c
                if x > 21:
                    val = -2.0 * w + _continue(
                        play,
                        nshoe,
                        pending,
                        hands,
                        standing,
                        pair,
                        self,
                        hole,
                    )
                elif x == 21:
                    val = w * self.sc21 + _continue(
                        play,
                        nshoe,
                        pending,
                        hands,
                        standing,
                        pair,
                        self,
                        hole,
                    )
                else:
                    val = _continue(
                        play,
                        nshoe,
                        pending,
                        hands,
                        (*standing, (x, 2 * w, True)),
                        pair,
                        self,
                        hole,
                    )
                e += p * val
            return e
        if rules.collect_busts_at_once or not rules.dealer_22_push:
            return -w + _continue(
                play, shoe, pending, hands, standing, pair, self, hole
            )
        return _continue(
            play,
            shoe,
            pending,
            hands,
            (*standing, (hard, w, False)),
            pair,
            self,
            hole,
        )

    # -- the public values --------------------------------------------

    def actions(self) -> dict[str, float]:
        """Each legal action's value, given no dealer Blackjack on peek."""
        rules = self.rules
        view = self.shoe
        cards = self.hand
        holes = self._holes(view)
        _, _, acts = self.info(view, cards, False, len(cards) == 2)
        out = {
            a: sum(vals[h] * w for h, w in holes) for a, vals in acts.items()
        }
        if "paid" in out:
            out["stand"] = out.pop("paid")
        if (
            len(cards) == 2
            and cards[0] == cards[1]
            and rules.max_split_hands > 1
        ):
            pair = cards[0]
            # CDZ-: a split hand plays the pre-split strategy of its
            # cards, so its view holds the other pair card
            view0 = (*view[:pair], view[pair] + 1, *view[pair + 1 :])
            out["split"] = sum(
                w * self._play_split(pair, h, _minus(view, h), view0)
                for h, w in holes
            )
        if len(cards) == 2 and rules.surrender is not Surrender.NONE:
            out["surrender"] = float(rules.surrender_refund) - 1.0
        return out


def holes_of(holes: list[tuple[int, float]]) -> list[int]:
    """The hole values of a posterior list."""
    return [h for h, _ in holes]


def _continue(
    play: Callable[..., float],
    shoe: Shoe,
    pending: int,
    hands: int,
    standing: tuple[tuple[int, int, bool], ...],
    pair: int,
    self: BruteForce,
    hole: int,
) -> float:
    """Value of the hands after the current one (then the dealer)."""
    st = tuple(sorted(standing))
    if pending:
        return play(shoe, (pair,), 1, True, pending - 1, hands, st)
    if not st:
        return 0.0
    dist = self._dist(shoe, hole)
    e = 0.0
    for total, w, sc in st:
        for o, p in enumerate(dist):
            if total > 21:
                e += p * (0.0 if o == 5 else -w)
            elif sc:
                e += p * w * self._sc(total, o) / 2
            else:
                e += p * w * self._stand(total, o)
    return e


def _ff(n: int, k: int) -> int:
    """Falling factorial n (n-1) ... (n-k+1); 0 when n < k."""
    out = 1
    for i in range(k):
        if n - i <= 0:
            return 0
        out *= n - i
    return out


def split_patterns(max_hands: int) -> dict[tuple[int, int], int]:
    """Orders of pair / other second cards per final pattern.

    Split hands get their second cards in turn; a pair card makes a new
    hand while fewer than ``max_hands`` exist, and stays in the hand
    once the maximum is reached. Returns ``(hands, q) -> number of
    pair/other sequences`` ending with ``hands`` hands of which ``q``
    hold a pair card as second card.

    >>> split_patterns(2)
    {(2, 2): 1, (2, 1): 2, (2, 0): 1}
    """
    out: dict[tuple[int, int], int] = {}

    def walk(pending: int, hands: int, q: int) -> None:
        if pending == 0:
            out[(hands, q)] = out.get((hands, q), 0) + 1
            return
        if hands < max_hands:
            walk(pending + 1, hands + 1, q)
            walk(pending - 1, hands, q)
        else:
            walk(pending - 1, hands, q + 1)
            walk(pending - 1, hands, q)

    walk(2, 2, 0)
    return out


def resplit_value(rules: CARules, shoe: Shoe, pair: int, up: int) -> float:
    """Exact CDZ- value of splitting (and resplitting) a pair.

    ``shoe`` is what is left after the pair and the up card (hole card
    inside). The joint law of every hand's cards and the dealer's does
    not depend on the order the cards are dealt in (a deal's probability
    is a product of falling factorials of its counts), so the second
    cards of all hands may be dealt first. For each final pattern (H
    hands, q of them holding a second pair card), one hand's value is
    taken with the pattern's pair cards out of the shoe, its own second
    card drawn (another card, or a pair card), its hits and the dealer's
    cards, each result weighted by the probability that the other hands'
    second cards are not pair cards. Summed over the hands and the
    patterns' orders (:func:`split_patterns`), this is the expectation
    the real deal gives wherever no deal runs out of cards; it is the
    way Farmer's analyzer (v5.5 and later) values resplits, and it
    reproduces his published figure. Values are joint with "no dealer
    Blackjack" where the card reader looks, then conditioned.
    """
    r = rules
    if r.second_chance:
        msg = "resplits are not computed with the Second Chance"
        raise RulesError(msg, key="second_chance")
    if r.dealer_22_push and not r.collect_busts_at_once:
        msg = "resplits need busts collected at once with a 22 push"
        raise RulesError(msg, key="collect_busts_at_once")
    bf = BruteForce(r, shoe, (pair, pair), up)
    bjc = bf.bjc
    view0 = (*shoe[:pair], shoe[pair] + 1, *shoe[pair + 1 :])
    one_card = pair == 1 and r.split_aces_one_card
    max_hands = r.max_split_hands if pair != 1 or r.resplit_aces else 2

    def decide(cards: tuple[int, ...], first: bool) -> str:
        view = view0
        for v in cards[1:]:
            view = _minus(view, v)
        return bf.info(view, cards, True, first)[0]

    @cache
    def weight(rest: Shoe, u: int) -> float:
        """P(no Blackjack hole card and u other non-pair cards)."""
        n = sum(rest)
        if not bjc:
            return _ff(n - rest[pair], u) / _ff(n, u) if u else 1.0
        e = 0.0
        for h in range(1, 11):
            if rest[h] and h != bjc:
                left = _minus(rest, h)
                m = n - 1
                tail = _ff(m - left[pair], u) / _ff(m, u) if u else 1.0
                e += rest[h] / n * tail
        return e

    @cache
    def stand(rest: Shoe, t: int, w: int, u: int) -> float:
        def walk(
            s: Shoe, hard: int, ace: bool, p: float, first: bool
        ) -> float:
            total = _total(hard, ace)
            soft17 = r.dealer_hits_soft_17 and ace and hard + 10 == 17
            if total >= 17 and not soft17:
                n = sum(s)
                tail = _ff(n - s[pair], u) / _ff(n, u) if u else 1.0
                return p * w * bf._stand(t, min(total, 23) - 17) * tail
            n = sum(s)
            if n == 0:
                raise ShoeExhaustedError
            e = 0.0
            for v in range(1, 11):
                if not s[v] or (first and v == bjc):
                    continue
                e += walk(
                    _minus(s, v), hard + v, ace or v == 1,
                    p * s[v] / n, False,
                )  # fmt: skip
            return e

        return walk(rest, up, up == 1, 1.0, True)

    def play(
        rest: Shoe, cards: tuple[int, ...], w: int, first: bool, u: int
    ) -> float:
        hard = sum(cards)
        t = _total(hard, 1 in cards)
        if hard > 21:
            return -w * weight(rest, u)
        if t == 21 and r.twenty_one_paid_at_once:
            return w * bf.p21 * weight(rest, u)
        if t == 21 or (one_card and len(cards) == 2):
            return stand(rest, t, w, u)
        act = decide(cards, first)
        if act == "stand":
            return stand(rest, t, w, u)
        double = act == "double"
        n = sum(rest)
        if n == 0:
            raise ShoeExhaustedError
        e = 0.0
        for v in range(1, 11):
            if not rest[v]:
                continue
            nxt = (*cards, v)
            left = _minus(rest, v)
            if double:
                h2 = sum(nxt)
                t2 = _total(h2, 1 in nxt)
                if h2 > 21:
                    val = -2 * w * weight(left, u)
                elif t2 == 21 and r.twenty_one_paid_at_once:
                    val = 2 * w * bf.p21 * weight(left, u)
                else:
                    val = stand(left, t2, 2 * w, u)
            else:
                val = play(left, nxt, w, False, u)
            e += rest[v] / n * val
        return e

    n0 = sum(shoe)
    total = 0.0
    for (hands, q), orders in split_patterns(max_hands).items():
        a = hands - 2 + q
        pa = _ff(shoe[pair], a) / _ff(n0, a) if a else 1.0
        if pa == 0.0:
            continue
        rest = (*shoe[:pair], shoe[pair] - a, *shoe[pair + 1 :])
        n1 = sum(rest)
        other = 0.0
        for x in range(1, 11):
            if x != pair and rest[x]:
                other += (
                    rest[x]
                    / n1
                    * play(_minus(rest, x), (pair, x), 1, True, hands - q - 1)
                )
        paired = play(rest, (pair, pair), 1, True, hands - q) if q else 0.0
        total += orders * pa * ((hands - q) * other + q * paired)
    mass = 1.0 - shoe[bjc] / n0 if bjc else 1.0
    return total / mass
