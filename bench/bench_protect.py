"""Game-protection benchmarks (issue 16 point 6), with their baselines.

Run: ``.venv/bin/python bench/bench_protect.py [--shoes N] [--workers K]``.

1. The exact EoRs of every wager of Midibaccarat and of commission-free
   Midibaccarat (8 decks): the compiled path (:mod:`croupier.protect.
   eor`, after the JIT has loaded) against a plain-Python enumeration
   of the same coups on the engine's drawing rules, in the same run.
   Target: under 1 s.
2. A count simulation (Jacobson's Dragon 7 count, every trigger at
   once) of ``--shoes`` shoes (10 million) on ``--workers`` processes
   (2), against a plain-Python shoe loop of the same rules and count
   (shuffle, cut, burn, coups, count, buckets), timed on
   ``--baseline-shoes`` shoes and scaled. Target: under 60 s. The CPU
   seconds of the run (this process and its workers) are printed too:
   on a shared machine the wall time measures the neighbours as well.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import time
from fractions import Fraction

from croupier.cards import Card
from croupier.games.midibaccarat.rules import (
    CommissionFreeRules,
    MidibaccaratRules,
)
from croupier.hands.baccarat import banker_draws, player_draws
from croupier.odds.baccarat.model import cell_event, cells, wagers_of
from croupier.odds.leaf import BURN, POINT
from croupier.procedures.ch629a import CUT_MARGIN
from croupier.protect.counts import Count, parse_tags, simulate_counts
from croupier.protect.eor import game_eors
from croupier.protect.model import game_model

_THIRD = [
    Card.parse(c)
    for c in ("Ts", "As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s")
]
JACOBSON = parse_tags("4=-1,5=-1,6=-1,7=-1,8=2,9=2")


def _cells(counts: list[int]) -> dict[tuple[int, int, int, int], int]:
    """Ordered six-card weights of every cell, in plain Python."""
    n = sum(counts)
    c = list(counts)
    out: dict[tuple[int, int, int, int], int] = {}
    for p1 in range(10):
        w1 = c[p1]
        c[p1] -= 1
        for b1 in range(10):
            w2 = w1 * c[b1]
            c[b1] -= 1
            for p2 in range(10):
                w3 = w2 * c[p2]
                c[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * c[b2]
                    c[b2] -= 1
                    if w4:
                        _finish(c, n, w4, (p1 + p2) % 10, (b1 + b2) % 10, out)
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return out


def _finish(
    c: list[int],
    n: int,
    w4: int,
    pc: int,
    bc: int,
    out: dict[tuple[int, int, int, int], int],
) -> None:
    def add(cell: tuple[int, int, int, int], weight: int) -> None:
        out[cell] = out.get(cell, 0) + weight

    if pc >= 8 or bc >= 8:
        add((pc, bc, 0, 0), w4 * (n - 4) * (n - 5))
    elif player_draws(pc):
        for p3 in range(10):
            w5 = w4 * c[p3]
            c[p3] -= 1
            pc3 = (pc + p3) % 10
            if w5 and banker_draws(bc, player_third=_THIRD[p3]):
                for b3 in range(10):
                    add((pc3, (bc + b3) % 10, 1, 1), w5 * c[b3])
            elif w5:
                add((pc3, bc, 1, 0), w5 * (n - 5))
            c[p3] += 1
    elif banker_draws(bc, player_third=None):
        for b3 in range(10):
            add((pc, (bc + b3) % 10, 0, 1), w4 * c[b3] * (n - 5))
    else:
        add((pc, bc, 0, 0), w4 * (n - 4) * (n - 5))


def python_eors(rules: MidibaccaratRules | CommissionFreeRules) -> int:
    """Every cell wager's EoR by plain-Python enumeration; tables built."""
    full = [16 * rules.decks] + [4 * rules.decks] * 9
    wagers = [w for w in wagers_of(rules) if "pairs" not in str(w)]
    nets = {
        w: {cell: cell_event(rules, w, cell).net for cell in cells()}
        for w in wagers
    }

    def evs(counts: list[int]) -> list[Fraction]:
        table = _cells(counts)
        total = sum(table.values())
        return [
            sum((nets[w][k] * v for k, v in table.items()), Fraction(0))
            / total
            for w in wagers
        ]

    base = evs(full)
    built = 0
    for value in range(10):
        less = list(full)
        less[value] -= 1
        [e - b for e, b in zip(evs(less), base, strict=True)]
        built += 1
    return built


