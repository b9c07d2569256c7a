"""The § 810a.5 battery's calibration: its size on good shuffles, its power.

Size. ``--runs`` independent sets of ``--shuffles`` uniform shuffles of
each game's fresh shoe (Python's ``random.Random(seed).shuffle``, a
seed a run), written one a line in card notation to a file and read back
by :func:`croupier.rngtest.sources.read_shuffle_file`, the path of
``croupier rng-test --source FILE``; the battery's own seed is the run's
number. For each test: the runs, how many had a p-value under 0.05, that
rate with its 95 % Clopper-Pearson interval, the Kolmogorov-Smirnov
distance of the p-values from U(0, 1) (with its p-value; a discrete
statistic's p-values are lumpy, and the largest cell's, a Bonferroni
minimum, sit near 1 by design), and how many failed after Holm; then the
battery's verdict: how often it failed a good source (at most 5 % is
its promise). ``--source live`` draws the shuffles from croupier's live
procedure (``SeededRng``) instead.

Many shoes. ``--poisson-shoes N ...`` runs the Poisson test alone on
``--runs`` sets of N uniform shoes (numpy's permutations; only the count
of cards left in place is kept, so a million shoes take seconds): the
card tests whose reference law is off by a fixed amount a shoe show it
only when the shoes are many (D108).

Power. ``--power`` runs the battery ``--runs`` times on each known-bad
shuffler of :data:`croupier.rngtest.BAD_SHUFFLERS` and on subtler ones
defined here (fewer riffles than enough, one card drawn to the top 1 %
of the time, Fisher-Yates off by one (Sattolo's cycles), Fisher-Yates on
one random byte a draw (modulo bias), a shuffle replayed 5 % of the
time), and prints how often each fails and by which test most often.

    .venv/bin/python bench/bench_rngtest_calibration.py
    nice -n 10 .venv/bin/python bench/bench_rngtest_calibration.py \\
        --runs 1000 --shuffles 1000
    .venv/bin/python bench/bench_rngtest_calibration.py --runs 1000 \\
        --games double-back-jack --poisson-shoes 20000 100000
    .venv/bin/python bench/bench_rngtest_calibration.py --runs 40 --power
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
from scipy import stats

from croupier.cards import CARD_TEXTS, Card
from croupier.registry import find_game
from croupier.rngtest import (
    ALPHA,
    BAD_SHUFFLERS,
    Battery,
    bad_shuffles,
    fresh_shoe,
    live_shuffles,
    run_battery,
)
from croupier.rngtest.card_tests import CardTests
from croupier.rngtest.sources import _riffle, read_shuffle_file

Codes = npt.NDArray[np.int64]
Shuffler = Callable[[Codes, np.random.Generator], Codes]

GAMES = "six-card-fortune-pai-gow,double-back-jack"


def _interval(hits: int, runs: int) -> tuple[float, float]:
    """The 95 % Clopper-Pearson interval of a rate of ``hits`` in ``runs``."""
    ci = stats.binomtest(hits, runs).proportion_ci(confidence_level=0.95)
    return float(ci.low), float(ci.high)


def _file_runs(
    original: Codes, shuffles: int, runs: int, seed: str, folder: Path
) -> Iterator[Battery]:
    """The battery on ``runs`` files of uniform shuffles, read as a lab's."""
    deck = original.tolist()
    path = folder / "shuffles.txt"
    for run in range(runs):
        rng = random.Random(f"{seed}:{run}")
        with path.open("w", encoding="utf-8") as out:
            for _ in range(shuffles):
                rng.shuffle(deck)
                out.write(" ".join(CARD_TEXTS[c] for c in deck) + "\n")
        yield run_battery(
            read_shuffle_file(path, original), original, seed=run
        )


