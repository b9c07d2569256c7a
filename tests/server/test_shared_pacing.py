"""Issue 12 on PostgreSQL with two server 'processes' (two applications).

- Point 9: a round that reshuffled the shoe in play (681a.7(d)) is
  rebuilt by the other process without ``ReplayMismatchError``: its
  shuffle is replayed from storage, not drawn again.
- Point 2: a decision clock set by one process runs out after that
  process stopped; the other, holding the table's lock, applies the
  default once.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from tests.server.conftest import OPERATOR, balanced_books

from croupier.server.app import create_app

OP = {"Authorization": f"Bearer {OPERATOR}"}


@pytest.fixture
def pair(pg_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    first = create_app(pg_url, operator_token=OPERATOR)
    second = create_app(pg_url, operator_token=OPERATOR)
    with TestClient(first) as a, TestClient(second) as b:
        yield a, b


def _seated(
    client: TestClient, table: int, name: str, seat: int = 1
) -> dict[str, str]:
    made = client.post("/players", json={"name": name}).json()
    who = {"Authorization": f"Bearer {made['token']}"}
    r = client.post(f"/tables/{table}/seats", json={"seat": seat}, headers=who)
    assert r.status_code == 200, r.json()
    return who


def _table(client: TestClient, game: str, **body: Any) -> int:
    r = client.post("/tables", json={"game": game, **body}, headers=OP)
    assert r.status_code == 200, r.json()
    return int(r.json()["id"])


def test_issue12_point9_round_reshuffled_in_play_rebuilds_elsewhere(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    table = _table(a, "21-baccarat", rules={"penetration": "1/10"})
    who = _seated(a, table, "ann")
    last: dict[str, Any] = {}
    for _ in range(80):
        r = a.post(
            f"/tables/{table}/wagers",
            json={"seat": 1, "wager": "player", "amount": 500},
            headers=who,
        )
        assert r.status_code == 200, r.json()
        last = a.post(f"/tables/{table}/deal", headers=who).json()["last"]
        if any(e["type"] == "shuffled" for e in last["events"]):
            break
    else:
        raise AssertionError("the cover card never came out")
    # the other process rebuilds the table, the reshuffled round included
    there = b.get(f"/tables/{table}", headers=who).json()
    assert there["last"] is not None
    assert there["last"]["id"] == last["id"]
    assert there["last"]["events"] == last["events"]
    assert there["last"]["settlements"] == last["settlements"]
    # and deals on from the reshuffled shoe, then the first one again
    for client in (b, a):
        r = client.post(
            f"/tables/{table}/wagers",
            json={"seat": 1, "wager": "banker", "amount": 500},
            headers=who,
        )
        assert r.status_code == 200, r.json()
        state = client.post(f"/tables/{table}/deal", headers=who).json()
        assert state["last"]["settlements"], state
    log = a.get("/log", headers=OP).json()
    assert not any("voided" in row["message"] for row in log), log
    balanced_books(a)
    balanced_books(b)


def test_issue12_point2_shared_clock_default_applied_by_the_lock_holder(
    pg_url: str,
) -> None:
    first = create_app(pg_url, operator_token=OPERATOR)
    second = create_app(pg_url, operator_token=OPERATOR)
    # the shortest clock an operator may set (D170) runs out in a second:
    # the deadline is the first process's, stored for the second
    first.state.casino.dealer.clock_scale = 0.2
    with TestClient(second) as b:
        with TestClient(first) as a:
            table = _table(a, "double-back-jack", decision_seconds=5)
            who = _seated(a, table, "bo")
            for _ in range(40):
                a.post(
                    f"/tables/{table}/wagers",
                    json={"seat": 1, "wager": "blackjack", "amount": 500},
                    headers=who,
                )
                state = a.post(f"/tables/{table}/deal", headers=who).json()
                if state["round"]["pending"]:
                    break
                while state["round"]["pending"]:  # pragma: no cover
                    state = a.post(
                        f"/tables/{table}/actions",
                        json={"seat": 1, "action": "stand"},
                        headers=who,
                    ).json()
            round_id = state["round"]["id"]
            assert state["clock"]["kind"] == "decision"
        # a has stopped before the deadline; b honours it from storage
        for _ in range(400):
            state = b.get(f"/tables/{table}", headers=who).json()
            if state["round"]["id"] != round_id:
                break
            time.sleep(0.025)
        assert state["last"]["id"] == round_id
        expired = [
            e for e in state["last"]["events"] if e["type"] == "clock_expired"
        ]
        assert len(expired) >= 1
        assert expired[0]["seat"] == 1
        assert expired[0]["clock"] == "decision"
        detail = b.get(f"/rounds/{round_id}", headers=OP).json()
        defaults = [
            e for e in detail["events"] if e["type"] == "clock_expired"
        ]
        decisions = [
            e for e in detail["events"] if e["type"] == "decision_made"
        ]
        # each default applied exactly once, each with its decision
        assert len(defaults) == len(decisions)
        balanced_books(b)


def test_issue12_point5_lost_postgresql_connection_answers_503(
    pg_url: str,
) -> None:
    app = create_app(pg_url, operator_token=OPERATOR)
    with TestClient(app) as client:
        table = _table(client, "midibaccarat")
        who = _seated(client, table, "cy")
        bet = {"seat": 1, "wager": "banker", "amount": 500}
        r = client.post(f"/tables/{table}/wagers", json=bet, headers=who)
        assert r.status_code == 200, r.json()
        engine = create_engine(pg_url)
        try:
            with engine.connect() as conn:  # the server's sessions end
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM "
                        "pg_stat_activity WHERE datname = "
                        "current_database() AND pid <> pg_backend_pid()"
                    )
                )
        finally:
            engine.dispose()
        r = client.post(f"/tables/{table}/deal", headers=who)
        assert r.status_code == 503, r.text
        assert r.headers["content-type"] == "application/json"
        assert int(r.headers["retry-after"]) >= 1
        assert r.json()["error"] == "StorageUnavailable"
        # the next attempt reconnects; nothing was lost meanwhile
        state = client.post(f"/tables/{table}/deal", headers=who).json()
        assert [s["seat"] for s in state["last"]["settlements"]] == [1]
        balanced_books(client)
