"""One hand pass of the exact CDZ- analyzer and what it works on.

:func:`run_pass` runs :func:`.exact.hand_pass` for one up card and one
removed card (a split's pair card) and returns its :class:`Tables`;
:class:`DealerCache` keeps the dealer's laws between the passes of one
up card and :class:`UpPasses` holds those passes for the solve. They live
below :mod:`.ca` (the whole-game solve, per-hand values) and
:mod:`.resplit` (splits with resplits), which both run passes, so that
neither imports the other's caller (no import cycle, issue 18 point 4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Protocol

import numpy as np

from .carules import CARules, DoubleOn, HoleCard
from .exact import (
    N_Q,
    NEG,
    Q_21,
    Q_BJ_LOSES,
    Q_COLLECT,
    Q_PAID21,
    Q_PEEK,
    Q_PUSH22,
    Q_SC21,
    Q_SC_DBL,
    Q_SC_HIT,
    Q_SCWIN,
    Q_WIN,
    dealer_multisets,
    hand_index,
    hand_pass,
    mark_reach,
    player_hands,
)

__all__ = [
    "DealerCache",
    "Follow",
    "Plan",
    "SplitMoments",
    "TDPoints",
    "Tables",
    "UpPasses",
    "blackjack_card",
    "composition",
    "first_argmax",
    "hand_total",
    "may_double",
    "odds_value",
    "parameters",
    "run_pass",
    "split_two_card",
]


@dataclass(frozen=True, slots=True)
class SplitMoments:
    """A split's value and second moments (joint with no dealer BJ)."""

    value: float
    """``E[sum_h X_h]``: the split's expectation."""
    squares: float
    """``E[sum_h X_h^2]`` (exact)."""
    bound: float
    """``E[K sum_h X_h^2] >= E[(sum_h X_h)^2]`` (``K`` hands)."""
    pairs: float
    """``E[K (K - 1)]`` (the deal of the second cards; for the
    estimate of the cross terms)."""
    mean_hands: float
    """``E[K]``."""


def odds_value(odds: object) -> float:
    """A payout (``Odds`` or its text ``"3:2"``) as a float ratio.

    >>> odds_value("3:2")
    1.5
    """
    return _f_text(str(odds))


@lru_cache(maxsize=256)
def _f_text(text: str) -> float:
    # parsed once per payout text: the solve asks per situation
    return float(Fraction(text.replace(":", "/")))


def composition(decks: int) -> np.ndarray:
    """Counts per value index (0 unused, 10 = ten-value) of full decks."""
    counts = np.full(11, 4 * decks, dtype=np.int64)
    counts[0] = 0
    counts[10] = 16 * decks
    return counts


def parameters(rules: CARules, split: bool) -> np.ndarray:
    """The kernel's parameter vector for plain (or split) hands."""
    par = np.zeros(N_Q)
    par[Q_WIN] = odds_value(rules.win_payout)
    par[Q_21] = odds_value(rules.twenty_one_payout)
    par[Q_SC21] = odds_value(rules.second_chance_21_payout)
    par[Q_SCWIN] = odds_value(rules.second_chance_win_payout)
    par[Q_PAID21] = rules.twenty_one_paid_at_once
    par[Q_PUSH22] = rules.dealer_22_push
    sc = rules.second_chance and (not split or rules.second_chance_on_split)
    par[Q_SC_HIT] = sc
    par[Q_SC_DBL] = sc and rules.second_chance_on_doubled
    par[Q_COLLECT] = rules.collect_busts_at_once
    par[Q_PEEK] = rules.hole_card is not HoleCard.ENHC_ALL
    par[Q_BJ_LOSES] = rules.hole_card is HoleCard.ENHC_ALL
    return par


@lru_cache(maxsize=64)
def _parameters(rules: CARules, split: bool) -> np.ndarray:
    return parameters(rules, split)


@dataclass(slots=True)
class Tables:
    """One :func:`.exact.hand_pass` result (per hand composition)."""

    stand: np.ndarray
    hit: np.ndarray
    best: np.ndarray
    dbl: np.ndarray
    live: np.ndarray
    bust_dec: np.ndarray
    bust_sc: np.ndarray
    m2: np.ndarray
    """Second moments per hand: (stand, hit, best, double)."""
    b2: np.ndarray
    """Second moments per bust: (declined, Second Chance taken)."""

    def hits(self) -> np.ndarray:
        """1 where the hand hits (its hit beats its stand)."""
        return (self.hit > self.stand).astype(np.int8)

    def takes(self) -> np.ndarray:
        """1 where a bust takes the Second Chance."""
        return (self.bust_sc > self.bust_dec).astype(np.int8)


class Follow(Protocol):
    """A fixed strategy a pass follows (hit / take the Second Chance)."""

    def hits(self) -> np.ndarray:
        """1 where the hand hits."""
        ...

    def takes(self) -> np.ndarray:
        """1 where a bust takes the Second Chance."""
        ...


