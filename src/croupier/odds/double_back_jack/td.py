"""The optimal total-dependent basic strategy (TD) and its exact edge.

In the combinatorial-analyzer literature a *total-dependent* (TD)
basic strategy decides from the hand's total, whether it is soft,
whether it is a pair and whether it is the first decision (two cards:
double, split and surrender are possible), against the up card, never
from the cards that make the total; CDZ- (:mod:`.ca`) decides from the
composition. :func:`solve_td` finds, for each up card, the TD strategy
and its exact expectation from the full (or a given) shoe:

* **Decision points.** First decision of an unsplit hand: ``(total,
  soft)`` of a non-pair, or the pair (stand, hit, double, split,
  surrender; insurance is decided per point too). Later decisions
  (three or more cards, split hands too): ``(total, soft)``, hit or
  stand. The two-card decision of a split hand: ``(total, soft)``
  (stand, hit, double where doubling after a split is allowed). A bust
  offered the Second Chance: its hard total.
* **The choice at each point** is the action that maximises the
  point's expectations summed over every composition reaching it, each
  weighted by its probability of being reached from the shoe (the deal
  and the hits the strategy itself makes): later decisions by exact
  backward induction from hard 21 down (:func:`.exact.hand_pass`),
  then the split hands' two-card decisions, then the first decisions.
  The reach weights depend on the strategy, so the strategy is
  recomputed with the weights of the previous one until it no longer
  changes (a fixed point: every decision is the best one given all the
  others; it starts from CDZ-).
* **Exact.** The reported edge is the exact expectation (same method
  as CDZ-, :mod:`.exact`) of the strategy reported, every draw from the
  actual remaining shoe. Split hands play the later-decision table of
  the unsplit hands (as CDZ- split hands play the pre-split strategy).
* **Resplits** (``max_split_hands`` 3-4) are exact by the pattern sums
  of :mod:`.resplit`, which need only that each hand decides from its
  own cards: :func:`.resplit.split_terms` weighs one-split-hand passes
  with pair cards removed, each played by the chart, and the split
  hands' two-card points take the action of largest value summed over
  those terms (a resplit hand counts as often as it is dealt).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from .ca import (
    ACTIONS,
    CAResult,
    Situation,
    blackjack_situation,
    composition,
    deal_probability,
    refuse_short_round,
    round_second,
    solve_ca,
    split_second,
)
from .carules import CARules, HoleCard, Surrender
from .exact import NEG, hand_index, player_hands, reach_weights
from .passes import (
    DealerCache,
    Plan,
    SplitMoments,
    Tables,
    TDPoints,
    blackjack_card,
    hand_total,
    may_double,
    odds_value,
    run_pass,
)
from .resplit import (
    Term,
    max_hands,
    removed_pass,
    resplits,
    split_moments,
    split_terms,
)
from .resplit import split_second as resplit_second

__all__ = ["STRATEGY", "TDResult", "solve_td"]

STRATEGY = "TD"
"""The CA literature's name of the total-dependent basic strategy."""

SOFT = 22
"""Point key of a later decision: ``total + SOFT * soft``."""
MAX_ROUNDS = 8
"""Recomputations of the reach weights before giving up a fixed point."""

Key = tuple[int, bool, bool]
"""A first-decision point: (total, soft, pair)."""


@lru_cache(maxsize=1)
def _keys() -> tuple[np.ndarray, np.ndarray]:
    """Later-decision point of every hand, bust point of every bust."""
    counts, hard, _, bust = player_hands()
    key = np.full(counts.shape[0], -1, dtype=np.int64)
    for i in range(counts.shape[0]):
        if counts[i].sum() < 3:
            continue
        soft = counts[i, 1] > 0 and hard[i] + 10 <= 21
        total = int(hard[i]) + 10 if soft else int(hard[i])
        if total < 21:
            key[i] = total + SOFT * int(soft)
    bust_key = bust @ np.arange(11, dtype=np.int64)
    return key, bust_key


def _point(a: int, b: int) -> Key:
    cards = [a, b]
    hard = a + b
    soft = 1 in cards and hard + 10 <= 21
    return (hand_total(cards), soft, a == b)


