"""The server names a value someone sent in JSON's spelling, not Python's.

The project's messages about a sent value write it as the sender wrote
it (``croupier.jsontypes.json_text``): ``"roulette"``, ``true``. The
server's own refusals of a name or a setting still wrote Python's
(``unknown game 'roulette'``, ``not True``), a spelling the API's users
never typed. Each expectation below is written out from the request.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import OPERATOR

from croupier.server.app import create_app
from croupier.server.errors import TableSettingError
from croupier.server.tables import TableSettings

OP = {"Authorization": f"Bearer {OPERATOR}"}

PYTHON = re.compile(r"\bTrue\b|\bFalse\b|\bNone\b|'[^'\s]*'")
"""Python's spellings of JSON values."""


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    """A server on a fresh SQLite file, its tables one a game."""
    return TestClient(
        create_app(f"sqlite:///{tmp_path / 's.db'}", operator_token=OPERATOR)
    )


def _refused(client: TestClient, path: str, body: dict[str, Any]) -> str:
    response = client.post(path, json=body, headers=OP)
    assert 400 <= response.status_code < 500, response.json()
    detail = response.json()["message"]
    assert isinstance(detail, str), detail
    assert not PYTHON.findall(detail), detail
    return detail


def test_an_unknown_game_is_named_as_sent(client: TestClient) -> None:
    detail = _refused(client, "/tables", {"game": "roulette"})
    assert detail.startswith('unknown game "roulette"; games are: '), detail


def test_an_unknown_wager_of_the_limits_is_named_as_sent(
    client: TestClient,
) -> None:
    detail = _refused(
        client,
        "/tables",
        {"game": "midibaccarat", "wager_limits": {"dragon": [100, 500]}},
    )
    assert detail == (
        'midibaccarat has no "dragon" wager (its wagers: player, banker, '
        "tie, perfect_pairs_player, perfect_pairs_banker) (D195)"
    ), detail


def test_a_taken_table_name_is_named_as_sent(client: TestClient) -> None:
    made = client.post(
        "/tables", json={"game": "midibaccarat", "name": "Pit 7"}, headers=OP
    )
    assert made.status_code == 200, made.json()
    detail = _refused(
        client, "/tables", {"game": "midibaccarat", "name": "PIT  7"}
    )
    assert detail.startswith(
        f'the table name "PIT  7" is taken by table {made.json()["id"]}: '
    ), detail


def test_a_taken_player_name_is_named_as_sent(client: TestClient) -> None:
    assert client.post("/players", json={"name": "Ann"}).status_code == 200
    response = client.post("/players", json={"name": "ann"})
    assert response.status_code == 409, response.json()
    assert response.json()["message"] == 'the name "ann" is taken'


@pytest.mark.parametrize(
    ("given", "said", "ref"),
    [
        ({"fast": 5}, 'no table setting "fast"', None),
        (
            {"betting_seconds": True},
            "table setting betting_seconds must be a number, not true",
            "D170",
        ),
        (
            {"idle_rounds": 2.5},
            "idle_rounds must be a whole number, not 2.5",
            "D28",
        ),
    ],
    ids=["unknown", "true", "fraction"],
)
def test_a_table_setting_is_named_as_given(
    given: dict[str, object], said: str, ref: str | None
) -> None:
    """A known setting's refusal cites the decision that sets its range
    (D199's survey: a value that is not a number cited none)."""
    with pytest.raises(TableSettingError) as refused:
        TableSettings.from_mapping(given)
    assert refused.value.message == said
    assert (None if refused.value.ref is None else str(refused.value.ref)) == (
        ref
    )
