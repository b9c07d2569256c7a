"""Real server processes for the tests: start, kill, play from threads."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from tests.server.conftest import passive_action

__all__ = [
    "Acked",
    "Server",
    "assert_replayed",
    "free_port",
    "player_loop",
    "playing",
]

Acked = list[tuple[str, dict[str, Any]]]
"""(Idempotency-Key, body) of every wager the server acknowledged."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


OPERATOR_TOKEN = "op-for-the-test-servers-0123456789abcdef"  # noqa: S105
"""The operator token of the servers started here."""


class Server:
    """``croupier serve`` in a process of its own (its own session)."""

    def __init__(
        self, db_url: str, *, workers: int = 1, port: int | None = None
    ) -> None:
        self.db_url = db_url
        self.workers = workers
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        code = (
            "from croupier.cli.serve import serve; "
            f"serve(db={self.db_url!r}, host='127.0.0.1', "
            f"port={self.port}, operator_token={OPERATOR_TOKEN!r}, "
            "register_rate='off', play_rate='off', "
            f"workers={self.workers})"
        )
        self.proc = subprocess.Popen(  # noqa: S603
            [sys.executable, "-c", code],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/tables", timeout=1).is_success:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("server did not start")

    def kill(self) -> None:
        """SIGKILL the server and every worker it started."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


def player_loop(
    base: str,
    token: str,
    table: int,
    seat: int,
    wager: str,
    acked: list[tuple[str, dict[str, Any]]],
    stop: threading.Event,
) -> None:
    headers = {"Authorization": f"Bearer {token}", "Prefer": "return=minimal"}
    n = 0
    with httpx.Client(base_url=base, headers=headers, timeout=5) as c:
        while not stop.is_set():
            n += 1
            key = f"{token[:8]}-{n}"
            body = {"seat": seat, "wager": wager, "amount": 500}
            try:
                r = c.post(
                    f"/tables/{table}/wagers",
                    json=body,
                    headers={"Idempotency-Key": key},
                )
                if r.status_code == 200:
                    acked.append((key, body))
                r = c.post(f"/tables/{table}/deal")
                for _ in range(10):
                    state = c.get(f"/tables/{table}").json()
                    pending = state["round"]["pending"]
                    if not pending or pending["seat"] != seat:
                        break
                    c.post(
                        f"/tables/{table}/actions",
                        json={
                            "seat": seat,
                            "action": passive_action(pending["legal"]),
                        },
                    )
            except httpx.HTTPError:
                return


@contextmanager
def playing(
    seats: Iterable[tuple[str, str, int, int, str]], acked: Acked
) -> Iterator[None]:
    """Players loop from threads until the block ends, then stop.

    Each seat is (server address, token, table, seat, wager); the wagers
    the servers acknowledge are appended to ``acked``.
    """
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=player_loop,
            args=(base, token, table, seat, wager, acked, stop),
        )
        for base, token, table, seat, wager in seats
    ]
    for t in threads:
        t.start()
    try:
        yield
    finally:
        stop.set()
        for t in threads:
            t.join()


def assert_replayed(
    base: str, players: list[tuple[str, int, int, str]], acked: Acked
) -> None:
    """Every acknowledged wager is stored once: its key replays."""
    by_token = {tok: table for tok, table, _seat, _w in players}
    with httpx.Client(base_url=base, timeout=10) as c:
        for key, body in acked:
            token = next(t for t in by_token if key.startswith(t[:8]))
            r = c.post(
                f"/tables/{by_token[token]}/wagers",
                json=body,
                headers={
                    "Authorization": f"Bearer {token}",
                    "Idempotency-Key": key,
                },
            )
            assert r.headers.get("Idempotent-Replayed") == "true", r.text
