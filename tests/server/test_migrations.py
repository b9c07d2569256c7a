"""The schema upgrades in place: a database of revision 0001 keeps its play.

Revision 0002 adds ``game_tables.version`` and ``rounds.discard`` (the
rack when a round began). A round opened before the upgrade has no
stored rack: it is resumed on its own stack and the table then takes a
new shoe, on SQLite (one process) and on PostgreSQL (several) alike.

Revision 0006 indexes ``server_log``'s round and time (D142); going
back drops the indexes alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text
from tests.server.conftest import OPERATOR
from tests.server.schema import downgrade

from croupier.server import db
from croupier.server.app import create_app
from croupier.server.recovery import write_log

OP = {"Authorization": f"Bearer {OPERATOR}"}


def _downgrade_to_0001(url: str) -> None:
    assert "discard" not in downgrade(url, "0001")


def _url(backend: str, request: pytest.FixtureRequest, name: str) -> str:
    """A fresh database of ``backend``: a SQLite file ``name``, or the
    PostgreSQL database of ``pg_url``."""
    if backend == "sqlite":
        tmp = request.getfixturevalue("tmp_path")
        return f"sqlite:///{tmp / name}"
    return str(request.getfixturevalue("pg_url"))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_0002_keeps_a_round_opened_under_0001(
    backend: str, request: pytest.FixtureRequest
) -> None:
    url = _url(backend, request, "old.db")
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


LOG_INDEXES = {"ix_server_log_round_id", "ix_server_log_at"}
"""Migration 0006's indexes on ``server_log`` (D142)."""


def _log_indexes(url: str) -> set[str]:
    engine = db.make_engine(url)
    try:
        found = inspect(engine).get_indexes("server_log")
        return {str(ix["name"]) for ix in found} & LOG_INDEXES
    finally:
        engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_0006_indexes_the_log_and_goes_back_without_them(
    backend: str, request: pytest.FixtureRequest
) -> None:
    """0006 indexes the log's round and time; its downgrade drops the
    indexes and keeps every row, and the next start indexes again."""
    url = _url(backend, request, "log.db")
    with TestClient(create_app(url, operator_token=OPERATOR)) as client:
        casino = client.app.state.casino  # type: ignore[attr-defined]
        for k in (9001, 9002, 9003):
            write_log(casino.engine, "warning", f"round {k} voided", k)
        before = client.get("/log", headers=OP).json()
    assert _log_indexes(url) == LOG_INDEXES
    assert "software" in downgrade(url, "0005")  # 0005's column stays
    assert _log_indexes(url) == set()
    with TestClient(create_app(url, operator_token=OPERATOR)) as client:
        # the restart logs the tables' rounds it resumed, after them
        after = client.get("/log", headers=OP).json()
        assert after[len(after) - len(before) :] == before
        kept = client.get("/log?round_id=9002", headers=OP)
        assert [row["message"] for row in kept.json()] == ["round 9002 voided"]
    assert _log_indexes(url) == LOG_INDEXES


def test_migration_0006_the_log_of_one_round_is_found_by_its_index(
    tmp_path: Path,
) -> None:
    """SQLite's plan for one round's rows and for a span of times
    searches an index, not the whole table."""
    url = f"sqlite:///{tmp_path / 'plan.db'}"
    with TestClient(create_app(url, operator_token=OPERATOR)):
        pass
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            for query, index in [
                (
                    "EXPLAIN QUERY PLAN SELECT count(*) FROM server_log "
                    "WHERE round_id = 7",
                    "ix_server_log_round_id",
                ),
                (
                    "EXPLAIN QUERY PLAN SELECT count(*) FROM server_log "
                    "WHERE at >= '2026-12-01'",
                    "ix_server_log_at",
                ),
            ]:
                plan = " ".join(
                    str(row[-1]) for row in conn.execute(text(query))
                )
                assert index in plan, plan
    finally:
        engine.dispose()