def _live_runs(game: str, shuffles: int, runs: int) -> Iterator[Battery]:
    """The battery on ``runs`` sets of croupier's live shuffles (seeded)."""
    spec = find_game(game)
    rules = spec.rules_type()
    original = fresh_shoe(spec, rules)
    for run in range(runs):
        drawn = live_shuffles(spec, rules, shuffles, seed=10_000 + run)
        yield run_battery(drawn, original, seed=run)


def size(game: str, shuffles: int, runs: int, source: str) -> None:
    """Print each test's rate of rejecting good shuffles, and the verdict's."""
    spec = find_game(game)
    original = fresh_shoe(spec, spec.rules_type())
    start = time.process_time()
    p_values: list[list[float]] = []
    holm_failed: list[list[bool]] = []
    names: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        batteries = (
            _file_runs(original, shuffles, runs, game, Path(folder))
            if source == "file"
            else _live_runs(game, shuffles, runs)
        )
        for battery in batteries:
            names = [r.name for r in battery.results]
            p_values.append([r.p_value for r in battery.results])
            holm_failed.append([not r.passed for r in battery.results])
    seconds = time.process_time() - start
    p = np.array(p_values)
    held = np.array(holm_failed)
    print(
        f"\n{game}: {runs} runs of {shuffles} uniform shuffles of "
        f"{len(original)} cards ({source}), {seconds:.0f} CPU-s"
    )
    print(
        f"{'test':38} {'runs':>5} {'p<.05':>6} {'rate':>6} "
        f"{'95 % CI':>15} {'KS D':>6} {'KS p':>8} {'Holm':>5}"
    )
    for j, name in enumerate(names):
        hits = int((p[:, j] < ALPHA).sum())
        low, high = _interval(hits, runs)
        ks = stats.kstest(p[:, j], "uniform")
        flag = "  <- above 5 %" if low > ALPHA else ""
        print(
            f"{name:38} {runs:5d} {hits:6d} {hits / runs:6.3f} "
            f"[{low:.3f}, {high:.3f}] {ks.statistic:6.3f} "
            f"{ks.pvalue:8.2g} {int(held[:, j].sum()):5d}{flag}"
        )
    failed = int(held.any(axis=1).sum())
    low, high = _interval(failed, runs)
    print(
        f"{'battery (any test after Holm)':38} {runs:5d} {failed:6d} "
        f"{failed / runs:6.3f} [{low:.3f}, {high:.3f}]"
    )


def poisson_alone(game: str, shoes: int, runs: int) -> None:
    """The Poisson test's rate of rejection of ``runs`` sets of ``shoes``."""
    spec = find_game(game)
    original = fresh_shoe(spec, spec.rules_type())
    n = len(original)
    start = time.process_time()
    p_values = []
    for run in range(runs):
        gen = np.random.default_rng([31, shoes, run])
        fixed = np.zeros(n + 1, dtype=np.int64)
        for first in range(0, shoes, 5000):
            block = gen.permuted(
                np.broadcast_to(original, (min(5000, shoes - first), n)),
                axis=1,
            )
            kept = (block == original).sum(axis=1)
            fixed += np.bincount(kept, minlength=n + 1)
        # only the Poisson test's counts: the shoes themselves are not kept
        p_values.append(CardTests(original).poisson_of(fixed).p_value)
    p = np.array(p_values)
    hits = int((p < ALPHA).sum())
    low, high = _interval(hits, runs)
    holm_level = int((p < ALPHA / 18).sum())
    print(
        f"{game}, Poisson alone, {runs} runs of {shoes} shoes: p < 0.05 "
        f"{hits} ({hits / runs:.3f} [{low:.3f}, {high:.3f}]), "
        f"p < 0.05/18 (fails the battery whatever the rest) {holm_level}; "
        f"KS D {stats.kstest(p, 'uniform').statistic:.3f} "
        f"({time.process_time() - start:.0f} CPU-s)"
    )


# -- subtler bad shufflers (the bench's own, not croupier's sources) --------


def _riffles(count: int) -> Shuffler:
    def shuffle(order: Codes, gen: np.random.Generator) -> Codes:
        cards = order.copy()
        for _ in range(count):
            cards = _riffle(cards, gen)
        return cards

    return shuffle


