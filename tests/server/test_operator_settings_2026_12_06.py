"""The operator's table settings, safe against a slip (the thirteenth
session, D170, D171).

- ``betting_seconds`` and ``decision_seconds`` took 0.1: a betting window
  of a tenth of a second (0.1 typed for 10) left a table nobody could
  play. They are 5 to 3600 seconds now, in ``POST /tables``, ``croupier
  serve`` and the server's default, and a table stored shorter starts
  with 5 (D170, D158's mechanism).
- On PostgreSQL a setting corrected at a start was stored without the
  table's version: another process went on with the old value until
  the table next changed (D171).

Every expectation is derived here, from the values the test sent and
the range the decision states, never read back from the code under
test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from tests.refusals import refused
from tests.server.conftest import OPERATOR

from croupier.server import db
from croupier.server.app import create_app
from croupier.server.errors import TableSettingError

OP = {"Authorization": f"Bearer {OPERATOR}"}

CLOCKS = ("betting_seconds", "decision_seconds")
"""The two clocks of a table (D26, D27)."""


def served(db_url: str) -> TestClient:
    """A server on ``db_url`` (its default tables, the operator's token)."""
    return TestClient(create_app(db_url, operator_token=OPERATOR))


def open_table(client: TestClient, **body: Any) -> Any:
    """``POST /tables`` as the operator (a Midibaccarat by default)."""
    return client.post(
        "/tables", json={"game": "midibaccarat", **body}, headers=OP
    )


def settings_of(client: TestClient) -> dict[int, dict[str, Any]]:
    """Each table's settings by id, as ``GET /tables`` lists them."""
    return {t["id"]: t["settings"] for t in client.get("/tables").json()}


def the_log(client: TestClient) -> list[dict[str, Any]]:
    """Every row of the server's log, newest first."""
    reply = client.get("/log?limit=500", headers=OP)
    assert reply.status_code == 200, reply.json()
    rows: list[dict[str, Any]] = reply.json()
    return rows


def store_settings(url: str, table_id: int, **values: float) -> None:
    """Write settings into a table's row as an older server stored them:
    the row alone, its version untouched."""
    engine = db.make_engine(url)
    try:
        with engine.begin() as conn:
            stored = json.loads(
                conn.execute(
                    select(db.GameTableRow.settings_json).where(
                        db.GameTableRow.id == table_id
                    )
                ).scalar_one()
            )
            conn.execute(
                update(db.GameTableRow)
                .where(db.GameTableRow.id == table_id)
                .values(settings_json=json.dumps({**stored, **values}))
            )
    finally:
        engine.dispose()


# -- D170: the clocks, five seconds to an hour --------------------------------


@pytest.mark.parametrize("key", CLOCKS)
@pytest.mark.parametrize("seconds", [0.1, 1, 4.99, 3600.5, 86_400])
def test_a_clock_outside_five_seconds_to_an_hour_is_refused(
    client: TestClient, key: str, seconds: float
) -> None:
    """422 naming the setting, its range and the decision; no table."""
    before = settings_of(client)
    reply = open_table(client, name="Quick", **{key: seconds})
    assert reply.status_code == 422, reply.json()
    assert reply.json()["message"] == (
        f"body.{key}: must be 5 to 3600 seconds (D170)"
    )
    assert settings_of(client) == before


def test_clocks_of_five_seconds_and_of_an_hour_are_kept(
    client: TestClient,
) -> None:
    for name, seconds in (("Fast", 5), ("Slow", 3600), ("Half", 7.5)):
        reply = open_table(
            client,
            name=name,
            betting_seconds=seconds,
            decision_seconds=seconds,
        )
        assert reply.status_code == 200, reply.json()
        got = reply.json()["settings"]
        assert (got["betting_seconds"], got["decision_seconds"]) == (
            seconds,
            seconds,
        )


@pytest.mark.parametrize("rounds", [0, 1001])
def test_idle_rounds_are_refused_in_the_same_words(
    client: TestClient, rounds: int
) -> None:
    """The fourth setting says its range the same way (D28's 1 to 1000)."""
    reply = open_table(client, name="Idle", idle_rounds=rounds)
    assert reply.status_code == 422, reply.json()
    assert reply.json()["message"] == (
        "body.idle_rounds: must be 1 to 1000 rounds (D28)"
    )


def test_the_schema_gives_each_settings_range(client: TestClient) -> None:
    """OpenAPI states the ranges the server holds to."""
    spec = client.get("/openapi.json").json()
    fields = spec["components"]["schemas"]["NewTable"]["properties"]
    want = {
        "betting_seconds": ("number", 5, 3600),
        "decision_seconds": ("number", 5, 3600),
        "idle_seat_minutes": ("number", 1, 1440),
        "idle_rounds": ("integer", 1, 1000),
    }
    for key, (kind, low, high) in want.items():
        (given,) = [k for k in fields[key]["anyOf"] if k["type"] != "null"]
        assert (given["type"], given["minimum"], given["maximum"]) == (
            kind,
            low,
            high,
        )


@pytest.mark.parametrize("key", CLOCKS)
def test_a_server_default_clock_under_five_seconds_is_refused(
    db_url: str, key: str
) -> None:
    """``CROUPIER_TABLE_SETTINGS`` (a worker's defaults) is held to it."""
    with pytest.raises(TableSettingError) as refusal:
        create_app(db_url, operator_token=OPERATOR, table_settings={key: 0.1})
    assert str(refusal.value) == (
        f"table setting {key} must be 5 to 3600 seconds (D170), not 0.1"
    )


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--betting-seconds", "0.1", "must be 5 to 3600 seconds (D170)"),
        ("--decision-seconds", "4.5", "must be 5 to 3600 seconds (D170)"),
        ("--betting-seconds", "3601", "must be 5 to 3600 seconds (D170)"),
        ("--idle-seat-minutes", "0.5", "must be 1 to 1440 minutes (D158)"),
        ("--idle-rounds", "0", "must be 1 to 1000 rounds (D28)"),
    ],
)
def test_serve_refuses_a_setting_out_of_range_in_the_apis_words(
    tmp_path: Path, no_server: list[Any], option: str, value: str, says: str
) -> None:
    """Exit 2, one line naming the option, its range and its value;
    nothing served, no database made."""
    url = f"sqlite:///{tmp_path / 's.db'}"
    line = refused(["serve", "--db", url, option, value], f"'{option}'", says)
    assert line.split(says, 1)[1].startswith(f", not {value}"), line
    assert not no_server
    assert not (tmp_path / "s.db").exists()


