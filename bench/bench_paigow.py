"""Bench: Six-Card Fortune Pai Gow Poker exact analysis and simulation.

Prints the exact Fortune Bonus enumeration time (JIT compile reported
separately), the simulator's rounds per second on one core (house way on
both sides, every side wager), the plain-Python baseline of the same
rounds (the engine's pure evaluators and payouts) in the same run, and
the ratio; then the same for the Double Down's rounds (D177: 300 dealer's
hands drawn to decide each), against the engine's house way and
comparison on the same draws. Rates are per CPU second of this process
(one core), so that other load on the machine does not distort them;
wall rates too.

    .venv/bin/python bench/bench_paigow.py [--rounds N] [--baseline N]
        [--double-down N] [--double-down-baseline N]
"""

from __future__ import annotations

import argparse
import time

from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.odds.paigow.baseline import double_down_python, run_python
from croupier.odds.paigow.double_down import (
    DOUBLE_DOWN_SAMPLES,
    double_down_figures,
)
from croupier.odds.paigow.exact import analyze
from croupier.odds.paigow.simulation import run_chunk, warm_up


def main() -> None:
    """Run the bench and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--baseline", type=int, default=300)
    parser.add_argument("--double-down", type=int, default=20_000)
    parser.add_argument("--double-down-baseline", type=int, default=5)
    args = parser.parse_args()
    # the Double Down offered (off by default, D182): the same analysis
    # and rounds as before, the Double Down's kernel timed too
    rules = SixCardRules(double_down_offered=True)

    report = analyze(rules)
    fortune = report.wagers["fortune_bonus"]
    print(
        f"exact Fortune Bonus over {report.extra['hands']:,} hands: "
        f"{report.seconds:.3f} s (table {report.extra['table_seconds']:.3f}"
        f" s, enumeration {report.extra['enumeration_seconds']:.3f} s; "
        f"compile {report.compile_seconds:.2f} s); house edge "
        f"{100 * fortune.house_edge:.4f} %"
    )

    started = time.perf_counter()
    warm_up(rules)
    compiled = time.perf_counter()
    cpu = time.process_time()
    sums = run_chunk(rules, args.rounds, 1, (0,))
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - compiled
    fast = args.rounds / cpu
    edge = -sums["pai_gow"].total / (sums["pai_gow"].count * 100)
    print(
        f"numba kernel: {args.rounds:,} rounds in {wall:.2f} s wall, "
        f"{cpu:.2f} s CPU = {fast:,.0f} rounds/s per core "
        f"({args.rounds / wall:,.0f}/s wall; warm-up "
        f"{compiled - started:.2f} s); pai_gow edge {100 * edge:.3f} %"
    )

    cpu = time.process_time()
    wall = time.perf_counter()
    run_python(rules, args.baseline, 1)
    slow = args.baseline / (time.process_time() - cpu)
    wall = time.perf_counter() - wall
    print(
        f"plain Python baseline: {args.baseline:,} rounds, {slow:,.1f} "
        f"rounds/s per core ({args.baseline / wall:,.1f}/s wall)"
    )
    print(f"ratio: {fast / slow:,.0f}x")

    double_down_figures(rules, 10)  # compiled outside the timing
    cpu = time.process_time()
    figures = double_down_figures(rules, args.double_down)
    fast = args.double_down / (time.process_time() - cpu)
    print(
        f"Double Down kernel: {args.double_down:,} rounds of "
        f"{DOUBLE_DOWN_SAMPLES} dealer's hands each, {fast:,.0f} rounds/s "
        f"per core; edge with the Double Down "
        f"{100 * figures.edge_with:.2f} %"
    )
    cpu = time.process_time()
    double_down_python(
        rules, args.double_down_baseline, DOUBLE_DOWN_SAMPLES, 1
    )
    slow = args.double_down_baseline / (time.process_time() - cpu)
    print(
        f"Double Down plain Python baseline: {args.double_down_baseline:,} "
        f"rounds, {slow:,.2f} rounds/s per core; ratio {fast / slow:,.0f}x"
    )


if __name__ == "__main__":
    main()