@dataclass(slots=True)
class _Values:
    """One two-card situation's round values per action."""

    round: list[float]
    """Per :data:`.ca.ACTIONS`, the round's expectation (NEG = not
    allowed), insurance left out."""
    shown: list[float]
    """Per action, conditioned on no dealer Blackjack (as in CDZ-)."""
    pbj: float
    insurance: float
    """The expectation of the insurance wager if placed."""
    second: list[tuple[float, float, float]] = field(default_factory=list)
    """Per action, joint E[net^2] of the main wager (estimate, low,
    high), as :func:`.ca.round_second` takes it."""
    joint: list[float] = field(default_factory=list)
    """Per action, the main wager's value joint with no Blackjack."""


def _values(
    rules: CARules,
    shoe: np.ndarray,
    up: int,
    a: int,
    b: int,
    plain: Tables,
    split: SplitMoments | None,
) -> _Values:
    r = shoe.copy()
    r[a] -= 1
    r[b] -= 1
    n = int(r[1:].sum())
    bjc = blackjack_card(up)
    pbj = r[bjc] / n if bjc else 0.0
    peek = rules.hole_card is not HoleCard.ENHC_ALL
    m0 = 1.0 - pbj if peek else 1.0
    ins = 0.0
    if up == 1 and rules.insurance:
        pay = odds_value(rules.insurance_payout)
        ins = float(rules.insurance_max) * (pay * pbj - (1.0 - pbj))
    i0 = hand_index([a, b])
    evs = [plain.stand[i0], plain.hit[i0], NEG, NEG, NEG]
    if may_double(rules, hand_total([a, b])):
        evs[2] = plain.dbl[i0]
    if a == b and split is not None:
        evs[3] = split.value
    refund = float(rules.surrender_refund) - 1.0
    if rules.surrender is Surrender.LATE:
        evs[4] = refund * m0
    base = -pbj if peek else 0.0
    rnd = [base + e if e > NEG / 2 else NEG for e in evs]
    shown = [e / m0 if e > NEG / 2 else NEG for e in evs]
    if rules.surrender is Surrender.EARLY:
        rnd[4] = refund
        shown[4] = refund
    m2 = plain.m2
    sec = [
        (m2[i0, 0],) * 3,
        (m2[i0, 1],) * 3,
        (m2[i0, 3],) * 3,
        _split_sec(rules, shoe, a, split, m0)
        if a == b and split is not None
        else (0.0,) * 3,
        (refund * refund * m0,) * 3,
    ]
    return _Values(rnd, shown, pbj, ins, sec, evs)


@dataclass(frozen=True, slots=True)
class TDUp:
    """The TD strategy against one up card."""

    first: dict[Key, str]
    """First decision per (total, soft, pair)."""
    insure: dict[Key, bool]
    """Whether the point insures (ace up)."""
    later: dict[tuple[int, bool], str]
    """Hit or stand per (total, soft) of three or more cards."""
    split_two: dict[tuple[int, bool], str]
    """A split hand's two-card decision per (total, soft)."""
    second_chance: dict[int, bool]
    """Per bust hard total: take the Second Chance."""
    rounds: int
    converged: bool
    later_margin: dict[tuple[int, bool], float] = field(default_factory=dict)
    """Per later point: |hit - stand| averaged over the hands reaching
    it (weights: their probabilities), per unit, joint with no dealer
    Blackjack where the card reader looks."""
    second_chance_margin: dict[int, float] = field(default_factory=dict)
    """Per bust point: |take - decline|, averaged in the same way."""


@dataclass(frozen=True, slots=True)
class TDResult:
    """The exact edge of the optimal TD strategy, and the strategy."""

    result: CAResult
    """Situations and edge under TD (``strategy`` ``"TD"``)."""
    cdz_edge: float
    """The exact CDZ- edge of the same shoe and rules."""
    ups: dict[int, TDUp] = field(default_factory=dict)

    @property
    def edge(self) -> float:
        """House edge under TD."""
        return self.result.edge

    def to_dict(self) -> dict[str, Any]:
        """JSON form: edges, their difference and the strategy."""
        return {
            "strategy": STRATEGY,
            "method": "exact",
            "house_edge": self.edge,
            "cdz_house_edge": self.cdz_edge,
            "td_minus_cdz": self.edge - self.cdz_edge,
            "converged": all(u.converged for u in self.ups.values()),
            "chart": {
                str(up): {
                    "first": {
                        _key_text(k): v for k, v in sorted(u.first.items())
                    },
                    "insure": sorted(
                        _key_text(k) for k, v in u.insure.items() if v
                    ),
                    "later": {
                        _later_text(k): v for k, v in sorted(u.later.items())
                    },
                    "split_hand_two_cards": {
                        _later_text(k): v
                        for k, v in sorted(u.split_two.items())
                    },
                    "second_chance": {
                        str(k): v for k, v in sorted(u.second_chance.items())
                    },
                }
                for up, u in sorted(self.ups.items())
            },
        }


