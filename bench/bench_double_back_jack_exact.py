"""Benchmark: the exact CDZ- analyzer of Double Back Jack (issue 14).

Prints, on one core, after compilation (the kernels are cached on
disk):

* the exact CDZ- solve of the Double Back Jack defaults at 6 and 1
  decks and of ordinary blackjack at 6 decks (best of ``REPEAT``, CPU
  time of this process);
* the exact TD solve (the optimal total-dependent strategy, which
  includes a CDZ- solve for the comparison) of the same rules;
* the plain-Python baseline of the *same algorithm*: the very same
  kernel source run with ``NUMBA_DISABLE_JIT=1`` in a child process.
  A whole solve takes far too long in plain Python, so the baseline
  times one hand pass (every hand composition against the 10 up card,
  one deck, Double Back Jack rules, from an empty dealer cache: the
  pass fills it, every hand's dealer law and every bust's, as the
  solve's first pass per up card does) in both modes, and reports the
  ratio; the whole-solve figure of the baseline is extrapolated from
  that ratio.

Usage: ``.venv/bin/python bench/bench_double_back_jack_exact.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

REPEAT = 3
"""Timed runs of each numba solve (the best is kept)."""

_ONE_HAND_RUN = """
import json, time
from croupier.odds.double_back_jack.ca import composition
from croupier.odds.double_back_jack.passes import run_pass
from croupier.odds.double_back_jack.carules import CARules
rules = CARules(decks=1)
shoe = composition(1)
shoe[10] -= 1
run_pass(rules, shoe, 10, 0)
best = 1e9
for _ in range({repeat}):
    t = time.perf_counter()
    run_pass(rules, shoe, 10, 0)
    best = min(best, time.perf_counter() - t)
print(json.dumps(best))
"""


def _pass_seconds(jit: bool, repeat: int) -> float:
    env = dict(os.environ)
    if not jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    out = subprocess.run(  # noqa: S603
        [sys.executable, "-c", _ONE_HAND_RUN.format(repeat=repeat)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    """Run the benchmark and print its table."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    from croupier.odds.double_back_jack.ca import composition, solve_ca
    from croupier.odds.double_back_jack.carules import CARules
    from croupier.odds.double_back_jack.td import solve_td

    started = time.perf_counter()
    solve_ca(CARules(decks=1))
    compile_seconds = time.perf_counter() - started
    rows = []
    td_rows = []
    for label, rules in (
        ("Double Back Jack, 6 decks", CARules(decks=6)),
        ("Double Back Jack, 1 deck", CARules(decks=1)),
        ("ordinary blackjack, 6 decks", CARules.ordinary(decks=6)),
    ):
        best = 1e9
        edge = 0.0
        for _ in range(REPEAT):
            # an explicit shoe: ``solve_ca`` memoises full shoes, so
            # solve_ca(rules) would time the first run REPEAT times
            started = time.process_time()
            result = solve_ca(rules, composition(rules.decks))
            best = min(best, time.process_time() - started)
            edge = result.edge
        rows.append((label, best, edge))
        started = time.process_time()
        td = solve_td(rules, composition(rules.decks))
        td_rows.append((label, time.process_time() - started, td.edge))
    jit = _pass_seconds(True, 5)
    plain = _pass_seconds(False, 1)
    ratio = plain / jit
    print(f"compile or load of the kernels: {compile_seconds:.2f} s")
    print(f"{'exact CDZ- solve':34} {'seconds':>8} {'edge %':>10}")
    for label, seconds, edge in rows:
        print(f"{label:34} {seconds:8.3f} {100 * edge:10.5f}")
    print(f"{'exact TD solve (incl. CDZ-)':34} {'seconds':>8} {'edge %':>10}")
    for label, seconds, edge in td_rows:
        print(f"{label:34} {seconds:8.3f} {100 * edge:10.5f}")
    print(f"load average: {os.getloadavg()[0]:.1f}")
    print(
        "same kernel, one hand pass (up 10, 1 deck): numba "
        f"{jit * 1000:.1f} ms, plain Python {plain:.2f} s, "
        f"ratio {ratio:.0f}x"
    )
    print(
        "plain-Python whole solve, extrapolated: "
        + ", ".join(f"{label} ≈ {s * ratio:.0f} s" for label, s, _ in rows)
    )


if __name__ == "__main__":
    main()
