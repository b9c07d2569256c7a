"""The schema upgrades in place: a database of revision 0001 keeps its play.

Revision 0002 adds ``game_tables.version`` and ``rounds.discard`` (the
rack when a round began). A round opened before the upgrade has no
stored rack: it is resumed on its own stack and the table then takes a
new shoe, on SQLite (one process) and on PostgreSQL (several) alike.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import OPERATOR
from tests.server.schema import downgrade

from croupier.server.app import create_app

OP = {"Authorization": f"Bearer {OPERATOR}"}


def _downgrade_to_0001(url: str) -> None:
    assert "discard" not in downgrade(url, "0001")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_0002_keeps_a_round_opened_under_0001(
    backend: str, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        tmp = request.getfixturevalue("tmp_path")
        url = f"sqlite:///{tmp / 'old.db'}"
    else:
        url = request.getfixturevalue("pg_url")
    with TestClient(create_app(url, operator_token=OPERATOR)) as client:
        table = next(
            t["id"]
            for t in client.get("/tables").json()
            if t["game"] == "midibaccarat"
        )
        made = client.post("/players", json={"name": "old"}).json()
        who = {"Authorization": f"Bearer {made['token']}"}
        client.post(f"/tables/{table}/seats", json={"seat": 1}, headers=who)
        r = client.post(
            f"/tables/{table}/wagers",
            json={"seat": 1, "wager": "banker", "amount": 2500},
            headers=who,
        )
        assert r.status_code == 200, r.json()
        before = client.get(f"/tables/{table}").json()["round"]
    _downgrade_to_0001(url)

    with TestClient(create_app(url, operator_token=OPERATOR)) as client:
        after = client.get(f"/tables/{table}").json()["round"]
        assert after["id"] == before["id"]
        assert after["stakes"] == before["stakes"]
        r = client.post(f"/tables/{table}/deal", headers=who)
        assert r.status_code == 200, r.json()
        books = client.get("/ledger", headers=OP).json()
        assert books["ok"], books
        assert books["on_layout"] == 0
