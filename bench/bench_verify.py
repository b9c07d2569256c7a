"""``croupier verify`` throughput: rounds per second on one core.

Deals seeded rounds of every game (as a live table would, shuffles and
cover cards included), writes them as CHH lines, then times, in the same
run: the baseline, the engine replaying each round's inputs
(:func:`croupier.history.replay`, what ``croupier replay`` does), and
the verifier (parse + schema + replay + step-by-step comparison).

    .venv/bin/python bench/bench_verify.py --rounds 2000
"""

from __future__ import annotations

import argparse
import time

from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.history import replay
from croupier.registry import all_games
from croupier.verify import verify_lines, verify_round


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    for spec in all_games():
        histories = list(sample_histories(spec.name, args.rounds, seed=5))
        lines = [h.dumps() for h in histories]
        records = [h.to_record() for h in histories]
        start = time.perf_counter()
        for record in records:
            replay(record)
        base = len(records) / (time.perf_counter() - start)
        start = time.perf_counter()
        parsed = [HandHistory.loads(line) for line in lines]
        loaded = len(lines) / (time.perf_counter() - start)
        start = time.perf_counter()
        bad = sum(verify_round(h) is not None for h in parsed)
        checked = len(parsed) / (time.perf_counter() - start)
        # the whole file end to end, as `croupier verify` reads it
        # (a fresh sample, so that no cache is warm from the runs above)
        fresh = [
            h.dumps() for h in sample_histories(spec.name, args.rounds, seed=6)
        ]
        start = time.perf_counter()
        report = verify_lines(fresh)
        both = len(fresh) / (time.perf_counter() - start)
        bad += report.rounds - report.conforming
        print(
            f"{spec.name}: replay baseline {base:,.0f} rounds/s; "
            f"parse+schema {loaded:,.0f}/s; verify {checked:,.0f}/s "
            f"({checked / base:.2f}x the replay); whole file {both:,.0f}/s "
            f"({both / base:.2f}x); "
            f"deviations {bad}"
        )


if __name__ == "__main__":
    main()
