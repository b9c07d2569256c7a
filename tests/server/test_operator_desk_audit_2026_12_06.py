"""The operator desk's API under careless and hostile use (2026-12-06).

A void that names its round voids nothing else (D137), a deposit retried
with its Idempotency-Key is credited once (D138), and a table's pacing
settings are JSON numbers, never strings or booleans. Each refusal
leaves the balances, the layout and the books as they were: the figures
are checked against the amounts the test wagered and deposited itself.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import (
    OPERATOR,
    Seat,
    balanced_books,
    finish_round,
    operator,
    seat_player,
    table_of,
)

from croupier.server.app import create_app
from croupier.server.auth import hash_token, new_token

START = 100_000
"""A self-registered player's balance (create_app's default)."""


def balance(client: TestClient, seat: Seat) -> int:
    """The player's balance as ``GET /me`` gives it."""
    return int(client.get("/me", headers=seat.headers).json()["balance"])


def summary(client: TestClient, table_id: int) -> dict[str, Any]:
    """The table as ``GET /tables`` lists it."""
    for table in client.get("/tables").json():
        if table["id"] == table_id:
            return dict(table)
    raise AssertionError(table_id)


def void(client: TestClient, table_id: int, **body: Any) -> Any:
    return client.post(
        f"/tables/{table_id}/void",
        json={"reason": "pit reports a misdeal", **body},
        headers=operator(client),
    )


def test_d137_a_void_for_a_round_no_longer_in_play_voids_nothing(
    client: TestClient,
) -> None:
    ann = seat_player(client, "midibaccarat", 1, "ann")
    table = ann.table_id
    assert summary(client, table)["in_play"] is None  # nothing to void
    r = ann.post("/wagers", {"seat": 1, "wager": "player", "amount": 500})
    assert r.status_code == 200, r.json()
    first = r.json()["round"]["id"]
    listed = summary(client, table)["in_play"]
    assert listed == {"round_id": first, "status": "betting", "on_layout": 500}

    r = void(client, table, round_id=first)
    assert r.status_code == 200, r.json()
    assert r.json()["voided"] == {
        "round_id": first,
        "table_id": table,
        "reason": "pit reports a misdeal",
        "returned": 500,
        "refunds": [
            {
                "player_id": ann.player_id,
                "name": "ann",
                "seat": 1,
                "amount": 500,
            }
        ],
    }
    assert balance(client, ann) == START

    # the next round takes a wager; the first void is sent again (a
    # retry, a second press, a desk not refreshed): refused, not applied
    r = ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 700})
    assert r.status_code == 200, r.json()
    second = r.json()["round"]["id"]
    assert second != first
    again = void(client, table, round_id=first)
    assert again.status_code == 409, again.json()
    assert again.json()["error"] == "WrongPhaseError"
    message = again.json()["message"]
    assert f"round {first} was voided already" in message
    assert f"round {second} is in play" in message
    assert "D137" in message
    assert balance(client, ann) == START - 700
    assert summary(client, table)["in_play"]["round_id"] == second
    books = balanced_books(client)
    assert books["on_layout"] == 700

    # a round of another table is not this table's round either
    other = table_of(client, "double-back-jack")
    elsewhere = void(client, other, round_id=second)
    assert elsewhere.status_code == 409, elsewhere.json()
    said = elsewhere.json()["message"]
    assert f"round {second} is table {table}'s, not {other}'s" in said
    assert "no round is in play there" in said
    assert balanced_books(client)["on_layout"] == 700

    r = void(client, table, round_id=second)
    assert r.status_code == 200, r.json()
    assert r.json()["voided"]["returned"] == 700
    assert balance(client, ann) == START
    assert balanced_books(client)["on_layout"] == 0