def _sticky_ace(order: Codes, gen: np.random.Generator) -> Codes:
    """Uniform, but the As moved to the top 1 % of the time."""
    cards = gen.permutation(order)
    if gen.random() < 0.01:
        ace = Card.parse("As").code
        at = int(np.flatnonzero(cards == ace)[0])
        cards = np.concatenate([[ace], np.delete(cards, at)])
    return cards


def _sattolo(order: Codes, gen: np.random.Generator) -> Codes:
    """Fisher-Yates with the swap drawn below ``i``, never ``i`` itself."""
    cards = order.copy()
    for i in range(len(cards) - 1, 0, -1):
        j = int(gen.integers(i))
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _modulo_byte(order: Codes, gen: np.random.Generator) -> Codes:
    """Fisher-Yates drawing ``byte % (i + 1)``: small places favoured."""
    cards = order.copy()
    for i in range(len(cards) - 1, 0, -1):
        j = int(gen.integers(256)) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


class _Replaying:
    """Uniform, but the last shuffle given again 5 % of the time."""

    def __init__(self) -> None:
        self.last: Codes | None = None

    def __call__(self, order: Codes, gen: np.random.Generator) -> Codes:
        if self.last is None or gen.random() >= 0.05:
            self.last = gen.permutation(order)
        return self.last


SUBTLE: dict[str, Callable[[], Shuffler]] = {
    "riffle-4": lambda: _riffles(4),
    "riffle-5": lambda: _riffles(5),
    "riffle-7": lambda: _riffles(7),
    "sticky-ace-1%": lambda: _sticky_ace,
    "sattolo": lambda: _sattolo,
    "modulo-byte": lambda: _modulo_byte,
    "replay-5%": _Replaying,
}


def power(game: str, shuffles: int, runs: int) -> None:
    """How often the battery fails each bad shuffler, and by which test."""
    spec = find_game(game)
    original = fresh_shoe(spec, spec.rules_type())
    print(
        f"\n{game}: power, {runs} runs of {shuffles} shuffles of "
        f"{len(original)} cards"
    )
    print(f"{'shuffler':18} {'failed':>6} {'rate':>6} {'95 % CI':>15}  most")
    for name in [*BAD_SHUFFLERS, *SUBTLE]:
        start = time.process_time()
        failed = 0
        by_test: Counter[str] = Counter()
        for run in range(runs):
            if name in BAD_SHUFFLERS:
                drawn: Iterator[Codes] = bad_shuffles(
                    name, original, shuffles, seed=run
                )
            else:
                gen = np.random.default_rng([7, run])
                shuffle = SUBTLE[name]()
                drawn = (shuffle(original, gen) for _ in range(shuffles))
            battery = run_battery(drawn, original, seed=run)
            failed += not battery.passed
            by_test.update(r.name for r in battery.results if not r.passed)
        low, high = _interval(failed, runs)
        most = ", ".join(f"{t} {k}" for t, k in by_test.most_common(2))
        print(
            f"{name:18} {failed:6d} {failed / runs:6.3f} "
            f"[{low:.3f}, {high:.3f}]  {most or '-'} "
            f"({time.process_time() - start:.0f} CPU-s)"
        )


def main() -> None:
    """Run the studies the arguments ask for (by default: size, 20 runs)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default=GAMES)
    parser.add_argument("--shuffles", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--source", choices=["file", "live"], default="file")
    parser.add_argument("--poisson-shoes", type=int, nargs="*", default=[])
    parser.add_argument("--power", action="store_true")
    args = parser.parse_args()
    for game in args.games.split(","):
        if args.poisson_shoes:
            for shoes in args.poisson_shoes:
                poisson_alone(game, shoes, args.runs)
        elif args.power:
            power(game, args.shuffles, args.runs)
        else:
            size(game, args.shuffles, args.runs, args.source)


if __name__ == "__main__":
    main()
