"""D199, D200: the server's refusals of seats, roles and money cite their rule.

To the twenty-first session these refusals went out with ``ref`` null:
a seat out of range, taken, or another's; a second seat; leaving or
sitting out with stakes on the layout; a wager while sitting out; the
deal called by a player who sits nowhere, called twice, or with no
wager down; a stake beyond the balance; a wager the game lacks; a
deposit of nothing; and every task only an operator may do ("only an
operator may do this", naming none). Each now cites the rule it follows:
the game's own subsection where the regulation has one, else the
project's decision (D198's two forms). Every expectation is written out
here from the regulation's sections and ``docs/decisions.md``; each
refusal also leaves the seats and the books as they were.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import (
    OPERATOR,
    Seat,
    balanced_books,
    operator,
    seat_player,
    table_of,
)

from croupier.errors import WagerError
from croupier.registry import find_game
from croupier.rng import SeededRng
from croupier.server.casino import Casino
from croupier.server.tables import Player
from croupier.table import Table

SEATS_AT = {
    # game: (betting positions by default, the subsection numbering them)
    "21-baccarat": (7, "681a.7(e)"),
    "double-back-jack": (6, "673a.2(a)"),
    "midibaccarat": (9, "629a.2(a)"),
    "midibaccarat-commission-free": (9, "629a.2(a)"),
    "six-card-fortune-pai-gow": (6, "670a.7(a)"),
}
"""Each game's seats and the subsection the refusal of another cites."""

NOT_OFFERED = {
    # game: the subsection a wager the game lacks is refused under
    "21-baccarat": "681a.7(e)",
    "double-back-jack": "673a.6(d)",
    "midibaccarat": "629a.7",
    "midibaccarat-commission-free": "629a.7",
    "six-card-fortune-pai-gow": "670a.7(e)",
}


def _refused(response: Any, status: int, error: str) -> dict[str, Any]:
    body: dict[str, Any] = response.json()
    assert response.status_code == status, body
    assert body["error"] == error, body
    return body


def _state(client: TestClient, table_id: int) -> tuple[Any, Any]:
    """The table's seats, the stakes and the books: no refusal moves them."""
    view = client.get(f"/tables/{table_id}").json()
    stakes = None if view["round"] is None else view["round"]["stakes"]
    return (view["table"]["seats"], stakes), balanced_books(client)


def _engine_refusal(game: str, seat: int, wager: str) -> str:
    """The round's own refusal of ``wager`` at ``seat``, its ``ref``."""
    spec = find_game(game)
    round_ = Table(spec, rng=SeededRng(1)).new_round()
    with pytest.raises(WagerError) as refused:
        round_.place_wager(seat, wager, 1000)
    return str(refused.value.ref)


@pytest.mark.parametrize("game", sorted(SEATS_AT))
def test_d199_a_seat_the_game_lacks_cites_the_games_subsection(
    client: TestClient, game: str
) -> None:
    seats, ref = SEATS_AT[game]
    ann = seat_player(client, game, 1, "ann")
    before = _state(client, ann.table_id)
    body = _refused(ann.post("/seats", {"seat": seats + 1}), 409, "SeatError")
    assert body == {
        "error": "SeatError",
        "ref": ref,
        "message": f"seats at this table are 1 to {seats}",
    }
    # the round refuses a wager at that seat under the same subsection
    spec = find_game(game)
    assert _engine_refusal(game, seats + 1, spec.wagers[0]) == ref
    assert _state(client, ann.table_id) == before


@pytest.mark.parametrize("game", sorted(NOT_OFFERED))
def test_d199_a_wager_the_game_lacks_cites_the_games_subsection(
    client: TestClient, game: str
) -> None:
    ann = seat_player(client, game, 1, "ann")
    before = _state(client, ann.table_id)
    body = _refused(
        ann.post("/wagers", {"seat": 1, "wager": "keno", "amount": 500}),
        400,
        "WagerError",
    )
    assert body["ref"] == NOT_OFFERED[game]
    assert _engine_refusal(game, 1, "keno") == NOT_OFFERED[game]
    assert _state(client, ann.table_id) == before