def _key_text(key: Key) -> str:
    total, soft, pair = key
    if pair:
        half = total // 2 if not soft else 1
        return f"pair {half if half > 1 else 'A'}"
    return f"{'soft' if soft else 'hard'} {total}"


def _later_text(key: tuple[int, bool]) -> str:
    return f"{'soft' if key[1] else 'hard'} {key[0]}"


Passes = dict[int, dict[int, Tables]]
"""Per pair, the split hands' tables per pass (pair cards removed)."""


def _split_two(
    rules: CARules,
    passes: Passes,
    terms: dict[int, list[Term]],
    weight: dict[int, float],
) -> dict[tuple[int, bool], str]:
    """A split hand's two-card decision per (total, soft).

    Each point takes the action of largest value summed over the split
    hands reaching it: every term of every pair split (its probability
    ``weight`` times the term's), so resplit hands count as often as
    they are dealt (:func:`.resplit.split_terms`).
    """
    _, _, child, _ = player_hands()
    sums: dict[tuple[int, bool], list[float]] = {}
    for pair, rows in terms.items():
        if pair == 1 and rules.split_aces_one_card:
            continue
        one = hand_index([pair])
        for term in rows:
            v = term.second
            total, soft, _ = _point(pair, v)
            if total == 21:
                continue
            t = passes[pair][term.removed]
            j = int(child[one, v])
            acc = sums.setdefault((total, soft), [0.0, 0.0, 0.0])
            w = weight.get(pair, 0.0) * term.weight
            acc[0] += w * t.stand[j]
            acc[1] += w * t.hit[j]
            if rules.double_after_split and may_double(rules, total):
                acc[2] += w * t.dbl[j]
            else:
                acc[2] = NEG
    return {
        key: ("stand", "hit", "double")[int(np.argmax(acc))]
        for key, acc in sums.items()
    }


def _split_values(
    rules: CARules,
    shoe: np.ndarray,
    passes: Passes,
    two: dict[tuple[int, bool], str],
) -> dict[int, SplitMoments]:
    """The moments of splitting each pair under TD (resplits included)."""
    _, _, child, _ = player_hands()
    index = {"stand": 0, "hit": 1, "double": 3}
    out = {}
    for pair, tables in passes.items():

        def hand(
            t: Tables, v: int, pair: int = pair, one: int = hand_index([pair])
        ) -> tuple[float, float]:
            j = int(child[one, v])
            total, soft, _ = _point(pair, v)
            if total == 21:
                return float(t.best[j]), float(t.m2[j, 2])
            if pair == 1 and rules.split_aces_one_card:
                return float(t.stand[j]), float(t.m2[j, 0])
            act = two[(total, soft)]
            column = {"stand": t.stand, "hit": t.hit, "double": t.dbl}
            return float(column[act][j]), float(t.m2[j, index[act]])

        out[pair] = split_moments(
            shoe, pair, max_hands(rules, pair), tables.__getitem__, hand
        )
    return out


def _split_sec(
    rules: CARules, shoe: np.ndarray, pair: int, moments: SplitMoments,
    m0: float,
) -> tuple[float, float, float]:  # fmt: skip
    """A split's E[(sum X_h)^2] (estimate, low, high), as CDZ- has it."""
    if resplits(rules, shoe, pair):
        return resplit_second(moments, m0)
    return split_second(moments.value, moments.squares / 2, m0)


