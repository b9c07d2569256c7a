"""The optimal Double Back Jack strategy and its exact expected value.

One player box against the dealer, under the options of
:class:`~croupier.games.double_back_jack.rules.DoubleBackJackRules`:

* a player Blackjack is paid at once (591.7(f)), before the card reader,
  whatever the dealer holds;
* insurance is offered on an ace up card only (591.7(g), D5), and taken
  when its expectation is positive for the exact composition left;
* on an ace or 10-value up card the card reader finds a dealer Blackjack
  (591.7(h)), which collects the wager; every later decision is made
  knowing the dealer has no Blackjack, so the hole card is conditioned;
* the first decision (surrender, double, split, stand, hit; 591.7(i)) is
  *composition dependent*: chosen per two-card hand (the two values, not
  the total) against the up card, with the shoe less those three cards;
* a 21 is paid at once (591.7(m)); a bust may buy a Second Chance
  (591.7(l)) whose card is subtracted (ace = 1), and a Second Chance
  hand below 21 stands against the dealer;
* the dealer stands on 17-21 (591.7(o)) and a dealer 22 pushes every
  remaining hand (591.7(q)(1)).

**Approximation.** Decisions after the first (hit or stand, the Second
Chance, the play of each split hand) are *total dependent*: they use the
shoe composition less the three initial cards, for the player's draws
and for the dealer's outcome probabilities, ignoring the removal of the
cards the player draws afterwards. The dealer's probabilities themselves
are exact for that composition (every dealer draw removes its card), and
the hole card is conditioned on the card-reader result. The house edge
reported is the expectation of this strategy under that approximation;
the simulator plays the very same strategy through real shoes.

Value indices: 1 = ace, 2-9, 10 = any 10-value card. Decision codes are
:data:`STAND`, :data:`HIT`, :data:`DOUBLE`, :data:`SPLIT`,
:data:`SURRENDER`.
"""

from __future__ import annotations

import numpy as np

from croupier.jit import jit
from croupier.odds.leaf import soft_total

from .dealer import BJ, N_DEALER, deal_probability, dealer_distribution
from .kernels import (
    R_21,
    R_ACES,
    R_BJ,
    R_COLLECT,
    R_DAS,
    R_INS,
    R_INSMAX,
    R_INSPAY,
    R_REFUND,
    R_SC21,
    R_SCDBL,
    R_SCSPLIT,
    R_SCWIN,
    R_SPLIT,
    R_SURR,
    R_WIN,
)

__all__ = [
    "DOUBLE",
    "HIT",
    "HS_SIZE",
    "NO_OPTION",
    "N_STATES",
    "SPLIT",
    "STAND",
    "SURRENDER",
    "fill_tables",
    "hand_tables",
    "solve_all",
]

STAND = 0
"""Stand."""
HIT = 1
"""Hit."""
DOUBLE = 2
"""Double down (for the full wager)."""
SPLIT = 3
"""Split."""
SURRENDER = 4
"""Late surrender."""
NO_OPTION = -1e9
"""EV marker of an option that is not allowed."""

HS_SIZE = 32
"""Hard sums tracked (0..31)."""
N_STATES = 28
"""Final states of one hand: 14 kinds times a wager of 1 or 2 units.

Within a block of 14: 0 paid 21 at once; 1-5 stood on 16 or less, 17,
18, 19, 20; 6 bust, Second Chance declined; 7 Second Chance over 21;
8 Second Chance exactly 21; 9-13 Second Chance hand stood on 16 or
less, 17, 18, 19, 20. States 14-27 are the same for a doubled hand.
"""

# Rule parameters (float64 array ``par``): the entries of the rule
# vector of :func:`.kernels.rule_vector`, one layout for both encodings.
P_BJ, P_WIN, P_21, P_SC21, P_SCWIN = R_BJ, R_WIN, R_21, R_SC21, R_SCWIN
P_INSPAY, P_INSMAX, P_INS, P_SURR = R_INSPAY, R_INSMAX, R_INS, R_SURR
P_REFUND, P_DAS, P_SPLIT, P_ACES_DRAW = R_REFUND, R_DAS, R_SPLIT, R_ACES
P_SC_DBL, P_SC_SPLIT, P_COLLECT = R_SCDBL, R_SCSPLIT, R_COLLECT

S_PAID, S_DECLINED, S_SC_OVER, S_SC21 = 0, 6, 7, 8


@jit
def _eff(hard: int, ace: bool) -> int:
    """The hand's total (:func:`croupier.odds.leaf.soft_total`)."""
    return soft_total(hard, ace)


@jit
def _stand_slot(total: int) -> int:
    return 1 + max(0, total - 16)