@dataclass(frozen=True, slots=True)
class Plan:
    """A strategy given as arrays (per hand and per bust)."""

    hit: np.ndarray
    take: np.ndarray

    def hits(self) -> np.ndarray:
        """1 where the hand hits."""
        return self.hit

    def takes(self) -> np.ndarray:
        """1 where a bust takes the Second Chance."""
        return self.take


@dataclass(slots=True)
class DealerCache:
    """The dealer's law per removed composition, for one up card."""

    hand_dd: np.ndarray
    hand_ok: np.ndarray
    bust_dd: np.ndarray
    bust_w0: np.ndarray
    bust_w: np.ndarray
    bust_ok: np.ndarray

    @classmethod
    def empty(cls) -> DealerCache:
        """A cache with nothing computed."""
        counts, _, _, bust = player_hands()
        n, m = counts.shape[0], bust.shape[0]
        return cls(
            np.zeros((n, 8)),
            # one flag more: the plain pass has filled the cache
            np.zeros(n + 1, dtype=np.int8),
            np.zeros((m, 8)),
            np.zeros((m, 8)),
            np.zeros((m, 8, 11)),
            np.zeros(m, dtype=np.int8),
        )


TDArgs = tuple[
    bool,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
]
"""The kernel's ``td`` arguments (flag, then the six arrays)."""


@dataclass(slots=True)
class TDPoints:
    """The total-dependent decision points of a hand pass (:mod:`.td`).

    ``key``/``weight`` per hand and ``bust_key``/``bust_weight`` per
    bust are inputs; ``hit`` and ``take`` (per point) are filled by the
    pass: 1 where the point's hands hit / its busts take the Second
    Chance.
    """

    key: np.ndarray
    weight: np.ndarray
    hit: np.ndarray
    bust_key: np.ndarray
    bust_weight: np.ndarray
    take: np.ndarray

    def arrays(self) -> TDArgs:
        """The kernel's ``td`` arguments."""
        return (
            True,
            self.key,
            self.weight,
            self.hit,
            self.bust_key,
            self.bust_weight,
            self.take,
        )


_NO_TD: TDArgs = (
    False,
    np.zeros(1, dtype=np.int64),
    np.zeros(1),
    np.zeros(1, dtype=np.int8),
    np.zeros(1, dtype=np.int64),
    np.zeros(1),
    np.zeros(1, dtype=np.int8),
)


