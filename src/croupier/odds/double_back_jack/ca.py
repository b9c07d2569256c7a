"""The exact CDZ- analyzer: house edge and per-hand action values.

:func:`solve_ca` values every initial situation (two player cards, up
card) of a shoe under :class:`~.carules.CARules` with the kernels of
:mod:`.exact` and returns a :class:`CAResult`; :func:`hand_actions`
gives the value of every legal action of one hand (``croupier ev``).
Every figure is exact for the strategy CDZ- (see :mod:`.exact`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from croupier.errors import RulesError

from .carules import CARules, HoleCard, Surrender
from .dealer import deal_probability
from .exact import NEG, hand_index, player_hands
from .passes import (
    DealerCache,
    Tables,
    UpPasses,
    blackjack_card,
    composition,
    first_argmax,
    hand_total,
    may_double,
    odds_value,
    run_pass,
    split_two_card,
)
from .resplit import resplits
from .resplit import split_second as resplit_second
from .resplit import split_value as resplit_value
from .runout import dry_play

__all__ = [
    "ACTIONS",
    "CAResult",
    "Tables",
    "composition",
    "deal_probability",
    "evaluate_hand",
    "hand_actions",
    "refuse_short_round",
    "rule_effects",
    "solve_ca",
]

ACTIONS = ("stand", "hit", "double", "split", "surrender")
"""Action names, in the order of :attr:`CAResult.evs`."""

STRATEGY = "CDZ-"
"""The strategy the figures are exact for (CA literature name)."""


def _split_value(u: UpPasses, pair: int) -> float:
    """Joint value (both hands) of splitting two ``pair`` cards."""
    rules = u.rules
    if resplits(rules, u.shoe, pair):
        # resplits: exact pattern sums of one-split-hand passes (D45)
        if pair not in u.resplit:
            u.resplit[pair] = resplit_value(u, pair)
        return u.resplit[pair].value
    tables = u.split_tables(pair)
    plan = u.split_strategy()
    r = u.shoe.copy()
    r[pair] -= 2
    n = int(r[1:].sum())
    total = 0.0
    second = 0.0
    for v in range(1, 11):
        if r[v] <= 0:
            continue
        value, sq = split_two_card(rules, tables, plan, pair, v)
        total += r[v] / n * value
        second += r[v] / n * sq
    u.split_second[pair] = float(second)
    return 2.0 * total


def round_second(
    rules: CARules,
    action: str,
    joint: float,
    joint2: tuple[float, float, float],
    pbj: float,
    insure: bool,
    ins_ev: float,
) -> tuple[float, float, float]:
    """E[net^2] of a round: (estimate, low, high) bounds.

    ``joint`` and ``joint2`` (estimate, low, high) are the action's
    first and second moments joint with no dealer Blackjack (the card
    reader; with ``enhc_all`` they include it), ``pbj`` = P(dealer
    Blackjack). A dealer Blackjack takes the original wager (peek); an
    early surrender returns its refund whatever the hole card. The
    insurance wager (``insure``) adds its own square and its cross term.
    """
    peek = rules.hole_card is not HoleCard.ENHC_ALL
    refund = float(rules.surrender_refund) - 1.0
    ins_w = float(rules.insurance_max)
    pay = odds_value(rules.insurance_payout)
    early = rules.surrender is Surrender.EARLY and action == "surrender"
    if early:
        base = (refund * refund,) * 3
        cross = refund * ins_ev
    else:
        bj = pbj if peek else 0.0
        base = (bj + joint2[0], bj + joint2[1], bj + joint2[2])
        # E[main x insurance]: the insurance wins ins_w * pay on a
        # dealer Blackjack (main -1) and loses ins_w otherwise
        cross = -pbj * ins_w * pay - ins_w * joint
    if not insure:
        return base
    sq = pbj * (ins_w * pay) ** 2 + (1 - pbj) * ins_w**2
    return (
        base[0] + 2 * cross + sq,
        base[1] + 2 * cross + sq,
        base[2] + 2 * cross + sq,
    )


@dataclass(frozen=True, slots=True)
class Situation:
    """The first decision of one initial situation."""

    evs: tuple[float, ...]
    """Per :data:`ACTIONS`, conditioned on no dealer Blackjack where the
    card reader looks (:data:`.exact.NEG` = not allowed)."""
    best: str
    """The CDZ- action."""
    value: float
    """Expectation of the round per unit (insurance included)."""
    p_dealer_bj: float
    """P(dealer Blackjack) for this situation."""
    insure: bool
    """Whether the CDZ- strategy insures."""
    insurance_value: float = 0.0
    """The insurance wager's share of :attr:`value`."""
    second: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """E[net^2] of the round: estimate and the bounds that hold it (all
    equal where it is exact; a split's cross term is bounded)."""


