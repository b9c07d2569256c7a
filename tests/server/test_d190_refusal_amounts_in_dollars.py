"""D190 through the HTTP API: a refusal states money in dollars.

The server returns its own refusals and the engine's as they are to the
web table (which shows them to a player as they come) and to API
clients: "a Banker Wager must be between 100 and 100000 at this table,
not 1" read as dollars. Each is now written in dollars; the table's
limits once more in the cents a client sends. Every expectation is
written out here: the server's default limits are 100 to 100000 cents
(``croupier.server.tables.DEFAULT_MIN`` and ``DEFAULT_MAX``) and a new
player's balance 100000.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import Seat, balanced_books, operator, seat_player

from croupier.errors import WagerError
from croupier.server.casino import Casino
from croupier.server.tables import Player

FIRST_WAGER = {
    "21-baccarat": ("player", "Player Wager"),
    "double-back-jack": ("blackjack", "Blackjack Wager"),
    "midibaccarat": ("player", "Player Wager"),
    "midibaccarat-commission-free": ("player", "Player Wager"),
    "six-card-fortune-pai-gow": (
        "pai_gow",
        "Six-Card Fortune Pai Gow Poker Wager",
    ),
}
"""Each game's first wager and its section's name for it (D187)."""
LIMITS = "between $1.00 and $1,000.00 (100 to 100000 in cents) at this table"
"""The server's default table limits, as the refusal states them."""


def _refused(response: Any, status: int, error: str) -> dict[str, Any]:
    body = dict(response.json())
    assert response.status_code == status, body
    assert body["error"] == error, body
    return body


def _player(client: TestClient, game: str, name: str, **made: Any) -> Seat:
    """A player made by the operator (with ``made``), seated at seat 1."""
    created = client.post(
        "/players", json={"name": name, **made}, headers=operator(client)
    ).json()
    table = next(t for t in client.get("/tables").json() if t["game"] == game)
    seat = Seat(client, int(table["id"]), 1, created["token"], created["id"])
    assert seat.post("/seats", {"seat": 1}).status_code == 200
    return seat


@pytest.mark.parametrize("game", sorted(FIRST_WAGER))
def test_d190_the_table_limits_in_dollars_and_cents(
    client: TestClient, game: str
) -> None:
    """Before, "a Player Wager must be between 100 and 100000 at this
    table, not 1"."""
    wager, title = FIRST_WAGER[game]
    ann = seat_player(client, game, 1, "ann")
    for amount, said in ((1, "$0.01"), (-150050, "-$1,500.50")):
        body = _refused(
            ann.post("/wagers", {"seat": 1, "wager": wager, "amount": amount}),
            400,
            "TableLimitError",
        )
        assert body["message"] == f"a {title} must be {LIMITS}, not {said}"
    placed = ann.post("/wagers", {"seat": 1, "wager": wager, "amount": 500})
    assert placed.status_code == 200, placed.json()
    body = _refused(
        ann.post(
            "/wagers/change", {"seat": 1, "wager": wager, "amount": 100_001}
        ),
        400,
        "TableLimitError",
    )
    assert body["message"] == f"a {title} must be {LIMITS}, not $1,000.01"
    balanced_books(client)


def test_d190_a_balance_refused_in_dollars(client: TestClient) -> None:
    """Before, "a wager of 500 exceeds your balance of 300" and "adding
    700 exceeds your balance of 0"."""
    poor = _player(client, "midibaccarat", "poor", balance=300)
    body = _refused(
        poor.post("/wagers", {"seat": 1, "wager": "banker", "amount": 500}),
        402,
        "InsufficientBalanceError",
    )
    assert body["message"] == "a wager of $5.00 exceeds your balance of $3.00"
    placed = poor.post(
        "/wagers", {"seat": 1, "wager": "banker", "amount": 300}
    )
    assert placed.status_code == 200, placed.json()
    body = _refused(
        poor.post(
            "/wagers/change", {"seat": 1, "wager": "banker", "amount": 1000}
        ),
        402,
        "InsufficientBalanceError",
    )
    assert body["message"] == "adding $7.00 exceeds your balance of $0.00"
    balanced_books(client)


@pytest.mark.proves("670a.9(a)(3)(ii)")
def test_d190_670a_9_a_3_ii_the_progressive_amount_through_the_api(
    client: TestClient,
) -> None:
    """The engine's refusal as the server returns it: before, "a
    Progressive Payout Wager is exactly 100, not 500"."""
    ann = seat_player(client, "six-card-fortune-pai-gow", 1, "ann")
    body = _refused(
        ann.post(
            "/wagers", {"seat": 1, "wager": "progressive", "amount": 500}
        ),
        400,
        "WagerError",
    )
    assert body["message"] == (
        "a Progressive Payout Wager is exactly $1.00 (100 in cents), not $5.00"
    )
    assert body["ref"] == "670a.9(a)(3)(ii)"


@pytest.mark.proves("670a.7(e)(1)")
def test_d190_670a_7_e_1_a_double_down_through_the_api(
    client: TestClient,
) -> None:
    """Before, "a Double Down Wager is from 1 to the Six-Card Fortune Pai
    Gow Poker Wager (1010), not 1100"."""
    opened = client.post(
        "/tables",
        json={
            "game": "six-card-fortune-pai-gow",
            "rules": {"double_down_offered": True},
        },
        headers=operator(client),
    )
    assert opened.status_code == 200, opened.json()
    made = client.post("/players", json={"name": "bea"}).json()
    bea = Seat(client, int(opened.json()["id"]), 1, made["token"], made["id"])
    assert bea.post("/seats", {"seat": 1}).status_code == 200
    placed = bea.post(
        "/wagers", {"seat": 1, "wager": "pai_gow", "amount": 1010}
    )
    assert placed.status_code == 200, placed.json()
    dealt = bea.post("/deal").json()
    assert dealt["round"]["pending"]["legal"] == [
        "double_down",
        "no_double_down",
    ]
    body = _refused(
        bea.post(
            "/actions", {"seat": 1, "action": "double_down", "amount": 1100}
        ),
        400,
        "WagerError",
    )
    assert body["message"] == (
        "a Double Down Wager is from $0.01 to the Six-Card Fortune Pai Gow "
        "Poker Wager ($10.10), not $11.00"
    )
    assert body["ref"] == "670a.7(e)(1)"


