"""Every refusal type: typed JSON error, the rule cited, nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import operator, seat_player, table_of

from croupier.registry import all_games

GAMES = {spec.name: spec for spec in all_games()}


def books(client: TestClient) -> dict[str, Any]:
    return dict(client.get("/ledger", headers=operator(client)).json())


def refused(response: Any, status: int, error: str) -> dict[str, Any]:
    body = dict(response.json())
    assert response.status_code == status, body
    assert body["error"] == error, body
    assert set(body) == {"error", "ref", "message"}
    return body


def test_refusals_of_the_server(client: TestClient) -> None:
    game = next(iter(GAMES))
    wager = GAMES[game].wagers[0]
    ann = seat_player(client, game, 1, "ann")
    bob = seat_player(client, game, 2, "bob")
    before = books(client)
    table = ann.table_id
    refused(client.post(f"/tables/{table}/deal"), 401, "NotAuthenticatedError")
    refused(
        ann.post("/wagers", {"seat": 2, "wager": wager, "amount": 500}),
        403,
        "NotSeatOwnerError",
    )
    refused(ann.post("/seats", {"seat": 3}), 409, "SeatError")
    refused(bob.post("/seats", {"seat": 1}), 409, "SeatError")
    refused(
        ann.post("/wagers", {"seat": 1, "wager": wager, "amount": 1}),
        400,
        "TableLimitError",
    )
    refused(
        ann.post("/wagers", {"seat": 1, "wager": "nope", "amount": 500}),
        400,
        "WagerError",
    )
    refused(
        client.post("/tables", json={"game": game}, headers=ann.headers),
        403,
        "NotOperatorError",
    )
    refused(
        client.post("/tables/999/deal", headers=ann.headers),
        404,
        "NotFoundError",
    )
    refused(
        client.get("/rounds/99999", headers=ann.headers), 404, "NotFoundError"
    )
    refused(ann.post("/deal"), 409, "WrongPhaseError")
    refused(
        ann.post("/wagers", {"seat": 1, "wager": wager}),
        422,
        "RequestValidationError",
    )
    poor = client.post(
        "/players",
        json={"name": "poor", "balance": 300},
        headers=operator(client),
    ).json()
    poor_headers = {"Authorization": f"Bearer {poor['token']}"}
    client.post(
        f"/tables/{table}/seats", json={"seat": 3}, headers=poor_headers
    )
    refused(
        client.post(
            f"/tables/{table}/wagers",
            json={"seat": 3, "wager": wager, "amount": 500},
            headers=poor_headers,
        ),
        402,
        "InsufficientBalanceError",
    )
    refused(
        client.post("/players", json={"name": "x", "balance": 10**9}),
        403,
        "NotOperatorError",
    )
    after = books(client)
    assert after["ok"]
    assert after["on_layout"] == before["on_layout"] == 0
    assert after["deposits"] == before["deposits"] + 300


def test_21_baccarat_players_make_no_decision(client: TestClient) -> None:
    if "21-baccarat" not in GAMES:
        pytest.skip("21-baccarat is not registered")
    ann = seat_player(client, "21-baccarat", 1)
    ann.post("/wagers", {"seat": 1, "wager": "player", "amount": 500})
    body = refused(
        ann.post("/actions", {"seat": 1, "action": "hit"}),
        400,
        "IllegalActionError",
    )
    assert body["ref"].startswith("681a.7")


def _dbj_pending(client: TestClient) -> tuple[Any, Any, dict[str, Any]]:
    ann = seat_player(client, "double-back-jack", 1, "ann")
    bob = seat_player(client, "double-back-jack", 2, "bob")
    for _ in range(30):
        for p in (ann, bob):
            p.post(
                "/wagers",
                {"seat": p.seat, "wager": "blackjack", "amount": 1000},
            )
        bob.post("/deal")  # ready; ann's deal then closes betting
        state = ann.post("/deal").json()
        if state["round"]["pending"] is not None:
            return ann, bob, state
    raise AssertionError("no decision in 30 rounds")


@pytest.mark.proves("591.7(i)")
def test_591_7_i_refusals_out_of_turn_and_illegal(client: TestClient) -> None:
    if "double-back-jack" not in GAMES:
        pytest.skip("double-back-jack is not registered")
    ann, bob, state = _dbj_pending(client)
    pending = state["round"]["pending"]
    actor, other = (ann, bob) if pending["seat"] == 1 else (bob, ann)
    before = books(client)
    balance = client.get("/me", headers=other.headers).json()["balance"]
    body = refused(
        other.post("/actions", {"seat": other.seat, "action": "stand"}),
        409,
        "OutOfTurnError",
    )
    assert body["ref"]
    illegal = next(
        a
        for a in ("split", "insurance", "second_chance", "surrender", "double")
        if a not in pending["legal"]
    )
    refused(
        actor.post(
            "/actions", {"seat": actor.seat, "action": illegal, "amount": 500}
        ),
        400,
        "IllegalActionError",
    )
    refused(
        actor.post("/actions", {"seat": other.seat, "action": "stand"}),
        403,
        "NotSeatOwnerError",
    )
    refused(
        actor.post(
            "/wagers",
            {"seat": actor.seat, "wager": "blackjack", "amount": 500},
        ),
        409,
        "WrongPhaseError",
    )
    after = books(client)
    assert after == before
    assert client.get("/me", headers=other.headers).json()["balance"] == (
        balance
    )


def test_double_refused_over_balance(client: TestClient) -> None:
    if "double-back-jack" not in GAMES:
        pytest.skip("double-back-jack is not registered")
    table = table_of(client, "double-back-jack")
    for i in range(40):
        poor = client.post(
            "/players",
            json={"name": f"p{i}", "balance": 1000},  # names unique (D31)
            headers=operator(client),
        ).json()
        h = {"Authorization": f"Bearer {poor['token']}"}
        client.post(f"/tables/{table}/seats", json={"seat": 1}, headers=h)
        client.post(
            f"/tables/{table}/wagers",
            json={"seat": 1, "wager": "blackjack", "amount": 1000},
            headers=h,
        )
        state = client.post(f"/tables/{table}/deal", headers=h).json()
        pending = state["round"]["pending"]
        if pending and "double" in pending["legal"]:
            body = refused(
                client.post(
                    f"/tables/{table}/actions",
                    json={"seat": 1, "action": "double"},
                    headers=h,
                ),
                402,
                "InsufficientBalanceError",
            )
            # the decision named as its button does (D189): before,
            # "double would stake 1000 more; ..."; the amounts in dollars
            # (D190): before, "... would stake 1000 more; your balance is 0"
            assert body["message"] == (
                "Double down would stake $10.00 more; your balance is $0.00"
            )
            assert books(client)["ok"]
            return
        while state["round"]["pending"]:
            p = state["round"]["pending"]
            name = "stand" if "stand" in p["legal"] else p["legal"][-1]
            state = client.post(
                f"/tables/{table}/actions",
                json={"seat": 1, "action": name},
                headers=h,
            ).json()
        client.delete(f"/tables/{table}/seats/1", headers=h)
    pytest.skip("no double offered in 40 rounds")


@pytest.mark.proves("629a.7")
def test_629a_7_the_server_names_a_wager_as_the_section_does(
    client: TestClient,
) -> None:
    """The refusals the server returns (and the web table shows, or an
    API client reads) name the wager as 629a does, D187: before, "a
    banker wager must be between 500 and ... at this table, not 1" and
    "seat 1 already has a banker wager"."""
    if "midibaccarat" not in GAMES:
        pytest.skip("midibaccarat is not registered")
    ann = seat_player(client, "midibaccarat", 1, "ann")
    table = next(
        t for t in client.get("/tables").json() if t["id"] == ann.table_id
    )
    low, high = table["wager_limits"].get(
        "banker", [table["min_bet"], table["max_bet"]]
    )
    # the server's default limits, written in dollars and once
    # more in cents (D190: before, "between 100 and 100000 ..., not 1")
    assert (low, high) == (100, 100_000)
    limits = "between $1.00 and $1,000.00 (100 to 100000 in cents)"
    before = books(client)
    body = refused(
        ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 1}),
        400,
        "TableLimitError",
    )
    assert body["message"] == (
        f"a Banker Wager must be {limits} at this table, not $0.01"
    )
    assert books(client) == before
    placed = ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": low})
    assert placed.status_code == 200, placed.json()
    before = books(client)
    body = refused(
        ann.post(
            "/wagers/change", {"seat": 1, "wager": "banker", "amount": 1}
        ),
        400,
        "TableLimitError",
    )
    assert body["message"] == (
        f"a Banker Wager must be {limits} at this table, not $0.01"
    )
    body = refused(
        ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": low}),
        400,
        "WagerError",
    )
    assert body["message"] == "seat 1 already has a Banker Wager"
    assert body["ref"] == "629a.7"
    assert books(client) == before


DBJ_BUTTONS = {
    "surrender": "Surrender",
    "double": "Double down",
    "split": "Split",
    "stand": "Stand",
    "hit": "Hit",
    "insurance": "Insurance",
    "no_insurance": "No insurance",
    "second_chance": "Second Chance",
    "no_second_chance": "No Second Chance",
}
"""Double Back Jack's decisions as the web table's buttons name them."""


@pytest.mark.proves("591.7(i)")
def test_591_7_i_the_server_names_decisions_as_the_buttons_do(
    client: TestClient,
) -> None:
    """A decision the server refuses is named as its button on the web
    table, and the legal ones by those words and the ids an API client
    sends (D189): before, "split is not allowed for seat 1 now; legal:
    surrender, double, stand, hit"."""
    if "double-back-jack" not in GAMES:
        pytest.skip("double-back-jack is not registered")
    ann, bob, state = _dbj_pending(client)
    pending = state["round"]["pending"]
    actor = ann if pending["seat"] == ann.seat else bob
    illegal = next(
        a
        for a in ("split", "insurance", "second_chance", "surrender", "double")
        if a not in pending["legal"]
    )
    before = books(client)
    body = refused(
        actor.post("/actions", {"seat": actor.seat, "action": illegal}),
        400,
        "IllegalActionError",
    )
    legal = ", ".join(f"{DBJ_BUTTONS[a]} ({a})" for a in pending["legal"])
    assert body["message"] == (
        f"{DBJ_BUTTONS[illegal]} is not allowed for seat {actor.seat} now; "
        f"legal: {legal}"
    )
    assert books(client) == before
    now = client.get(f"/tables/{actor.table_id}", headers=actor.headers)
    assert now.json()["round"]["pending"] == pending