def blackjack_second(
    rules: CARules, pbj: float, insure: bool
) -> tuple[float, float, float]:
    """E[net^2] of a player Blackjack, insurance included.

    Paid before the card reader, or pushing against a dealer Blackjack.
    """
    bj = odds_value(rules.blackjack_payout)
    if rules.blackjack_paid_before_peek:
        return (bj * bj,) * 3
    main2 = (1 - pbj) * bj * bj
    if insure:
        ins_w = float(rules.insurance_max)
        pay = odds_value(rules.insurance_payout)
        main2 += -2 * ins_w * bj * (1 - pbj)
        main2 += pbj * (ins_w * pay) ** 2 + (1 - pbj) * ins_w**2
    return (main2,) * 3


def blackjack_situation(
    rules: CARules, pbj: float, insure: bool, ins: float
) -> Situation:
    """A player Blackjack's situation (P(dealer BJ) ``pbj``).

    Paid before the card reader it is worth the payout, insurance not
    offered; otherwise it pushes a dealer Blackjack and ``insure`` /
    ``ins`` are the insurance decision and its value.
    """
    bj = odds_value(rules.blackjack_payout)
    if rules.blackjack_paid_before_peek:
        insure, ins = False, 0.0
        value = bj
    else:
        value = bj * (1 - pbj) + ins
    return Situation(
        (bj,) + (NEG,) * 4,
        "blackjack",
        value,
        pbj,
        insure,
        ins,
        blackjack_second(rules, pbj, insure),
    )


def split_second(
    value: float, per_hand: float, m0: float
) -> tuple[float, float, float]:
    """Joint E[(X1 + X2)^2] of a split from E[X1^2] (``per_hand``).

    ``2 E[X1^2] + 2 E[X1 X2]``: the cross term is not computed; it lies
    in ``[-E[X1^2], E[X1^2]]`` (Cauchy-Schwarz, the hands being
    exchangeable), so the bounds are ``0`` and ``4 E[X1^2]``; the
    estimate takes the hands independent given no dealer Blackjack.
    """
    half = value / 2
    cross = half * half / m0 if m0 > 0 else 0.0
    return (2 * per_hand + 2 * cross, 0.0, 4 * per_hand)