@pytest.mark.proves("673a.8", "673a.10(a)")
def test_d190_a_double_or_insurance_through_the_api(
    client: TestClient,
) -> None:
    """A Double Back Jack seat with $10.00 on the Blackjack Wager asks for
    a double, or an insurance, of more: before, "Double down must be 1 to
    1000, not 2000" and "the Insurance Wager must be 1 to 500, not 600"."""
    ann = seat_player(client, "double-back-jack", 1, "ann")
    for _ in range(60):
        placed = ann.post(
            "/wagers", {"seat": 1, "wager": "blackjack", "amount": 1000}
        )
        assert placed.status_code == 200, placed.json()
        state = ann.post("/deal").json()
        pending = state["round"]["pending"]
        if pending is not None and "double" in pending["legal"]:
            body = _refused(
                ann.post(
                    "/actions", {"seat": 1, "action": "double", "amount": 2000}
                ),
                400,
                "WagerError",
            )
            assert body["message"] == (
                "Double down must be $0.01 to $10.00, not $20.00"
            )
            assert body["ref"] == "673a.10(a)"
            return
        if pending is not None and "insurance" in pending["legal"]:
            body = _refused(
                ann.post(
                    "/actions",
                    {"seat": 1, "action": "insurance", "amount": 600},
                ),
                400,
                "WagerError",
            )
            assert body["message"] == (
                "the Insurance Wager must be $0.01 to $5.00, not $6.00"
            )
            assert body["ref"] == "673a.8"
            return
        while pending is not None:
            name = (
                "stand"
                if "stand" in pending["legal"]
                else pending["legal"][-1]
            )
            state = ann.post("/actions", {"seat": 1, "action": name}).json()
            pending = state["round"]["pending"]
    pytest.fail("no double nor insurance offered in 60 rounds")


_MONEY = re.compile(r"-?\$\d{1,3}(?:,\d{3})*\.\d{2}(?![\d,])")
"""An amount in dollars: "$1,500.50"."""
_BARE = re.compile(r"(?<![\w$.'\"-])-?\d{3,}(?![\w'\"%]|\.\d)")
"""A number of three digits or more standing alone (money in cents)."""


def test_d190_no_refusal_of_the_api_states_money_bare(
    client: TestClient,
) -> None:
    """Every game's wagers placed and changed through the API with
    amounts above, below and beside its limits, and by a player whose
    balance is short: no refusal states money as a bare number but for
    the limits restated in cents."""
    said: list[str] = []
    for i, game in enumerate(sorted(FIRST_WAGER)):
        poor = _player(client, game, f"p{i}", balance=5000)
        table = next(
            t for t in client.get("/tables").json() if t["game"] == game
        )
        for wager in table["wagers"]:
            for amount in (10**9, 123_456, 100_001, 6000, 501, 99, 0, -500):
                for path in ("/wagers", "/wagers/change"):
                    answer = poor.post(
                        path, {"seat": 1, "wager": wager, "amount": amount}
                    )
                    if answer.status_code != 200:
                        said.append(answer.json()["message"])
    assert any("exceeds your balance of $" in m for m in said)
    assert any("(100 to 100000 in cents)" in m for m in said)
    cents = re.compile(r" \(100 to 100000 in cents\)| \(100 in cents\)")
    bare = {m for m in said if _BARE.search(_MONEY.sub("", cents.sub("", m)))}
    assert not bare, sorted(bare)


def test_d190_the_cashier_states_its_bounds_in_dollars(
    client: TestClient,
) -> None:
    """The cashier's own refusals (``POST /players/{id}/deposits`` bounds
    an amount at its edge first, in cents: this is what a caller of the
    casino in Python meets): before, "a deposit is at most 1000000000000"
    and "a deposit must be positive, not -500"."""
    casino: Casino = client.app.state.casino  # type: ignore[attr-defined]
    desk = Player(id=1, name="operator", is_operator=True)
    made = client.post("/players", json={"name": "cid"}).json()
    with pytest.raises(WagerError) as info:
        casino.deposit(desk, made["id"], 10**12 + 1)
    assert info.value.message == (
        "a deposit is at most $10,000,000,000.00 (1000000000000 in cents)"
    )
    with pytest.raises(WagerError) as info:
        casino.deposit(desk, made["id"], -500)
    assert info.value.message == "a deposit must be positive, not -$5.00"


def test_d190_a_void_is_logged_in_dollars(client: TestClient) -> None:
    """The operator's log said "returned 75050 to player 4 (seat 1)"
    for a void: the desk shows it to the operator as it is written."""
    ann = _player(client, "midibaccarat", "ann")
    r = ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 75_050})
    assert r.status_code == 200, r.json()
    voided = client.post(
        f"/tables/{ann.table_id}/void",
        json={"reason": "a card exposed"},
        headers=operator(client),
    )
    assert voided.status_code == 200, voided.json()
    log = client.get("/log?limit=50", headers=operator(client)).json()
    said = next(
        row["message"] for row in log if "voided (D25)" in row["message"]
    )
    assert said.endswith(
        f"a card exposed; returned $750.50 to player {ann.player_id} (seat 1)"
    ), said
