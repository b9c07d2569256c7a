"""Simulation throughput on a Dask LocalCluster against one process.

Run: ``.venv/bin/python bench/bench_cluster.py [--game G] [--rounds N]
[--chunk C] [--repeat R]``.

The same seeded chunk plan runs in this process on one core
(``simulate(workers=1)``, the baseline), and through
``simulate(cluster=ADDRESS)`` on a LocalCluster of one worker and on one
of two workers, both started once up front. The three runs alternate
``--repeat`` times and each keeps its best rate, so that a burst of load
from elsewhere on the machine does not land on one configuration only.
Rates count the chunk running (kernel warm-up and connecting are shown
apart); all results must be identical, and the script says whether they
are.
"""

from __future__ import annotations

import argparse
import time
from contextlib import ExitStack

from rich.console import Console
from rich.table import Table

from croupier.odds.cluster import connect
from croupier.odds.registry import find_simulator
from croupier.odds.report import GameReport
from croupier.odds.simulate import simulate
from croupier.registry import find_game

SEED = 2024
RUNS = (
    ("in-process, 1 core (baseline)", 0),
    ("LocalCluster, 1 worker", 1),
    ("LocalCluster, 2 workers", 2),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="midibaccarat")
    parser.add_argument("--rounds", type=int, default=40_000_000)
    parser.add_argument("--chunk", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    spec = find_game(args.game)
    simulator = find_simulator(spec.name)
    if simulator is None:
        parser.error(f"no simulator for {spec.name}")
    rules = spec.rules_type()
    best: dict[str, tuple[GameReport, float]] = {}
    with ExitStack() as stack:
        started = time.perf_counter()
        addresses: dict[int, str | None] = {0: None}
        for workers in (1, 2):
            client = stack.enter_context(connect("local", workers))
            addresses[workers] = client.scheduler_info()["address"]
        start_s = time.perf_counter() - started
        for _ in range(args.repeat):
            for label, workers in RUNS:
                began = time.perf_counter()
                report = simulate(
                    spec.name,
                    simulator,
                    rules,
                    rounds=args.rounds,
                    seed=SEED,
                    chunk_rounds=args.chunk,
                    cluster=addresses[workers],
                )
                wall = time.perf_counter() - began
                if (
                    label not in best
                    or report.seconds < best[label][0].seconds
                ):
                    best[label] = (report, wall - report.seconds)
    base = best[RUNS[0][0]][0]
    table = Table(
        title=(
            f"{spec.name}: {args.rounds:,} rounds in chunks of "
            f"{args.chunk:,} (seed {SEED}), best of {args.repeat}"
        )
    )
    for column in ("run", "rounds/s", "vs baseline", "run s", "set-up s"):
        table.add_column(
            column, justify="left" if column == "run" else "right"
        )
    for label, (report, setup) in best.items():
        table.add_row(
            label,
            f"{args.rounds / report.seconds:,.0f}",
            f"{base.seconds / report.seconds:.2f}x",
            f"{report.seconds:.2f}",
            f"{setup:.2f}",
        )
    console = Console()
    console.print(table)
    one, two = best[RUNS[1][0]][0], best[RUNS[2][0]][0]
    same = all(report.wagers == base.wagers for report, _ in best.values())
    console.print(
        f"scaling, 2 workers / 1 worker: {one.seconds / two.seconds:.2f}x; "
        f"identical sums in every run: {'yes' if same else 'NO'}; "
        f"starting both clusters took {start_s:.2f} s"
    )


if __name__ == "__main__":
    main()