def _situation(u: UpPasses, a: int, b: int) -> Situation:
    rules = u.rules
    r = u.shoe.copy()
    r[a] -= 1
    r[b] -= 1
    n = int(r[1:].sum())
    bjc = blackjack_card(u.up)
    pbj = r[bjc] / n if bjc else 0.0
    peek = rules.hole_card is not HoleCard.ENHC_ALL
    m0 = 1.0 - pbj if peek else 1.0
    ins_ev = 0.0
    if u.up == 1 and rules.insurance:
        pay = odds_value(rules.insurance_payout)
        ins_ev = float(rules.insurance_max) * (pay * pbj - (1.0 - pbj))
    insure = ins_ev > 0
    ins = ins_ev if insure else 0.0
    if {a, b} == {1, 10}:
        return blackjack_situation(rules, pbj, insure, ins)
    i0 = hand_index([a, b])
    t = u.plain
    evs = [t.stand[i0], t.hit[i0], NEG, NEG, NEG]
    if may_double(rules, hand_total([a, b])):
        evs[2] = t.dbl[i0]
    if a == b and rules.max_split_hands >= 2:
        evs[3] = _split_value(u, a)
    refund = float(rules.surrender_refund) - 1.0
    if rules.surrender is Surrender.LATE:
        evs[4] = refund * m0
    k = first_argmax(evs)
    best = max(evs)
    value = (-pbj if peek else 0.0) + best
    if rules.surrender is Surrender.EARLY and refund > value:
        k, value = 4, refund
    shown = [e / m0 if e > NEG / 2 else NEG for e in evs]
    if rules.surrender is Surrender.EARLY:
        shown[4] = refund
    m2 = t.m2
    seconds = [
        (m2[i0, 0],) * 3,
        (m2[i0, 1],) * 3,
        (m2[i0, 3],) * 3,
        resplit_second(u.resplit[a], m0)
        if a in u.resplit and evs[3] > NEG / 2
        else split_second(evs[3], u.split_second.get(a, 0.0), m0)
        if evs[3] > NEG / 2
        else (0.0,) * 3,
        (refund * refund * m0,) * 3,
    ]
    second = round_second(
        rules, ACTIONS[k], evs[k], seconds[k], pbj, insure, ins_ev
    )
    return Situation(
        tuple(shown), ACTIONS[k], value + ins, pbj, insure, ins, second
    )


@dataclass(frozen=True, slots=True)
class CAResult:
    """The exact CDZ- analysis of one shoe."""

    rules: CARules
    shoe: tuple[int, ...]
    """Counts per value index 1..10."""
    edge: float
    """House edge: minus the expected net per unit of the first wager."""
    situations: dict[tuple[int, int, int], Situation]
    """``(a, b, up)`` with ``a <= b`` -> its first decision."""
    probability: dict[tuple[int, int, int], float]
    """Probability of each situation."""
    seconds: float
    strategy: str = STRATEGY
    method: str = "exact"

    def std_dev(self) -> tuple[float, float, float]:
        """Standard deviation of the round's net: (estimate, low, high).

        From the exact second moment of every round but the splits,
        whose cross term between the two hands is bounded
        (:func:`split_second`); low == high where no split is played,
        and then the figure is exact.
        """
        mean = -self.edge
        e2 = [
            sum(
                self.probability[k] * sit.second[i]
                for k, sit in self.situations.items()
            )
            for i in range(3)
        ]
        est, low, high = (max(x - mean * mean, 0.0) ** 0.5 for x in e2)
        return est, low, high


def _ups(
    rules: CARules, shoe: np.ndarray, kind: type[UpPasses] = UpPasses
) -> Iterator[tuple[int, UpPasses]]:
    """The up cards' passes, one up card at a time (as ``kind``).

    One dealer cache serves them all: it is emptied (its flags reset)
    before the next up card, so each yielded :class:`UpPasses` is valid only
    until the next one is drawn. Reusing it spares allocating and
    zeroing megabytes of fresh pages per up card.
    """
    cache = DealerCache.empty()
    for up in range(1, 11):
        if shoe[up] == 0:
            continue
        s = shoe.copy()
        s[up] -= 1
        cache.hand_ok[:] = 0
        cache.bust_ok[:] = 0
        plain = run_pass(rules, s, up, 0, cache=cache)
        yield up, kind(rules, s, up, plain, cache)


def solve_ca(
    rules: CARules,
    shoe: np.ndarray | None = None,
    *,
    allow_run_out: bool = False,
) -> CAResult:
    """Exact CDZ- expectation of the round from a full (or given) shoe.

    Full shoes are memoised per rules (the result is immutable). A given
    shoe on which some round can run out of cards is refused
    (:func:`refuse_short_round`, D130) unless ``allow_run_out``: then a
    path that wants a card the shoe no longer holds adds nothing, the
    convention of Farmer's analyzer on his tiny research shoes (the
    figures of the plays that never run out stay exact).
    """
    if shoe is None:
        return _solve_full(rules)
    if not allow_run_out:
        refuse_short_round(rules, shoe)
    return _solve(rules, shoe.copy())


@lru_cache(maxsize=64)
def _solve_full(rules: CARules) -> CAResult:
    return _solve(rules, composition(rules.decks))