def test_d138_a_deposit_retried_with_its_key_is_credited_once(
    client: TestClient,
) -> None:
    ann = seat_player(client, "midibaccarat", 1, "ann")
    deposits = balanced_books(client)["deposits"]
    url = f"/players/{ann.player_id}/deposits"
    headers = {**operator(client), "Idempotency-Key": "desk-deposit-1"}
    first = client.post(url, json={"amount": 2_900}, headers=headers)
    assert first.status_code == 200, first.json()
    assert first.json() == {"id": ann.player_id, "balance": START + 2_900}
    # the answer was lost: the desk sends the same deposit again
    again = client.post(url, json={"amount": 2_900}, headers=headers)
    assert again.status_code == 200, again.json()
    assert again.json() == first.json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert balance(client, ann) == START + 2_900
    assert balanced_books(client)["deposits"] == deposits + 2_900

    # the same key for another amount is a conflict, and credits nothing
    other = client.post(url, json={"amount": 5_000}, headers=headers)
    assert other.status_code == 409, other.json()
    assert other.json()["error"] == "IdempotencyConflictError"
    assert balance(client, ann) == START + 2_900

    # a player cannot replay the operator's key, nor deposit with it
    mine = client.post(
        url,
        json={"amount": 2_900},
        headers={**ann.headers, "Idempotency-Key": "desk-deposit-1"},
    )
    assert mine.status_code == 403, mine.json()

    # a refused deposit stores no answer: once allowed, the key credits
    key = {**operator(client), "Idempotency-Key": "desk-deposit-2"}
    missing = client.post(
        "/players/999/deposits", json={"amount": 100}, headers=key
    )
    assert missing.status_code == 404, missing.json()
    fresh = client.post(url, json={"amount": 100}, headers=key)
    assert fresh.status_code == 200, fresh.json()
    assert balance(client, ann) == START + 2_900 + 100
    # without a key each request is a deposit of its own, as before
    for _ in range(2):
        plain = client.post(url, json={"amount": 1}, headers=operator(client))
        assert plain.status_code == 200, plain.json()
    assert balance(client, ann) == START + 2_900 + 100 + 2
    assert balanced_books(client)["deposits"] == deposits + 2_900 + 100 + 2


def test_a_tables_pacing_settings_are_json_numbers(client: TestClient) -> None:
    before = len(client.get("/tables").json())
    for setting, value in (
        ("betting_seconds", True),
        ("betting_seconds", "5"),
        ("decision_seconds", False),
        ("decision_seconds", "30"),
        ("idle_seat_minutes", "5"),
        ("idle_seat_minutes", True),
        ("idle_rounds", True),
        ("idle_rounds", "3"),
    ):
        r = client.post(
            "/tables",
            json={"game": "midibaccarat", setting: value},
            headers=operator(client),
        )
        assert r.status_code == 422, (setting, value, r.json())
        assert f"body.{setting}" in r.json()["message"]
    assert len(client.get("/tables").json()) == before
    r = client.post(
        "/tables",
        json={"game": "midibaccarat", "betting_seconds": 5, "idle_rounds": 2},
        headers=operator(client),
    )
    assert r.status_code == 200, r.json()
    assert r.json()["settings"]["betting_seconds"] == 5
    assert r.json()["settings"]["idle_rounds"] == 2


def test_d32_an_expired_token_is_refused_as_expired(
    client: TestClient,
) -> None:
    """The operator's made-up token lasts a day: past it, the refusal says
    it expired, and when, on a read (the app) as on a deposit (the edge,
    which refuses a body with an unknown token before the app)."""
    ann = seat_player(client, "midibaccarat", 1, "ann")
    casino = client.app.state.casino  # type: ignore[attr-defined]
    expired_at = int(time.time()) - 3600
    token = new_token(expired_at)
    casino._set_token(1, hash_token(token))  # the operator's account
    when = datetime.fromtimestamp(expired_at, UTC).strftime("%Y-%m-%d %H:%M")
    headers = {"Authorization": f"Bearer {token}"}
    for reply in (
        client.get("/ledger", headers=headers),
        client.post(
            f"/players/{ann.player_id}/deposits",
            json={"amount": 100},
            headers=headers,
        ),
    ):
        assert reply.status_code == 401, reply.json()
        assert reply.json()["error"] == "NotAuthenticatedError"
        message = reply.json()["message"]
        assert f"expired at {when} UTC" in message, message
        assert "croupier token rotate" in message, message
    assert balance(client, ann) == START
    # a token the server never made is not said to have expired
    unknown = client.get("/ledger", headers={"Authorization": "Bearer nope"})
    assert unknown.status_code == 401
    assert "expired" not in unknown.json()["message"]


