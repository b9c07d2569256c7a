"""The server's own table settings, said (the fourteenth session, D183).

- The desk's empty setting fields said "server's" and no number: the
  API gave no way to learn what a table opened without them would take.
  ``GET /table-settings`` now gives the server's defaults and each
  setting's range, unit and deciding decision.
- A worker started with a bad ``CROUPIER_TABLE_SETTINGS`` stopped on a
  JSON parser's traceback, or on a refusal that named neither the
  variable nor the decision behind the range. It now names both.

Every expectation is derived here: the defaults from D26-D28 (30
seconds to decide, 20 to bet, a seat freed after 5 minutes away or 3
rounds without a wager), the ranges from D170, D158 and D28, and the
values the test gave the server.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import OPERATOR

from croupier.server.app import app_from_env, create_app
from croupier.server.errors import TableSettingError

OP = {"Authorization": f"Bearer {OPERATOR}"}

DECIDED_DEFAULTS = {
    "betting_seconds": 20,
    "decision_seconds": 30,
    "idle_seat_minutes": 5,
    "idle_rounds": 3,
}
"""D26-D28's values, as the decisions record them."""

RANGES = {
    "betting_seconds": {
        "minimum": 5,
        "maximum": 3600,
        "unit": "seconds",
        "decision": "D170",
    },
    "decision_seconds": {
        "minimum": 5,
        "maximum": 3600,
        "unit": "seconds",
        "decision": "D170",
    },
    "idle_seat_minutes": {
        "minimum": 1,
        "maximum": 1440,
        "unit": "minutes",
        "decision": "D158",
    },
    "idle_rounds": {
        "minimum": 1,
        "maximum": 1000,
        "unit": "rounds",
        "decision": "D28",
    },
}
"""The ranges as D170, D158 and D28 state them."""


def _served(db_url: str, **settings: Any) -> TestClient:
    return TestClient(
        create_app(
            db_url, operator_token=OPERATOR, table_settings=settings or None
        )
    )


def test_d183_a_server_says_its_decided_defaults_and_ranges(
    db_url: str,
) -> None:
    """Without settings of its own, the server gives D26-D28's values,
    to anyone (no token: nothing in them is private)."""
    with _served(db_url) as client:
        said = client.get("/table-settings")
    assert said.status_code == 200, said.json()
    assert said.json() == {
        "defaults": DECIDED_DEFAULTS,
        "ranges": RANGES,
        # D195's table limits, $1.00 to $1,000.00
        "limits": {"min_bet": 100, "max_bet": 100_000, "decision": "D195"},
    }


def test_d183_a_server_says_its_own_defaults_and_a_table_takes_them(
    db_url: str,
) -> None:
    """A server started with two settings of its own says them (the
    others D26-D28's), and a table opened without settings takes
    exactly what was said."""
    own = {"betting_seconds": 12, "idle_rounds": 7}
    with _served(db_url, **own) as client:
        said = client.get("/table-settings").json()["defaults"]
        opened = client.post(
            "/tables", json={"game": "21-baccarat"}, headers=OP
        )
    assert said == {**DECIDED_DEFAULTS, **own}
    assert opened.status_code == 200, opened.json()
    assert opened.json()["settings"] == said


def test_d183_the_route_is_in_the_openapi_schema(db_url: str) -> None:
    """A client generated from the schema finds it."""
    with _served(db_url) as client:
        paths = client.get("/openapi.json").json()["paths"]
    assert "get" in paths["/table-settings"]


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (
            '{"betting_seconds": 0.1}',
            "CROUPIER_TABLE_SETTINGS: table setting betting_seconds must be "
            "5 to 3600 seconds (D170), not 0.1",
        ),
        (
            '{"idle_seat_minutes": 0.001}',
            "CROUPIER_TABLE_SETTINGS: table setting idle_seat_minutes must "
            "be 1 to 1440 minutes (D158), not 0.001",
        ),
        (
            '{"idle_rounds": 0}',
            "CROUPIER_TABLE_SETTINGS: table setting idle_rounds must be "
            "1 to 1000 rounds (D28), not 0",
        ),
        (
            "[20, 30]",
            "CROUPIER_TABLE_SETTINGS must be a JSON object of table "
            "settings, not '[20, 30]'",
        ),
    ],
)
def test_d183_a_worker_refuses_a_bad_variable_naming_it(
    db_url: str, monkeypatch: pytest.MonkeyPatch, value: str, says: str
) -> None:
    """The refusal names the variable, the setting, its range and the
    decision that sets it."""
    monkeypatch.setenv("CROUPIER_DB_URL", db_url)
    monkeypatch.setenv("CROUPIER_TABLE_SETTINGS", value)
    with pytest.raises(TableSettingError) as refused:
        app_from_env()
    assert str(refused.value) == says


def test_d183_a_worker_refuses_a_variable_that_is_not_json(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a JSON parser's traceback: a refusal naming the variable and
    quoting what it holds."""
    monkeypatch.setenv("CROUPIER_DB_URL", db_url)
    monkeypatch.setenv("CROUPIER_TABLE_SETTINGS", "betting_seconds=12")
    with pytest.raises(TableSettingError) as refused:
        app_from_env()
    said = str(refused.value)
    assert said.startswith("CROUPIER_TABLE_SETTINGS is not JSON (")
    assert said.endswith("): 'betting_seconds=12'")


def test_d183_a_worker_takes_a_good_variable(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The variable's settings are the worker's defaults."""
    monkeypatch.setenv("CROUPIER_DB_URL", db_url)
    monkeypatch.setenv("CROUPIER_TABLE_SETTINGS", '{"decision_seconds": 45}')
    with TestClient(app_from_env()) as client:
        said = client.get("/table-settings").json()["defaults"]
    assert said == {**DECIDED_DEFAULTS, "decision_seconds": 45}