def _solve(
    rules: CARules,
    counts: np.ndarray,
    kind: type[UpPasses] = UpPasses,
    strategy: str = STRATEGY,
) -> CAResult:
    """The round's exact expectation, the split hands' play by ``kind``.

    ``kind`` is :class:`UpPasses` for CDZ-; :mod:`.cdp` passes its own for
    CDP1, and ``strategy`` names what the figure is exact for.
    """
    started = time.perf_counter()
    n = int(counts[1:].sum())
    sits: dict[tuple[int, int, int], Situation] = {}
    probs: dict[tuple[int, int, int], float] = {}
    ev = 0.0
    for up, u in _ups(rules, counts, kind):
        for a in range(1, 11):
            for b in range(a, 11):
                prob = deal_probability(counts, n, a, b, up)
                if prob <= 0.0:
                    continue
                sit = _situation(u, a, b)
                sits[(a, b, up)] = sit
                probs[(a, b, up)] = prob
                ev += prob * sit.value
    return CAResult(
        rules=rules,
        shoe=tuple(int(x) for x in counts[1:]),
        edge=-ev,
        situations=sits,
        probability=probs,
        seconds=time.perf_counter() - started,
        strategy=strategy,
    )


def _bust_lookup() -> dict[tuple[int, ...], int]:
    bust = player_hands()[3]
    return {tuple(int(x) for x in row): j for j, row in enumerate(bust)}


def card_name(card: int) -> str:
    """A value index as a player names it: ``A``, ``2``..``9``, ``10``.

    >>> card_name(1), card_name(7), card_name(10)
    ('A', '7', '10')
    """
    return "A" if card == 1 else str(card)


def _refuse_short_shoe(
    rules: CARules, shoe: np.ndarray, hand: list[int], up: int
) -> None:
    """Refuse a shoe left too short for ``hand`` to be valued (D130).

    ``shoe`` is what is left after the hand and the up card. With no
    card left there is no hole card; where the card reader looks, a
    shoe holding nothing but the card that makes the dealer's Blackjack
    leaves no hand "given no dealer Blackjack" (the values are divided
    by that chance, nought); and a shoe on which some play of the hand
    (its hits, double, splits, Second Chance) or the dealer after it
    can run out of cards leaves part of the outcomes undefined
    (:func:`.runout.dry_play`).
    """
    n = int(shoe[1:].sum())
    where = f"against {card_name(up)}"
    if n == 0:
        msg = (
            f"no card is left for the dealer's hole card {where}: give a "
            "shoe with more cards than the hand and the up card"
        )
        raise RulesError(msg, key="shoe")
    bjc = blackjack_card(up)
    if bjc and rules.hole_card is not HoleCard.ENHC_ALL and shoe[bjc] == n:
        msg = (
            f"every card left is {card_name(bjc)}, which gives the dealer "
            f"a Blackjack {where}: there is no hand without a dealer "
            "Blackjack to value"
        )
        raise RulesError(msg, key="shoe")
    _refuse_run_out(rules, shoe, hand, up)


def _refuse_run_out(
    rules: CARules, shoe: np.ndarray, hand: list[int], up: int
) -> None:
    """Refuse ``shoe`` if some play of ``hand`` against ``up`` runs it out.

    ``shoe`` is what is left after the hand and the up card; the error
    names the hand, the up card and one play that wants a card the shoe
    no longer holds (:func:`.runout.dry_play`, D130).
    """
    found = dry_play(rules, shoe, hand, up)
    if found is None:
        return
    where = f"against {card_name(up)}"
    names = "-".join(card_name(c) for c in hand)
    if found[0] == "stand":
        msg = (
            f"the cards left after {names} {where} can run out before the "
            "dealer stands: give a shoe with enough cards for the dealer "
            "to finish"
        )
        raise RulesError(msg, key="shoe")
    path = (
        found[0]
        if len(found) == 1
        else (", ".join(found[:-1]) + ", then " + found[-1])
    )
    msg = (
        f"the cards left can run out while the hand {names} plays {where}: "
        f"{path}; give a shoe with enough cards for every play to finish"
    )
    raise RulesError(msg, key="shoe")


