"""D198: a withdrawn round's id is answered as withdrawn; refusals cite
their decision.

When the operator ends a shoe between rounds (D194) the round that
waited for wagers on the old shoe is deleted. A client that still holds
its id (the recall, the void with ``round_id``) is told that the round
was withdrawn, when and for what (410 ``RoundWithdrawnError``, nothing
changed), by any process of the database and after a restart, on SQLite
and on PostgreSQL; an id never given is still 404. Every refusal whose
rule is a project decision carries that decision's id in ``ref``
("D137", "D194", ...); ``ref`` stays null where no rule applies. Each
test here fails without D198 (the withdrawn id answered 404, the refs
null).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from tests.server.conftest import (
    OPERATOR,
    Seat,
    balanced_books,
    export_verifies,
    finish_round,
    operator,
    seat_player,
)

from croupier.hhf.format import HandHistory
from croupier.server.app import create_app
from croupier.server.auth import hash_token, new_token
from croupier.server.edge import RateLimits
from croupier.server.errors import TableLimitError, TableSettingError
from croupier.server.tables import TableSettings, checked_limits

GAME = "midibaccarat"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest) -> str:
    """A new database: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{request.getfixturevalue('tmp_path') / 'd198.db'}"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def server(url: str) -> Iterator[TestClient]:
    """A server on :func:`url`'s database."""
    with TestClient(create_app(url, operator_token=OPERATOR)) as made:
        yield made


def _end(client: TestClient, table: int, **body: Any) -> Any:
    return client.post(
        f"/tables/{table}/shoe/end",
        json={"reason": "card found marked", **body},
        headers=operator(client),
    )


def _void(client: TestClient, table: int, **body: Any) -> Any:
    return client.post(
        f"/tables/{table}/void",
        json={"reason": "pit reports a misdeal", **body},
        headers=operator(client),
    )


def _played(client: TestClient) -> Seat:
    """Ann at the Midibaccarat table, one round played."""
    ann = seat_player(client, GAME, 1, "ann")
    r = ann.post("/wagers", {"seat": 1, "wager": "player", "amount": 500})
    assert r.status_code == 200, r.json()
    finish_round(ann)
    return ann


def _withdraw(
    client: TestClient, table: int, *, naming_shoe: bool = True
) -> tuple[int, int, int]:
    """The operator ends ``table``'s shoe while its next round waits (the
    body names the shoe, or not): the round withdrawn, the shoe ended and
    the round opened on the new shoe."""
    state = client.get(f"/tables/{table}").json()
    waiting = int(state["round"]["id"])
    shoe = int(state["table"]["shoe"]["number"])
    r = _end(client, table, **({"shoe": shoe} if naming_shoe else {}))
    assert r.status_code == 200, r.json()
    return waiting, shoe, int(r.json()["round"]["id"])


