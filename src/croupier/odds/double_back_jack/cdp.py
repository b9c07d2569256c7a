"""The post-split strategies CDP1 and CDP (issue 14, D61).

The combinatorial-analyzer literature (Eric Farmer's and MGP's
analyzers, k_c's programs) names the strategies by what a split hand
may know. Every strategy here plays an unsplit hand by its composition
and the up card (as CDZ-, :mod:`.ca`); they differ after a split:

* **CDZ-** (:mod:`.ca`): a split hand plays the *pre-split* strategy of
  its cards (the other pair card counted as still in the shoe).
* **CDP1**: every split hand plays the strategy that is optimal for the
  *first* split hand given its cards, the up card and both pair cards
  (the other split hand's drawn cards unknown). Both hands follow one
  strategy that depends on the hand's own cards only, so by
  exchangeability the second hand's expectation equals the first's and
  a split is worth twice one optimally played split hand: one pass of
  :func:`.exact.hand_pass` per pair and up card (the other pair card
  out, no strategy followed). Exact for one split
  (``max_split_hands`` 2) in the whole game and per hand.
* **CDP**: the first split hand plays as under CDP1; the second plays
  optimally given everything seen, the first hand's final cards
  included (k_c's "hand 2 computed taking into consideration the cards
  removed from hand 1"). Each hand maximises its own expectation. The
  value sums, over every final composition of the first hand (busts,
  Second Chance cards and doubles included) with its probability, the
  optimal second hand from the shoe less those cards: one kernel pass
  per composition, exact, for one split. About a hundred to a thousand
  passes per pair and up card: fast per hand (``croupier ev``), slow
  for a whole game (:func:`solve_cdp`, 35 s for ordinary 1 deck).

Every value is joint with "no dealer Blackjack" like the kernel's; the
probabilities of the first hand's compositions are unconditional (the
hole card is exchangeable with the cards drawn after it), so the sum is
the joint expectation of the second hand as well.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from croupier.errors import RulesError

from .ca import (
    ACTIONS,
    CAResult,
    Situation,
    _solve,
    composition,
    evaluate_hand,
    refuse_short_round,
)
from .carules import CARules, HoleCard, Surrender
from .exact import NEG, hand_index, player_hands
from .passes import (
    DealerCache,
    Follow,
    Tables,
    UpPasses,
    blackjack_card,
    hand_total,
    may_double,
    run_pass,
)

__all__ = [
    "STRATEGIES",
    "cdp1_split_value",
    "cdp_split_value",
    "evaluate_hand_strategy",
    "solve_cdp",
    "solve_cdp1",
    "solve_strategy",
]

STRATEGIES = ("cdz-", "cdp1", "cdp", "td")
"""The strategies ``--strategy`` names (CA literature, lower case)."""

CDP1 = "CDP1"
CDP = "CDP"
TIE = 1e-12
"""Under CDP the first split hand's choice between actions of equal
value (within this) changes the second hand's shoe: it takes the first
of stand, hit, double, and declines a Second Chance, on such ties."""


def _one_split(rules: CARules, strategy: str) -> None:
    if rules.max_split_hands > 2:
        msg = (
            f"{strategy} is computed for one split (max_split_hands 1 or "
            "2); resplits are valued under CDZ- and TD only"
        )
        raise RulesError(msg, key="max_split_hands")


@dataclass(slots=True)
class _CDP1Up(UpPasses):
    """An up card's passes where split hands play CDP1.

    :func:`.ca._split_value` takes the split hands' values from
    :meth:`split_tables` and their two-card choices from
    :meth:`split_strategy`; under CDP1 both are the optimal pass of the
    pair (the other pair card out), so every choice maximises the split
    hand's own value.
    """

    pair: int = 0

    def split_tables(self, pair: int) -> Tables:
        """The optimal split-hand pass of ``pair`` (other pair card out)."""
        self.pair = pair
        # explicit base call: a slots dataclass breaks zero-argument super()
        return UpPasses.split_tables(self, pair)

    def split_follow(self) -> Follow | None:
        """No strategy to follow: every split hand plays its best."""
        return None

    def split_strategy(self) -> Tables:
        """The pass of the pair last valued: choices are its own best."""
        return self.splits[self.pair]


def solve_cdp1(
    rules: CARules,
    shoe: np.ndarray | None = None,
    *,
    allow_run_out: bool = False,
) -> CAResult:
    """Exact expectation of the round under CDP1 (one split).

    Unsplit hands as CDZ-; insurance, surrender and the first decision
    maximise the expectation with the split valued under CDP1. A given
    shoe on which some round can run out of cards is refused unless
    ``allow_run_out`` (as :func:`.ca.solve_ca`, D130).
    """
    _one_split(rules, CDP1)
    if shoe is not None and not allow_run_out:
        refuse_short_round(rules, shoe)
    counts = composition(rules.decks) if shoe is None else shoe.copy()
    return _solve(rules, counts, _CDP1Up, CDP1)


# -- one split hand played optimally ---------------------------------


def _hand_value(rules: CARules, t: Tables, r: np.ndarray, pair: int) -> float:
    """Joint value of one split hand of ``pair`` from its pass ``t``.

    ``r`` is the shoe the hand's second card comes from (up card and
    both pair cards out); the two-card choice is the best of ``t``.
    """
    _, _, child, _ = player_hands()
    one = hand_index([pair])
    n = int(r[1:].sum())
    total = 0.0
    for v in range(1, 11):
        if r[v] <= 0:
            continue
        j = int(child[one, v])
        t2 = hand_total([pair, v])
        if t2 == 21:
            value = t.best[j]
        elif pair == 1 and rules.split_aces_one_card:
            value = t.stand[j]
        else:
            value = max(t.stand[j], t.hit[j])
            if rules.double_after_split and may_double(rules, t2):
                value = max(value, t.dbl[j])
        total += r[v] / n * value
    return float(total)


def _less_pairs(shoe: np.ndarray, pair: int) -> np.ndarray:
    r = shoe.copy()
    r[pair] -= 2
    return r


def cdp1_split_value(
    rules: CARules, shoe: np.ndarray, pair: int, up: int
) -> float:
    """Joint value (both hands) of splitting ``pair`` under CDP1.

    ``shoe`` is what is left after the pair and the up card were dealt.
    """
    _one_split(rules, CDP1)
    s = shoe.copy()
    s[pair] += 2
    t = run_pass(rules, s, up, pair, split=True)
    return 2.0 * _hand_value(rules, t, shoe, pair)


def _first_hand_finals(
    rules: CARules, t: Tables, s: np.ndarray, pair: int
) -> dict[tuple[int, ...], float]:
    """Final compositions of the first split hand under CDP1.

    ``s`` is the shoe less the up card (both pair cards inside); each
    composition (the hand's own pair card included; a Second Chance
    card too) with its unconditional probability.
    """
    counts, _, child, bust = player_hands()
    sc_hit = bool(rules.second_chance and rules.second_chance_on_split)
    sc_dbl = sc_hit and rules.second_chance_on_doubled
    finals: dict[tuple[int, ...], float] = {}

    def left(cards: np.ndarray) -> tuple[np.ndarray, int]:
        r = s - cards
        r[pair] -= 1  # the other pair card
        return r, int(r[1:].sum())

    def final(cards: np.ndarray, p: float) -> None:
        key = tuple(int(x) for x in cards)
        finals[key] = finals.get(key, 0.0) + p

    def busted(b: int, p: float, take: bool) -> None:
        cards = bust[b]
        if not take:
            final(cards, p)
            return
        r, n = left(cards)
        if n == 0:
            final(cards, p)
            return
        for c in range(1, 11):
            if r[c] > 0:
                more = cards.copy()
                more[c] += 1
                final(more, p * r[c] / n)

    def draw(i: int, p: float, double: bool) -> None:
        r, n = left(counts[i])
        for v in range(1, 11):
            if r[v] <= 0:
                continue
            q = p * r[v] / n
            j = int(child[i, v])
            if j < 0:
                b = -1 - j
                took = bool(t.bust_sc[b] > t.bust_dec[b] + TIE)
                busted(b, q, took and (sc_dbl if double else sc_hit))
            elif double:
                final(counts[j], q)
            else:
                play(j, q)

    def play(i: int, p: float) -> None:
        hard = int(counts[i] @ np.arange(11))
        soft = counts[i, 1] > 0 and hard + 10 <= 21
        tot = hard + 10 if soft else hard
        _, n = left(counts[i])
        if tot == 21 or n == 0 or not t.hit[i] > t.stand[i] + TIE:
            final(counts[i], p)
            return
        draw(i, p, False)

    one = hand_index([pair])
    r0, n0 = left(counts[one])
    for v in range(1, 11):
        if r0[v] <= 0:
            continue
        p = r0[v] / n0
        j = int(child[one, v])
        t2 = hand_total([pair, v])
        if t2 == 21 or (pair == 1 and rules.split_aces_one_card):
            final(counts[j], p)
            continue
        options = [t.stand[j], t.hit[j], NEG]
        if rules.double_after_split and may_double(rules, t2):
            options[2] = t.dbl[j]
        top = max(options)
        k = next(i for i, o in enumerate(options) if o >= top - TIE)
        if k == 0:
            final(counts[j], p)
        elif k == 1:
            draw(j, p, False)
        else:
            draw(j, p, True)
    return finals


def cdp_split_value(
    rules: CARules, shoe: np.ndarray, pair: int, up: int
) -> float:
    """Joint value (both hands) of splitting ``pair`` under CDP.

    ``shoe`` is what is left after the pair and the up card were dealt.
    The first hand plays as under CDP1; the second hand's value is
    summed over the first hand's final compositions, each an optimal
    pass from the shoe less the first hand's cards.
    """
    _one_split(rules, CDP)
    s = shoe.copy()
    s[pair] += 2
    cache = DealerCache.empty()
    t = run_pass(rules, s, up, pair, split=True, cache=cache)
    first = _hand_value(rules, t, shoe, pair)
    finals = _first_hand_finals(rules, t, s, pair)
    mass = sum(finals.values())
    if abs(mass - 1.0) > 1e-9:  # pragma: no cover - a broken walk
        msg = f"first split hand's compositions sum to {mass}"
        raise AssertionError(msg)
    second = 0.0
    for key, p in finals.items():
        drawn = np.array(key, dtype=np.int64)
        drawn[pair] -= 1  # the hand's own pair card stays in s's count
        s2 = s - drawn
        cache.hand_ok[:] = 0
        cache.bust_ok[:] = 0
        t2 = run_pass(rules, s2, up, pair, split=True, cache=cache)
        second += p * _hand_value(rules, t2, _less_pairs(s2, pair), pair)
    return first + second


def _with_split(rules: CARules, sit: Situation, joint: float) -> Situation:
    """``sit`` (CDP1) with the split's joint value ``joint`` instead.

    The first decision and the round's value are recomputed as
    :func:`.ca._situation` makes them; the second moments are not kept
    (a CDP split's E[X^2] is not computed).
    """
    peek = rules.hole_card is not HoleCard.ENHC_ALL
    m0 = 1.0 - sit.p_dealer_bj if peek else 1.0
    evs = [e * m0 if e > NEG / 2 else NEG for e in sit.evs]
    early = rules.surrender is Surrender.EARLY
    if early:
        evs[4] = NEG
    evs[3] = joint
    k = int(np.argmax(evs))
    value = (-sit.p_dealer_bj if peek else 0.0) + max(evs)
    refund = float(rules.surrender_refund) - 1.0
    if early and refund > value:
        k, value = 4, refund
    shown = list(sit.evs)
    shown[3] = joint / m0
    return replace(
        sit,
        evs=tuple(shown),
        best=ACTIONS[k],
        value=value + sit.insurance_value,
        second=(math.nan, math.nan, math.nan),
    )


def solve_cdp(
    rules: CARules,
    shoe: np.ndarray | None = None,
    *,
    allow_run_out: bool = False,
) -> CAResult:
    """Exact expectation of the round under CDP (one split).

    :func:`solve_cdp1` with every pair's split valued under CDP
    (:func:`cdp_split_value`); slow on full shoes (a kernel pass per
    final composition of each first split hand). The result's
    ``std_dev`` is NaN (a CDP split's second moment is not computed).
    A given shoe is checked as :func:`solve_cdp1` checks it.
    """
    _one_split(rules, CDP)
    started = time.perf_counter()
    base = solve_cdp1(rules, shoe, allow_run_out=allow_run_out)
    counts = composition(rules.decks) if shoe is None else shoe.copy()
    sits = dict(base.situations)
    ev = 0.0
    for (a, b, up), sit in base.situations.items():
        if a == b and sit.evs[3] > NEG / 2:
            left = counts.copy()
            left[a] -= 2
            left[up] -= 1
            sit = _with_split(rules, sit, cdp_split_value(rules, left, a, up))
            sits[(a, b, up)] = sit
        ev += base.probability[(a, b, up)] * sit.value
    return replace(
        base,
        edge=-ev,
        situations=sits,
        seconds=time.perf_counter() - started,
        strategy=CDP,
    )


# -- croupier ev / analyze -------------------------------------------


def evaluate_hand_strategy(
    rules: CARules,
    counts: np.ndarray,
    hand: list[int],
    up: int,
    strategy: str = "cdz-",
) -> dict[str, object]:
    """``croupier ev --strategy``: a hand's values under one strategy.

    As :func:`.ca.evaluate_hand` (CDZ-), for the strategy named.
    Only the split differs between CDZ-, CDP1 and CDP (every unsplit
    hand is played by its composition under all three); the split value
    is then CDP1's or CDP's, on the same footing as the other actions.
    TD is a whole-game strategy (``croupier analyze --strategy td``).
    """
    name = strategy.lower()
    if name == "td":
        msg = (
            "td decides by totals over the whole game; croupier ev "
            "values one hand composition-dependently (cdz-, cdp1, cdp)"
        )
        raise RulesError(msg, key="strategy")
    if name not in STRATEGIES:
        msg = f"unknown strategy {strategy!r} ({', '.join(STRATEGIES)})"
        raise RulesError(msg, key="strategy")
    pair = len(hand) == 2 and hand[0] == hand[1]
    if name != "cdz-" and pair:
        _one_split(rules, name.upper())
    result = evaluate_hand(rules, counts, hand, up)
    if name == "cdz-":
        return result
    result["strategy"] = name.upper()
    actions = result["actions"]
    if pair and isinstance(actions, dict) and "split" in actions:
        shoe = counts.copy()
        for card in (*hand, up):
            shoe[card] -= 1
        value = (cdp1_split_value if name == "cdp1" else cdp_split_value)(
            rules, shoe, hand[0], up
        )
        actions["split"] = _shown(rules, shoe, up, value)
        result["best"] = max(actions, key=lambda k: actions[k])
    return result


def _shown(rules: CARules, shoe: np.ndarray, up: int, joint: float) -> float:
    """A joint value on :func:`.ca.evaluate_hand`'s footing."""
    bjc = blackjack_card(up)
    if not bjc or rules.hole_card is HoleCard.ENHC_ALL:
        return joint
    pbj = shoe[bjc] / int(shoe[1:].sum())
    if (
        rules.hole_card is HoleCard.ENHC_OBO
        or rules.surrender is Surrender.EARLY
    ):
        return float(joint - pbj)  # the original wager lost to a BJ
    return float(joint / (1.0 - pbj))


@dataclass(frozen=True, slots=True)
class StrategyEdge:
    """The exact edge of one named strategy (``croupier analyze``)."""

    strategy: str
    house_edge: float
    cdz_house_edge: float
    seconds: float
    std_dev: tuple[float, float, float] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        out: dict[str, Any] = {
            "strategy": self.strategy,
            "method": "exact",
            "house_edge": self.house_edge,
            "cdz_house_edge": self.cdz_house_edge,
            "minus_cdz": self.house_edge - self.cdz_house_edge,
            "seconds": self.seconds,
        }
        if self.std_dev is not None:
            est, low, high = self.std_dev
            out["std_dev"] = est
            out["std_dev_method"] = "exact" if low == high else "approximate"
            out["std_dev_bounds"] = [low, high]
        return out | self.extra


def solve_strategy(rules: CARules, strategy: str) -> StrategyEdge:
    """The exact full-shoe edge of ``strategy`` (cdz-, cdp1, cdp, td).

    CDP needs a kernel pass per final composition of every first split
    hand (tens of thousands of passes): about 35 s for ordinary 1 deck,
    many minutes with the Second Chance; its σ is not reported.
    """
    from .ca import solve_ca

    name = strategy.lower()
    started = time.perf_counter()
    cdz = solve_ca(rules)
    if name == "cdz-":
        return StrategyEdge(
            "CDZ-", cdz.edge, cdz.edge, cdz.seconds, cdz.std_dev()
        )
    if name == "cdp1":
        res = solve_cdp1(rules)
        return StrategyEdge(
            CDP1,
            res.edge,
            cdz.edge,
            time.perf_counter() - started,
            res.std_dev(),
        )
    if name == "td":
        from .td import solve_td

        td = solve_td(rules)
        return StrategyEdge(
            "TD",
            td.edge,
            cdz.edge,
            time.perf_counter() - started,
            td.result.std_dev(),
            {"converged": all(u.converged for u in td.ups.values())},
        )
    if name == "cdp":
        res = solve_cdp(rules)
        return StrategyEdge(
            CDP, res.edge, cdz.edge, time.perf_counter() - started
        )
    msg = f"unknown strategy {strategy!r} ({', '.join(STRATEGIES)})"
    raise RulesError(msg, key="strategy")
