"""Where a verified round's time goes, game by game (issue 17).

``bench_verify.py`` gives ``croupier verify``'s rounds per CPU-second;
this bench says which part of the verifier's path each microsecond of
a round is spent in, so that the choice the speed target asks for (what
a faster core would have to replace) rests on a measurement:

* **read**: the line read as the verifier reads it
  (:func:`croupier.hhf.format.loads_deferring_steps`: orjson, the
  envelope's compiled schema, the record; the steps are checked by the
  replay's comparison, not by the schema);
* **engine**: the game's own round replayed on the recorded inputs
  (``croupier.verify.replay._run``);
* **steps**: the engine's events written as the record's steps and
  compared with the line's text (``_steps``, ``_same_json``);
* **shoe**: the shoe rebuilt from the record (``_shoe``);
* **checks**: everything else of the verifier's (settlements, the
  record's own fields, purses, the checks across rounds).

A round's microseconds are the whole file's CPU time (best of
``--best-of``, with nothing else in memory); each part's share of them
is its cumulative time under :mod:`cProfile` (one more run), which adds
about the same overhead to every Python call, so the shares are
approximations good to a few points. The last column is the most rounds
a second the verifier could reach on this machine if it kept the
engine as it is and all the rest cost nothing.

    .venv/bin/python bench/bench_verify_split.py --rounds 600
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import time

from croupier.hhf.sample import sample_histories
from croupier.registry import all_games
from croupier.verify import verify_lines

_PARTS: dict[str, tuple[str, ...]] = {
    "read": ("read_at_line",),
    "engine": ("_run",),
    "steps": ("_steps", "_same_json"),
    "shoe": ("_shoe",),
}
"""Each part and the functions whose cumulative time it is."""

_FILES = {
    "read_at_line": "hhf/format.py",
    "_run": "verify/replay.py",
    "_steps": "verify/replay.py",
    "_same_json": "verify/replay.py",
    "_shoe": "verify/replay.py",
    "verify_lines": "verify/file.py",
}
"""Where each function named above is defined (a name may recur)."""


def _shares(lines: list[str]) -> dict[str, float]:
    """Each part's share of ``verify_lines(lines)`` under cProfile."""
    profile = cProfile.Profile()
    profile.enable()
    verify_lines(lines)
    profile.disable()
    cumulative: dict[str, float] = {}
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    for (path, _, name), row in stats.items():
        if name in _FILES and path.endswith(_FILES[name]):
            cumulative[name] = cumulative.get(name, 0.0) + row[3]
    whole = cumulative["verify_lines"]
    shares = {
        part: sum(cumulative.get(name, 0.0) for name in names) / whole
        for part, names in _PARTS.items()
    }
    shares["checks"] = 1.0 - sum(shares.values())
    return shares


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=600)
    parser.add_argument("--best-of", type=int, default=2)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(
        "game | us a round (rounds/CPU-s) | "
        + " | ".join(f"{part} us (%)" for part in (*_PARTS, "checks"))
        + " | engine alone, rounds/s"
    )
    for spec in all_games():
        lines = [h.dumps() for h in sample_histories(spec.name, args.rounds)]
        verify_lines(lines[:50])  # caches and tables warmed, as in a day
        fastest = float("inf")
        for _ in range(args.best_of):
            gc.collect()
            start = time.process_time()
            verify_lines(lines)
            fastest = min(fastest, time.process_time() - start)
        per_round = fastest / len(lines) * 1e6
        shares = _shares(lines)
        cells = " | ".join(
            f"{per_round * share:.0f} ({share:.0%})"
            for share in shares.values()
        )
        alone = 1e6 / (per_round * shares["engine"])
        print(
            f"{spec.name} | {per_round:.0f} ({1e6 / per_round:,.0f}) | "
            f"{cells} | {alone:,.0f}"
        )


if __name__ == "__main__":
    main()