def test_d137_a_finished_or_unknown_round_is_named_as_such(
    client: TestClient,
) -> None:
    ann = seat_player(client, "midibaccarat", 1, "ann")
    table = ann.table_id
    r = ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 300})
    dealt = r.json()["round"]["id"]
    finish_round(ann)
    status = client.get(f"/rounds/{dealt}", headers=operator(client))
    assert status.json()["status"] == "over"
    after = balance(client, ann)
    books = balanced_books(client)
    for named, said in (
        (dealt, f"round {dealt} is over: a finished round stands"),
        (999_999, "there is no round 999999"),
    ):
        reply = void(client, table, round_id=named)
        assert reply.status_code == 409, reply.json()
        assert said in reply.json()["message"], reply.json()
        assert "no round is in play there" in reply.json()["message"]
    assert balance(client, ann) == after
    assert balanced_books(client) == books
    again = client.get(f"/rounds/{dealt}", headers=operator(client))
    assert again.json()["status"] == "over"


def test_d138_a_table_opened_again_with_its_key_is_opened_once(
    client: TestClient,
) -> None:
    before = [t["id"] for t in client.get("/tables").json()]
    body = {
        "game": "six-card-fortune-pai-gow",
        "name": "High limit",
        "min_bet": 2_500,
        "max_bet": 500_000,
        "betting_seconds": 45,
    }
    headers = {**operator(client), "Idempotency-Key": "open-high-limit"}
    first = client.post("/tables", json=body, headers=headers)
    assert first.status_code == 200, first.json()
    again = client.post("/tables", json=body, headers=headers)
    assert again.status_code == 200, again.json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.json()["id"] == first.json()["id"]
    after = [t["id"] for t in client.get("/tables").json()]
    assert after == [*before, first.json()["id"]]
    opened = summary(client, first.json()["id"])
    assert (opened["min_bet"], opened["max_bet"]) == (2_500, 500_000)
    assert opened["settings"]["betting_seconds"] == 45
    # the key for another table is a conflict; a refused table stores none
    other = client.post(
        "/tables", json={**body, "min_bet": 100}, headers=headers
    )
    assert other.status_code == 409, other.json()
    key = {**operator(client), "Idempotency-Key": "open-bad"}
    bad = client.post(
        "/tables", json={**body, "min_bet": 900_000}, headers=key
    )
    assert bad.status_code == 400, bad.json()
    assert bad.json()["error"] == "TableLimitError"
    assert [t["id"] for t in client.get("/tables").json()] == after
    # another name: "High limit" is the first table's (D157)
    good = client.post(
        "/tables", json={**body, "name": "High limit 2"}, headers=key
    )
    assert good.status_code == 200, good.json()
    assert good.json()["id"] not in after


