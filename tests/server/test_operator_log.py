"""The operator's server log, paged and filtered (``GET /log``, D140-D142).

The log holds what the server did on its own: a round voided (by the
operator or on a restart), a round resumed by replaying its inputs. It
came whole, oldest first; a server of months answered with every row.
Now it comes a page at a time, newest first, with the total and the
next page's offset in headers as ``GET /players`` and ``GET /rounds``
give them, and keeps the rows of one level, one round or a span of
days. Every expectation is computed from the rows the test made itself,
through the server's own logging path (``write_log``) or real voids and
restarts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from tests.server.conftest import OPERATOR, operator, seat_player

from croupier.server import db
from croupier.server.app import create_app
from croupier.server.recovery import write_log

OP = {"Authorization": f"Bearer {OPERATOR}"}


def engine_of(client: TestClient) -> Any:
    """The store of the client's server."""
    return client.app.state.casino.engine  # type: ignore[attr-defined]


def log(client: TestClient, query: str = "") -> httpx.Response:
    """``GET /log?query`` as the operator, answered 200."""
    reply: httpx.Response = client.get(
        f"/log?{query}", headers=operator(client)
    )
    assert reply.status_code == 200, reply.json()
    return reply


def messages(reply: httpx.Response) -> list[str]:
    """The messages of a page of the log, in its order."""
    return [row["message"] for row in reply.json()]


def logged_at(client: TestClient, at: datetime, message: str) -> None:
    """A log row written at ``at`` (the store, as ``write_log`` does)."""
    with engine_of(client).begin() as conn:
        conn.execute(
            insert(db.ServerLogRow).values(
                at=at, level="info", round_id=None, message=message
            )
        )


def void(client: TestClient, table: int, round_id: int, why: str) -> None:
    """The operator voids ``round_id`` at ``table``."""
    reply = client.post(
        f"/tables/{table}/void",
        json={"reason": why, "round_id": round_id},
        headers=operator(client),
    )
    assert reply.status_code == 200, reply.json()


def test_the_log_is_paged_newest_first_with_its_total_and_next_offset(
    client: TestClient,
) -> None:
    """23 rows in pages of 5: each page says 23 and where the next one
    starts, the last says no next, and the pages put together are the
    rows newest first. Without ``limit`` a page is 100 rows, still a
    list (a client that reads no header gets the newest page)."""
    assert log(client).json() == []
    assert log(client).headers["X-Total-Count"] == "0"
    made = [f"row {k}" for k in range(23)]
    for k, message in enumerate(made):
        write_log(engine_of(client), ("info", "warning")[k % 2], message)
    newest_first = made[::-1]

    seen: list[str] = []
    offset = 0
    while True:
        page = log(client, f"limit=5&offset={offset}")
        assert page.headers["X-Total-Count"] == "23"
        assert messages(page) == newest_first[offset : offset + 5]
        seen += messages(page)
        if offset + 5 >= 23:
            assert "X-Next-Offset" not in page.headers
            break
        assert page.headers["X-Next-Offset"] == str(offset + 5)
        offset = int(page.headers["X-Next-Offset"])
    assert seen == newest_first
    assert offset == 20  # the last page held 3 rows
    rows = log(client).json()
    assert [row["message"] for row in rows] == newest_first
    ids = [row["id"] for row in rows]
    assert ids == sorted(ids, reverse=True)
    assert {tuple(row) for row in rows} == {
        ("id", "at", "level", "round_id", "message")
    }
    assert all(row["at"].endswith("+00:00") for row in rows)
    past = log(client, "offset=23")
    assert past.json() == []
    assert past.headers["X-Total-Count"] == "23"
    assert "X-Next-Offset" not in past.headers

    more = [f"more {k}" for k in range(90)]
    for message in more:
        write_log(engine_of(client), "info", message)
    default = log(client)
    assert messages(default) == (made + more)[::-1][:100]
    assert default.headers["X-Total-Count"] == "113"
    assert default.headers["X-Next-Offset"] == "100"


