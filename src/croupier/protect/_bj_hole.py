"""Double Back Jack against a known dealer hole card (a hole-card player).

A labelled approximation, the same as the game's own solver
(:mod:`croupier.odds.double_back_jack.strategy`): decisions after the
first are *total dependent*; the player's draws come from the shoe less
the initial cards (the player's two, the up card, and here the hole
card too), ignoring the removal of the cards he draws later; the
dealer's outcome is exact for that composition (every dealer draw
removes its card). :func:`round_values` solves every deal twice with one
code path: once with the hole card unknown (the dealer's law over the
hole card, conditioned on the card reader's "no Blackjack" answer,
exactly as :func:`~croupier.odds.double_back_jack.strategy.solve_all`
does, so it reproduces the game's own figure) and once with it known
(the dealer's law from his two cards). The rules are the game's
(:func:`croupier.odds.double_back_jack.analysis.rule_parameters`).
"""

from __future__ import annotations

import numpy as np

from croupier.jit import jit
from croupier.odds.double_back_jack.dealer import BJ, dealer_distribution
from croupier.odds.double_back_jack.strategy import (
    HS_SIZE,
    P_21,
    P_ACES_DRAW,
    P_BJ,
    P_DAS,
    P_INS,
    P_INSMAX,
    P_INSPAY,
    P_REFUND,
    P_SPLIT,
    P_SURR,
    fill_tables,
)
from croupier.odds.leaf import soft_total

__all__ = ["dealer_from", "round_values"]

_DEPTH = 32


@jit
def dealer_from(counts: np.ndarray, hard0: int, ace0: bool) -> np.ndarray:
    """The dealer's final law from a two-card start, drawing to 17-21.

    Index 0-4: 17-21, 5: 22, 6: 23 or more (591.7(o): he stands on soft
    17). ``counts`` (value indices 1-10) is restored before returning.
    """
    out = np.zeros(7)
    t0 = soft_total(hard0, ace0)
    if t0 >= 17:
        out[t0 - 17] = 1.0
        return out
    remaining = 0
    for v in range(1, 11):
        remaining += counts[v]
    hard = np.zeros(_DEPTH, dtype=np.int64)
    ace = np.zeros(_DEPTH, dtype=np.bool_)
    prob = np.zeros(_DEPTH)
    nxt = np.zeros(_DEPTH, dtype=np.int64)
    drawn = np.zeros(_DEPTH, dtype=np.int64)
    depth = 0
    hard[0] = hard0
    ace[0] = ace0
    prob[0] = 1.0
    nxt[0] = 1
    while depth >= 0:
        value = nxt[depth]
        if value > 10:
            if depth > 0:
                counts[drawn[depth]] += 1
                remaining += 1
            depth -= 1
            continue
        nxt[depth] = value + 1
        count = counts[value]
        if count == 0:
            continue
        p = prob[depth] * count / remaining
        h = hard[depth] + value
        a = ace[depth] or value == 1
        total = soft_total(h, a)
        if total >= 17:
            out[min(total, 23) - 17] += p
            continue
        counts[value] = count - 1
        remaining -= 1
        depth += 1
        hard[depth] = h
        ace[depth] = a
        prob[depth] = p
        nxt[depth] = 1
        drawn[depth] = value
    return out


