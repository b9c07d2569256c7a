"""Crash safety: kill -9 the server mid-round, restart, books still add up.

The server runs as a real uvicorn subprocess on a temporary SQLite file.
Players place wagers, deal and decide from several threads; the process
is killed with SIGKILL at random moments, restarted, and after each
restart: the ledger check holds, every acknowledged wager is stored
(retrying it with its Idempotency-Key replays, it is not placed twice),
and balances plus stakes on the layout equal deposits plus settled nets.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import passive_action

from croupier.registry import all_games

pytestmark = pytest.mark.slow

OP = {"Authorization": "Bearer op"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db_url: str) -> None:
        self.db_url = db_url
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        code = (
            "from croupier.cli.serve import serve; "
            f"serve(db={self.db_url!r}, host='127.0.0.1', "
            f"port={self.port}, operator_token='op')"
        )
        self.proc = subprocess.Popen(  # noqa: S603
            [sys.executable, "-c", code],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
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
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path / 'crash.db'}")
    srv.start()
    yield srv
    if srv.proc is not None and srv.proc.poll() is None:
        srv.kill()


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


def test_kill_9_mid_round_loses_and_duplicates_nothing(
    server: Server,
) -> None:
    specs = all_games()
    players: list[tuple[str, int, int, str]] = []
    with httpx.Client(base_url=server.base, timeout=5) as c:
        tables = {t["game"]: t["id"] for t in c.get("/tables").json()}
        for i, spec in enumerate(specs):
            for seat in (1, 2):
                p = c.post("/players", json={"name": f"p{i}{seat}"}).json()
                table = tables[spec.name]
                c.post(
                    f"/tables/{table}/seats",
                    json={"seat": seat},
                    headers={"Authorization": f"Bearer {p['token']}"},
                )
                players.append((p["token"], table, seat, spec.wagers[0]))
        deposits = c.get("/ledger", headers=OP).json()["deposits"]
    rng = random.Random(7)
    for _ in range(3):
        acked: list[tuple[str, dict[str, Any]]] = []
        stop = threading.Event()
        threads = [
            threading.Thread(
                target=player_loop,
                args=(server.base, tok, table, seat, wager, acked, stop),
            )
            for tok, table, seat, wager in players
        ]
        for t in threads:
            t.start()
        time.sleep(0.8 + rng.random())
        server.kill()
        stop.set()
        for t in threads:
            t.join()
        server.start()
        with httpx.Client(base_url=server.base, timeout=5) as c:
            books = c.get("/ledger", headers=OP).json()
            assert books["ok"], books
            assert books["deposits"] == deposits
            assert books["balances"] + books["on_layout"] == (
                deposits + books["players_net"]
            )
            log = c.get("/log", headers=OP).json()
            assert log, "the restart must log what it did"
            by_token = {tok: (table, seat) for tok, table, seat, _ in players}
            for key, body in acked[-20:]:
                token = next(t for t in by_token if key.startswith(t[:8]))
                table, _seat = by_token[token]
                r = c.post(
                    f"/tables/{table}/wagers",
                    json=body,
                    headers={
                        "Authorization": f"Bearer {token}",
                        "Idempotency-Key": key,
                    },
                )
                assert r.headers.get("Idempotent-Replayed") == "true", (
                    r.status_code,
                    r.text,
                )
            assert c.get("/ledger", headers=OP).json() == books
    assert acked