def test_serve_takes_the_shortest_clocks(
    tmp_path: Path, no_server: list[Any]
) -> None:
    from tests.refusals import invoke

    url = f"sqlite:///{tmp_path / 's.db'}"
    result = invoke(
        [
            "serve",
            "--db",
            url,
            "--betting-seconds",
            "5",
            "--decision-seconds",
            "5",
            "--operator-token-file",
            str(_token_file(tmp_path)),
        ]
    )
    assert result.exit_code == 0, (result.output, result.stderr)
    assert len(no_server) == 1


def _token_file(tmp_path: Path) -> Path:
    path = tmp_path / "operator-token"
    path.write_text(OPERATOR)
    return path


def test_a_table_stored_with_tenth_of_a_second_clocks_starts_with_five(
    db_url: str,
) -> None:
    """A table stored with 0.1-second clocks (accepted before D170) loads
    with 5, stores it and says so once per setting, naming the table,
    the setting, both values and D170; the next start says nothing."""
    with served(db_url) as client:
        made = open_table(client, name="Blink", idle_rounds=4).json()
    store_settings(db_url, made["id"], betting_seconds=0.1, decision_seconds=2)
    want = {**made["settings"], "betting_seconds": 5, "decision_seconds": 5}
    with served(db_url) as client:
        assert settings_of(client)[made["id"]] == want
        rows = the_log(client)
        assert sorted(r["message"] for r in rows) == [
            f"table {made['id']} (Blink): betting_seconds was stored as 0.1, "
            "outside 5 to 3600 seconds; it is 5 now (D170)",
            f"table {made['id']} (Blink): decision_seconds was stored as 2, "
            "outside 5 to 3600 seconds; it is 5 now (D170)",
        ]
        assert {(r["level"], r["round_id"]) for r in rows} == {
            ("warning", None)
        }
    with served(db_url) as client:
        assert len(the_log(client)) == 2
        assert settings_of(client)[made["id"]] == want