def _possible_dealer(
    up: int, hits_soft_17: bool, shoe: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The dealer multisets the shoe (less the up card) can deal at all.

    The others (of :func:`.exact.dealer_multisets`) have probability 0
    from any smaller shoe: leaving them out changes only the time.
    """
    return _possible_dealer_of(up, hits_soft_17, tuple(int(x) for x in shoe))


@lru_cache(maxsize=64)
def _possible_dealer_of(
    up: int, hits_soft_17: bool, shoe_key: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    # the passes of one up card share one shoe: filtered once
    shoe = np.array(shoe_key, dtype=np.int64)
    values, counts, size, ways, out = dealer_multisets(up, hits_soft_17)
    have = shoe[values]
    have[values == 0] = 1 << 30
    keep = np.all(counts <= have, axis=1)
    return (
        np.ascontiguousarray(values[keep]),
        np.ascontiguousarray(counts[keep]),
        np.ascontiguousarray(size[keep]),
        np.ascontiguousarray(ways[keep]),
        np.ascontiguousarray(out[keep]),
    )


def run_pass(
    rules: CARules,
    shoe: np.ndarray,
    up: int,
    extra: int,
    split: bool = False,
    follow: Follow | None = None,
    cache: DealerCache | None = None,
    td: TDPoints | None = None,
) -> Tables:
    """One kernel pass: every hand's values against ``up`` from ``shoe``.

    ``shoe`` is the shoe less the up card; ``extra`` a card removed
    from it for the hands (a split's pair card, 0 for none), ``split``
    whether the hands are split hands (their rules), ``follow`` a
    strategy to play instead of the best action, ``cache`` the dealer
    laws of this shoe (reused across passes of the same shoe), ``td``
    the decision points a TD solve sums over.
    """
    counts, hard, child, bust = player_hands()
    c = cache or DealerCache.empty()
    d = _possible_dealer(up, rules.dealer_hits_soft_17, shoe)
    n, m = counts.shape[0], bust.shape[0]
    out = Tables(
        np.zeros(n),
        np.zeros(n),
        np.zeros(n),
        np.zeros(n),
        np.zeros(n, dtype=np.int8),
        np.zeros(m),
        np.zeros(m),
        np.zeros((n, 4)),
        np.zeros((m, 2)),
    )
    f_hit = follow.hits() if follow is not None else np.zeros(n, np.int8)
    reach = np.zeros(n, dtype=np.int8)
    if follow is not None:
        mark_reach(counts, child, f_hit, hand_index([extra]), reach)
    t_on, t_key, t_w, t_hit, t_bkey, t_bw, t_sc = (
        td.arrays() if td is not None else _NO_TD
    )
    hand_pass(
        shoe,
        extra,
        up,
        _parameters(rules, split).copy(),
        counts,
        hard,
        child,
        *d,
        out.stand,
        out.hit,
        out.best,
        out.dbl,
        out.live,
        np.zeros(m, dtype=np.int8),
        out.bust_dec,
        out.bust_sc,
        follow is not None,
        f_hit,
        follow.takes() if follow is not None else np.zeros(m, np.int8),
        reach,
        c.hand_dd,
        c.hand_ok,
        c.bust_dd,
        c.bust_w0,
        c.bust_w,
        c.bust_ok,
        t_on,
        t_key,
        t_w,
        t_hit,
        t_bkey,
        t_bw,
        t_sc,
        out.m2,
        out.b2,
    )
    return out


def first_argmax(values: list[float]) -> int:
    """Index of the first largest value (``np.argmax`` of a short list)."""
    best = 0
    for k in range(1, len(values)):
        if values[k] > values[best]:
            best = k
    return best


def hand_total(cards: list[int]) -> int:
    """The best total of ``cards`` (values 1-10; an ace counts 11 if it fits).

    >>> hand_total([1, 6]), hand_total([1, 6, 9])
    (17, 16)
    """
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard + 10 <= 21 else hard


def may_double(rules: CARules, total: int) -> bool:
    """Whether a two-card ``total`` may double under ``double_on``."""
    if rules.double_on is DoubleOn.ANY:
        return True
    low = 9 if rules.double_on is DoubleOn.NINE_TO_ELEVEN else 10
    return low <= total <= 11


def blackjack_card(up: int) -> int:
    """The hole card that makes a Blackjack under ``up`` (0: none)."""
    return 10 if up == 1 else 1 if up == 10 else 0


@dataclass(slots=True)
class UpPasses:
    """The passes of one up card, computed on demand."""

    rules: CARules
    shoe: np.ndarray
    up: int
    plain: Tables
    cache: DealerCache
    splits: dict[int, Tables] = field(default_factory=dict)
    strategy: list[Tables] = field(default_factory=list)
    split_second: dict[int, float] = field(default_factory=dict)
    """Per pair: E[X1^2] of one split hand (joint with no BJ)."""
    resplit: dict[int, SplitMoments] = field(default_factory=dict)
    """Per pair split with resplits: its moments (:mod:`.resplit`)."""

    def split_strategy(self) -> Tables:
        """The pre-split strategy under the split hands' rules (CDZ-)."""
        if not self.strategy:
            same = np.array_equal(
                parameters(self.rules, True), parameters(self.rules, False)
            )
            self.strategy.append(
                self.plain
                if same
                else run_pass(
                    self.rules, self.shoe, self.up, 0, True, None, self.cache
                )
            )
        return self.strategy[0]

    def split_tables(self, pair: int) -> Tables:
        """Values of split hands of ``pair`` following the strategy."""
        if pair not in self.splits:
            self.splits[pair] = run_pass(
                self.rules,
                self.shoe,
                self.up,
                pair,
                split=True,
                follow=self.split_follow(),
                cache=self.cache,
            )
        return self.splits[pair]

    def split_follow(self) -> Follow | None:
        """The strategy split hands follow (``None``: each plays its best).

        CDZ-: the pre-split strategy (:meth:`split_strategy`).
        """
        return self.split_strategy()


def split_two_card(
    rules: CARules, tables: Tables, plan: Tables, pair: int, v: int
) -> tuple[float, float]:
    """(value, second moment) of the split hand ``pair, v``.

    The CDZ- choice among stand, hit and double is the pre-split
    strategy's (``plan``), in :func:`.ca._split_value` as in
    :mod:`.resplit`; the value is the hand's own (``tables``).
    """
    _, _, child, _ = player_hands()
    j = int(child[hand_index([pair]), v])
    t = hand_total([pair, v])
    m2 = tables.m2
    if t == 21:
        return float(tables.best[j]), float(m2[j, 2])
    if pair == 1 and rules.split_aces_one_card:
        return float(tables.stand[j]), float(m2[j, 0])
    options = [plan.stand[j], plan.hit[j], NEG]
    values = [tables.stand[j], tables.hit[j], NEG]
    seconds = [m2[j, 0], m2[j, 1], 0.0]
    if rules.double_after_split and may_double(rules, t):
        options[2] = plan.dbl[j]
        values[2] = tables.dbl[j]
        seconds[2] = m2[j, 3]
    k = first_argmax(options)
    return float(values[k]), float(seconds[k])