def _counts(url: str) -> tuple[int, ...]:
    """The rows of rounds, events and transactions, and the rounds' sum
    of ids: what a refusal must leave as it was."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return tuple(
                int(conn.execute(text(sql)).scalar_one())
                for sql in (
                    "SELECT count(*) FROM rounds",
                    "SELECT count(*) FROM events",
                    "SELECT count(*) FROM transactions",
                    "SELECT coalesce(sum(id), 0) FROM rounds",
                )
            )
    finally:
        engine.dispose()


def _withdrawn_said(gone: int, shoe: int, table: int, nxt: int) -> str:
    return (
        f"round {gone} was withdrawn when the operator ended shoe {shoe} "
        f"at table {table} (D194); its table's next round is {nxt}"
    )


def _refused_as_withdrawn(reply: Any, said: str) -> None:
    assert reply.status_code == 410, reply.json()
    assert reply.json() == {
        "error": "RoundWithdrawnError",
        "ref": "D198",
        "message": said,
    }


def test_d198_every_route_that_takes_a_round_id_answers_it_withdrawn(
    server: TestClient, url: str
) -> None:
    ann = _played(server)
    table = ann.table_id
    waiting, shoe, nxt = _withdraw(server, table)
    assert nxt != waiting
    said = _withdrawn_said(waiting, shoe, table, nxt)
    before = _counts(url)
    books = balanced_books(server)

    # the recall, to the operator and to a player (no one's stake was in
    # it, and its id was shown to every client of the table)
    _refused_as_withdrawn(
        server.get(f"/rounds/{waiting}", headers=operator(server)), said
    )
    _refused_as_withdrawn(
        server.get(f"/rounds/{waiting}", headers=ann.headers), said
    )
    # anonymous: the recall needs a token first (D33), as before
    anonymous = server.get(f"/rounds/{waiting}")
    assert anonymous.status_code == 401, anonymous.json()
    # the void that names it, at its table or another: nothing voided
    r = ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 700})
    assert r.status_code == 200, r.json()
    assert r.json()["round"]["id"] == nxt
    staked = _counts(url)
    other = next(
        t["id"] for t in server.get("/tables").json() if t["id"] != table
    )
    for at in (table, other):
        _refused_as_withdrawn(
            _void(server, at, round_id=waiting),
            f"{said}; nothing was voided",
        )
    assert _counts(url) == staked
    listed = {t["id"]: t for t in server.get("/tables").json()}
    assert listed[table]["in_play"] == {
        "round_id": nxt,
        "status": "betting",
        "on_layout": 700,
    }
    assert balanced_books(server)["on_layout"] == books["on_layout"] + 700
    assert staked[0] == before[0]  # no round opened or deleted

    # an id never given is not found, as before
    never = nxt + 1000
    unknown = server.get(f"/rounds/{never}", headers=operator(server))
    assert unknown.status_code == 404, unknown.json()
    assert unknown.json()["error"] == "NotFoundError"
    assert _void(server, table, round_id=never).status_code == 409


def test_d198_a_server_started_again_answers_it_withdrawn(url: str) -> None:
    with TestClient(create_app(url, operator_token=OPERATOR)) as first:
        ann = _played(first)
        table = ann.table_id
        waiting, shoe, nxt = _withdraw(first, table, naming_shoe=False)
    with TestClient(create_app(url, operator_token=OPERATOR)) as again:
        said = _withdrawn_said(waiting, shoe, table, nxt)
        _refused_as_withdrawn(
            again.get(f"/rounds/{waiting}", headers=operator(again)), said
        )
        _refused_as_withdrawn(
            _void(again, table, round_id=waiting),
            f"{said}; nothing was voided",
        )


def test_d198_every_process_answers_it_withdrawn(pg_url: str) -> None:
    """Two server processes on one PostgreSQL database: the shoe ended
    through one, the other answers the withdrawn id from the database."""
    first = create_app(pg_url, operator_token=OPERATOR)
    second = create_app(pg_url, operator_token=OPERATOR)
    with TestClient(first) as a, TestClient(second) as b:
        ann = _played(a)
        table = ann.table_id
        # the other process has served the table: it holds it in memory
        assert b.get(f"/tables/{table}").status_code == 200
        waiting, shoe, nxt = _withdraw(a, table)
        said = _withdrawn_said(waiting, shoe, table, nxt)
        _refused_as_withdrawn(
            b.get(f"/rounds/{waiting}", headers=operator(b)), said
        )
        _refused_as_withdrawn(
            _void(b, table, round_id=waiting), f"{said}; nothing was voided"
        )


def test_d198_a_shoe_ended_twice_names_both_rounds_withdrawn(
    client: TestClient,
) -> None:
    """The round opened on the new shoe, withdrawn in turn by a second
    end, hands its step on: both ids are answered, each with its shoe,
    and the table's next round is the one that stands."""
    ann = _played(client)
    table = ann.table_id
    first, shoe, second = _withdraw(client, table)
    r = _end(client, table, shoe=shoe + 1)
    assert r.status_code == 200, r.json()
    third = r.json()["round"]["id"]
    assert r.json()["shoe_ended"]["withdrawn"] == second
    for gone, ended in ((first, shoe), (second, shoe + 1)):
        _refused_as_withdrawn(
            client.get(f"/rounds/{gone}", headers=operator(client)),
            _withdrawn_said(gone, ended, table, third),
        )