@pytest.fixture(params=["sqlite", "postgresql"])
def either(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """A client of a server on SQLite, then on PostgreSQL (where
    several processes share one database)."""
    if request.param == "sqlite":
        url = f"sqlite:///{request.getfixturevalue('tmp_path') / 'race.db'}"
    else:
        url = request.getfixturevalue("pg_url")
    with TestClient(create_app(url, operator_token=OPERATOR)) as made:
        yield made


def _as_if_looked_before_the_other_committed(
    client: TestClient, monkeypatch: Any
) -> None:
    """The next lookup of a stored answer finds none, as a process that
    looked before another process's retry of the same key committed."""
    casino = client.app.state.casino  # type: ignore[attr-defined]
    real = casino.stored_response
    calls = {"n": 0}

    def stale(idem: Any, request: str) -> Any:
        calls["n"] += 1
        return None if calls["n"] == 1 else real(idem, request)

    monkeypatch.setattr(casino, "stored_response", stale)


def test_d138_a_deposit_answered_by_another_process_meanwhile_is_replayed(
    either: TestClient, monkeypatch: Any
) -> None:
    """Two processes take the same retried deposit: the second finds no
    answer, credits, and its answer's row meets the first's under the
    unique key. That credit is rolled back and the first's answer is
    given, once; before, the client got an error for a deposit made."""
    client = either
    ann = seat_player(client, "midibaccarat", 1, "ann")
    deposits = balanced_books(client)["deposits"]
    url = f"/players/{ann.player_id}/deposits"
    headers = {**operator(client), "Idempotency-Key": "desk-deposit-race"}
    first = client.post(url, json={"amount": 4_100}, headers=headers)
    assert first.status_code == 200, first.json()
    _as_if_looked_before_the_other_committed(client, monkeypatch)
    again = client.post(url, json={"amount": 4_100}, headers=headers)
    assert again.status_code == 200, again.json()
    assert again.json() == {"id": ann.player_id, "balance": START + 4_100}
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert balance(client, ann) == START + 4_100
    books = balanced_books(client)
    assert books["deposits"] == deposits + 4_100


def test_d138_a_table_opened_by_another_process_meanwhile_is_replayed(
    either: TestClient, monkeypatch: Any
) -> None:
    """As a deposit: the same key's second table is never opened."""
    client = either
    headers = {**operator(client), "Idempotency-Key": "desk-table-race"}
    body = {"game": "midibaccarat", "name": "Pit 4"}
    before = len(client.get("/tables").json())
    first = client.post("/tables", json=body, headers=headers)
    assert first.status_code == 200, first.json()
    _as_if_looked_before_the_other_committed(client, monkeypatch)
    again = client.post("/tables", json=body, headers=headers)
    assert again.status_code == 200, again.json()
    assert again.json()["id"] == first.json()["id"]
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert len(client.get("/tables").json()) == before + 1
    balanced_books(client)


def test_the_players_are_listed_a_page_at_a_time_and_found_by_name(
    client: TestClient,
) -> None:
    """A casino of many accounts: ``GET /players`` pages them newest
    first with the total in ``X-Total-Count``, finds a name by any part of it
    in any case (a ``%`` or ``_`` typed is that character) and lists
    the players alone with ``operators=false``; before, every account
    came at once and could not be searched."""
    names = [f"Ann {k}" for k in range(7)] + ["Bob", "50% Sam", "Jo_e"]
    made = {}
    for name in names:  # the operator's sign-ups are not rate limited
        r = client.post(
            "/players", json={"name": name}, headers=operator(client)
        )
        assert r.status_code == 200, r.json()
        made[name] = int(r.json()["id"])
    everyone = client.get("/players?limit=500", headers=operator(client))
    total = int(everyone.headers["X-Total-Count"])
    ids = [p["id"] for p in everyone.json()]
    assert ids == sorted(ids, reverse=True)
    assert set(made.values()) <= set(ids)
    seen: list[int] = []
    offset = 0
    while True:
        page = client.get(
            f"/players?limit=3&offset={offset}", headers=operator(client)
        )
        assert page.status_code == 200, page.json()
        assert int(page.headers["X-Total-Count"]) == total
        assert len(page.json()) <= 3
        seen += [p["id"] for p in page.json()]
        if "X-Next-Offset" not in page.headers:
            break
        offset = int(page.headers["X-Next-Offset"])
    assert seen == ids

    def found(query: str) -> list[str]:
        r = client.get(f"/players?{query}", headers=operator(client))
        assert r.status_code == 200, r.json()
        assert int(r.headers["X-Total-Count"]) == len(r.json())
        return [p["name"] for p in r.json()]

    assert found("name=aNN") == [f"Ann {k}" for k in reversed(range(7))]
    assert found("name=%25") == ["50% Sam"]
    assert found("name=_") == ["Jo_e"]
    assert found("name=nobody") == []
    players_only = found("operators=false&limit=500")
    operators = [p["name"] for p in everyone.json() if p["operator"]]
    assert operators
    assert not set(operators) & set(players_only)
    assert len(players_only) == total - len(operators)
    refused = client.get("/players?limit=0", headers=operator(client))
    assert refused.status_code == 422, refused.json()
