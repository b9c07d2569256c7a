"""``croupier verify`` throughput: rounds per second on one core.

Deals seeded rounds of every game (as a live table would, shuffles and
cover cards included), writes them as CHH lines, then times, in the same
run: the baseline, the engine replaying each round's inputs
(:func:`croupier.history.replay`, what ``croupier replay`` does), and
the verifier (parse + schema + replay + step-by-step comparison).

Times are this process's CPU time (:func:`time.process_time`), so that
rounds/s means rounds per second of one core even when other work
shares the machine; the ratios compare runs of the same process. The
whole file is timed first, on a fresh sample with nothing else held in
memory (as ``croupier verify`` runs): thousands of parsed rounds kept
alive from the other timings would make every garbage collection
during it walk them. It is verified ``--best-of`` times (3) and the
fastest run is reported: on a shared machine one run's CPU seconds
stretch with the neighbours' load (by a third from run to run, here),
and the fastest is the nearest to the code's own cost (as
:mod:`timeit` advises; ``bench_verify_instructions.py`` counts
instructions, which do not move at all). For the other timings the
lists the bench holds are frozen (:func:`gc.freeze`) out of the
collector's walks. The 1-minute load average is printed: on a busy
machine CPU seconds stretch too (shared caches), so compare ratios.
The whole file is then verified as dealt, the same rounds with their
stacks withheld, as ``croupier history export`` writes a shoe still in
play (D188): the verifier rebuilds each round's shoe from its cards and
its discard rack. Each game's steps per round are printed with the
whole file's steps per CPU-second: the games' rounds differ in length
(a pai gow round has some 90 steps, a Double Back Jack round some 35).
Last, the whole file ``--repeat`` times over with ``--workers``
processes (``croupier verify --workers``), in wall seconds against one
process's wall seconds on the same lines in the same run: processes'
CPU time is not this one's, and starting them costs about 0.1 s
whatever the file.
(The file over again repeats its round ids and shoes, so those two
timings leave out the checks across rounds, D64; the whole file's
figure includes them.)

    .venv/bin/python bench/bench_verify.py --rounds 2000
"""

from __future__ import annotations

import argparse
import gc
import os
import time

from croupier.hhf import HandHistory
from croupier.hhf.export import sealed
from croupier.hhf.format import loads_deferring_steps
from croupier.hhf.sample import sample_histories
from croupier.history import replay
from croupier.registry import all_games
from croupier.verify import verify_lines, verify_round

_clock = time.process_time
"""One core's time: CPU seconds of this (single-threaded) process."""


def _fastest(lines: list[str], best_of: int) -> tuple[float, int]:
    """The whole file verified ``best_of`` times: the fastest rounds per
    CPU-second, and the most rounds found deviating."""
    fastest, bad = 0.0, 0
    for _ in range(best_of):
        gc.collect()
        start = _clock()
        report = verify_lines(lines)
        fastest = max(fastest, len(lines) / (_clock() - start))
        bad = max(bad, report.rounds - report.conforming)
        del report
    return fastest, bad


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument(
        "--workers", type=int, default=2, help="processes for the last figure"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="the file that many times over for the last figure",
    )
    parser.add_argument(
        "--best-of",
        type=int,
        default=3,
        help="the whole file verified that many times, the fastest taken",
    )
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    for spec in all_games():
        # the whole file end to end, as `croupier verify` reads it
        sample = list(sample_histories(spec.name, args.rounds, seed=6))
        fresh = [h.dumps() for h in sample]
        # the same rounds as a server exports a shoe still in play (D188)
        dealt = [sealed(h).dumps() for h in sample]
        # steps per round: rounds of more steps take longer to compare
        steps = sum(len(h.procedure) for h in sample) / len(sample)
        del sample
        both, bad = _fastest(fresh, args.best_of)
        as_dealt, bad_dealt = _fastest(dealt, args.best_of)
        bad += bad_dealt
        del dealt
        # the processes' figure on a bigger file (the lines again and
        # again): starting them costs a fixed 0.1 s or so
        # the same rounds again are the same round ids and shoes: the
        # checks across rounds are left out of both timings of it
        day = fresh * args.repeat
        gc.collect()
        start = time.perf_counter()
        verify_lines(day, across=False)
        alone = time.perf_counter() - start
        start = time.perf_counter()
        shared = verify_lines(day, workers=args.workers, across=False)
        wall = time.perf_counter() - start
        bad += shared.rounds - shared.conforming
        shared_rounds = shared.rounds
        del fresh, day, shared
        histories = list(sample_histories(spec.name, args.rounds, seed=5))
        lines = [h.dumps() for h in histories]
        records = [h.to_record() for h in histories]
        gc.collect()
        gc.freeze()
        start = _clock()
        for record in records:
            replay(record)
        base = len(records) / (_clock() - start)
        # the bench's own lists are frozen out of the collector's walks:
        # whether a full collection (which walks every object alive)
        # falls inside the short timing below is luck, and halved the
        # parse figure when it did
        gc.collect()
        gc.freeze()
        start = _clock()
        parsed = [HandHistory.loads(line) for line in lines]
        loaded = len(lines) / (_clock() - start)
        # as the verifier reads a line: the steps are held to the
        # engine's own text by the replay, not checked by the schema
        start = _clock()
        for line in lines:
            loads_deferring_steps(line)
        read = len(lines) / (_clock() - start)
        gc.collect()
        gc.freeze()
        start = _clock()
        bad += sum(verify_round(h) is not None for h in parsed)
        checked = len(parsed) / (_clock() - start)
        gc.unfreeze()
        print(
            f"{spec.name}: replay baseline {base:,.0f} rounds/CPU-s; "
            f"read as verify reads {read:,.0f}/s (with every step's "
            f"schema {loaded:,.0f}/s); verify {checked:,.0f}/s "
            f"({checked / base:.2f}x the replay); whole file {both:,.0f}/s "
            f"({both / base:.2f}x; {steps:.0f} steps a round, "
            f"{both * steps:,.0f} steps/CPU-s); as dealt {as_dealt:,.0f}/s "
            f"({as_dealt / base:.2f}x); {args.workers} processes "
            f"{shared_rounds / wall:,.0f}/wall-s ({alone / wall:.2f}x one "
            f"process's wall); deviations {bad}"
        )


if __name__ == "__main__":
    main()
