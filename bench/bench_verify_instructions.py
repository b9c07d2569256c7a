"""``croupier verify``'s cost in machine instructions a round (valgrind).

The seconds :mod:`bench_verify` reports move by a third from one run
to the next on a shared two-core machine: a change worth 5 % cannot be
seen in them. The count of instructions a round executes does not move
(to a few thousandths), so this bench counts them, with valgrind's
cachegrind tool (``--cache-sim=no``: instructions only), in a child
Python run twice on the same rounds: once verifying none of them, once
verifying ``--rounds``; the difference over the rounds is one round's
cost. Both runs do the same setup (reading the lines, one round
verified first to fill the caches), hash randomisation is off and the
BLAS library keeps to one thread, so that nothing but the verification
differs. The baseline, in the same run, is the engine replaying each
round's inputs (:func:`croupier.history.replay`, as ``bench_verify``).

Instructions are not seconds (a cache miss costs more than an add), but
on one machine they rank two versions of the code the same way, which
is what they are for: compare a change with its parent.

    .venv/bin/python bench/bench_verify_instructions.py --rounds 200

``--as-dealt`` verifies the same rounds with their stacks withheld, as
``croupier history export`` writes the rounds of a shoe still in play
(D188): the verifier then rebuilds each round's shoe from its cards and
its discard rack.

Needs ``valgrind`` on the ``PATH`` (Debian: ``apt install valgrind``);
without it the bench says so and exits 2.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from croupier.hhf.sample import sample_histories
from croupier.registry import all_games

_CHILD = """
import sys
from croupier.hhf import HandHistory
from croupier.history import replay
from croupier.verify import verify_lines

mode, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(path, encoding="utf-8").read().splitlines()
warm, measured = lines[:1], lines[1 : 1 + count]
if mode == "verify":
    verify_lines(warm)
    report = verify_lines(measured)
    assert report.conforming == report.rounds, "a sample round deviates"
else:
    records = [HandHistory.loads(line).to_record() for line in lines]
    replay(records[0])
    for record in records[1 : 1 + count]:
        replay(record)
"""
"""The child: its setup is the same whatever ``count`` is."""

_REFS = re.compile(rb"I\s+refs:\s+([\d,]+)")


def _instructions(valgrind: str, mode: str, path: Path, count: int) -> int:
    """Instructions one child run executes, as cachegrind counts them."""
    env = {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
    }
    # the program is valgrind, found on the PATH; the rest is fixed
    done = subprocess.run(  # noqa: S603
        [
            valgrind,
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            "-c",
            _CHILD,
            mode,
            str(path),
            str(count),
        ],
        env=env,
        capture_output=True,
        check=True,
    )
    found = _REFS.search(done.stderr)
    if found is None:
        msg = f"no instruction count in valgrind's output:\n{done.stderr!r}"
        raise RuntimeError(msg)
    return int(found.group(1).replace(b",", b""))


def _per_round(valgrind: str, mode: str, path: Path, rounds: int) -> float:
    none = _instructions(valgrind, mode, path, 0)
    every = _instructions(valgrind, mode, path, rounds)
    return (every - none) / rounds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument(
        "--game", action="append", help="only this game (repeatable)"
    )
    parser.add_argument(
        "--as-dealt",
        action="store_true",
        help="verify the rounds as dealt, their stacks withheld, as "
        "`history export` writes a shoe still in play (D188)",
    )
    args = parser.parse_args()
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("valgrind is not on the PATH: this bench counts with it")
        raise SystemExit(2)
    with tempfile.TemporaryDirectory() as tmp:
        for spec in all_games():
            if args.game and spec.name not in args.game:
                continue
            path = Path(tmp) / f"{spec.name}.jsonl"
            # one round to warm the caches, then the rounds measured
            histories = list(
                sample_histories(spec.name, args.rounds + 1, seed=6)
            )
            path.write_text(
                "".join(h.dumps() + "\n" for h in histories), encoding="utf-8"
            )
            # the replay needs the stacks; the verifier may go without
            checked = path
            if args.as_dealt:
                # (imported here: the bench counts an older tree too)
                from croupier.hhf.export import sealed

                checked = Path(tmp) / f"{spec.name}-as-dealt.jsonl"
                checked.write_text(
                    "".join(sealed(h).dumps() + "\n" for h in histories),
                    encoding="utf-8",
                )
            base = _per_round(valgrind, "replay", path, args.rounds)
            verify = _per_round(valgrind, "verify", checked, args.rounds)
            print(
                f"{spec.name}: replay baseline {base / 1000:,.0f}k "
                f"instructions a round; verify"
                f"{' as dealt' if args.as_dealt else ''} "
                f"{verify / 1000:,.0f}k "
                f"({base / verify:.2f}x fewer than the replay)"
            )


if __name__ == "__main__":
    main()
