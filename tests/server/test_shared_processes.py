"""Real server processes on one PostgreSQL database; one is killed.

Two ``croupier serve`` processes share a database. Players at every
table play through both from threads; one process is killed with
SIGKILL in the middle of the play. The survivor takes every table over
without a restart and without voiding anything: the rounds the dead
process was driving are finished through the survivor, every
acknowledged wager is stored exactly once (its Idempotency-Key replays),
and the books balance. ``croupier serve --workers 2`` runs two processes
behind one address, and survives the loss of one worker likewise.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.conftest import balanced_books, passive_action
from tests.server.procs import Acked, Server, assert_replayed, playing
from websockets.sync.client import connect

from croupier.registry import all_games

pytestmark = pytest.mark.slow

OP = {"Authorization": "Bearer op-for-the-test-servers-0123456789abcdef"}


@pytest.fixture
def servers(pg_url: str) -> Iterator[tuple[Server, Server]]:
    first, second = Server(pg_url), Server(pg_url)
    first.start()
    second.start()
    try:
        yield first, second
    finally:
        for server in (first, second):
            if server.alive():
                server.kill()


def _books(base: str) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=10) as c:
        return balanced_books(c, OP["Authorization"][7:])


def _seat_players(base: str) -> list[tuple[str, int, int, str]]:
    players = []
    with httpx.Client(base_url=base, timeout=10) as c:
        tables = {t["game"]: t["id"] for t in c.get("/tables").json()}
        for i, spec in enumerate(all_games()):
            for seat in (1, 2):
                made = c.post("/players", json={"name": f"p{i}{seat}"}).json()
                r = c.post(
                    f"/tables/{tables[spec.name]}/seats",
                    json={"seat": seat},
                    headers={"Authorization": f"Bearer {made['token']}"},
                )
                assert r.status_code == 200, r.text
                players.append(
                    (made["token"], tables[spec.name], seat, spec.wagers[0])
                )
    return players


def _finish_every_round(
    base: str, players: list[tuple[str, int, int, str]]
) -> int:
    """Drive every table's round in play to its end; rounds finished.

    Players are visited in passes until a whole pass moves nothing: a
    decision can come back to a seat already visited (an ace-up round
    offers insurance to every seat before play starts at the first).
    """
    finished = 0
    with httpx.Client(base_url=base, timeout=10) as c:
        for _pass in range(40):
            moved = False
            for token, table, seat, _wager in players:
                who = {"Authorization": f"Bearer {token}"}
                for _ in range(40):
                    state = c.get(f"/tables/{table}", headers=who).json()
                    rnd = state["round"]
                    if rnd["status"] == "betting":
                        if rnd["stakes"] and seat == 1:  # the operator deals
                            r = c.post(f"/tables/{table}/deal", headers=OP)
                            assert r.status_code == 200, r.text
                            finished += 1
                            moved = True
                            continue
                        break
                    pending = rnd["pending"]
                    if pending is None or pending["seat"] != seat:
                        break
                    r = c.post(
                        f"/tables/{table}/actions",
                        json={
                            "seat": seat,
                            "action": passive_action(pending["legal"]),
                        },
                        headers=who,
                    )
                    assert r.status_code == 200, r.text
                    moved = True
            if not moved:
                break
    return finished


def _deal_until_pending(
    base: str, players: list[tuple[str, int, int, str]], game: str
) -> dict[str, Any]:
    """Through ``base``, leave a round of ``game`` waiting for a decision."""
    spec = next(g for g in all_games() if g.name == game)
    seated = [p for p in players if p[3] == spec.wagers[0]]
    with httpx.Client(base_url=base, timeout=10) as c:
        for _ in range(20):
            for token, table, seat, wager in seated:
                c.post(
                    f"/tables/{table}/wagers",
                    json={"seat": seat, "wager": wager, "amount": 500},
                    headers={"Authorization": f"Bearer {token}"},
                )
            for token, table, _seat, _wager in seated:  # each is ready
                who = {"Authorization": f"Bearer {token}"}
                state = c.post(f"/tables/{table}/deal", headers=who).json()
            if state["round"]["pending"] is not None:
                return dict(state["round"])
            _finish_every_round(base, seated)
    raise AssertionError("no round waited for a decision")


def test_shared_kill_one_of_two_processes_mid_round(
    servers: tuple[Server, Server],
) -> None:
    doomed, survivor = servers
    players = _seat_players(doomed.base)
    deposits = _books(survivor.base)["deposits"]
    acked: Acked = []
    seats = [
        ((doomed, survivor)[n % 2].base, *player)
        for n, player in enumerate(players)
        if player[3] != "blackjack"
    ]
    with playing(seats, acked):
        # a Double Back Jack round dealt by the doomed process, mid-decision
        waiting = _deal_until_pending(doomed.base, players, "double-back-jack")
        time.sleep(1.0)
        doomed.kill()  # mid-request, mid-round: its transactions roll back
        time.sleep(0.5)
    assert acked, "nothing was played before the kill"
    with httpx.Client(base_url=survivor.base, timeout=10) as c:
        table = next(p[1] for p in players if p[3] == "blackjack")
        taken = c.get(f"/tables/{table}").json()["round"]
    assert taken["id"] == waiting["id"]
    assert taken["pending"] == waiting["pending"]
    assert taken["stakes"] == waiting["stakes"]

    # the survivor serves every table at once: no restart, no lease wait
    _finish_every_round(survivor.base, players)
    with httpx.Client(base_url=survivor.base, timeout=10) as c:
        done = c.get(f"/rounds/{waiting['id']}", headers=OP).json()
    assert done["status"] == "over", done
    assert_replayed(survivor.base, players, acked)
    books = _books(survivor.base)
    assert books["deposits"] == deposits
    with httpx.Client(base_url=survivor.base, timeout=10) as c:
        log = c.get("/log", params={"limit": 500}, headers=OP).json()
        recent = c.get("/rounds", params={"limit": 500}, headers=OP).json()
    assert not [e for e in log if "voided" in e["message"]], log
    assert all(r["status"] in ("open", "over") for r in recent)

    # a new process joins and agrees on every table and the books
    doomed.start()
    assert _books(doomed.base) == books
    with (
        httpx.Client(base_url=doomed.base) as a,
        httpx.Client(base_url=survivor.base) as b,
    ):
        for _token, table, _seat, _wager in players:
            assert (
                a.get(f"/tables/{table}").json()
                == b.get(f"/tables/{table}").json()
            )


def test_shared_serve_workers_behind_one_address(pg_url: str) -> None:
    server = Server(pg_url, workers=2)
    server.start()
    try:
        pids = set()
        for _ in range(60):
            with httpx.Client(base_url=server.base, timeout=5) as c:
                pids.add(c.get("/health").json()["process"])
            if len(pids) == 2:
                break
        assert len(pids) == 2, "one address should reach both workers"
        players = _seat_players(server.base)
        acked: Acked = []
        with playing([(server.base, *p) for p in players], acked):
            time.sleep(1.5)
            os.kill(min(pids), signal.SIGKILL)  # one worker dies mid-play
            time.sleep(1.5)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                _finish_every_round(server.base, players)
                break
            except httpx.HTTPError:  # the worker's connections were cut
                time.sleep(0.2)
        assert_replayed(server.base, players, acked)
        _books(server.base)
    finally:
        server.kill()


def test_shared_websocket_on_one_process_follows_play_on_another(
    servers: tuple[Server, Server],
) -> None:
    driver, watcher = servers
    token, table, seat, wager = _seat_players(driver.base)[0]
    url = f"ws://127.0.0.1:{watcher.port}/ws/tables/{table}?token={token}"
    with connect(url, open_timeout=10) as ws:
        first = json.loads(ws.recv(timeout=10))
        assert first["data"]["round"]["stakes"] == []
        with httpx.Client(base_url=driver.base, timeout=10) as c:
            r = c.post(
                f"/tables/{table}/wagers",
                json={"seat": seat, "wager": wager, "amount": 1500},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert r.status_code == 200, r.text
        # pushed via NOTIFY (a push for an earlier change may come first)
        deadline = time.monotonic() + 10
        while True:
            pushed = json.loads(ws.recv(timeout=10))
            stakes = pushed["data"]["round"]["stakes"]
            if stakes or time.monotonic() > deadline:
                break
    assert [(s["seat"], s["amount"]) for s in stakes] == [(seat, 1500)]
    assert pushed["data"]["you"]["balance"] == 100_000 - 1500
