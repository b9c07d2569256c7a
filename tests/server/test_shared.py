"""Several server processes on one PostgreSQL database.

Two applications built on the same database stand for two processes
(each with its own memory, connection pool and LISTEN connection):
accounts, tables, rounds and balances opened on one are served by the
other, the shoe goes on when a table moves between them, a WebSocket on
one sees what is done on the other, and concurrent requests at one
table are driven one at a time. The tests in ``test_shared_processes``
do the same with real processes and kill one of them.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.exc import DBAPIError
from tests.server.conftest import OPERATOR, balanced_books, passive_action

from croupier.server import db, shared
from croupier.server.app import create_app
from croupier.server.shared import lock_table

OP = {"Authorization": f"Bearer {OPERATOR}"}
WAGERS = (
    "player",
    "banker",
    "tie",
    "perfect_pairs_player",
    "perfect_pairs_banker",
)


@pytest.fixture
def pair(pg_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two server 'processes' on one new PostgreSQL database."""
    first = create_app(pg_url, operator_token=OPERATOR)
    second = create_app(pg_url, operator_token=OPERATOR)
    with TestClient(first) as a, TestClient(second) as b:
        yield a, b


def _table(client: TestClient, game: str) -> int:
    return next(
        int(t["id"]) for t in client.get("/tables").json() if t["game"] == game
    )


def _player(
    client: TestClient, name: str, balance: int | None = None
) -> dict[str, str]:
    body: dict[str, Any] = {"name": name}
    if balance is not None:
        body["balance"] = balance
    made = client.post("/players", json=body, headers=OP).json()
    return {"Authorization": f"Bearer {made['token']}"}


def _finish_round(
    clients: tuple[TestClient, ...], table: int, seat: int, who: dict[str, str]
) -> dict[str, Any]:
    """Decide passively until the round is over, alternating processes."""
    for step in range(40):
        client = clients[step % len(clients)]
        state = client.get(f"/tables/{table}", headers=who).json()
        pending = state["round"]["pending"] if state["round"] else None
        if state["round"]["status"] == "betting" and state["last"]:
            return dict(state["last"])
        if pending is None:
            continue
        assert pending["seat"] == seat, pending
        r = client.post(
            f"/tables/{table}/actions",
            json={"seat": seat, "action": passive_action(pending["legal"])},
            headers=who,
        )
        assert r.status_code == 200, r.json()
    raise AssertionError("the round did not end")


def test_shared_round_played_through_two_processes(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    assert a.get("/health").json()["shared"] is True
    origins = {c.get("/health").json()["origin"] for c in (a, b)}
    assert len(origins) == 2
    table = _table(a, "double-back-jack")
    assert table == _table(b, "double-back-jack")
    who = _player(a, "ann")  # opened on a, known to b from storage
    assert b.post(f"/tables/{table}/seats", json={"seat": 1}, headers=who)
    r = a.post(
        f"/tables/{table}/wagers",
        json={"seat": 1, "wager": "blackjack", "amount": 500},
        headers=who,
    )
    assert r.status_code == 200, r.json()
    assert b.get("/me", headers=who).json()["balance"] == 100_000 - 500
    r = b.post(f"/tables/{table}/deal", headers=who)
    assert r.status_code == 200, r.json()
    last = _finish_round((a, b), table, 1, who)
    assert last["settlements"], last
    net = sum(s["net"] for s in last["settlements"])
    for client in (a, b):
        assert client.get("/me", headers=who).json()["balance"] == (
            100_000 + net
        )
        assert balanced_books(client)["players_net"] == net
    recalled = [
        c.get(f"/rounds/{last['id']}", headers=OP).json() for c in (a, b)
    ]
    assert recalled[0] == recalled[1]


def test_shared_shoe_goes_on_when_the_table_moves(
    pair: tuple[TestClient, TestClient], pg_url: str
) -> None:
    a, b = pair
    table = _table(a, "midibaccarat")
    who = _player(a, "bo")
    a.post(f"/tables/{table}/seats", json={"seat": 1}, headers=who)
    for n in range(6):
        here, there = (a, b) if n % 2 else (b, a)
        r = here.post(
            f"/tables/{table}/wagers",
            json={"seat": 1, "wager": "banker", "amount": 1000},
            headers=who,
        )
        assert r.status_code == 200, r.json()
        r = there.post(f"/tables/{table}/deal", headers=who)
        assert r.status_code == 200, r.json()
    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(db.RoundRow.shoe, db.RoundRow.shoe_no)
                .where(db.RoundRow.table_id == table)
                .order_by(db.RoundRow.id)
            ).all()
    finally:
        engine.dispose()
    assert len(rows) == 7  # six played, the seventh open for wagers
    assert {shoe_no for _stack, shoe_no in rows} == {1}
    for (before, _), (after, _) in itertools.pairwise(rows):
        # each round starts where the last one left the shoe
        assert len(after) < len(before)
        assert before.endswith(after)
    balanced_books(a)


