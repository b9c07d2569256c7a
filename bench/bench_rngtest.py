"""``croupier rng-test --source FILE``: reading a file, and the battery.

Writes ``--shuffles`` shuffles of a 6-deck shoe as card text, then
times, in the same run and in CPU seconds, against baselines that do
what the code did before:

- reading: every line by :func:`croupier.cards.parse_cards`, counted
  with a ``Counter``, against :func:`croupier.rngtest.file_shuffles`;
- the Lehmer-code stream: every pair of places compared, shoe by shoe,
  against the compiled kernel (``_lehmer_digits``);
- the position correlation: :func:`scipy.stats.spearmanr` shoe by shoe,
  against one :func:`scipy.stats.pearsonr` of every shoe;
- the whole battery, once (compilation excluded: it is run first on a
  few shoes);
- the battery's peak of traced memory (numpy's arrays are traced), on
  the shuffles and on a quarter of them, and what the three quarters
  more added, in bytes a card: it reads its source once and keeps about
  seven bytes a card (D66) over a few MiB a block costs, where holding
  the shoes as arrays grew by some 80 a card.

Each pair is checked to agree.

    .venv/bin/python bench/bench_rngtest.py --shuffles 5000
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections import Counter

import numpy as np
from scipy import stats

from croupier.cards import CARD_TEXTS, parse_cards
from croupier.registry import find_game
from croupier.rngtest import battery, file_shuffles
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
        f"{args.shuffles} shuffles of {len(shoe)} cards: reading, baseline "
        f"{base:.2f} CPU-s, file_shuffles {now:.2f} CPU-s "
        f"({base / now:.1f}x)"
    )
    battery.run_battery(got[:50], shoe)  # compile the kernels first
    perms = battery._labels(np.asarray(got), shoe, np.random.default_rng(0))
    n = perms.shape[1]
    later = np.triu(np.ones((n, n), dtype=bool), k=1)
    start = time.process_time()
    pairs = [
        ((p[None, :] < p[:, None]) & later).sum(axis=1)[:-1] for p in perms
    ]
    base = time.process_time() - start
    start = time.process_time()
    digits = battery._lehmer_digits(perms)
    now = time.process_time() - start
    if not np.array_equal(np.array(pairs), digits):
        raise SystemExit("the Lehmer digits differ")
    print(
        f"Lehmer digits: baseline {base:.2f} CPU-s, kernel {now:.3f} CPU-s "
        f"({base / now:.0f}x)"
    )
    place = np.arange(n)
    start = time.process_time()
    rs = [stats.spearmanr(place, p).statistic for p in perms]
    base = time.process_time() - start
    start = time.process_time()
    many = stats.pearsonr(np.broadcast_to(place, perms.shape), perms, axis=1)
    now = time.process_time() - start
    if not np.allclose(rs, many.statistic, rtol=1e-12, atol=1e-15):
        raise SystemExit("the position correlations differ")
    print(
        f"position correlation: baseline {base:.2f} CPU-s, one call "
        f"{now:.3f} CPU-s ({base / now:.0f}x)"
    )
    start = time.process_time()
    result = battery.run_battery(got, shoe)
    whole = time.process_time() - start
    print(
        f"whole battery: {whole:.2f} CPU-s "
        f"({'pass' if result.passed else 'FAIL'})"
    )
    del perms, digits, pairs, rs, many
    peaks = []
    for count in (len(got) // 4, len(got)):
        tracemalloc.start()
        battery.run_battery(iter(got[:count]), shoe)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        print(
            f"battery peak memory, {count} shuffles: "
            f"{peaks[-1] / 2**20:.1f} MiB"
        )
    added = (peaks[1] - peaks[0]) / ((len(got) - len(got) // 4) * len(shoe))
    print(f"  the three quarters more: {added:.1f} bytes a card")


if __name__ == "__main__":
    main()
