"""D195: the table limits a server table has when its operator gives none.

The regulations leave a table's minimum and maximum wager to the
casino. Before, the server's own tables (one a game, opened at its
first start) were always $1.00 to $1,000.00, a value tied to no
decision, and ``croupier serve`` could not open them otherwise: a
casino whose tables start at $5.00 had to open new ones through the
API. Now ``croupier serve --min-bet/--max-bet`` (``create_app``'s
``table_limits``, ``$CROUPIER_TABLE_LIMITS`` for the workers of
``--workers``) set them, for the server's tables and for every
``POST /tables`` that names no limits; a table's own limits still win.

Every expectation is written out here from the values the test sends;
the defaults ($1.00 and $1,000.00) are D195's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.refusals import invoke, refused
from tests.server.conftest import OPERATOR, seat_player

from croupier.server.app import _limits_from_env, create_app
from croupier.server.errors import TableLimitError

OP = {"Authorization": f"Bearer {OPERATOR}"}

GAMES = (
    "21-baccarat",
    "double-back-jack",
    "midibaccarat",
    "midibaccarat-commission-free",
    "six-card-fortune-pai-gow",
)
"""Every game the server opens a table of at its first start."""


def _limits(client: TestClient) -> dict[str, tuple[int, int]]:
    """Each table's (min_bet, max_bet) by game, as ``GET /tables`` says."""
    return {
        t["game"]: (t["min_bet"], t["max_bet"])
        for t in client.get("/tables").json()
    }


def test_d195_the_servers_tables_are_one_to_a_thousand_dollars_by_default(
    tmp_path: Path,
) -> None:
    client = TestClient(
        create_app(f"sqlite:///{tmp_path / 'd.db'}", operator_token=OPERATOR)
    )
    assert _limits(client) == dict.fromkeys(GAMES, (100, 100_000))


def test_d195_serve_limits_reach_the_servers_tables_and_new_ones(
    tmp_path: Path,
) -> None:
    client = TestClient(
        create_app(
            f"sqlite:///{tmp_path / 'd.db'}",
            operator_token=OPERATOR,
            table_limits=(500, 50_000),
        )
    )
    assert _limits(client) == dict.fromkeys(GAMES, (500, 50_000))
    # the desk's form starts at what the server says (GET /table-settings)
    said = client.get("/table-settings").json()["limits"]
    assert said == {"min_bet": 500, "max_bet": 50_000, "decision": "D195"}
    opened = client.post(
        "/tables", json={"game": "midibaccarat", "name": "Low"}, headers=OP
    )
    assert opened.status_code == 200, opened.json()
    own = client.post(
        "/tables",
        json={
            "game": "midibaccarat",
            "name": "High",
            "min_bet": 10_000,
            "max_bet": 1_000_000,
        },
        headers=OP,
    )
    assert own.status_code == 200, own.json()
    by_name = {
        t["name"]: (t["min_bet"], t["max_bet"])
        for t in client.get("/tables").json()
    }
    assert by_name["Low"] == (500, 50_000)
    assert by_name["High"] == (10_000, 1_000_000)
    # the wager is held to them: $1.00 was a legal wager before
    ann = seat_player(client, "midibaccarat", 1, "ann")
    low = ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 100})
    assert low.status_code == 400, low.json()
    assert low.json()["message"] == (
        "a Banker Wager must be between $5.00 and $500.00 (500 to 50000 in "
        "cents) at this table, not $1.00"
    )
    placed = ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 500})
    assert placed.status_code == 200, placed.json()


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ((500, 100), "the table minimum ($5.00) is above the maximum ($1.00)"),
        ((0, 100), "the table minimum must be $0.01 to $10,000,000,000.00"),
        ((1, 10**12 + 1), "the table maximum must be $0.01 to"),
        ((True, 100), "the table minimum must be $0.01 to"),
    ],
)
def test_d195_limits_out_of_range_are_refused_before_the_server_opens(
    tmp_path: Path, given: tuple[Any, Any], says: str
) -> None:
    path = tmp_path / "d.db"
    with pytest.raises(TableLimitError) as refusal:
        create_app(
            f"sqlite:///{path}", operator_token=OPERATOR, table_limits=given
        )
    assert says in str(refusal.value)
    assert str(refusal.value).endswith("(D195)")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[500, 100]", "CROUPIER_TABLE_LIMITS: the table minimum ($5.00) is "),
        ("500", "CROUPIER_TABLE_LIMITS: the table limits are two amounts"),
        ('{"min": 5}', "two amounts, [minimum, maximum], in minor units, not"),
        ("[5, ", "CROUPIER_TABLE_LIMITS is not JSON"),
        ('[100, "1000"]', "the table maximum must be $0.01 to"),
    ],
)
def test_d195_a_workers_limits_are_checked_naming_the_variable(
    text: str, says: str
) -> None:
    with pytest.raises(TableLimitError) as refusal:
        _limits_from_env(text)
    assert says in str(refusal.value)


def test_d195_no_variable_leaves_the_default() -> None:
    assert _limits_from_env(None) is None
    assert _limits_from_env("") is None
    assert _limits_from_env("[500, 50000]") == (500, 50_000)


def test_d195_serve_refuses_a_minimum_above_the_maximum(
    tmp_path: Path, no_server: list[Any]
) -> None:
    """Exit 2, one line in dollars; nothing served, no database made."""
    url = f"sqlite:///{tmp_path / 's.db'}"
    refused(
        ["serve", "--db", url, "--min-bet", "500000"],
        "the table minimum ($5,000.00) is above the maximum ($1,000.00) "
        "(D195)",
    )
    refused(["serve", "--db", url, "--max-bet", "0"], "'--max-bet'")
    refused(["serve", "--db", url, "--min-bet", "five"], "'--min-bet'")
    assert not no_server
    assert not (tmp_path / "s.db").exists()


def test_d195_serve_opens_its_tables_at_the_limits_given(
    tmp_path: Path, no_server: list[Any]
) -> None:
    token = tmp_path / "operator-token"
    token.write_text(OPERATOR)
    url = f"sqlite:///{tmp_path / 's.db'}"
    result = invoke(
        [
            "serve",
            "--db",
            url,
            "--min-bet",
            "2500",
            "--max-bet",
            "250000",
            "--operator-token-file",
            str(token),
        ]
    )
    assert result.exit_code == 0, (result.output, result.stderr)
    (served,) = no_server
    assert _limits(TestClient(served[0])) == dict.fromkeys(
        GAMES, (2500, 250_000)
    )
