"""What the operator met on the server (the twelfth session, D156-D160).

- A restart wrote "round N at table T resumed by replaying 0 inputs"
  once per table into the server's log, every time, though no round
  was in play (D156).
- Two tables could share a name (D157).
- ``idle_seat_minutes`` took 0.001: a player was stood up after 60 ms
  (D158).
- ``since`` and ``until`` were parsed by their validator, then again by
  the route (D160).

Every expectation is derived here, from what the test did (the rounds
it wagered on, the names it chose, the values it sent), never read back
from the code under test.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from tests.server.conftest import OPERATOR, operator, seat_player

from croupier.server import app as app_module
from croupier.server import db, inputs, recall
from croupier.server.app import create_app
from croupier.server.errors import TableSettingError

OP = {"Authorization": f"Bearer {OPERATOR}"}


def served(db_url: str) -> TestClient:
    """A server on ``db_url`` (its default tables, the operator's token)."""
    return TestClient(create_app(db_url, operator_token=OPERATOR))


def the_log(client: TestClient) -> list[dict[str, Any]]:
    """Every row of the server's log, newest first."""
    reply = client.get("/log?limit=500", headers=OP)
    assert reply.status_code == 200, reply.json()
    rows: list[dict[str, Any]] = reply.json()
    return rows


def table_names(client: TestClient) -> dict[int, str]:
    """Each table's name by its id, as ``GET /tables`` lists them."""
    return {t["id"]: t["name"] for t in client.get("/tables").json()}


def open_table(client: TestClient, **body: Any) -> Any:
    """``POST /tables`` as the operator (a Midibaccarat by default)."""
    return client.post(
        "/tables",
        json={"game": "midibaccarat", **body},
        headers=operator(client),
    )


# -- D156: the log on a restart ---------------------------------------------


def test_a_restart_between_rounds_writes_nothing_to_the_log(
    db_url: str,
) -> None:
    """Three starts with no wager anywhere leave the log empty; a restart
    with one wager on a layout writes one row, about that round, saying
    it was resumed from its one input."""
    for _ in range(3):
        with served(db_url) as client:
            assert the_log(client) == []
    with served(db_url) as client:
        ann = seat_player(client, "midibaccarat", 1, "ann")
        bet = {"seat": 1, "wager": "player", "amount": 500}
        placed = ann.post("/wagers", bet)
        assert placed.status_code == 200, placed.json()
        round_id = placed.json()["round"]["id"]
        tables = len(client.get("/tables").json())
    assert tables > 1  # the other tables' rounds wait for a wager
    with served(db_url) as client:
        rows = the_log(client)
        assert [(r["level"], r["round_id"]) for r in rows] == [
            ("info", round_id)
        ]
        assert rows[0]["message"].startswith(
            f"round {round_id} at table {ann.table_id} resumed by "
            "replaying 1 inputs"
        )


# -- D157: one name, one table -----------------------------------------------


def test_a_table_name_another_table_has_is_refused_in_any_case_or_spacing(
    client: TestClient,
) -> None:
    """ "Main floor" open: the same words in another case, with spaces
    around or doubled between them, or in full-width letters are
    refused (409 ``TableNameTakenError`` naming the table that has it)
    and open nothing; other words are opened."""
    first = open_table(client, name="Main floor")
    assert first.status_code == 200, first.json()
    holder = first.json()["id"]
    before = table_names(client)
    for same in (
        "Main floor",
        "main FLOOR",
        "  Main   floor ",
        "\uff2d\uff41\uff49\uff4e floor",  # full-width "Main"
    ):
        refused = open_table(client, name=same)
        assert refused.status_code == 409, (same, refused.json())
        body = refused.json()
        assert body["error"] == "TableNameTakenError"
        assert f"taken by table {holder}" in body["message"]
        assert "case and spaces" in body["message"]
        assert table_names(client) == before
    for other in ("Main floors", "Mainfloor", "Main floor 2"):
        opened = open_table(client, name=other)
        assert opened.status_code == 200, (other, opened.json())
        assert opened.json()["name"] == other


def test_a_table_opened_without_a_name_takes_the_first_free_number(
    client: TestClient,
) -> None:
    """The start-up table of Midibaccarat is "Midibaccarat": a second
    one opened without a name is "Midibaccarat 2", then "Midibaccarat 3"
    (one named "Midibaccarat 4" by hand is stepped over)."""
    names = table_names(client)
    assert "Midibaccarat" in names.values()
    got = []
    for body in ({}, {}, {"name": "Midibaccarat 4"}, {}):
        opened = open_table(client, **body)
        assert opened.status_code == 200, opened.json()
        got.append(opened.json()["name"])
    assert got == [
        "Midibaccarat 2",
        "Midibaccarat 3",
        "Midibaccarat 4",
        "Midibaccarat 5",
    ]


def test_a_table_retried_with_its_key_is_answered_not_refused_as_taken(
    client: TestClient,
) -> None:
    """The same request under the same Idempotency-Key answers the table
    it opened (D138), not "the name is taken" by itself."""
    key = {"Idempotency-Key": "open-the-pit-table-1"}
    made = client.post(
        "/tables",
        json={"game": "midibaccarat", "name": "Pit 100"},
        headers={**OP, **key},
    )
    again = client.post(
        "/tables",
        json={"game": "midibaccarat", "name": "Pit 100"},
        headers={**OP, **key},
    )
    assert made.status_code == again.status_code == 200, again.json()
    assert again.json()["id"] == made.json()["id"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert list(table_names(client).values()).count("Pit 100") == 1


def test_a_database_with_two_tables_of_one_name_still_starts(
    db_url: str,
) -> None:
    """Two tables stored under one name (opened before D157) both load
    with their names; a third of that name is refused."""
    with served(db_url) as client:
        first = open_table(client, name="High limit").json()["id"]
        second = open_table(client, name="VIP").json()["id"]
    engine = db.make_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                update(db.GameTableRow)
                .where(db.GameTableRow.id == second)
                .values(name="high  LIMIT")
            )
    finally:
        engine.dispose()
    with served(db_url) as client:
        names = table_names(client)
        assert names[first] == "High limit"
        assert names[second] == "high  LIMIT"
        refused = open_table(client, name="HIGH LIMIT")
        assert refused.status_code == 409, refused.json()
        assert table_names(client) == names


# -- D158: idle_seat_minutes, a minute to a day -------------------------------


@pytest.mark.parametrize("minutes", [0.001, 0.5, 0.999, 1440.5, 100_000])
def test_idle_seat_minutes_outside_a_minute_to_a_day_is_refused(
    client: TestClient, minutes: float
) -> None:
    """Refused with the setting and its range named (422), no table
    opened."""
    before = table_names(client)
    refused = open_table(client, name="Quick", idle_seat_minutes=minutes)
    assert refused.status_code == 422, refused.json()
    assert refused.json()["message"] == (
        "body.idle_seat_minutes: must be 1 to 1440 minutes (D158)"
    )
    assert table_names(client) == before


def test_idle_seat_minutes_of_a_minute_and_of_a_day_are_kept(
    client: TestClient,
) -> None:
    for name, minutes in (("One", 1), ("Day", 1440), ("Half", 2.5)):
        opened = open_table(client, name=name, idle_seat_minutes=minutes)
        assert opened.status_code == 200, opened.json()
        assert opened.json()["settings"]["idle_seat_minutes"] == minutes


def test_a_server_default_idle_seat_limit_below_a_minute_is_refused(
    db_url: str,
) -> None:
    """The server's default for new tables (``croupier serve
    --idle-seat-minutes``, ``CROUPIER_TABLE_SETTINGS``) is held to the
    same range."""
    with pytest.raises(TableSettingError) as refused:
        create_app(
            db_url,
            operator_token=OPERATOR,
            table_settings={"idle_seat_minutes": 0.001},
        )
    assert str(refused.value) == (
        "table setting idle_seat_minutes must be 1 to 1440 minutes (D158), "
        "not 0.001"
    )


def test_a_table_stored_with_a_60_ms_idle_limit_starts_with_a_minute(
    db_url: str,
) -> None:
    """A table stored with 0.001 minutes (accepted before D158) loads
    with 1, stores it and says so once, in a warning naming the table,
    the setting and both values; the next start says nothing."""
    with served(db_url) as client:
        made = open_table(client, name="Quick", idle_rounds=4).json()
    engine = db.make_engine(db_url)
    try:
        with engine.begin() as conn:
            stored = json.loads(
                conn.execute(
                    select(db.GameTableRow.settings_json).where(
                        db.GameTableRow.id == made["id"]
                    )
                ).scalar_one()
            )
            conn.execute(
                update(db.GameTableRow)
                .where(db.GameTableRow.id == made["id"])
                .values(
                    settings_json=json.dumps(
                        {**stored, "idle_seat_minutes": 0.001}
                    )
                )
            )
    finally:
        engine.dispose()
    want = {**stored, "idle_seat_minutes": 1}
    with served(db_url) as client:
        shown = {t["id"]: t for t in client.get("/tables").json()}
        assert shown[made["id"]]["settings"] == want
        rows = the_log(client)
        assert [(r["level"], r["round_id"]) for r in rows] == [
            ("warning", None)
        ]
        assert rows[0]["message"] == (
            f"table {made['id']} (Quick): idle_seat_minutes was stored as "
            "0.001, outside 1 to 1440 minutes; it is 1 now (D158)"
        )
    with served(db_url) as client:
        assert len(the_log(client)) == 1
        shown = {t["id"]: t for t in client.get("/tables").json()}
        assert shown[made["id"]]["settings"] == want


# -- D160: since and until parsed once ----------------------------------------


def test_since_and_until_are_parsed_once_and_handed_over_parsed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One ``GET /log`` and one ``GET /rounds`` with both bounds parse
    each bound once (the validator), and the listings are given the day
    and the instant (07:00 at UTC-5 is noon UTC), not text."""
    parsed: list[str] = []
    original = inputs.day_or_time

    def counted(raw: str) -> date:
        parsed.append(raw)
        return original(raw)

    monkeypatch.setattr(inputs, "day_or_time", counted)
    # the route's own parse, where a version of the app has one
    monkeypatch.setattr(app_module, "day_or_time", counted, raising=False)
    given: dict[str, dict[str, Any]] = {}

    def keep(name: str, listing: Any) -> Any:
        def kept(*args: Any, **kwargs: Any) -> Any:
            given[name] = kwargs
            return listing(*args, **kwargs)

        return kept

    monkeypatch.setattr(app_module, "log_page", keep("log", recall.log_page))
    monkeypatch.setattr(
        app_module, "round_page", keep("rounds", recall.round_page)
    )
    query = "since=2026-12-01&until=2026-12-01T07:00:00-05:00"
    for path in ("/log", "/rounds"):
        parsed.clear()
        reply = client.get(f"{path}?{query}", headers=OP)
        assert reply.status_code == 200, reply.json()
        assert parsed == ["2026-12-01", "2026-12-01T07:00:00-05:00"]
    for name in ("log", "rounds"):
        since, until = given[name]["since"], given[name]["until"]
        assert type(since) is date
        assert since == date(2026, 12, 1)
        assert until == datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_schema_gives_since_and_until_as_strings_of_two_forms(
    client: TestClient,
) -> None:
    """OpenAPI still says a string (at most 40 characters), and says
    which: a date or an ISO 8601 time."""
    spec = client.get("/openapi.json").json()
    for path in ("/log", "/rounds"):
        params = {
            p["name"]: p for p in spec["paths"][path]["get"]["parameters"]
        }
        for bound in ("since", "until"):
            kinds = params[bound]["schema"]["anyOf"]
            (text,) = [k for k in kinds if k["type"] == "string"]
            assert {k["type"] for k in kinds} == {"string", "null"}
            assert text["maxLength"] == 40
            assert "YYYY-MM-DD" in text["description"]
            assert "ISO 8601 time" in text["description"]


@pytest.mark.parametrize(
    "query",
    ["since=yesterday", "until=2026-13-01", "since=", f"since={'2' * 41}"],
)
def test_a_bound_it_cannot_read_is_still_refused_in_words(
    client: TestClient, query: str
) -> None:
    for path in ("/log", "/rounds"):
        reply = client.get(f"{path}?{query}", headers=OP)
        assert reply.status_code == 422, reply.json()
        assert reply.json()["message"].startswith(
            f"query.{query.split('=')[0]}: Value error"
        )