def _python_coup(cards: list[int], pos: int) -> tuple[int, int, int, int]:
    p1, b1, p2, b2 = cards[pos : pos + 4]
    pc = (POINT[p1] + POINT[p2]) % 10
    bc = (POINT[b1] + POINT[b2]) % 10
    used, db = 4, 0
    if pc < 8 and bc < 8:
        third = None
        if player_draws(int(pc)):
            v = int(POINT[cards[pos + used]])
            third = _THIRD[v]
            used += 1
            pc = (pc + v) % 10
        if banker_draws(int(bc), player_third=third):
            bc = (bc + POINT[cards[pos + used]]) % 10
            used, db = used + 1, 1
    return int(pc), int(bc), db, used


def python_counts(rules: CommissionFreeRules, shoes: int, seed: int) -> int:
    """A plain-Python count simulation of ``shoes`` Dragon 7 shoes."""
    rng = random.Random(seed)
    size = 52 * rules.decks
    ranks = "23456789TJQKA"
    tags = [JACOBSON[ranks[c // 4]] for c in range(52)]
    cover = size - rules.second_cover_from_bottom
    hands = [0] * 61
    sums = [0] * 61
    codes = [c for c in range(52) for _ in range(rules.decks)]
    for _ in range(shoes):
        for i in range(size - 1, 0, -1):
            j = rng.randrange(i + 1)
            codes[i], codes[j] = codes[j], codes[i]
        moved = CUT_MARGIN + rng.randrange(size - 2 * CUT_MARGIN + 1)
        codes = codes[moved:] + codes[:moved]
        pos = 1 + int(BURN[codes[0]])
        rc = tags[codes[0]]
        while pos + 6 <= size:
            left = size - pos
            b = min(max((52 * rc) // left + 30, 0), 60)
            pc, bc, db, used = _python_coup(codes, pos)
            win = db and bc == 7 and pc < 7
            hands[b] += 1
            sums[b] += 40 if win else -1
            for card in codes[pos : pos + used]:
                rc += tags[card]
            pos += used
            if pos > cover:
                break
    return sum(hands)


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    """Print both benchmarks and their ratios."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shoes", type=int, default=10_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--baseline-shoes", type=int, default=300)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")

    for rules in (MidibaccaratRules(), CommissionFreeRules()):
        game = game_model(rules)
        game_eors(game_model(MidibaccaratRules(decks=1)))  # JIT
        started = time.perf_counter()
        tables = game_eors(game)
        fast = time.perf_counter() - started
        started = time.perf_counter()
        python_eors(rules)
        slow = time.perf_counter() - started
        print(
            f"EoRs {game.game}, {len(tables)} wagers: {fast:.3f} s "
            f"(target < 1 s) | plain Python {slow:.2f} s | "
            f"ratio {slow / fast:,.0f}x"
        )

    rules = CommissionFreeRules()
    game = game_model(rules)
    count = Count("Jacobson", "dragon7", JACOBSON, 0.0)
    simulate_counts(game, [count], 100)  # JIT
    cpu_before = _cpu()
    run = simulate_counts(
        game, [count], args.shoes, seed=1, workers=args.workers
    )
    cpu = _cpu() - cpu_before
    fast_rate = run.shoes / run.seconds
    started = time.perf_counter()
    python_counts(rules, args.baseline_shoes, 1)
    slow = time.perf_counter() - started
    slow_rate = args.baseline_shoes / slow
    print(
        f"count simulation: {run.shoes:,} shoes on {args.workers} "
        f"processes in {run.seconds:.1f} s (target < 60 s), "
        f"{fast_rate:,.0f} shoes/s | plain Python (one core) "
        f"{slow_rate:,.0f} shoes/s | ratio {fast_rate / slow_rate:,.0f}x "
        f"({fast_rate / slow_rate / args.workers:,.0f}x per core)"
    )
    print(
        f"  CPU: {cpu:.1f} s for {run.shoes:,} shoes "
        f"({run.shoes / cpu:,.0f} shoes per CPU-second): "
        f"{cpu / args.workers:.1f} s on {args.workers} dedicated cores; "
        f"the wall time above depends on what else the machine runs"
    )


if __name__ == "__main__":
    main()
