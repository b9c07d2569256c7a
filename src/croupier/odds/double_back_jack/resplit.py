"""Exact values of splitting with resplits (up to four hands): CDZ-, TD.

:func:`split_value` gives the expectation (joint with "no dealer
Blackjack" where the card reader looks, as every value of :mod:`.exact`)
of splitting a pair and resplitting it while ``max_split_hands`` allows
(aces only with ``resplit_aces``), for the strategy **CDZ-**: every split
hand plays the pre-split strategy of its own cards (the same strategy for
every split hand, whatever the other hands hold). It needs nothing but
the one-split-hand values the kernel of :mod:`.exact` already computes
(``passes.run_pass`` with ``extra`` = the pair card), on shoes with ``j`` more
pair cards removed: one pass per ``j = 0 .. 2 max_split_hands - 4``
(the pair-pair hand of pass ``j`` stands for ``j + 1``); so every rule the
kernel values on a split hand (double after split, the Second Chance on
split and doubled hands, the 21 paid at once, the dealer's 22 push with
busts kept or collected, peek / no hole card) is valued with resplits
too, exactly.

Derivation
----------

Notation: after the up card and the two pair cards of value ``p`` are
dealt, the shoe ``T`` holds ``N`` cards of which ``P`` are pair cards
and ``NP = N - P`` are not. ``ff(n, k) = n (n-1) ... (n-k+1)``.

1. *Exchangeability.* A deal is a uniformly random order of ``T``. The
   cards go to processes -- the second cards of the split hands (a pair
   card opens a new hand while fewer than ``M = max_split_hands``
   exist, otherwise it stays), each hand's hits, doubles and Second
   Chance card, then the dealer -- and under CDZ- each process decides
   when to stop from its *own* cards only (a hand's play depends on its
   composition and the up card; the dealer's on his cards). Then the
   probability that the processes receive given card sequences is
   ``prod_v ff(T_v, c_v) / ff(N, c)`` (``c_v`` cards of value ``v`` in
   all, ``c`` in all): it does not depend on the order in which the
   processes are served. So the real order (hand 1's second card, its
   play, hand 2's second card, ...) may be replaced by any other:
   first all the second cards, then one hand, then the dealer.

2. *Patterns.* The second cards form a sequence of pair (``P``) and
   non-pair (``N``) cards ending the process; its pattern is ``(H,
   q)``: ``H`` hands, ``q`` of which got a pair card once ``M`` hands
   existed. Such a sequence holds ``a = H - 2 + q`` pair cards and
   ``H - q`` others, and :func:`.brute.split_patterns` counts the
   sequences of each pattern. The split's value is the sum over the
   sequences of the sum over its hands of ``E[X_h ; sequence]``. By 1,
   deal the sequence's ``a`` pair cards first (probability ``ff(P, a) /
   ff(N, a)``), then the hand ``h``, then the dealer, and the other
   hands' second cards last: for a hand whose second card is not a
   pair card, ``E[X_h ; seq] = ff(P, a)/ff(N, a) E[1{its second card is
   not p} X_h 1{the y = H-q-1 unseen cards are not p}]`` from ``T - a
   p``; for a hand holding a pair card as second card (one of the
   ``a``), ``y = H - q``. This is Farmer's pattern method
   (:func:`.brute.resplit_value` enumerates it).

3. *The condition on unseen cards.* ``1{y unseen cards are non-pair}``
   could be carried into the dealer's law: each dealer draw ``D`` is
   reweighted by ``ff(NP' - np(D), y) / ff(N' - |D|, y)`` (``NP'``,
   ``N'`` the non-pair and all cards left before the dealer draws,
   ``np(D)`` his non-pair cards), a different law per ``y``. It is not
   needed: by 1 again the ``y`` cards may be dealt *before* the hand,
   and ``1{all y non-pair} = prod_i (1 - 1{c_i = p})``; expanding the
   product, ``E[F 1{c_i = p, i in S}] = ff(R_p, k)/ff(|R|, k) E[F | R -
   k p]`` for any ``k = |S|`` of those positions (given that they hold
   pair cards the other cards are a uniform order of ``R - k p``), so
   for any play ``F`` of the cards that follow::

       E[F 1{y non-pair} | R]
           = sum_k (-1)^k C(y, k) ff(R_p, k)/ff(|R|, k) E[F | R - k p].

4. *Result.* With ``R = T - a p`` the factors combine,
   ``ff(P, a)/ff(N, a) ff(P - a, k)/ff(N - a, k) = ff(P, j)/ff(N, j)``
   for ``j = a + k``, so the split's value is::

       sum_j ff(P, j)/ff(N, j) (alpha_j A_j + beta_j B_j)

   with integer coefficients that depend on ``M`` only
   (:func:`coefficients`): ``A_j = sum_{x != p} T_x/(N - j) V_j(p, x)``
   is one split hand that draws a non-pair second card, ``V_j(p, x)``
   the value of the hand ``p, x`` played from ``T - j p - x``; ``B_j``
   is the hand ``p, p`` (no further split) played from ``T - j p``.
   Both are plain one-split-hand values of the kernel (with ``j`` pair
   cards out of its shoe), with the split hands' CDZ- decisions; "joint
   with no dealer Blackjack" is a property of the cards that follow, so
   it carries through 3 unchanged. With ``M = 2`` the formula reduces
   to the usual ``2 (A_0 + P/N B_1)`` (twice one split hand); the tests
   check it against the kernel's one-split value and, for ``M`` 3 and
   4, against :func:`.brute.resplit_value` and the real-order deal of
   :class:`.brute.BruteForce`.

The formula is exact wherever no deal can run out of cards (any full
shoe); on a tiny shoe where some real deal would, it is the pattern
method's value (Farmer's convention). It is exact for any strategy in
which each hand decides from its own cards: CDZ- (:func:`split_value`)
and the total-dependent TD (:mod:`.td`, through :func:`split_terms` and
:func:`split_moments`). A strategy in which a split hand looks at the
other hands' cards (CDP, CDP1) breaks step 1.

Second moments: the same sum over patterns with each hand's ``E[X_h^2]``
gives ``E[sum_h X_h^2]`` exactly; with ``K`` hands ``(sum_h X_h)^2 <= K
sum_h X_h^2`` (Cauchy-Schwarz), so ``E[K sum_h X_h^2]`` (the same sum
weighted by ``H``) bounds the round's second moment from above; the
cross terms are estimated as independent hands given no dealer
Blackjack, as for one split (:func:`.ca.split_second`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from .brute import split_patterns
from .passes import (
    DealerCache,
    Follow,
    SplitMoments,
    Tables,
    UpPasses,
    run_pass,
    split_two_card,
)

if TYPE_CHECKING:
    from .carules import CARules

__all__ = [
    "Coefficients",
    "SplitMoments",
    "Term",
    "coefficients",
    "max_hands",
    "removed_pass",
    "resplits",
    "split_moments",
    "split_second",
    "split_terms",
    "split_value",
]


@dataclass(frozen=True, slots=True)
class Coefficients:
    """The integer weights of :func:`split_value` for one ``M``.

    ``alpha[j]``/``beta[j]`` weigh ``A_j``/``B_j`` (module docstring,
    4); ``alpha_k``/``beta_k`` are the same sums with each pattern
    weighted by its number of hands ``H`` (for ``E[K sum X^2]``).
    ``hands[H]`` lists ``(a, H - q, orders)`` per pattern of ``H``
    hands (for ``P(K = H)``).
    """

    alpha: tuple[int, ...]
    beta: tuple[int, ...]
    alpha_k: tuple[int, ...]
    beta_k: tuple[int, ...]
    hands: dict[int, tuple[tuple[int, int, int], ...]]


@lru_cache(maxsize=8)
def coefficients(max_hands: int) -> Coefficients:
    """The weights of ``A_j`` and ``B_j`` for ``max_hands`` hands.

    >>> c = coefficients(2)
    >>> c.alpha, c.beta
    ((2, 0, 0), (0, 2, 0))
    """
    size = 2 * max_hands - 1
    alpha = [0] * size
    beta = [0] * size
    alpha_k = [0] * size
    beta_k = [0] * size
    hands: dict[int, list[tuple[int, int, int]]] = {}
    for (h, q), orders in split_patterns(max_hands).items():
        a = h - 2 + q
        hands.setdefault(h, []).append((a, h - q, orders))
        for mult, y, out, out_k in (
            (h - q, h - q - 1, alpha, alpha_k),
            (q, h - q, beta, beta_k),
        ):
            if mult == 0:
                continue
            for k in range(y + 1):
                c = orders * mult * (-1) ** k * comb(y, k)
                out[a + k] += c
                out_k[a + k] += h * c
    return Coefficients(
        tuple(alpha),
        tuple(beta),
        tuple(alpha_k),
        tuple(beta_k),
        {h: tuple(v) for h, v in hands.items()},
    )


def max_hands(rules: CARules, pair: int) -> int:
    """Hands a split of ``pair`` may reach (aces: ``resplit_aces``)."""
    if rules.max_split_hands <= 2:
        return rules.max_split_hands
    if pair == 1 and not rules.resplit_aces:
        return 2
    return rules.max_split_hands


def resplits(rules: CARules, shoe: np.ndarray, pair: int) -> bool:
    """Whether splitting ``pair`` may resplit from ``shoe``.

    ``shoe`` is the shoe less the up card (both pair cards inside): a
    resplit needs a third pair card and ``max_hands`` above 2.
    """
    return max_hands(rules, pair) > 2 and int(shoe[pair]) >= 3


def _ff_ratio(p: int, n: int, j: int) -> float:
    """``ff(p, j) / ff(n, j)`` (0 when fewer than ``j`` pair cards)."""
    out = 1.0
    for i in range(j):
        if p - i <= 0 or n - i <= 0:
            return 0.0
        out *= (p - i) / (n - i)
    return out


_local = threading.local()


def _scratch() -> DealerCache:
    """One dealer cache per thread for the shoes with pair cards out.

    Reused (its flags reset) from pass to pass: allocating fresh pages
    per pass costs page faults (see :func:`.ca._ups`).
    """
    cache = getattr(_local, "cache", None)
    if cache is None:
        cache = DealerCache.empty()
        _local.cache = cache
    cache.hand_ok[:] = 0
    cache.bust_ok[:] = 0
    return cache


@dataclass(frozen=True, slots=True)
class Term:
    """One hand's share of a split with resplits (module docstring, 4).

    The split's value is the sum over the terms of ``weight`` times the
    value of the split hand ``pair, second`` played from the shoe with
    ``removed`` more pair cards out (pass ``removed``); ``E[sum_h
    X_h^2]`` the same sum of its second moments, ``E[K sum_h X_h^2]``
    that sum with ``bound`` for ``weight``.
    """

    removed: int
    second: int
    weight: float
    bound: float


def split_terms(shoe: np.ndarray, pair: int, hands: int) -> list[Term]:
    """The terms of splitting ``pair`` into at most ``hands`` hands.

    ``shoe`` is the shoe less the up card, both pair cards inside. The
    weights depend on the shoe and ``hands`` only, not on the strategy:
    any strategy in which each hand decides from its own cards has its
    split's value as this sum (TD as well as CDZ-). Terms of pass
    ``j`` come before those of pass ``j + 1``; within a pass, the
    non-pair second cards by value, then the pair card.

    >>> s = np.array([0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 16])
    >>> sum(t.weight for t in split_terms(s, 8, 2))  # two hands
    2.0
    """
    coef = coefficients(hands)
    t_shoe = shoe.copy()
    t_shoe[pair] -= 2
    n = int(t_shoe[1:].sum())
    p = int(t_shoe[pair])
    out: list[Term] = []
    for j in range(len(coef.alpha)):
        w = _ff_ratio(p, n, j)
        if w == 0.0:
            break
        alpha, alpha_k = coef.alpha[j], coef.alpha_k[j]
        if alpha != 0:
            for x in range(1, 11):
                if x == pair or t_shoe[x] <= 0:
                    continue
                share = int(t_shoe[x]) / (n - j)
                out.append(Term(j, x, w * alpha * share, w * alpha_k * share))
        # the hand p, p of pass j draws from T - (j + 1) p: B_{j+1}
        if j + 1 < len(coef.beta) and coef.beta[j + 1] != 0 and p - j >= 1:
            wb = _ff_ratio(p, n, j + 1)
            out.append(
                Term(j, pair, wb * coef.beta[j + 1], wb * coef.beta_k[j + 1])
            )
    return out


def split_moments(
    shoe: np.ndarray,
    pair: int,
    hands: int,
    tables_at: Callable[[int], Tables],
    hand: Callable[[Tables, int], tuple[float, float]],
) -> SplitMoments:
    """A split's moments from its :func:`split_terms`, for one strategy.

    ``tables_at(j)`` gives the split hands' tables of pass ``j`` (the
    strategy's play from the shoe with ``j`` more pair cards out);
    ``hand(tables, x)`` the (value, second moment) of the hand ``pair,
    x`` under the strategy's two-card decision.
    """
    passes: dict[int, Tables] = {}
    value = squares = bound = 0.0
    for term in split_terms(shoe, pair, hands):
        tables = passes.get(term.removed)
        if tables is None:
            tables = passes[term.removed] = tables_at(term.removed)
        e, e2 = hand(tables, term.second)
        value += term.weight * e
        squares += term.weight * e2
        bound += term.bound * e2
    t_shoe = shoe.copy()
    t_shoe[pair] -= 2
    n = int(t_shoe[1:].sum())
    p = int(t_shoe[pair])
    mean_k = pairs_k = 0.0
    for h, rows in coefficients(hands).hands.items():
        prob = 0.0
        for a, others, orders in rows:
            prob += (
                orders * _ff_ratio(p, n, a) * _ff_ratio(n - p, n - a, others)
            )
        mean_k += h * prob
        pairs_k += h * (h - 1) * prob
    return SplitMoments(value, squares, bound, pairs_k, mean_k)


def removed_pass(
    rules: CARules, shoe: np.ndarray, up: int, pair: int, removed: int,
    follow: Follow,
) -> Tables:  # fmt: skip
    """Split hands of ``pair`` following ``follow``, pair cards removed.

    ``removed`` more pair cards out of ``shoe``; the pass uses the
    thread's scratch dealer cache (another shoe than the up card's).
    """
    out = shoe.copy()
    out[pair] -= removed
    return run_pass(
        rules, out, up, pair, split=True, follow=follow, cache=_scratch()
    )


def split_value(u: UpPasses, pair: int) -> SplitMoments:
    """Exact CDZ- split of ``pair`` with resplits, against ``u.up``.

    ``u`` holds the up card's passes (:class:`.passes.UpPasses`; ``u.shoe`` is
    the shoe less the up card). Values are joint with no dealer
    Blackjack where the card reader looks (like every kernel value).
    """
    rules = u.rules
    plan = u.split_strategy()

    def tables_at(j: int) -> Tables:
        if j == 0:
            return u.split_tables(pair)
        return removed_pass(rules, u.shoe, u.up, pair, j, plan)

    def hand(tables: Tables, x: int) -> tuple[float, float]:
        return split_two_card(rules, tables, plan, pair, x)

    return split_moments(u.shoe, pair, max_hands(rules, pair), tables_at, hand)


def split_second(
    moments: SplitMoments, m0: float
) -> tuple[float, float, float]:
    """E[(sum_h X_h)^2] of a split with resplits: (estimate, low, high).

    ``low`` is 0 and ``high`` the Cauchy-Schwarz bound ``E[K sum_h
    X_h^2]``; the estimate adds to the exact ``E[sum_h X_h^2]`` the cross
    terms of hands independent given no dealer Blackjack (``m0`` its
    probability): ``E[K (K-1)] (mu / m0)^2 m0`` with ``mu`` the mean
    per hand.
    """
    mu = moments.value / moments.mean_hands if moments.mean_hands else 0.0
    cross = moments.pairs * mu * mu / m0 if m0 > 0 else 0.0
    return (moments.squares + cross, 0.0, moments.bound)