# -- D171: a correction at a start reaches every process ----------------------


def test_a_setting_corrected_at_a_start_reaches_the_process_already_running(
    pg_url: str,
) -> None:
    """Process A serves a table; its row is found holding settings out of
    range (as an older server stored them); process B starts and
    corrects them. A serves the corrected values at once, in its
    listing and in the clock a wager starts, without the table having
    changed since."""
    first = create_app(pg_url, operator_token=OPERATOR)
    with TestClient(first) as a:
        made = open_table(
            a, name="Rolling", betting_seconds=20, idle_seat_minutes=5
        )
        assert made.status_code == 200, made.json()
        table = int(made.json()["id"])
        assert settings_of(a)[table]["betting_seconds"] == 20  # A holds it
        store_settings(
            pg_url, table, betting_seconds=0.5, idle_seat_minutes=0.001
        )
        want = {
            **made.json()["settings"],
            "betting_seconds": 5,
            "idle_seat_minutes": 1,
        }
        second = create_app(pg_url, operator_token=OPERATOR)
        with TestClient(second) as b:
            assert settings_of(b)[table] == want
            assert settings_of(a)[table] == want
            # the clock A starts with a wager is the corrected one
            player = a.post("/players", json={"name": "Roller"}).json()
            who = {"Authorization": f"Bearer {player['token']}"}
            sat = a.post(
                f"/tables/{table}/seats", json={"seat": 1}, headers=who
            )
            assert sat.status_code == 200, sat.json()
            bet = a.post(
                f"/tables/{table}/wagers",
                json={"seat": 1, "wager": "banker", "amount": 500},
                headers=who,
            )
            assert bet.status_code == 200, bet.json()
            assert bet.json()["clock"]["kind"] == "betting"
            assert bet.json()["clock"]["seconds"] == 5
            warned = [r["message"] for r in the_log(a)]
            assert len(warned) == 2, warned
            assert all(f"table {table} (Rolling)" in m for m in warned)


def test_a_correction_stored_by_a_start_that_then_failed_reaches_every_process(
    pg_url: str,
) -> None:
    """Process B corrects a table's settings, then its start fails before
    it has taken every table over (here: refused for
    ``recovery="void"``, which a shared database does not allow; a
    process killed while it starts is the same). The correction is
    stored with the table's version (D171), so process A, which held
    the old values, serves the corrected ones; before, A went on with
    20 seconds until the table next changed."""
    first = create_app(pg_url, operator_token=OPERATOR)
    with TestClient(first) as a:
        made = open_table(a, name="Halfway", betting_seconds=20)
        assert made.status_code == 200, made.json()
        table = int(made.json()["id"])
        assert settings_of(a)[table]["betting_seconds"] == 20  # A holds it
        store_settings(pg_url, table, betting_seconds=0.5)
        with pytest.raises(ValueError, match="recovery=resume"):
            create_app(pg_url, operator_token=OPERATOR, recovery="void")
        assert settings_of(a)[table] == {
            **made.json()["settings"],
            "betting_seconds": 5,
        }
        (warned,) = the_log(a)
        assert warned["message"] == (
            f"table {table} (Halfway): betting_seconds was stored as 0.5, "
            "outside 5 to 3600 seconds; it is 5 now (D170)"
        )
