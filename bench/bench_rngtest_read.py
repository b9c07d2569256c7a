"""``croupier rng-test --source FILE``: reading a shuffle file.

Writes ``--shuffles`` shuffles of a 6-deck shoe as card text, then
times, in the same run, the baseline (every line read by
:func:`croupier.cards.parse_cards` and counted with a ``Counter``, as
the reader did before) against :func:`croupier.rngtest.file_shuffles`
on the same lines, in CPU seconds, and checks that both give the same
codes.

    .venv/bin/python bench/bench_rngtest_read.py --shuffles 5000
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from croupier.cards import CARD_TEXTS, parse_cards
from croupier.registry import find_game
from croupier.rngtest import file_shuffles
from croupier.rngtest.sources import fresh_shoe


def _baseline(lines: list[str]) -> list[list[int]]:
    out = []
    reference = None
    for line in lines:
        codes = [c.code for c in parse_cards(line)]
        counts = Counter(codes)
        if reference is not None and counts != reference:
            msg = "not a shuffle of the same cards"
            raise ValueError(msg)
        reference = counts
        out.append(codes)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shuffles", type=int, default=5000)
    args = parser.parse_args()
    spec = find_game("double-back-jack")
    shoe = fresh_shoe(spec, spec.rules_type())
    gen = np.random.default_rng(1)
    lines = [
        " ".join(CARD_TEXTS[c] for c in gen.permutation(shoe))
        for _ in range(args.shuffles)
    ]
    start = time.process_time()
    want = _baseline(lines)
    base = time.process_time() - start
    start = time.process_time()
    got = file_shuffles(lines, shoe)
    now = time.process_time() - start
    if [g.tolist() for g in got] != want:
        msg = "file_shuffles read other codes than parse_cards"
        raise SystemExit(msg)
    print(
        f"{args.shuffles} shuffles of {len(shoe)} cards: baseline "
        f"{base:.2f} CPU-s, file_shuffles {now:.2f} CPU-s "
        f"({base / now:.1f}x)"
    )


if __name__ == "__main__":
    main()
