"""Memory of ``croupier serve`` under 300 MB anonymous POSTs (issue 12.3).

Starts ``croupier serve`` on a temporary SQLite file, then sends three
anonymous 300 MiB bodies over loopback -- streamed to a play route,
streamed to ``POST /players``, and with a declared ``Content-Length`` --
and prints the server process's resident memory before and after each.

    .venv/bin/python bench/bench_edge_memory.py
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.procs import Server

MIB = 2**20
SIZE = 300


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{tmp}/bench.db")
        server.start()
        if server.proc is None:
            raise SystemExit("the server did not start")
        status = Path(f"/proc/{server.proc.pid}/status")

        def rss() -> float:
            """The server process's resident set (one process: SQLite)."""
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
            return float("nan")

        def body() -> Iterator[bytes]:
            chunk = b"x" * MIB
            for _ in range(SIZE):
                yield chunk

        try:
            print(f"before: {rss():.0f} MiB")
            for label, path, content in (
                ("streamed, play route", "/tables/1/wagers", body()),
                ("streamed, POST /players", "/players", body()),
                ("Content-Length", "/tables/1/wagers", b"x" * SIZE * MIB),
            ):
                try:
                    got = httpx.post(
                        server.base + path, content=content, timeout=120
                    )
                    answer = f"{got.status_code} {got.json()['error']}"
                except httpx.HTTPError as exc:
                    answer = f"connection closed ({type(exc).__name__})"
                print(f"{label}: {answer}; rss {rss():.0f} MiB")
        finally:
            server.kill()


if __name__ == "__main__":
    main()