def test_shared_balance_is_read_from_storage(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    who = _player(a, "cy", balance=1000)
    bj, bac = _table(a, "double-back-jack"), _table(a, "midibaccarat")
    a.post(f"/tables/{bj}/seats", json={"seat": 1}, headers=who)
    b.post(f"/tables/{bac}/seats", json={"seat": 1}, headers=who)
    b.get(f"/tables/{bac}", headers=who)  # b holds the balance as 1000
    r = a.post(
        f"/tables/{bj}/wagers",
        json={"seat": 1, "wager": "blackjack", "amount": 800},
        headers=who,
    )
    assert r.status_code == 200, r.json()
    r = b.post(
        f"/tables/{bac}/wagers",
        json={"seat": 1, "wager": "banker", "amount": 800},
        headers=who,
    )
    assert r.status_code == 402, r.json()
    assert r.json()["error"] == "InsufficientBalanceError"
    assert b.get("/me", headers=who).json()["balance"] == 200
    balanced_books(b)


def test_shared_websocket_sees_changes_made_by_another_process(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    table = _table(a, "21-baccarat")
    who = _player(a, "di")
    a.post(f"/tables/{table}/seats", json={"seat": 2}, headers=who)
    token = who["Authorization"].split()[1]
    got: list[dict[str, Any]] = []
    with b.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
        got.append(ws.receive_json())  # the table as it is
        r = a.post(
            f"/tables/{table}/wagers",
            json={"seat": 2, "wager": "player", "amount": 700},
            headers=who,
        )
        assert r.status_code == 200, r.json()
        reader = threading.Thread(target=lambda: got.append(ws.receive_json()))
        reader.start()
        reader.join(timeout=15)
        assert not reader.is_alive(), "no push reached the other process"
    stakes = got[-1]["data"]["round"]["stakes"]
    assert [s["amount"] for s in stakes] == [700], got[-1]
    assert got[-1]["data"]["you"]["balance"] == 100_000 - 700


def test_shared_concurrent_requests_drive_a_table_one_at_a_time(
    pair: tuple[TestClient, TestClient], pg_url: str
) -> None:
    a, b = pair
    table = _table(a, "midibaccarat")
    players = []
    for seat in range(1, 7):
        who = _player(a, f"p{seat}")
        client = (a, b)[seat % 2]
        r = client.post(
            f"/tables/{table}/seats", json={"seat": seat}, headers=who
        )
        assert r.status_code == 200, r.json()
        players.append((client, seat, who))
    codes: list[int] = []

    def bet(client: TestClient, seat: int, who: dict[str, str]) -> None:
        for wager in WAGERS:
            r = client.post(
                f"/tables/{table}/wagers",
                json={"seat": seat, "wager": wager, "amount": 100},
                headers=who,
            )
            codes.append(r.status_code)

    threads = [threading.Thread(target=bet, args=p) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes == [200] * 30
    state = b.get(f"/tables/{table}").json()
    assert sum(s["amount"] for s in state["round"]["stakes"]) == 3000
    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            version = conn.execute(
                select(db.GameTableRow.version).where(
                    db.GameTableRow.id == table
                )
            ).scalar_one()
            inputs = conn.execute(
                select(db.RoundInputRow.n)
                .join(db.RoundRow, db.RoundRow.id == db.RoundInputRow.round_id)
                .where(db.RoundRow.table_id == table)
                .order_by(db.RoundInputRow.n)
            ).scalars()
            numbers = list(inputs)
    finally:
        engine.dispose()
    assert numbers == list(range(1, 31))  # no step lost, none doubled
    assert version >= 36  # 6 seats + 30 wagers, each counted once
    assert balanced_books(a) == balanced_books(b)


def test_shared_a_hung_lock_holder_loses_the_table(pg_url: str) -> None:
    app = create_app(pg_url, operator_token=OPERATOR)
    table = next(iter(app.state.casino.tables))
    hung = db.make_engine(pg_url, idle_in_transaction_ms=300)
    other = db.make_engine(pg_url)
    try:
        frozen = hung.connect()
        frozen.begin()
        lock_table(frozen, table)  # ...and the process stops here
        time.sleep(1.0)
        with other.begin() as conn:
            conn.execute(text("SET LOCAL lock_timeout = '3s'"))
            version, _ = lock_table(conn, table)  # not blocked for ever
        assert version == app.state.casino.tables[table].stored_version
        with pytest.raises(DBAPIError, match="idle-in-transaction"):
            frozen.execute(text("SELECT 1"))
    finally:
        hung.dispose()
        other.dispose()
        app.state.casino.dealer.close_writer()
        app.state.casino.engine.dispose()


def test_shared_a_step_that_fails_to_commit_leaves_nothing_behind(
    pair: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _b = pair
    table = _table(a, "midibaccarat")
    who = _player(a, "ed")
    a.post(f"/tables/{table}/seats", json={"seat": 1}, headers=who)
    real = shared.bump_version
    calls = []

    def failing(*args: Any) -> int:
        calls.append(args)
        raise RuntimeError("the database went away at commit")

    monkeypatch.setattr(shared, "bump_version", failing)
    # an unexpected error: the edge's JSON 500 with an incident id (D31)
    failed = a.post(
        f"/tables/{table}/wagers",
        json={"seat": 1, "wager": "banker", "amount": 900},
        headers=who,
    )
    assert failed.status_code == 500, failed.text
    assert failed.json()["error"] == "InternalServerError"
    assert calls
    monkeypatch.setattr(shared, "bump_version", real)
    state = a.get(f"/tables/{table}", headers=who).json()
    assert state["round"]["stakes"] == []  # memory was rebuilt, not kept
    assert state["you"]["balance"] == 100_000
    r = a.post(
        f"/tables/{table}/wagers",
        json={"seat": 1, "wager": "banker", "amount": 900},
        headers=who,
    )
    assert r.status_code == 200, r.json()
    assert balanced_books(a)["on_layout"] == 900


def test_shared_a_retry_that_waited_for_the_lock_is_replayed(
    pair: tuple[TestClient, TestClient],
    pg_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A retry on b looks its key up under the table's lock only."""
    a, b = pair
    table = _table(a, "midibaccarat")
    who = _player(a, "fay")
    a.post(f"/tables/{table}/seats", json={"seat": 1}, headers=who)
    key = {**who, "Idempotency-Key": "fay-1"}
    body = {"seat": 1, "wager": "player", "amount": 400}
    first = a.post(f"/tables/{table}/wagers", json=body, headers=key)
    assert first.status_code == 200, first.json()
    casino = b.app.state.casino  # type: ignore[attr-defined]
    real = casino.stored_response
    looks = []

    def late(idem: Any, request: str) -> Any:
        # inside the turn's transaction, which holds the table's lock:
        # no look before it could race ahead of a's commit
        looks.append(casino.dealer.in_transaction)
        return real(idem, request)

    monkeypatch.setattr(casino, "stored_response", late)
    retry = b.post(f"/tables/{table}/wagers", json=body, headers=key)
    assert looks == [True]  # looked once, under the table's lock
    assert retry.status_code == 200, retry.json()
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()
    state = b.get(f"/tables/{table}").json()
    assert [s["amount"] for s in state["round"]["stakes"]] == [400]
    assert balanced_books(b)["on_layout"] == 400


def test_shared_a_deposit_shows_at_a_table_another_process_serves(
    pair: tuple[TestClient, TestClient],
) -> None:
    """The cashier credits a player through one process; his table's
    WebSocket on the other pushes the new balance at once (it was pushed
    to the first process's clients only)."""
    a, b = pair
    table = _table(a, "midibaccarat")
    who = _player(a, "ed", balance=1000)
    a.post(f"/tables/{table}/seats", json={"seat": 3}, headers=who)
    pid = a.get("/me", headers=who).json()["id"]
    token = who["Authorization"].split()[1]
    got: list[dict[str, Any]] = []
    with b.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
        got.append(ws.receive_json())  # the table as it is
        assert got[0]["data"]["you"]["balance"] == 1000
        r = a.post(
            f"/players/{pid}/deposits", json={"amount": 2500}, headers=OP
        )
        assert r.status_code == 200, r.json()
        reader = threading.Thread(target=lambda: got.append(ws.receive_json()))
        reader.start()
        reader.join(timeout=15)
        assert not reader.is_alive(), "no push reached the other process"
    assert got[-1]["data"]["you"]["balance"] == 3500, got[-1]["data"]["you"]
    balanced_books(b)


def test_shared_d194_a_shoe_ended_on_one_process_is_ended_on_every_one(
    pair: tuple[TestClient, TestClient], pg_url: str
) -> None:
    """The operator's end of a shoe (D194) through two processes: a stake
    placed through one process stops the other from ending the shoe;
    once the round is over, both asked at once to end the same shoe end
    it once (``shoe`` guards the second, D137's pattern); both then
    serve the new shoe's round, and the withdrawn one is gone from both."""
    a, b = pair
    table = _table(a, "midibaccarat")
    who = _player(a, "di")
    assert (
        a.post(
            f"/tables/{table}/seats", json={"seat": 1}, headers=who
        ).status_code
        == 200
    )
    bet = {"seat": 1, "wager": "banker", "amount": 1000}
    for client in (a, b):  # a round dealt from the shoe, for each process
        assert (
            client.post(
                f"/tables/{table}/wagers", json=bet, headers=who
            ).status_code
            == 200
        )
        assert (
            client.post(f"/tables/{table}/deal", headers=who).status_code
            == 200
        )

    def shoe_of(client: TestClient) -> int:
        row = next(t for t in client.get("/tables").json() if t["id"] == table)
        return int(row["shoe"]["number"])

    shoe = shoe_of(a)
    assert shoe_of(b) == shoe
    r = a.post(f"/tables/{table}/wagers", json=bet, headers=who)
    assert r.status_code == 200, r.json()
    in_play = a.get(f"/tables/{table}").json()["round"]["id"]
    end = {"reason": "a marked card", "shoe": shoe}
    refused = b.post(f"/tables/{table}/shoe/end", json=end, headers=OP)
    assert refused.status_code == 409, refused.json()
    assert (
        f"round {in_play} is in play at this table"
        in (refused.json()["message"])
    )
    assert shoe_of(a) == shoe_of(b) == shoe
    assert b.post(f"/tables/{table}/deal", headers=who).status_code == 200
    waiting = b.get(f"/tables/{table}").json()["round"]["id"]

    answers: list[Any] = []

    def end_shoe(client: TestClient) -> None:
        answers.append(
            client.post(f"/tables/{table}/shoe/end", json=end, headers=OP)
        )

    threads = [threading.Thread(target=end_shoe, args=(c,)) for c in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status_code for r in answers) == [200, 409]
    (ended,) = [r.json() for r in answers if r.status_code == 200]
    (late,) = [r.json() for r in answers if r.status_code == 409]
    assert (
        f"shoe {shoe} is no longer in play at this table" in (late["message"])
    )
    done = ended["shoe_ended"]
    assert (done["shoe"], done["new_shoe"]) == (shoe, shoe + 1)
    assert done["withdrawn"] == waiting
    for client in (a, b):
        assert shoe_of(client) == shoe + 1
        state = client.get(f"/tables/{table}").json()
        assert state["round"]["id"] == done["round_id"]
        gone = client.get(f"/rounds/{waiting}", headers=OP)
        assert gone.status_code == 410, gone.json()  # withdrawn (D198)
        assert gone.json()["error"] == "RoundWithdrawnError"
    # the new shoe's round is played through either process
    assert (
        b.post(f"/tables/{table}/wagers", json=bet, headers=who).status_code
        == 200
    )
    assert a.post(f"/tables/{table}/deal", headers=who).status_code == 200
    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            steps = conn.execute(
                select(func.count())
                .select_from(db.EventRow)
                .where(db.EventRow.data_json.contains('"shoe_ended"'))
            ).scalar_one()
            shoes = conn.execute(
                select(db.RoundRow.shoe_no)
                .where(db.RoundRow.table_id == table)
                .order_by(db.RoundRow.id)
            ).scalars()
            numbers = list(shoes)
    finally:
        engine.dispose()
    assert steps == 1  # one end, stored once
    assert numbers == [shoe] * 3 + [shoe + 1] * 2
    assert balanced_books(a) == balanced_books(b)