def test_d198_the_step_names_the_withdrawn_round_in_the_record(
    client: TestClient, db_url: str, tmp_path: Path
) -> None:
    """``shoe_ended`` carries ``withdrawn``: exported, verified, known to
    the CHH schema (an id, or null when no round waited)."""
    ann = _played(client)
    table = ann.table_id
    waiting = client.get(f"/tables/{table}").json()["round"]["id"]
    r = _end(client, table)
    assert r.status_code == 200, r.json()
    step = r.json()["round"]["events"][-1]
    assert (step["type"], step["withdrawn"]) == ("shoe_ended", waiting)
    r = ann.post("/wagers", {"seat": 1, "wager": "player", "amount": 500})
    assert r.status_code == 200, r.json()
    finish_round(ann)
    out = export_verifies(db_url, tmp_path)
    lines = out.read_text(encoding="utf-8").splitlines()
    record = next(
        json.loads(line)
        for line in lines
        if any(
            s.get("type") == "shoe_ended"
            for s in json.loads(line).get("table_steps", [])
        )
    )
    [kept] = [s for s in record["table_steps"] if s["type"] == "shoe_ended"]
    assert kept["withdrawn"] == waiting
    for allowed in (None, 7):
        kept["withdrawn"] = allowed
        HandHistory.loads(json.dumps(record))
    for wrong in ("seven", 0, 1.5):
        kept["withdrawn"] = wrong
        with pytest.raises(ValueError, match="withdrawn"):
            HandHistory.loads(json.dumps(record))


def _refusal(reply: Any, status: int, error: str, ref: str | None) -> str:
    body = reply.json()
    assert (reply.status_code, body["error"], body["ref"]) == (
        status,
        error,
        ref,
    ), body
    return str(body["message"])