def refuse_short_round(rules: CARules, counts: np.ndarray) -> None:
    """Refuse a given shoe on which some round can run out of cards.

    ``counts`` (per value index 1..10) is the shoe before the deal. The
    whole-game solves on a given shoe (:func:`solve_ca`, ``solve_td``,
    ``solve_cdp1``, ``solve_cdp``) value every first hand and up card
    the shoe can deal: each is checked as ``croupier ev`` checks its
    hand (D130), and the first whose play can want a card the shoe no
    longer holds is refused (:class:`RulesError`, key ``shoe``). Full
    shoes of 1 to 8 decks pass at once (the card bound).
    """
    n = int(counts[1:].sum())
    for up in range(1, 11):
        for a in range(1, 11):
            for b in range(a, 11):
                if deal_probability(counts, n, a, b, up) <= 0.0:
                    continue
                left = counts.copy()
                left[a] -= 1
                left[b] -= 1
                left[up] -= 1
                _refuse_run_out(rules, left, [a, b], up)


def hand_actions(
    rules: CARules, shoe: np.ndarray, hand: list[int], up: int
) -> dict[str, float]:
    """Value of every action of ``hand`` against ``up`` (CDZ-).

    ``shoe`` is what is left *after* the hand and the up card were
    dealt. Values are per unit of the initial wager, conditioned on no
    dealer Blackjack when the card reader looks; an action missing from
    the result is not allowed. A busted hand gets ``second_chance`` and
    ``decline`` (591.7(l)). A shoe on which some play of the hand can
    run out of cards is refused (:class:`RulesError`, key ``shoe``,
    D130).
    """
    _refuse_short_shoe(rules, shoe, hand, up)
    s = shoe.copy()
    for card in hand:
        s[card] += 1
    cache = DealerCache.empty()
    u = UpPasses(rules, s, up, run_pass(rules, s, up, 0, cache=cache), cache)
    t = u.plain
    n = int(shoe[1:].sum())
    bjc = blackjack_card(up)
    peek = rules.hole_card is not HoleCard.ENHC_ALL
    m0 = 1.0 - shoe[bjc] / n if (bjc and peek) else 1.0
    if sum(hand) > 21:
        key = [0] * 11
        for card in hand:
            key[card] += 1
        j = _bust_lookup().get(tuple(key))
        if j is None or t.bust_dec[j] == 0.0:
            msg = f"hand {hand}: a bust no hand can reach by hitting"
            raise RulesError(msg, key="hand")
        out = {"decline": t.bust_dec[j] / m0}
        if rules.second_chance:
            out["second_chance"] = t.bust_sc[j] / m0
        return out
    i = hand_index(hand)
    out = {"stand": t.stand[i] / m0}
    if hand_total(hand) < 21:
        out["hit"] = t.hit[i] / m0
        if len(hand) == 2 and may_double(rules, hand_total(hand)):
            out["double"] = t.dbl[i] / m0
    if len(hand) == 2 and hand[0] == hand[1] and rules.max_split_hands > 1:
        out["split"] = _split_value(u, hand[0]) / m0
    if len(hand) == 2 and rules.surrender is not Surrender.NONE:
        out["surrender"] = float(rules.surrender_refund) - 1.0
    return out


