"""Benchmark: the exact CDZ- whole game with resplits (issue 14, D45).

For 1, 2, 6 and 8 decks, under the Double Back Jack defaults and under
ordinary blackjack (``CARules.ordinary``), prints the exact CDZ- house
edge and the CPU time of one whole solve (best of ``REPEAT``, this
process, after compilation) with ``max_split_hands`` 2 (the baseline,
one split), 3, 4, and 4 with ``resplit_aces``; the ratio is each solve's
time over the one-split solve of the same run.

Usage: ``.venv/bin/python bench/bench_double_back_jack_resplit.py``.
"""

from __future__ import annotations

import time
from dataclasses import replace

from croupier.odds.double_back_jack.ca import composition, solve_ca
from croupier.odds.double_back_jack.carules import CARules

REPEAT = 3
"""Timed runs of each solve (the best is kept)."""

SPLITS = ((2, False), (3, False), (4, False), (4, True))
"""(max_split_hands, resplit_aces) per column; the first is the
baseline."""


def _solve(rules: CARules) -> tuple[float, float]:
    """(edge, best CPU seconds) of one whole solve (shoe given: no memo)."""
    best = 1e9
    edge = 0.0
    for _ in range(REPEAT):
        start = time.process_time()
        edge = solve_ca(rules, composition(rules.decks)).edge
        best = min(best, time.process_time() - start)
    return edge, best


def main() -> None:
    """Print one line per game and deck count."""
    solve_ca(CARules(decks=1, max_split_hands=4), composition(1))
    for name, base in (
        ("Double Back Jack", CARules()),
        ("ordinary", CARules.ordinary()),
    ):
        for decks in (1, 2, 6, 8):
            cells = []
            first = 0.0
            for hands, rsa in SPLITS:
                rules = replace(
                    base,
                    decks=decks,
                    max_split_hands=hands,
                    resplit_aces=rsa,
                )
                edge, seconds = _solve(rules)
                first = first or seconds
                label = f"SPL{hands - 1}{' RSA' if rsa else ''}"
                cells.append(
                    f"{label} {100 * edge:.4f} % {seconds:.2f} s "
                    f"({seconds / first:.1f}x)"
                )
            print(f"{name}, {decks} deck(s): " + " | ".join(cells))


if __name__ == "__main__":
    main()