def test_d198_a_refusal_by_a_decision_cites_it_in_ref(
    client: TestClient,
) -> None:
    ann = _played(client)
    table = ann.table_id
    op = operator(client)
    # the void (D29, D137)
    said = _refusal(_void(client, table), 409, "WrongPhaseError", "D29")
    assert said == "no round is in play at this table"
    said = _refusal(
        _void(client, table, round_id=99_999), 409, "WrongPhaseError", "D137"
    )
    assert said.endswith("nothing was voided (D137)"), said
    said = _refusal(
        ann.post("/void", {"reason": "mine"}), 403, "NotOperatorError", "D29"
    )
    # the end of a shoe (D194)
    shoe = client.get(f"/tables/{table}").json()["table"]["shoe"]["number"]
    said = _refusal(
        _end(client, table, shoe=shoe + 5), 409, "WrongPhaseError", "D194"
    )
    assert said.endswith("nothing was ended (D194)"), said
    _refusal(
        ann.post("/shoe/end", {"reason": "mine"}),
        403,
        "NotOperatorError",
        "D194",
    )
    r = ann.post("/wagers", {"seat": 1, "wager": "player", "amount": 500})
    assert r.status_code == 200, r.json()
    _refusal(_end(client, table), 409, "WrongPhaseError", "D194")
    # closing the betting without a wager (D27)
    bob = seat_player(client, GAME, 2, "bob")
    _refusal(bob.post("/ready", {"seat": 2}), 409, "NoWagerError", "D27")
    # names: a player's (D31), a table's (D157)
    said = _refusal(
        client.post("/players", json={"name": "ANN"}),
        409,
        "NameTakenError",
        "D31",
    )
    name = client.get("/tables").json()[0]["name"]
    _refusal(
        client.post(
            "/tables",
            json={"game": GAME, "name": name.upper()},
            headers=op,
        ),
        409,
        "TableNameTakenError",
        "D157",
    )
    # an option the regulation fixes is a what-if, not a table (D97)
    _refusal(
        client.post(
            "/tables",
            json={
                "game": "double-back-jack",
                "rules": {"split_aces_may_draw": False},
            },
            headers=op,
        ),
        400,
        "RulesError",
        "D97",
    )
    # an Idempotency-Key used again for another deposit (D138)
    key = {**op, "Idempotency-Key": "cash-1"}
    deposit = f"/players/{ann.player_id}/deposits"
    assert client.post(deposit, json={"amount": 100}, headers=key).is_success
    _refusal(
        client.post(deposit, json={"amount": 200}, headers=key),
        409,
        "IdempotencyConflictError",
        "D138",
    )
    # who recalls which rounds (D33)
    dealt = r.json()["round"]["id"]
    _refusal(
        client.get(f"/rounds/{dealt}"), 401, "NotAuthenticatedError", "D33"
    )
    _refusal(
        client.get("/rounds/99999", headers=bob.headers),
        404,
        "NotFoundError",
        "D33",
    )
    # an expired token (D32), at the app and at the edge; an unknown one
    # follows no rule: null
    casino = client.app.state.casino  # type: ignore[attr-defined]
    token = new_token(int(time.time()) - 3600)
    casino._set_token(bob.player_id, hash_token(token))
    expired = {"Authorization": f"Bearer {token}"}
    _refusal(
        client.get("/me", headers=expired), 401, "NotAuthenticatedError", "D32"
    )
    _refusal(
        client.post(
            f"/tables/{table}/seats", json={"seat": 3}, headers=expired
        ),
        401,
        "NotAuthenticatedError",
        "D32",
    )
    nope = {"Authorization": "Bearer nope"}
    _refusal(
        client.get("/me", headers=nope), 401, "NotAuthenticatedError", None
    )
    # a body above the route's limit (D30); JSON that is not JSON: null
    _refusal(
        ann.post("/wagers", {"seat": 1, "pad": "x" * 8192}),
        413,
        "BodyTooLargeError",
        "D30",
    )
    malformed = client.post(
        f"/tables/{table}/wagers",
        content=b"{not json",
        headers={**ann.headers, "Content-Type": "application/json"},
    )
    _refusal(malformed, 422, "RequestValidationError", None)


def test_d198_too_many_requests_cite_the_rate_limits(db_url: str) -> None:
    app = create_app(
        db_url,
        operator_token=OPERATOR,
        rate_limits=RateLimits(register="1/minute", play=None),
    )
    with TestClient(app) as client:
        assert client.post("/players", json={"name": "p0"}).is_success
        _refusal(
            client.post("/players", json={"name": "p1"}),
            429,
            "RateLimitedError",
            "D32",
        )


@pytest.mark.parametrize(
    ("given", "decision"),
    [
        ({"idle_rounds": 0}, "D28"),
        ({"idle_seat_minutes": 0.5}, "D158"),
        ({"betting_seconds": 3601}, "D170"),
    ],
)
def test_d198_a_table_setting_out_of_range_cites_its_decision(
    given: dict[str, Any], decision: str
) -> None:
    """As ``croupier serve`` and a new table meet them (the range's
    decision, named in the message, is the ``ref`` too)."""
    with pytest.raises(TableSettingError) as refused:
        TableSettings.from_mapping(given)
    assert str(refused.value.ref) == decision
    assert refused.value.message.endswith(
        f"({decision}), not {next(iter(given.values()))}"
    )
    assert str(refused.value) == refused.value.message  # said once


@pytest.mark.parametrize("given", [(0, 100), (500, 50), "500"])
def test_d198_server_table_limits_refused_cite_d195(given: object) -> None:
    with pytest.raises(TableLimitError) as refused:
        checked_limits(given)
    assert str(refused.value.ref) == "D195"
    assert str(refused.value).endswith("(D195)")
