"""Midibaccarat benchmarks: exact analysis time, simulation rounds/s.

Run: ``.venv/bin/python bench/bench_baccarat.py [--rounds N]``.

The simulation runs on one core through the registered chunk runner
(compiled kernels); a plain-Python baseline of the same rules (real
shoes: Fisher–Yates, the 629a.5 cut, second cover card 14 cards from
the bottom, the face-value burn; every wager's net summed as integers)
runs in the same process, and the ratio is printed.
"""

from __future__ import annotations

import argparse
import random
import time

from croupier.games.midibaccarat import CommissionFreeRules, MidibaccaratRules
from croupier.games.midibaccarat.rules import BaccaratRules
from croupier.hands.baccarat import (
    BANKER_DRAWS_AFTER_PLAYER_THIRD,
    BANKER_DRAWS_PLAYER_STOOD,
    PLAYER_DRAWS,
)
from croupier.odds.baccarat.model import (
    analyze,
    cell_event,
    pair_event,
    stake_unit,
    wagers_of,
)
from croupier.odds.baccarat.simulation import run_chunk, warm_up
from croupier.odds.report import WagerReport
from croupier.procedures.ch629a import CUT_MARGIN

PP = ("perfect_pairs_player", "perfect_pairs_banker")


def _point(code: int) -> int:
    rank = code // 4 + 2
    return 1 if rank == 14 else (0 if rank >= 10 else rank)


def _pair(a: int, b: int) -> int:
    if a // 4 != b // 4:
        return 0
    if a == b:
        return 1
    return 2 if (a % 4 in (1, 2)) == (b % 4 in (1, 2)) else 3


def python_baseline(rules: BaccaratRules, rounds: int, seed: int) -> float:
    """Plain-Python simulation of the same rules; returns rounds/s."""
    rng = random.Random(seed)
    unit = stake_unit(rules)
    names = [str(w) for w in wagers_of(rules)]
    main = [w for w in wagers_of(rules) if str(w) not in PP]
    cell_nets = {
        (pc, bc, dp, db): [
            int(cell_event(rules, w, (pc, bc, dp, db)).net * unit)
            for w in main
        ]
        for pc in range(10)
        for bc in range(10)
        for dp in range(2)
        for db in range(2)
    }
    pair_nets = [int(pair_event(rules, k).net * unit) for k in range(4)]
    with_pp = rules.perfect_pairs_offered
    totals = dict.fromkeys(names, 0)
    squares = dict.fromkeys(names, 0)
    player = [c == "D" for c in PLAYER_DRAWS]
    stood = [c == "D" for c in BANKER_DRAWS_PLAYER_STOOD]
    after = [
        [c == "D" for c in BANKER_DRAWS_AFTER_PLAYER_THIRD[r]]
        for r in range(8)
    ]
    shoe = [c for _ in range(rules.decks) for c in range(52)]
    size = len(shoe)
    cover = size - rules.second_cover_from_bottom
    started = time.perf_counter()
    done = 0
    while done < rounds:
        rng.shuffle(shoe)
        moved = CUT_MARGIN + rng.randrange(size - 2 * CUT_MARGIN + 1)
        shoe = shoe[moved:] + shoe[:moved]
        rank = shoe[0] // 4 + 2
        pos = 1 + (1 if rank == 14 else min(rank, 10))
        while done < rounds:
            p1, b1, p2, b2 = shoe[pos : pos + 4]
            pc = (_point(p1) + _point(p2)) % 10
            bc = (_point(b1) + _point(b2)) % 10
            used, dp, db = 4, 0, 0
            if pc < 8 and bc < 8:
                if player[pc]:
                    third = _point(shoe[pos + 4])
                    pc, used, dp = (pc + third) % 10, 5, 1
                    draws = after[bc][third]
                else:
                    draws = stood[bc]
                if draws:
                    bc = (bc + _point(shoe[pos + used])) % 10
                    used, db = used + 1, 1
            for wager, net in zip(
                main, cell_nets[pc, bc, dp, db], strict=True
            ):
                totals[wager] += net
                squares[wager] += net * net
            if with_pp:
                for name, kind in zip(
                    PP, (_pair(p1, p2), _pair(b1, b2)), strict=True
                ):
                    net = pair_nets[kind]
                    totals[name] += net
                    squares[name] += net * net
            pos += used
            done += 1
            if pos > cover:
                break
    return rounds / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20_000_000)
    parser.add_argument("--baseline-rounds", type=int, default=200_000)
    args = parser.parse_args()
    for rules in (MidibaccaratRules(), CommissionFreeRules()):
        name = (
            "midibaccarat"
            if isinstance(rules, MidibaccaratRules)
            else ("midibaccarat-commission-free")
        )
        report = analyze(rules)
        best = min(analyze(rules).seconds for _ in range(5))
        print(
            f"{name} exact ({rules.decks} decks): {best:.4f} s "
            f"(best of 5; kernel load/compile {report.compile_seconds:.2f} s)"
        )
        started = time.perf_counter()
        warm_up(rules)
        compile_s = time.perf_counter() - started
        started = time.perf_counter()
        sums = run_chunk(rules, args.rounds, 2024, (0,))
        rate = args.rounds / (time.perf_counter() - started)
        base = python_baseline(rules, args.baseline_rounds, 2024)
        banker = WagerReport.simulated(sums["banker"])
        print(
            f"{name} simulation: {rate:,.0f} rounds/s on one core "
            f"({args.rounds:,} rounds; warm-up {compile_s:.2f} s; banker "
            f"edge {100 * banker.house_edge:.4f} %)"
        )
        print(
            f"{name} plain-Python baseline: {base:,.0f} rounds/s "
            f"({args.baseline_rounds:,} rounds); ratio {rate / base:,.0f}x"
        )


if __name__ == "__main__":
    main()