@jit
def fill_tables(
    p: np.ndarray,
    q: np.ndarray,
    par: np.ndarray,
    stand_ev: np.ndarray,
    sc_ev: np.ndarray,
    take: np.ndarray,
    bust_ev: np.ndarray,
    hit_ev: np.ndarray,
    val_ev: np.ndarray,
    dbl_ev: np.ndarray,
) -> None:
    """Fill the total-dependent tables from the laws ``p`` and ``q``.

    ``p``: the draw probabilities; ``q``: the dealer's outcomes given no
    dealer Blackjack. The tables are those of :func:`hand_tables`.
    """
    win = par[P_WIN]
    scwin = par[P_SCWIN]
    for t in range(22):
        s = 0.0
        c = 0.0
        for d in range(5):
            dt = 17 + d
            if t > dt:
                s += q[d] * win
                c += q[d] * scwin
            elif t < dt:
                s -= q[d]
                c -= 2.0 * q[d]
        s += q[6] * win
        c += q[6] * scwin
        stand_ev[t] = s
        sc_ev[t] = c
    decline = -1.0 if par[P_COLLECT] > 0 else -(1.0 - q[5])
    for t in range(22, HS_SIZE):
        e = 0.0
        for v in range(1, 11):
            x = t - v
            if x > 21:
                e -= 2.0 * p[v]
            elif x == 21:
                e += p[v] * par[P_SC21]
            else:
                e += p[v] * sc_ev[x]
        take[t] = 1 if e > decline else 0
        best = max(e, decline)
        for kind in range(4):
            doubled = kind >= 2
            split = kind % 2 == 1
            allowed = not (doubled and par[P_SC_DBL] == 0) and not (
                split and par[P_SC_SPLIT] == 0
            )
            bust_ev[kind, t] = best if allowed else decline
    for kind in range(2):
        for h in range(20, 1, -1):
            for a in range(2):
                ace = a == 1
                t = _eff(h, ace)
                if t >= 21:
                    continue
                e = 0.0
                d2 = 0.0
                for v in range(1, 11):
                    h2 = h + v
                    a2 = 1 if (ace or v == 1) else 0
                    t2 = _eff(h2, a2 == 1)
                    if t2 == 21:
                        e += p[v] * par[P_21]
                        d2 += p[v] * par[P_21]
                    elif h2 > 21:
                        e += p[v] * bust_ev[kind, h2]
                        d2 += p[v] * bust_ev[kind + 2, h2]
                    else:
                        e += p[v] * val_ev[kind, h2, a2]
                        d2 += p[v] * stand_ev[t2]
                hit_ev[kind, h, a] = e
                val_ev[kind, h, a] = max(e, stand_ev[t])
                dbl_ev[kind, h, a] = 2.0 * d2


@jit
def hand_tables(
    counts: np.ndarray,
    up: int,
    par: np.ndarray,
    p: np.ndarray,
    q: np.ndarray,
    stand_ev: np.ndarray,
    sc_ev: np.ndarray,
    take: np.ndarray,
    bust_ev: np.ndarray,
    hit_ev: np.ndarray,
    val_ev: np.ndarray,
    dbl_ev: np.ndarray,
) -> float:
    """Fill the total-dependent tables for ``counts`` (up card removed).

    Returns the probability of a dealer Blackjack (0 unless the up card
    is an ace or a 10). Filled: ``p`` draw probabilities, ``q`` dealer
    outcomes given no Blackjack, ``stand_ev``/``sc_ev`` per total,
    ``take`` (Second Chance worth taking per busted total), ``bust_ev``
    per kind (0 plain, 1 split, 2 doubled, 3 doubled split) and busted
    total, ``hit_ev``/``val_ev``/``dbl_ev`` per kind (0 plain, 1 split),
    hard sum and ace flag. EVs are per unit of the hand's current wager.
    """
    total = 0
    for v in range(1, 11):
        total += counts[v]
    for v in range(1, 11):
        p[v] = counts[v] / total
    raw = dealer_distribution(counts, up)
    pbj = raw[BJ]
    for d in range(N_DEALER):
        q[d] = raw[d] / (1.0 - pbj)
    fill_tables(
        p, q, par, stand_ev, sc_ev, take, bust_ev, hit_ev, val_ev, dbl_ev
    )
    return float(pbj)


@jit
def _land(
    m: float,
    h: int,
    ace: bool,
    base: int,
    final: bool,
    sc_ok: bool,
    take: np.ndarray,
    p: np.ndarray,
    dist: np.ndarray,
    mass: np.ndarray,
) -> None:
    """Place probability ``m`` of a hand that just took a card."""
    t = _eff(h, ace)
    if t == 21:
        dist[base + S_PAID] += m
    elif h > 21:
        if sc_ok and take[h] == 1:
            for v in range(1, 11):
                x = h - v
                if x > 21:
                    dist[base + S_SC_OVER] += m * p[v]
                elif x == 21:
                    dist[base + S_SC21] += m * p[v]
                else:
                    dist[base + 8 + _stand_slot(x)] += m * p[v]
        else:
            dist[base + S_DECLINED] += m
    elif final:
        dist[base + _stand_slot(t)] += m
    else:
        mass[h, 1 if ace else 0] += m


