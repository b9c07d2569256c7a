"""D195: a new table's limits are refused as the server's own are.

``POST /tables`` (and :meth:`Casino.create_table`) checked a new table's
limits with a rule of its own: "limits for table must satisfy 0 < min
<= max", with no amount in dollars and no ``ref``, where the server's
defaults (``croupier serve --min-bet/--max-bet``, ``table_limits=``)
were refused in dollars naming D195. A minimum given alone above the
server's default maximum was refused with the same words, which named
neither the maximum nor that it was a default. A wager outside a
table's limits cited no rule either. Each expectation below is written
out from the request and the server's default limits, $1.00 to
$1,000.00.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import OPERATOR, seat_player

from croupier.server.casino import Casino
from croupier.server.errors import TableLimitError

OP = {"Authorization": f"Bearer {OPERATOR}"}


def _refused(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    """The refusal of opening a Midibaccarat table with ``body`` added;
    no table was opened."""
    before = client.get("/tables").json()
    response = client.post(
        "/tables", json={"game": "midibaccarat", **body}, headers=OP
    )
    assert response.status_code == 400, response.text
    assert client.get("/tables").json() == before
    refusal: dict[str, Any] = response.json()
    return refusal


def test_d195_a_minimum_above_the_maximum_in_dollars(
    client: TestClient,
) -> None:
    assert _refused(client, {"min_bet": 5_000, "max_bet": 100}) == {
        "error": "TableLimitError",
        "ref": "D195",
        "message": "the table minimum ($50.00) is above the maximum ($1.00) "
        "(D195)",
    }


def test_d195_a_minimum_alone_above_the_default_maximum_says_so(
    client: TestClient,
) -> None:
    assert _refused(client, {"min_bet": 10_000_000}) == {
        "error": "TableLimitError",
        "ref": "D195",
        "message": "the table minimum ($100,000.00) is above the maximum "
        "($1,000.00), the maximum being the server's default: give min_bet "
        "and max_bet together (D195)",
    }


def test_d195_a_maximum_alone_below_the_default_minimum_says_so(
    client: TestClient,
) -> None:
    assert _refused(client, {"max_bet": 50})["message"] == (
        "the table minimum ($1.00) is above the maximum ($0.50), the "
        "minimum being the server's default: give min_bet and max_bet "
        "together (D195)"
    )


def test_d195_a_wagers_limits_in_dollars_naming_the_wager(
    client: TestClient,
) -> None:
    refusal = _refused(client, {"wager_limits": {"tie": [500, 100]}})
    assert refusal == {
        "error": "TableLimitError",
        "ref": "D195",
        "message": 'the "tie" wager minimum ($5.00) is above the maximum '
        "($1.00) (D195)",
    }


def test_d195_an_unknown_wager_cites_the_decision(client: TestClient) -> None:
    refusal = _refused(client, {"wager_limits": {"dragon": [100, 500]}})
    assert refusal["ref"] == "D195"


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        (
            {"min_bet": 0, "max_bet": 100},
            "the table minimum must be $0.01 to $10,000,000,000.00 (1 to "
            "1000000000000 in cents), not $0.00 (D195)",
        ),
        (
            {"wager_limits": {"banker": (100, 10**12 + 1)}},
            'the "banker" wager maximum must be $0.01 to $10,000,000,000.00 '
            "(1 to 1000000000000 in cents), not $10,000,000,000.01 (D195)",
        ),
    ],
    ids=["table-minimum-0", "wager-maximum-over-D31"],
)
def test_d195_the_python_api_refuses_what_the_routes_schema_would(
    client: TestClient, limits: dict[str, Any], message: str
) -> None:
    """:meth:`Casino.create_table` called directly (no pydantic before
    it): a minimum of 0 and a wager's maximum above D31's largest
    amount, which it took ("0 < min" held for the second)."""
    casino: Casino = client.app.state.casino  # type: ignore[attr-defined]
    tables = dict(casino.tables)
    with pytest.raises(TableLimitError) as refused:
        casino.create_table(None, "midibaccarat", **limits)
    assert refused.value.message == message
    assert str(refused.value.ref) == "D195"
    assert casino.tables == tables


def test_d195_a_wager_outside_the_tables_limits_cites_the_decision(
    client: TestClient,
) -> None:
    """A Banker Wager of $1,000.01 at a table of $1.00 to $1,000.00 (the
    message as D190 wrote it, unchanged)."""
    ann = seat_player(client, "midibaccarat", 1, "ann")
    refused = ann.post(
        "/wagers", {"seat": 1, "wager": "banker", "amount": 100_001}
    )
    assert refused.status_code == 400, refused.text
    assert refused.json() == {
        "error": "TableLimitError",
        "ref": "D195",
        "message": "a Banker Wager must be between $1.00 and $1,000.00 (100 "
        "to 100000 in cents) at this table, not $1,000.01",
    }
