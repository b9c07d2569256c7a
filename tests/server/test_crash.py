"""Crash safety: kill -9 the server mid-round, restart, books still add up.

The server runs as a real uvicorn subprocess on a temporary SQLite file.
Players place wagers, deal and decide from several threads; the process
is killed with SIGKILL at random moments, restarted, and after each
restart: the ledger check holds, every acknowledged wager is stored
(retrying it with its Idempotency-Key replays, it is not placed twice),
and balances plus stakes on the layout equal deposits plus settled nets.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.server.procs import Acked, Server, assert_replayed, playing

from croupier.registry import all_games

pytestmark = pytest.mark.slow

OP = {"Authorization": "Bearer op-for-the-test-servers-0123456789abcdef"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path / 'crash.db'}")
    srv.start()
    yield srv
    if srv.proc is not None and srv.proc.poll() is None:
        srv.kill()


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
        acked: Acked = []
        seats = [(server.base, *p) for p in players]
        with playing(seats, acked):
            time.sleep(0.8 + rng.random())
            server.kill()
        server.start()
        with httpx.Client(base_url=server.base, timeout=5) as c:
            books = c.get("/ledger", headers=OP).json()
            assert books["ok"], books
            assert books["deposits"] == deposits
            assert books["balances"] + books["on_layout"] == (
                deposits + books["players_net"]
            )
            assert_replayed(server.base, players, acked[-20:])
            assert c.get("/ledger", headers=OP).json() == books
    assert acked
    # each restart logs the rounds it resumed or voided; a round still
    # waiting for its first wager is resumed without a row (D156), so a
    # kill between rounds at every table may log nothing: with ten
    # players betting, three such kills in a row do not happen
    with httpx.Client(base_url=server.base, timeout=5) as c:
        log = c.get("/log", headers=OP).json()
    assert log, "the restarts must log what they did"