@jit
def _act(
    m: float,
    h: int,
    ace: bool,
    action: int,
    sc_plain: bool,
    sc_double: bool,
    take: np.ndarray,
    p: np.ndarray,
    dist: np.ndarray,
    mass: np.ndarray,
) -> None:
    """Carry out ``action`` on a two-card state holding probability m."""
    if action == STAND:
        dist[_stand_slot(_eff(h, ace))] += m
        return
    double = action == DOUBLE
    for v in range(1, 11):
        _land(
            m * p[v],
            h + v,
            ace or v == 1,
            14 if double else 0,
            double,
            sc_double if double else sc_plain,
            take,
            p,
            dist,
            mass,
        )


@jit
def _flow(
    hit_table: np.ndarray,
    sc_plain: bool,
    take: np.ndarray,
    p: np.ndarray,
    dist: np.ndarray,
    mass: np.ndarray,
) -> None:
    """Play every hand state left in ``mass`` by the hit/stand table."""
    for h in range(2, 21):
        for a in range(2):
            m = mass[h, a]
            if m == 0.0:
                continue
            mass[h, a] = 0.0
            ace = a == 1
            if hit_table[h, a] == 1:
                for v in range(1, 11):
                    _land(
                        m * p[v],
                        h + v,
                        ace or v == 1,
                        0,
                        False,
                        sc_plain,
                        take,
                        p,
                        dist,
                        mass,
                    )
            else:
                dist[_stand_slot(_eff(h, ace))] += m


