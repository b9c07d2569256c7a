"""Benchmark: Double Back Jack exact analysis and simulation.

Prints, for the default rules (D1-D8):

* the exact strategy + house edge solve time (compilation reported
  separately; kernels are cached on disk after the first run);
* simulated rounds per second of the numba kernel (one process, wall
  clock and CPU time), playing the analyzer's full strategy through real
  shoes;
* the plain-Python baseline: the very same kernel source run with
  ``NUMBA_DISABLE_JIT=1`` in a child process (same rules, same strategy
  tables, same shoes), and the ratio.

Usage: ``.venv/bin/python bench/bench_double_back_jack.py [ROUNDS]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.odds.double_back_jack import analysis, simulation
from croupier.odds.double_back_jack.kernels import (
    CODE_VALUES,
    simulate_shoes,
)

BASELINE_ROUNDS = 20_000
"""Rounds played by the plain-Python baseline."""


def _play(tables: dict[str, np.ndarray], rounds: int, seed: int) -> int:
    """Run the shoe kernel on saved tables; return the summed net."""
    rng = np.random.default_rng(seed)
    sums = np.zeros(3, dtype=np.int64)
    counts = np.zeros(128, dtype=np.int64)
    nets = np.zeros(128, dtype=np.int64)
    failed = simulate_shoes(
        rng,
        rounds,
        np.tile(CODE_VALUES, int(tables["decks"])),
        int(tables["cut"]),
        simulation.UNIT,
        tables["ipar"],
        tables["fd"],
        tables["ins"],
        tables["hs"],
        tables["spd"],
        tables["scd"],
        sums,
        counts,
        nets,
    )
    if failed:
        raise SystemExit("shoe exhausted")
    return int(sums[1])


def _child(path: str, rounds: int) -> None:
    tables = dict(np.load(path))
    started = time.process_time()
    _play(tables, rounds, 1)
    print(time.process_time() - started)


def main() -> None:
    """Run the benchmark and print its figures."""
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], int(sys.argv[3]))
        return
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    rules = DoubleBackJackRules()

    started = time.perf_counter()
    analysis.solve(rules)
    first = time.perf_counter() - started
    analysis.solve.cache_clear()
    started = time.perf_counter()
    solution = analysis.solve(rules)
    solve_wall = time.perf_counter() - started
    report = analysis.analyze(rules)
    edge = report.wagers["blackjack"].house_edge
    print(
        f"exact: house edge {100 * edge:.4f} %"
        f"; solve {solution.seconds:.3f} s, whole analysis {solve_wall:.3f} s"
        f" (first call incl. compile/cache load {first:.2f} s)"
    )

    started = time.perf_counter()
    simulation.warm_up(rules)
    print(
        f"simulator warm-up (compile or cache load): "
        f"{time.perf_counter() - started:.2f} s"
    )
    tables = {
        "decks": np.array(rules.decks),
        "cut": np.array(simulation.cover_position(rules)),
        "ipar": simulation.integer_parameters(rules),
        "fd": solution.fd,
        "ins": solution.ins,
        "hs": solution.hs,
        "spd": solution.spd,
        "scd": solution.scd,
    }
    wall = time.perf_counter()
    cpu = time.process_time()
    _play(tables, rounds, 1)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    fast = rounds / cpu
    print(
        f"numba: {rounds:,} rounds in {wall:.2f} s wall / {cpu:.2f} s CPU: "
        f"{rounds / wall:,.0f} rounds/s wall, {fast:,.0f} rounds/s per "
        "core (CPU)"
    )

    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "tables.npz")
        np.savez(path, **tables)  # type: ignore[arg-type]
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        done = subprocess.run(  # noqa: S603
            [sys.executable, __file__, "--child", path, str(BASELINE_ROUNDS)],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
    seconds = float(done.stdout.strip().splitlines()[-1])
    slow = BASELINE_ROUNDS / seconds
    print(
        f"plain Python (same kernel source, NUMBA_DISABLE_JIT=1): "
        f"{BASELINE_ROUNDS:,} rounds in {seconds:.2f} s CPU: "
        f"{slow:,.0f} rounds/s"
    )
    print(f"ratio numba / plain Python: {fast / slow:,.0f}x")


if __name__ == "__main__":
    main()