def evaluate_hand(
    rules: CARules, counts: np.ndarray, hand: list[int], up: int
) -> dict[str, object]:
    """``croupier ev``: every action's value for a hand against ``up``.

    ``counts`` (per value index 1..10) is the shoe *before* the hand and
    the up card are dealt, the convention of Farmer's analyzer (found by
    reproducing its published figures, see the tests). Resplits
    (``max_split_hands`` above 2) are exact by :mod:`.resplit`, on any
    shoe that no play runs out of cards (a shorter one is refused,
    D130).
    """
    if len(hand) < 2:
        msg = f"hand {hand}: a hand is dealt two cards before it decides"
        raise RulesError(msg, key="hand")
    if sorted(hand) == [1, 10]:
        msg = (
            "hand A-10 is a Blackjack: it is paid at once (591.7(f)), "
            "with no decision to value"
        )
        raise RulesError(msg, key="hand")
    shoe = counts.copy()
    for card in (*hand, up):
        shoe[card] -= 1
        if shoe[card] < 0:
            msg = (
                f"the shoe has no card {card_name(card)} left for the "
                "hand and the up card"
            )
            raise RulesError(msg, key="shoe")
    engine = "analyzer"
    values = hand_actions(rules, shoe, hand, up)
    bjc = blackjack_card(up)
    peek = rules.hole_card is HoleCard.PEEK and bjc != 0
    if (
        bjc
        and rules.hole_card is not HoleCard.ENHC_ALL
        and (
            rules.hole_card is HoleCard.ENHC_OBO
            or rules.surrender is Surrender.EARLY
        )
    ):
        # no card reader, or a surrender before it: every value on the
        # same footing, the original wager lost to a dealer Blackjack
        n = int(shoe[1:].sum())
        pbj = shoe[bjc] / n
        values = {k: v * (1 - pbj) - pbj for k, v in values.items()}
        if rules.surrender is Surrender.EARLY and "surrender" in values:
            values["surrender"] = float(rules.surrender_refund) - 1.0
        peek = False
    best = max(values, key=lambda k: values[k])
    return {
        "strategy": STRATEGY,
        "method": "exact",
        "engine": engine,
        "hand": list(hand),
        "up": up,
        "shoe_before_deal": [int(x) for x in counts[1:]],
        "conditioned_on_no_dealer_blackjack": peek,
        "actions": {k: float(v) for k, v in values.items()},
        "best": best,
    }


RULE_STEPS: tuple[tuple[str, str, object], ...] = (
    ("591.7(f)", "blackjack_paid_before_peek", True),
    ("591.7(g)", "insurance", True),
    ("591.7(i)", "surrender", Surrender.LATE),
    ("673a.11(c)", "split_aces_one_card", False),
    ("591.7(l)", "second_chance", True),
    ("591.7(m)", "twenty_one_paid_at_once", True),
    ("591.7(q)(1)", "dealer_22_push", True),
)
"""From ordinary blackjack to Double Back Jack, in Rules Submission
order: (subsection, option, Double Back Jack value)."""


@dataclass(frozen=True, slots=True)
class RuleEffect:
    """The exact change of the house edge due to one rule."""

    ref: str
    option: str
    value: str
    alone: float
    """Edge change (points of the wager) of this rule alone."""
    cumulative: float
    """Edge after this rule and every earlier one (fraction)."""
    in_order: float
    """Edge change of this rule after the earlier ones."""


def rule_effects(decks: int, base: CARules | None = None) -> dict[str, Any]:
    """Ordinary blackjack to Double Back Jack, one rule at a time.

    ``base`` is the ordinary game (default :meth:`CARules.ordinary`);
    every figure is an exact CDZ- edge (fractions of the wager).
    """
    from dataclasses import replace

    start = base or CARules.ordinary()
    start = replace(start, decks=decks)
    base_edge = solve_ca(start).edge
    rows: list[RuleEffect] = []
    current = start
    previous = base_edge
    for ref, name, value in RULE_STEPS:
        change: dict[str, Any] = {name: value}
        alone = solve_ca(replace(start, **change)).edge - base_edge
        current = replace(current, **change)
        edge = solve_ca(current).edge
        rows.append(
            RuleEffect(
                ref, name, str(value).lower(), alone, edge, edge - previous
            )
        )
        previous = edge
    return {
        "decks": decks,
        "strategy": STRATEGY,
        "method": "exact",
        "ordinary": {"rules": start.describe(), "house_edge": base_edge},
        "double_back_jack_house_edge": previous,
        "steps": [
            {
                "ref": r.ref,
                "option": r.option,
                "value": r.value,
                "alone": r.alone,
                "in_order": r.in_order,
                "house_edge_after": r.cumulative,
            }
            for r in rows
        ],
    }