def test_d199_a_seat_is_one_players_and_a_player_has_one(
    client: TestClient,
) -> None:
    ann = seat_player(client, "midibaccarat", 1, "ann")
    bob = seat_player(client, "midibaccarat", 2, "bob")
    table = ann.table_id
    before = _state(client, table)
    refusals = [
        (ann.post("/seats", {"seat": 2}), 409, "SeatError", "seat 2 is taken"),
        (
            ann.post("/seats", {"seat": 3}),
            409,
            "SeatError",
            "you already sit at seat 1",
        ),
        (
            ann.post("/wagers", {"seat": 2, "wager": "player", "amount": 500}),
            403,
            "NotSeatOwnerError",
            "seat 2 is not yours",
        ),
        (
            client.delete(f"/tables/{table}/seats/2", headers=ann.headers),
            403,
            "NotSeatOwnerError",
            "seat 2 is not yours",
        ),
        (
            ann.post("/sit-out", {"seat": 2, "sitting_out": True}),
            403,
            "NotSeatOwnerError",
            "seat 2 is not yours",
        ),
    ]
    for response, status, error, message in refusals:
        assert _refused(response, status, error) == {
            "error": error,
            "ref": "D199",
            "message": message,
        }
    assert _state(client, table) == before
    del bob


def test_d199_a_seat_with_stakes_is_held_to_them(client: TestClient) -> None:
    ann = seat_player(client, "midibaccarat", 1, "ann")
    bob = seat_player(client, "midibaccarat", 2, "bob")
    table = ann.table_id
    placed = ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 500})
    assert placed.status_code == 200, placed.json()
    before = _state(client, table)
    leave = client.delete(f"/tables/{table}/seats/1", headers=ann.headers)
    assert _refused(leave, 409, "SeatError") == {
        "error": "SeatError",
        "ref": "D199",
        "message": "seat 1 has wagers on the layout; finish the round",
    }
    sit_out = ann.post("/sit-out", {"seat": 1, "sitting_out": True})
    assert _refused(sit_out, 409, "SeatError") == {
        "error": "SeatError",
        "ref": "D199",
        "message": "seat 1 has wagers in this round; finish it",
    }
    assert _state(client, table) == before
    # a seat sitting out places no wager until it is back in
    out = bob.post("/sit-out", {"seat": 2, "sitting_out": True})
    assert out.status_code == 200, out.json()
    before = _state(client, table)
    body = _refused(
        bob.post("/wagers", {"seat": 2, "wager": "player", "amount": 500}),
        409,
        "SeatError",
    )
    assert body["ref"] == "D199"
    assert body["message"].startswith("seat 2 sits out; come back in")
    assert _state(client, table) == before


def test_d199_only_a_seated_player_calls_the_deal(client: TestClient) -> None:
    ann = seat_player(client, "midibaccarat", 1, "ann")
    ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 500})
    made = client.post("/players", json={"name": "cy"}).json()
    cy = Seat(client, ann.table_id, 0, made["token"], made["id"])
    before = _state(client, ann.table_id)
    assert _refused(cy.post("/deal"), 403, "NotSeatOwnerError") == {
        "error": "NotSeatOwnerError",
        "ref": "D199",
        "message": "only a seated player may call the deal",
    }
    assert _state(client, ann.table_id) == before


def test_d27_the_deal_with_no_wager_or_called_twice(
    client: TestClient,
) -> None:
    """The operator's deal with nothing on the layout, and any deal or
    ready once the cards are out: the betting is closed by D27."""
    table = table_of(client, "midibaccarat")
    op = Seat(client, table, 0, OPERATOR, 1)  # the operator, at no seat
    before = _state(client, table)
    assert _refused(op.post("/deal"), 409, "WrongPhaseError") == {
        "error": "WrongPhaseError",
        "ref": "D27",
        "message": "no wager is on the layout",
    }
    assert _state(client, table) == before
    # a pai gow round waits for the hands to be set once dealt
    ann = seat_player(client, "six-card-fortune-pai-gow", 1, "ann")
    ann.post("/wagers", {"seat": 1, "wager": "pai_gow", "amount": 500})
    dealt = ann.post("/deal")
    assert dealt.status_code == 200, dealt.json()
    assert dealt.json()["round"]["pending"] is not None
    before = _state(client, ann.table_id)
    for response in (ann.post("/deal"), ann.post("/ready", {"seat": 1})):
        assert _refused(response, 409, "WrongPhaseError") == {
            "error": "WrongPhaseError",
            "ref": "D27",
            "message": "the cards are already dealt",
        }
    assert _state(client, ann.table_id) == before