@jit
def _first(
    a: int,
    b: int,
    counts: np.ndarray,
    q: np.ndarray,
    par: np.ndarray,
) -> float:
    """The best first decision's EV of ``a, b`` against the law ``q``."""
    total = 0
    for v in range(1, 11):
        total += counts[v]
    p = np.zeros(11)
    for v in range(1, 11):
        p[v] = counts[v] / total
    stand_ev = np.zeros(22)
    take = np.zeros(HS_SIZE, dtype=np.int8)
    bust_ev = np.zeros((4, HS_SIZE))
    hit_ev = np.zeros((2, HS_SIZE, 2))
    val_ev = np.zeros((2, HS_SIZE, 2))
    dbl_ev = np.zeros((2, HS_SIZE, 2))
    sc_ev = np.zeros(22)
    fill_tables(
        p, q, par, stand_ev, sc_ev, take, bust_ev, hit_ev, val_ev, dbl_ev
    )
    h0 = a + b
    ace0 = a == 1 or b == 1
    a0 = 1 if ace0 else 0
    best = stand_ev[soft_total(h0, ace0)]
    best = max(best, hit_ev[0, h0, a0], dbl_ev[0, h0, a0])
    if par[P_SURR] > 0:
        best = max(best, par[P_REFUND] - 1.0)
    if a == b and par[P_SPLIT] > 0:
        e = 0.0
        for v in range(1, 11):
            h = a + v
            ace = a == 1 or v == 1
            t = soft_total(h, ace)
            ac = 1 if ace else 0
            if t == 21:
                e += p[v] * par[P_21]
            elif a == 1 and par[P_ACES_DRAW] == 0:
                e += p[v] * stand_ev[t]
            else:
                s = max(stand_ev[t], hit_ev[1, h, ac])
                if par[P_DAS] > 0:
                    s = max(s, dbl_ev[1, h, ac])
                e += p[v] * s
        best = max(best, 2.0 * e)
    return float(best)


@jit
def round_values(full: np.ndarray, par: np.ndarray) -> np.ndarray:
    """Expected net per initial unit: ``[hole unknown, hole known]``.

    ``full``: the shoe's counts per value index 1-10. Deals are weighted
    by their exact probabilities from ``full``; a player Blackjack is
    paid at once (591.7(f)), a dealer Blackjack found by the card reader
    collects the wager (591.7(h)), insured (591.7(g)) when its
    expectation is positive (hole unknown) or when the hole card shows
    the Blackjack (hole known).
    """
    out = np.zeros(2)
    n = 0
    for v in range(1, 11):
        n += full[v]
    c = full.copy()
    q = np.zeros(7)
    for up in range(1, 11):
        for a in range(1, 11):
            for b in range(1, 11):
                pr = full[a] / n
                c[:] = full
                c[a] -= 1
                pr *= c[up] / (n - 1)
                c[up] -= 1
                pr *= c[b] / (n - 2)
                c[b] -= 1
                if pr <= 0.0:
                    continue
                if (a == 1 and b == 10) or (a == 10 and b == 1):
                    out[0] += pr * par[P_BJ]
                    out[1] += pr * par[P_BJ]
                    continue
                # hole card unknown: the card reader's answer only
                raw = dealer_distribution(c, up)
                pbj = raw[BJ]
                if pbj < 1.0:
                    for d in range(7):
                        q[d] = raw[d] / (1.0 - pbj)
                    live = _first(a, b, c, q, par)
                else:
                    live = 0.0
                ins = 0.0
                if up == 1 and par[P_INS] > 0:
                    unit = pbj * par[P_INSPAY] - (1.0 - pbj)
                    if unit > 1e-12:
                        ins = par[P_INSMAX] * unit
                out[0] += pr * ((1.0 - pbj) * live - pbj + ins)
                # hole card known
                m = n - 3
                for hole in range(1, 11):
                    ph = c[hole] / m
                    if ph <= 0.0:
                        continue
                    dealer_bj = (up == 1 and hole == 10) or (
                        up == 10 and hole == 1
                    )
                    if dealer_bj:
                        gain = -1.0
                        if up == 1 and par[P_INS] > 0:
                            gain += par[P_INSMAX] * par[P_INSPAY]
                        out[1] += pr * ph * gain
                        continue
                    c[hole] -= 1
                    known = dealer_from(c, up + hole, up == 1 or hole == 1)
                    out[1] += pr * ph * _first(a, b, c, known, par)
                    c[hole] += 1
    return out