def _solve_up(
    rules: CARules,
    counts: np.ndarray,
    up: int,
    cache: DealerCache | None = None,
) -> tuple[dict[tuple[int, int, int], Situation], dict[Any, float], TDUp]:
    """The TD strategy and its situations against one up card.

    ``cache`` (emptied here) may be shared by the up cards: reusing it
    spares fresh pages per up card (see :func:`.ca._ups`).
    """
    counts_h, _, child, bust = player_hands()
    hand_key, bust_key = _keys()
    n_all = int(counts[1:].sum())
    shoe = counts.copy()
    shoe[up] -= 1
    if cache is None:
        cache = DealerCache.empty()
    cache.hand_ok[:] = 0
    cache.bust_ok[:] = 0
    plain0 = run_pass(rules, shoe, up, 0, cache=cache)
    nh, m = counts_h.shape[0], bust.shape[0]
    probs = {
        (a, b): deal_probability(counts, n_all, a, b, up)
        for a in range(1, 11)
        for b in range(a, 11)
    }
    probs = {k: v for k, v in probs.items() if v > 0}
    # start from CDZ- (its hits; two-card hands hit or double by value)
    f_hit = plain0.hits()
    act2 = np.zeros(nh, dtype=np.int8)
    for a, b in probs:
        i0 = hand_index([a, b])
        vals = [plain0.stand[i0], plain0.hit[i0], plain0.dbl[i0]]
        act2[i0] = int(np.argmax(vals))
    splitting = {a for a, b in probs if a == b}
    previous: tuple[Any, ...] | None = None
    pairs = [
        p
        for p in range(1, 11)
        if rules.max_split_hands >= 2 and (p, p) in probs
    ]
    terms = {p: split_terms(shoe, p, max_hands(rules, p)) for p in pairs}
    rounds = 0
    converged = False
    while rounds < MAX_ROUNDS:
        rounds += 1
        w = np.zeros(nh)
        bw = np.zeros(m)
        reach_weights(shoe, counts_h, child, act2, f_hit, w, bw)
        pts = TDPoints(
            hand_key,
            w,
            np.zeros(2 * SOFT, dtype=np.int8),
            bust_key,
            bw,
            np.zeros(int(bust_key.max()) + 1, dtype=np.int8),
        )
        plain = run_pass(rules, shoe, up, 0, cache=cache, td=pts)
        new_hit = np.where(hand_key >= 0, pts.hit[hand_key], 0).astype(np.int8)
        new_take = pts.take[bust_key].astype(np.int8)
        plan = Plan(new_hit, new_take)
        passes: Passes = {}
        for p in pairs:
            passes[p] = {
                j: run_pass(rules, shoe, up, p, True, plan, cache)
                if j == 0
                else removed_pass(rules, shoe, up, p, j, plan)
                for j in sorted({t.removed for t in terms[p]})
            }
        weight = {p: probs[(p, p)] for p in pairs if p in splitting}
        two = _split_two(rules, passes, terms, weight)
        moments = _split_values(rules, shoe, passes, two)
        values = {
            (a, b): _values(
                rules,
                shoe,
                up,
                a,
                b,
                plain,
                moments.get(a),
            )
            for a, b in probs
            if {a, b} != {1, 10}
        }
        sums: dict[Key, np.ndarray] = {}
        ins_sum: dict[Key, float] = {}
        for (a, b), val in values.items():
            key = _point(a, b)
            acc = sums.setdefault(key, np.zeros(len(ACTIONS)))
            pr = probs[(a, b)]
            acc += [pr * x if x > NEG / 2 else NEG for x in val.round]
            ins_sum[key] = ins_sum.get(key, 0.0) + pr * val.insurance
        first = {k: ACTIONS[int(np.argmax(v))] for k, v in sums.items()}
        insure = {k: v > 0 for k, v in ins_sum.items()}
        if (1, 10) in probs and not rules.blackjack_paid_before_peek:
            r = shoe.copy()
            r[1] -= 1
            r[10] -= 1
            nb = int(r[1:].sum())
            pbj = r[blackjack_card(up)] / nb if blackjack_card(up) else 0.0
            if up == 1 and rules.insurance:
                pay = odds_value(rules.insurance_payout)
                ev = float(rules.insurance_max) * (pay * pbj - (1 - pbj))
                insure[(21, True, False)] = ev > 0
        strategy = (
            tuple(sorted(first.items())),
            tuple(sorted(two.items())),
            pts.hit.tobytes(),
            pts.take.tobytes(),
            tuple(sorted(insure.items())),
        )
        act2 = np.zeros(nh, dtype=np.int8)
        for a, b in values:
            act = first[_point(a, b)]
            act2[hand_index([a, b])] = {"hit": 1, "double": 2}.get(act, 0)
        f_hit = new_hit
        splitting = {a for a, b in values if a == b and first[_point(a, b)]
                     == "split"}  # fmt: skip
        if strategy == previous:
            converged = True
            break
        previous = strategy
    sits: dict[tuple[int, int, int], Situation] = {}
    situation_probs: dict[Any, float] = {}
    for (a, b), pr in probs.items():
        key3 = (a, b, up)
        situation_probs[key3] = pr
        if {a, b} == {1, 10}:
            sits[key3] = _blackjack(rules, shoe, up, insure)
            continue
        val = values[(a, b)]
        pt = _point(a, b)
        act = first[pt]
        k = ACTIONS.index(act)
        ins = val.insurance if insure.get(pt, False) else 0.0
        sits[key3] = Situation(
            tuple(val.shown),
            act,
            val.round[k] + ins,
            val.pbj,
            insure.get(pt, False),
            ins,
            round_second(
                rules,
                act,
                val.joint[k],
                val.second[k],
                val.pbj,
                insure.get(pt, False),
                val.insurance,
            ),
        )
    later = {}
    later_margin = {}
    live = (plain.hit > NEG / 2) & (plain.stand > NEG / 2)
    for point in range(2 * SOFT):
        mask = hand_key == point
        if mask.any():
            total, soft = point % SOFT, point >= SOFT
            later[(total, soft)] = "hit" if pts.hit[point] else "stand"
            sel = mask & live & (w > 0)
            if w[sel].sum() > 0:
                diff = plain.hit[sel] - plain.stand[sel]
                later_margin[(total, soft)] = abs(
                    float(w[sel] @ diff / w[sel].sum())
                )
    takes = {}
    sc_margin = {}
    if rules.second_chance:
        ok = plain.bust_sc > NEG / 2
        for hb in sorted({int(x) for x in bust_key}):
            takes[hb] = bool(pts.take[hb])
            sel = (bust_key == hb) & ok & (bw > 0)
            if bw[sel].sum() > 0:
                diff = plain.bust_sc[sel] - plain.bust_dec[sel]
                sc_margin[hb] = abs(float(bw[sel] @ diff / bw[sel].sum()))
    return (
        sits,
        situation_probs,
        TDUp(
            first,
            insure,
            later,
            two,
            takes,
            rounds,
            converged,
            later_margin,
            sc_margin,
        ),
    )