def test_d73_a_stake_beyond_the_balance_cites_no_credit(
    client: TestClient,
) -> None:
    poor = client.post(
        "/players",
        json={"name": "poor", "balance": 700},
        headers=operator(client),
    ).json()
    table = table_of(client, "midibaccarat")
    ann = Seat(client, table, 1, poor["token"], poor["id"])
    assert ann.post("/seats", {"seat": 1}).status_code == 200
    before = _state(client, table)
    new = ann.post("/wagers", {"seat": 1, "wager": "player", "amount": 800})
    assert _refused(new, 402, "InsufficientBalanceError") == {
        "error": "InsufficientBalanceError",
        "ref": "D73",
        "message": "a wager of $8.00 exceeds your balance of $7.00",
    }
    assert _state(client, table) == before
    placed = ann.post("/wagers", {"seat": 1, "wager": "player", "amount": 500})
    assert placed.status_code == 200, placed.json()
    before = _state(client, table)
    more = ann.post(
        "/wagers/change", {"seat": 1, "wager": "player", "amount": 800}
    )
    assert _refused(more, 402, "InsufficientBalanceError") == {
        "error": "InsufficientBalanceError",
        "ref": "D73",
        "message": "adding $3.00 exceeds your balance of $2.00",
    }
    assert _state(client, table) == before


OPERATOR_TASKS = [
    # (method, path, body, the task the refusal names)
    ("post", "/tables", {"game": "midibaccarat"}, "open a table"),
    ("post", "/players/{id}/deposits", {"amount": 500}, "make a deposit"),
    ("post", "/players/{id}/token", None, "issue a player's token"),
    ("delete", "/players/{id}/token", None, "revoke a player's token"),
    ("get", "/players", None, "list the accounts"),
    ("get", "/ledger", None, "check the books"),
    ("get", "/log", None, "read the server's log"),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "task"),
    OPERATOR_TASKS,
    ids=[task for *_, task in OPERATOR_TASKS],
)
def test_d200_an_operators_task_tried_by_a_player_names_it(
    client: TestClient,
    method: str,
    path: str,
    body: dict[str, Any] | None,
    task: str,
) -> None:
    made = client.post("/players", json={"name": "eve"}).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    tables = client.get("/tables").json()
    before = balanced_books(client)
    kwargs: dict[str, Any] = {"headers": headers}
    if body is not None:
        kwargs["json"] = body
    response = client.request(
        method.upper(), path.format(id=made["id"]), **kwargs
    )
    assert _refused(response, 403, "NotOperatorError") == {
        "error": "NotOperatorError",
        "ref": "D200",
        "message": f"only an operator may {task}",
    }
    assert client.get("/tables").json() == tables
    assert balanced_books(client) == before
    # the player's own token still works: nothing was revoked or reissued
    assert client.get("/me", headers=headers).status_code == 200


def test_d200_a_player_opens_no_funded_or_operator_account(
    client: TestClient,
) -> None:
    for extra in ({"balance": 10**9}, {"operator": True}):
        response = client.post("/players", json={"name": "mal", **extra})
        assert _refused(response, 403, "NotOperatorError") == {
            "error": "NotOperatorError",
            "ref": "D200",
            "message": "only an operator may set a balance or open an "
            "operator",
        }
    listed = client.get("/players", headers=operator(client)).json()
    assert "mal" not in {p["name"] for p in listed}


def test_d31_a_deposit_of_nothing_cites_the_bounds(client: TestClient) -> None:
    """``POST /players/{id}/deposits`` bounds the amount at its edge
    (422); a caller of the casino in Python meets the cashier's own."""
    casino: Casino = client.app.state.casino  # type: ignore[attr-defined]
    desk = Player(id=1, name="operator", is_operator=True)
    made = client.post("/players", json={"name": "zed"}).json()
    before = balanced_books(client)
    for amount in (0, -500):
        with pytest.raises(WagerError) as refused:
            casino.deposit(desk, made["id"], amount)
        assert str(refused.value.ref) == "D31"
    assert balanced_books(client) == before
