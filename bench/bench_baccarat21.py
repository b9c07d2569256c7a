"""21 Baccarat benchmarks: exact analysis time, simulation rounds/s.

Run: ``.venv/bin/python bench/bench_baccarat21.py [--rounds N]``.

The simulation runs on one core through the registered chunk runner
(compiled kernels, Bonus Wagers on the layout); a plain-Python baseline
of the same rules (real shoes: Fisher–Yates, cover card at the
penetration, one card burned, Bonus-only cards after a natural; every
wager's net summed as integers) runs in the same process, and the ratio
is printed.
"""

from __future__ import annotations

import argparse
import random
import time

from croupier.games.baccarat21 import Baccarat21Rules
from croupier.hands.bonus21 import CATEGORY_ORDER
from croupier.odds.baccarat21.model import (
    MAIN_WAGERS,
    analyze,
    bonus_event,
    main_event,
    stake_unit,
)
from croupier.odds.baccarat21.simulation import (
    cover_position,
    run_chunk,
    warm_up,
)
from croupier.odds.report import WagerReport

_BIT = {category: 1 << i for i, category in enumerate(CATEGORY_ORDER)}


def _value(code: int) -> int:
    rank = code // 4 + 2
    return 1 if rank == 14 else min(rank, 10)


def _total(cards: list[int]) -> int:
    hard = sum(_value(c) for c in cards)
    ace = any(_value(c) == 1 for c in cards)
    return hard + 10 if ace and hard + 10 <= 21 else hard


def _mask(cards: list[int]) -> int:
    ranks = [c // 4 for c in cards]
    mask = _BIT[CATEGORY_ORDER[5]] if len(set(ranks)) < len(ranks) else 0
    if len(cards) == 3:
        if len({c % 4 for c in cards}) == 1:
            mask |= _BIT[CATEGORY_ORDER[4]]
        if len(set(ranks)) == 1:
            mask |= _BIT[CATEGORY_ORDER[2]]
            if len(set(cards)) == 1:
                mask |= _BIT[CATEGORY_ORDER[0]]
        elif len(set(ranks)) == 3:
            low, high = min(ranks), max(ranks)
            if high - low == 2 or sorted(ranks) == [0, 1, 12]:
                mask |= _BIT[CATEGORY_ORDER[3]]
                if mask & _BIT[CATEGORY_ORDER[4]]:
                    mask |= _BIT[CATEGORY_ORDER[1]]
    return mask


def python_baseline(rules: Baccarat21Rules, rounds: int, seed: int) -> float:
    """Plain-Python simulation of the same rules; returns rounds/s."""
    rng = random.Random(seed)
    unit = stake_unit(rules)
    main = [str(w) for w in MAIN_WAGERS]
    main_nets = {
        (p, b): [
            int(main_event(rules, w, p, b).net * unit) for w in MAIN_WAGERS
        ]
        for p in range(32)
        for b in range(32)
    }
    bonus_nets = [int(bonus_event(rules, m).net * unit) for m in range(64)]
    names = [*main, "bonus_player", "bonus_banker"]
    totals = dict.fromkeys(names, 0)
    squares = dict.fromkeys(names, 0)
    shoe = [c for _ in range(rules.decks) for c in range(52)]
    cover = cover_position(rules)
    started = time.perf_counter()
    done = 0
    while done < rounds:
        rng.shuffle(shoe)
        pos = 1  # (c) burn
        while done < rounds:
            player = [shoe[pos], shoe[pos + 2]]
            banker = [shoe[pos + 1], shoe[pos + 3]]
            pos += 4
            pt, bt = _total(player), _total(banker)
            natural = pt == 21 or bt == 21
            for hand, count in ((player, pt), (banker, bt)):
                if count < 17:  # counting card, or Bonus-only (f)(2)
                    hand.append(shoe[pos])
                    pos += 1
            if not natural:
                pt, bt = _total(player), _total(banker)
            for name, net in zip(main, main_nets[pt, bt], strict=True):
                totals[name] += net
                squares[name] += net * net
            for name, hand in (
                ("bonus_player", player),
                ("bonus_banker", banker),
            ):
                net = bonus_nets[_mask(hand)]
                totals[name] += net
                squares[name] += net * net
            done += 1
            if pos > cover:
                break
    return rounds / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20_000_000)
    parser.add_argument("--baseline-rounds", type=int, default=200_000)
    args = parser.parse_args()
    rules = Baccarat21Rules()
    report = analyze(rules)
    best = min(analyze(rules).seconds for _ in range(5))
    print(
        f"21-baccarat exact with Bonus ({rules.decks} decks): {best:.4f} s "
        f"(best of 5; kernel load/compile {report.compile_seconds:.2f} s)"
    )
    started = time.perf_counter()
    warm_up(rules)
    compile_s = time.perf_counter() - started
    started = time.perf_counter()
    sums = run_chunk(rules, args.rounds, 2024, (0,))
    rate = args.rounds / (time.perf_counter() - started)
    base = python_baseline(rules, args.baseline_rounds, 2024)
    tie = WagerReport.simulated(sums["tie"])
    print(
        f"21-baccarat simulation: {rate:,.0f} rounds/s on one core "
        f"({args.rounds:,} rounds; warm-up {compile_s:.2f} s; tie edge "
        f"{100 * tie.house_edge:.4f} %)"
    )
    print(
        f"21-baccarat plain-Python baseline: {base:,.0f} rounds/s "
        f"({args.baseline_rounds:,} rounds); ratio {rate / base:,.0f}x"
    )


if __name__ == "__main__":
    main()