def test_the_log_keeps_one_rounds_rows_or_one_levels(db_url: str) -> None:
    """Two rounds voided by the operator, one resumed on a restart and a
    line about no round: ``round_id`` keeps the rows about that round,
    ``level`` those of that level, both together the rows of both; each
    filtered page's total counts the rows it keeps."""
    with TestClient(create_app(db_url, operator_token=OPERATOR)) as c:
        ann = seat_player(c, "midibaccarat", 1, "ann")
        table = ann.table_id
        bet = {"seat": 1, "wager": "player", "amount": 500}
        first = ann.post("/wagers", bet).json()["round"]["id"]
        void(c, table, first, "a card was exposed")
        second = ann.post("/wagers", bet).json()["round"]["id"]
        void(c, table, second, "the shoe was dropped")
        resumed = ann.post("/wagers", bet).json()["round"]["id"]
        assert len({first, second, resumed}) == 3
    with TestClient(create_app(db_url, operator_token=OPERATOR)) as c:
        write_log(engine_of(c), "warning", "a table's game is gone")
        everything = log(c).json()
        about = {
            rid: [row for row in everything if row["round_id"] == rid]
            for rid in (first, second, resumed)
        }
        assert len(about[first]) == len(about[second]) == 1
        assert "a card was exposed" in about[first][0]["message"]
        assert "the shoe was dropped" in about[second][0]["message"]
        assert about[first][0]["level"] == "warning"
        assert [row["level"] for row in about[resumed]] == ["info"]
        assert "resumed" in about[resumed][0]["message"]

        for rid in (first, second, resumed):
            kept = log(c, f"round_id={rid}")
            assert kept.json() == about[rid]
            assert kept.headers["X-Total-Count"] == str(len(about[rid]))
        for level in db.LOG_LEVELS:
            kept = log(c, f"level={level}")
            want = [row for row in everything if row["level"] == level]
            assert want  # both levels are in the log
            assert kept.json() == want
            assert kept.headers["X-Total-Count"] == str(len(want))
        both = log(c, f"level=warning&round_id={second}")
        assert both.json() == about[second]
        assert log(c, f"level=info&round_id={first}").json() == []
        nobody = log(c, "round_id=999999")
        assert nobody.json() == []
        assert nobody.headers["X-Total-Count"] == "0"
        page = log(c, "level=warning&limit=1")
        assert page.json() == [everything[0]]  # the newest warning
        assert page.headers["X-Next-Offset"] == "1"


def test_the_log_keeps_the_rows_of_a_span_of_days_or_times(
    client: TestClient,
) -> None:
    """``since`` and ``until`` as ``GET /rounds`` takes them: days are
    whole UTC days, both included; times are instants (``until``
    excluded), with or without an offset."""
    for at, message in [
        (datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC), "last of nov 30"),
        (datetime(2026, 12, 1, 0, 0, tzinfo=UTC), "first of dec 1"),
        (datetime(2026, 12, 1, 12, 0, tzinfo=UTC), "noon of dec 1"),
        (datetime(2026, 12, 2, 0, 0, tzinfo=UTC), "first of dec 2"),
    ]:
        logged_at(client, at, message)

    def kept(query: str) -> list[str]:
        reply = log(client, query)
        assert reply.headers["X-Total-Count"] == str(len(reply.json()))
        return messages(reply)

    assert kept("since=2026-12-01&until=2026-12-01") == [
        "noon of dec 1",
        "first of dec 1",
    ]
    assert kept("since=2026-12-01") == [
        "first of dec 2",
        "noon of dec 1",
        "first of dec 1",
    ]
    assert kept("until=2026-11-30") == ["last of nov 30"]
    assert kept("since=2026-12-01T12:00:00Z") == [
        "first of dec 2",
        "noon of dec 1",
    ]
    # 07:00 at UTC-5 is noon UTC; a time's "until" is not included
    assert kept("until=2026-12-01T07:00:00-05:00") == [
        "first of dec 1",
        "last of nov 30",
    ]
    assert kept("since=2026-12-03") == []


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("level=error", "query.level: Input should be 'info' or 'warning'"),
        ("level=WARNING", "query.level: Input should be 'info' or 'warning'"),
        ("level=", "query.level: Input should be 'info' or 'warning'"),
        ("round_id=0", "query.round_id: Input should be greater than"),
        ("round_id=x", "query.round_id: Input should be a valid integer"),
        ("since=yesterday", "query.since: Value error, neither a date"),
        ("until=2026-13-01", "query.until: Value error, neither a date"),
        ("limit=0", "query.limit: Input should be greater than"),
        ("limit=501", "query.limit: Input should be less than"),
        ("offset=-1", "query.offset: Input should be greater than"),
    ],
)
def test_a_log_query_it_cannot_read_is_refused_in_words(
    client: TestClient, query: str, said: str
) -> None:
    """An unknown level (``error``, another case, none) is no filter
    that keeps nothing: it is refused, naming the levels there are, as
    every malformed query is (422)."""
    write_log(engine_of(client), "warning", "something to hide")
    reply = client.get(f"/log?{query}", headers=operator(client))
    assert reply.status_code == 422, reply.json()
    assert reply.json()["error"] == "RequestValidationError"
    assert reply.json()["message"].startswith(said), reply.json()


def test_the_log_is_the_operators_alone(client: TestClient) -> None:
    """No token, an unknown one and a player's are answered as the other
    operator listings answer them (401, 401, 403), with no row."""
    write_log(engine_of(client), "warning", "round 1 voided: for the pit")
    ann = seat_player(client, "midibaccarat", 1, "ann")
    callers: list[dict[str, str]] = [
        {},
        {"Authorization": "Bearer not-a-token-of-this-server-000000"},
        ann.headers,
    ]
    for headers, status in zip(callers, (401, 401, 403), strict=True):
        players = client.get("/players", headers=headers)
        assert players.status_code == status, players.json()
        for query in ("", "?level=warning&limit=1"):
            reply = client.get(f"/log{query}", headers=headers)
            assert reply.status_code == status, reply.json()
            assert reply.json()["error"] == players.json()["error"]
            assert "X-Total-Count" not in reply.headers
            assert "pit" not in reply.text
    assert log(client).json()[0]["message"].endswith("for the pit")
