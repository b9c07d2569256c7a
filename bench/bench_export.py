"""``croupier history export`` on a server database: time and memory.

Fills a fresh SQLite database through the server's API (a Midibaccarat
table, two players wagering on Banker every round), then measures, in
the same run:

- the baseline: reading every stored round's record back
  (:meth:`croupier.history.RoundRecord.loads` of each row), the least an
  export must do;
- the whole export (:func:`croupier.hhf.export.export_rounds`, lines
  written to nowhere), and the export of the last tenth of the rounds
  (``--since``);
- each one's peak of Python memory (:mod:`tracemalloc`, in a separate
  pass: tracing slows the code it traces).

Times are CPU seconds of this process; ratios are to the baseline.

    .venv/bin/python bench/bench_export.py --rounds 3000
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select

from croupier.hhf.export import export_rounds
from croupier.history import RoundRecord
from croupier.server import db
from croupier.server.app import create_app
from croupier.server.edge import RateLimits

_OPERATOR = "bench-export-operator-token-0123456789"


def _fill(url: str, rounds: int) -> None:
    """``rounds`` Midibaccarat rounds of two players at one table."""
    app = create_app(
        url, operator_token=_OPERATOR, rate_limits=RateLimits.off()
    )
    with TestClient(app) as client:
        table = next(
            t["id"]
            for t in client.get("/tables").json()
            if t["game"] == "midibaccarat"
        )
        seats = []
        for seat, name in ((1, "ann"), (2, "bob")):
            made = client.post("/players", json={"name": name}).json()
            headers = {"Authorization": f"Bearer {made['token']}"}
            client.post(
                f"/players/{made['id']}/deposits",
                json={"amount": 10**9},
                headers={"Authorization": f"Bearer {_OPERATOR}"},
            )
            sat = client.post(
                f"/tables/{table}/seats", json={"seat": seat}, headers=headers
            )
            _ok(sat.status_code, sat.json())
            seats.append((seat, headers))
        for _ in range(rounds):
            for seat, headers in seats:
                placed = client.post(
                    f"/tables/{table}/wagers",
                    json={"seat": seat, "wager": "banker", "amount": 500},
                    headers=headers,
                )
                _ok(placed.status_code, placed.json())
            for _seat, headers in seats:
                client.post(f"/tables/{table}/deal", headers=headers)


def _ok(status: int, body: object) -> None:
    if status != 200:
        msg = f"the server refused: {body}"
        raise RuntimeError(msg)


def _baseline(url: str) -> int:
    engine = db.make_engine(url)
    with engine.connect() as conn:
        count = 0
        for (text,) in conn.execute(
            select(db.RoundRow.record_json).where(db.RoundRow.status == "over")
        ):
            if text is not None:
                RoundRecord.loads(text)
                count += 1
    return count


def _export(url: str, since: datetime | None) -> int:
    return sum(len(h.dumps()) > 0 for h in export_rounds(url, since=since))


def _timed(work: Callable[[], int]) -> tuple[float, int]:
    gc.collect()
    start = time.process_time()
    count = work()
    return time.process_time() - start, count


def _peak(work: Callable[[], int]) -> int:
    gc.collect()
    tracemalloc.start()
    work()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        start = time.perf_counter()
        _fill(url, args.rounds)
        filled = time.perf_counter() - start
        print(f"filled {args.rounds} rounds in {filled:.0f} s")
        engine = db.make_engine(url)
        with engine.connect() as conn:
            starts = sorted(
                s for (s,) in conn.execute(select(db.RoundRow.started_at))
            )
        since = starts[len(starts) * 9 // 10]
        runs: list[tuple[str, Callable[[], int]]] = [
            ("baseline: every record read", lambda: _baseline(url)),
            ("export, every round", lambda: _export(url, None)),
            ("export --since, last tenth", lambda: _export(url, since)),
        ]
        base = None
        head = ("rounds", "CPU s", "x base", "peak MiB")
        print(f"{'':30s} " + " ".join(f"{h:>8s}" for h in head))
        for name, work in runs:
            seconds, count = _timed(work)
            base = base or seconds
            peak = _peak(work) / 2**20
            print(
                f"{name:30s} {count:8d} {seconds:8.2f} "
                f"{seconds / base:8.2f} {peak:8.1f}"
            )


if __name__ == "__main__":
    main()
