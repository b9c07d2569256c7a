"""Issue 12 point 5: a database wait freezes nothing; outages are 503 JSON.

Another connection holds the SQLite file's write lock. Meanwhile a play
request waits on the serial thread for the lock (bounded by
``lock_wait_ms``), and ``GET /games`` and ``GET /tables/{other}`` are
answered while it still waits; then it answers 503 ``StorageUnavailable``
with ``Retry-After``, memory unchanged. Once the lock is released play
goes on and the books balance.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from tests.server.conftest import (
    OPERATOR,
    balanced_books,
    seat_player,
    table_of,
)

from croupier.server.app import create_app


def _wait_until(done: Any) -> None:
    for _ in range(400):
        if done():
            return
        time.sleep(0.01)
    raise AssertionError("never happened")


def test_issue12_point5_held_sqlite_lock_stalls_nothing_and_answers_503(
    tmp_path: Path,
) -> None:
    path = tmp_path / "croupier.db"
    app = create_app(
        f"sqlite:///{path}", operator_token=OPERATOR, lock_wait_ms=3000
    )
    casino = app.state.casino
    with TestClient(app) as client:
        ann = seat_player(client, "midibaccarat", 1, "ann")
        other = table_of(client, "double-back-jack")
        before = client.get("/me", headers=ann.headers).json()["balance"]
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # the write lock, held
        answers: dict[str, httpx.Response] = {}

        def play() -> None:
            answers["wager"] = ann.post(
                "/wagers",
                {"seat": 1, "wager": "banker", "amount": 1000},
                **{"Idempotency-Key": "w-1"},
            )

        waiting = threading.Thread(target=play)
        try:
            waiting.start()
            _wait_until(lambda: casino.serial.busy)  # the step waits
            games = client.get("/games")
            table = client.get(f"/tables/{other}", headers=ann.headers)
            # answered while the play request still waits for the lock
            assert waiting.is_alive()
            assert games.status_code == 200
            assert table.status_code == 200
            assert table.json()["table"]["id"] == other
            waiting.join(timeout=30)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        refused = answers["wager"]
        assert refused.status_code == 503
        assert refused.headers["content-type"] == "application/json"
        assert int(refused.headers["retry-after"]) >= 1
        assert refused.json()["error"] == "StorageUnavailable"
        # nothing happened: no stake, balance as before
        state = client.get(f"/tables/{ann.table_id}", headers=ann.headers)
        assert state.json()["round"]["stakes"] == []
        assert state.json()["you"]["balance"] == before
        # the same key is not spent: the retry is applied once
        for _ in range(2):
            r = ann.post(
                "/wagers",
                {"seat": 1, "wager": "banker", "amount": 1000},
                **{"Idempotency-Key": "w-1"},
            )
            assert r.status_code == 200, r.json()
        state = ann.post("/deal").json()
        assert state["last"]["settlements"]
        books = balanced_books(client)
        assert books["on_layout"] == 0
        assert client.get("/me", headers=ann.headers).json()["balance"] == (
            before + sum(s["net"] for s in state["last"]["settlements"])
        )