@jit
def solve_all(
    full: np.ndarray,
    par: np.ndarray,
    fd: np.ndarray,
    evs: np.ndarray,
    ins: np.ndarray,
    hs: np.ndarray,
    spd: np.ndarray,
    scd: np.ndarray,
    sit: np.ndarray,
    acc_a: np.ndarray,
    acc_b: np.ndarray,
    rows: np.ndarray,
) -> None:
    """Solve every initial situation (two player values, up card).

    Outputs (index order ``[a, b, up]`` with value indices 1..10):
    ``fd`` first decision; ``evs[a, b, up, action]`` its options' EVs
    given no dealer Blackjack (:data:`NO_OPTION` when illegal); ``ins``
    insurance taken (up = ace); ``hs[a, b, up, kind, hard, ace]`` hit
    (1) or stand (0) after the first decision, kind 0 plain, 1 split;
    ``spd[a, up, v]`` first decision of a split hand of ``a`` that drew
    ``v``; ``scd[a, b, up, busted total]`` take the Second Chance;
    ``sit[a, b, up]`` (probability, EV per initial unit, P(dealer BJ)).
    Accumulated: ``acc_a[insured, state, dealer]`` unsplit rounds,
    ``acc_b[insured, state1, state2, dealer]`` split rounds, ``rows``:
    player Blackjack, dealer Blackjack, dealer Blackjack insured,
    surrender, surrender insured.
    """
    n = 0
    for v in range(1, 11):
        n += full[v]
    p = np.zeros(11)
    q = np.zeros(N_DEALER)
    stand_ev = np.zeros(22)
    sc_ev = np.zeros(22)
    take = np.zeros(HS_SIZE, dtype=np.int8)
    bust_ev = np.zeros((4, HS_SIZE))
    hit_ev = np.zeros((2, HS_SIZE, 2))
    val_ev = np.zeros((2, HS_SIZE, 2))
    dbl_ev = np.zeros((2, HS_SIZE, 2))
    dist = np.zeros(N_STATES)
    dist2 = np.zeros(N_STATES)
    mass = np.zeros((HS_SIZE, 2))
    counts = full.copy()
    for up in range(1, 11):
        for a in range(1, 11):
            for b in range(a, 11):
                prob = deal_probability(full, n, a, b, up)
                sit[a, b, up, 0] = prob
                sit[b, a, up, 0] = prob
                if prob == 0.0:
                    continue
                if (a == 1 and b == 10) or (a == 10 and b == 1):
                    sit[a, b, up, 1] = par[P_BJ]
                    sit[b, a, up, 1] = par[P_BJ]
                    rows[0] += prob
                    continue
                counts[:] = full
                counts[a] -= 1
                counts[b] -= 1
                counts[up] -= 1
                pbj = hand_tables(
                    counts,
                    up,
                    par,
                    p,
                    q,
                    stand_ev,
                    sc_ev,
                    take,
                    bust_ev,
                    hit_ev,
                    val_ev,
                    dbl_ev,
                )
                sit[a, b, up, 2] = pbj
                sit[b, a, up, 2] = pbj
                for t in range(22, HS_SIZE):
                    scd[a, b, up, t] = take[t]
                    scd[b, a, up, t] = take[t]
                for kind in range(2):
                    for h in range(2, 21):
                        for ac in range(2):
                            hit = (
                                1
                                if (
                                    _eff(h, ac == 1) < 21
                                    and hit_ev[kind, h, ac]
                                    > stand_ev[_eff(h, ac == 1)]
                                )
                                else 0
                            )
                            hs[a, b, up, kind, h, ac] = hit
                            hs[b, a, up, kind, h, ac] = hit
                h0 = a + b
                ace0 = a == 1 or b == 1
                a0 = 1 if ace0 else 0
                opts = np.full(5, NO_OPTION)
                opts[STAND] = stand_ev[_eff(h0, ace0)]
                opts[HIT] = hit_ev[0, h0, a0]
                opts[DOUBLE] = dbl_ev[0, h0, a0]
                if par[P_SURR] > 0:
                    opts[SURRENDER] = par[P_REFUND] - 1.0
                split_ok = a == b and par[P_SPLIT] > 0
                if split_ok:
                    e = 0.0
                    for v in range(1, 11):
                        h = a + v
                        ace = a == 1 or v == 1
                        t = _eff(h, ace)
                        ac = 1 if ace else 0
                        if t == 21:
                            e += p[v] * par[P_21]
                            spd[a, up, v] = STAND
                            continue
                        if a == 1 and par[P_ACES_DRAW] == 0:
                            e += p[v] * stand_ev[t]
                            spd[a, up, v] = STAND
                            continue
                        best = stand_ev[t]
                        act = STAND
                        if hit_ev[1, h, ac] > best:
                            best = hit_ev[1, h, ac]
                            act = HIT
                        if par[P_DAS] > 0 and dbl_ev[1, h, ac] > best:
                            best = dbl_ev[1, h, ac]
                            act = DOUBLE
                        spd[a, up, v] = act
                        e += p[v] * best
                    opts[SPLIT] = 2.0 * e
                best_act = STAND
                for k in range(5):
                    evs[a, b, up, k] = opts[k]
                    evs[b, a, up, k] = opts[k]
                    if opts[k] > opts[best_act]:
                        best_act = k
                fd[a, b, up] = best_act
                fd[b, a, up] = best_act
                insured = 0
                ins_ev = 0.0
                if up == 1 and par[P_INS] > 0:
                    unit = pbj * par[P_INSPAY] - (1.0 - pbj)
                    if unit > 1e-12:
                        insured = 1
                        ins_ev = par[P_INSMAX] * unit
                    ins[a, b] = insured
                    ins[b, a] = insured
                sit_ev = (1.0 - pbj) * opts[best_act] - pbj + ins_ev
                sit[a, b, up, 1] = sit_ev
                sit[b, a, up, 1] = sit_ev
                rows[1 + insured] += prob * pbj
                live = prob * (1.0 - pbj)
                if best_act == SURRENDER:
                    rows[3 + insured] += live
                    continue
                sc_plain = True
                sc_dbl = par[P_SC_DBL] > 0
                dist[:] = 0.0
                if best_act == SPLIT:
                    sc_split = par[P_SC_SPLIT] > 0
                    sc_split_dbl = sc_split and sc_dbl
                    for v in range(1, 11):
                        h = a + v
                        ace = a == 1 or v == 1
                        if _eff(h, ace) == 21:
                            dist[S_PAID] += p[v]
                            continue
                        _act(
                            p[v],
                            h,
                            ace,
                            spd[a, up, v],
                            sc_split,
                            sc_split_dbl,
                            take,
                            p,
                            dist,
                            mass,
                        )
                    _flow(hs[a, b, up, 1], sc_split, take, p, dist, mass)
                    dist2[:] = dist
                    for s1 in range(N_STATES):
                        if dist[s1] == 0.0:
                            continue
                        for s2 in range(N_STATES):
                            w = live * dist[s1] * dist2[s2]
                            if w == 0.0:
                                continue
                            for d in range(N_DEALER):
                                acc_b[insured, s1, s2, d] += w * q[d]
                    continue
                _act(
                    1.0,
                    h0,
                    ace0,
                    best_act,
                    sc_plain,
                    sc_dbl,
                    take,
                    p,
                    dist,
                    mass,
                )
                _flow(hs[a, b, up, 0], sc_plain, take, p, dist, mass)
                for s in range(N_STATES):
                    if dist[s] == 0.0:
                        continue
                    for d in range(N_DEALER):
                        acc_a[insured, s, d] += live * dist[s] * q[d]
