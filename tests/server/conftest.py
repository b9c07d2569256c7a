"""Fixtures of the table-server tests: an app on a temporary SQLite file."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.server.postgres import new_database, postgres_or_skip
from typer.testing import CliRunner

from croupier.cli import app
from croupier.rng import SecureRng
from croupier.server.app import create_app

OPERATOR = "operator-secret-for-the-tests-0123456789"
PASSIVE = (
    "stand",
    "no_insurance",
    "no_second_chance",
    "no_double_down",
    "house_way",
)


@dataclass
class Seat:
    """A player sitting at a table through the API."""

    client: TestClient
    table_id: int
    seat: int
    token: str
    player_id: int

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, path: str, body: Any = None, **headers: str) -> Any:
        return self.client.post(
            f"/tables/{self.table_id}{path}",
            json=body,
            headers={**self.headers, **headers},
        )


def passive_action(legal: list[str]) -> str:
    """The quietest legal decision (never a wager)."""
    for name in PASSIVE:
        if name in legal:
            return name
    return legal[0]


def finish_round(seat: Seat) -> None:
    """Deal the seat's table, then decide passively to the end."""
    state = seat.post("/deal").json()
    for _ in range(60):
        pending = state["round"]["pending"]
        if pending is None or state["round"]["status"] == "betting":
            return
        r = seat.post(
            "/actions",
            {
                "seat": pending["seat"],
                "action": passive_action(pending["legal"]),
            },
        )
        assert r.status_code == 200, r.json()
        state = r.json()
    raise AssertionError(state)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'croupier.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url, operator_token=OPERATOR)
    with TestClient(app) as test_client:
        yield test_client


def balanced_books(
    client: httpx.Client, token: str = OPERATOR
) -> dict[str, Any]:
    """``GET /ledger``, checked: ok; balances + layout = deposits + nets."""
    books = client.get(
        "/ledger", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert books["ok"], books
    assert books["balances"] + books["on_layout"] == (
        books["deposits"] + books["players_net"]
    )
    return dict(books)


class SeededStream:
    """Stands in for the table's CSPRNG: draws from a seeded stream.

    Describes itself as the CSPRNG does, so that the records are the
    server's own in every field; patch it in for
    ``croupier.server.tables.SecureRng`` to fix a table's shoe orders.
    """

    def __init__(self, source: random.Random) -> None:
        self._source = source

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` from the stream."""
        return self._source.randrange(n)

    def describe(self) -> dict[str, object]:
        """As :class:`~croupier.rng.SecureRng` describes itself."""
        return SecureRng().describe()


def export_verifies(db_url: str, tmp_path: Path) -> Path:
    """``croupier history export`` of the database, then ``verify``: all
    rounds conform. The exported file."""
    out = tmp_path / "day.jsonl"
    runner = CliRunner()
    export = ["history", "export", "--db", db_url, "--out", str(out)]
    assert runner.invoke(app, export).exit_code == 0
    verified = runner.invoke(app, ["verify", str(out)])
    assert verified.exit_code == 0, verified.output
    assert "0 with a deviation" in verified.output
    return out


def operator(client: TestClient) -> dict[str, str]:
    del client
    return {"Authorization": f"Bearer {OPERATOR}"}


def table_of(client: TestClient, game: str) -> int:
    for table in client.get("/tables").json():
        if table["game"] == game:
            return int(table["id"])
    raise AssertionError(f"no table for {game}")


def seat_player(
    client: TestClient, game: str, seat: int, name: str = "p"
) -> Seat:
    created = client.post("/players", json={"name": name}).json()
    table_id = table_of(client, game)
    seated = Seat(client, table_id, seat, created["token"], created["id"])
    response = seated.post("/seats", {"seat": seat})
    assert response.status_code == 200, response.json()
    return seated


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server for the session (see tests/server/postgres.py)."""
    yield from postgres_or_skip()


@pytest.fixture
def pg_url(postgres_server: str) -> str:
    """A new, empty PostgreSQL database for one test."""
    return new_database(postgres_server)


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """uvicorn.run replaced: a command that gets so far records it."""
    uvicorn = pytest.importorskip("uvicorn")
    started: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.append(a))
    return started