def _blackjack(
    rules: CARules, shoe: np.ndarray, up: int, insure: dict[Key, bool]
) -> Situation:
    r = shoe.copy()
    r[1] -= 1
    r[10] -= 1
    n = int(r[1:].sum())
    bjc = blackjack_card(up)
    pbj = r[bjc] / n if bjc else 0.0
    ins = 0.0
    take = insure.get((21, True, False), False)
    if take:
        pay = odds_value(rules.insurance_payout)
        ins = float(rules.insurance_max) * (pay * pbj - (1.0 - pbj))
    return blackjack_situation(rules, pbj, take, ins)


def solve_td(
    rules: CARules,
    shoe: np.ndarray | None = None,
    *,
    allow_run_out: bool = False,
) -> TDResult:
    """The optimal TD strategy and its exact edge (full or given shoe).

    Full shoes are memoised per rules; a given shoe on which some round
    can run out of cards is refused unless ``allow_run_out`` (as
    :func:`.ca.solve_ca`, D130).
    """
    if shoe is None:
        return _solve_full(rules)
    if not allow_run_out:
        refuse_short_round(rules, shoe)
    return _solve(rules, shoe.copy())


@lru_cache(maxsize=16)
def _solve_full(rules: CARules) -> TDResult:
    return _solve(rules, composition(rules.decks))


def _solve(rules: CARules, counts: np.ndarray) -> TDResult:
    started = time.perf_counter()
    sits: dict[tuple[int, int, int], Situation] = {}
    probs: dict[tuple[int, int, int], float] = {}
    ups = {}
    cache = DealerCache.empty()
    for up in range(1, 11):
        if counts[up] == 0:
            continue
        s, p, u = _solve_up(rules, counts, up, cache)
        sits.update(s)
        probs.update(p)
        ups[up] = u
    ev = sum(probs[k] * sits[k].value for k in sits)
    result = CAResult(
        rules=rules,
        shoe=tuple(int(x) for x in counts[1:]),
        edge=-ev,
        situations=sits,
        probability=probs,
        seconds=time.perf_counter() - started,
        strategy=STRATEGY,
    )
    cdz = solve_ca(rules, counts, allow_run_out=True).edge  # checked
    return TDResult(result, cdz, ups)
