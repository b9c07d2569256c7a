"""A table has the betting positions its Rules Submission numbers.

21 Baccarat's ``seats`` (1 to 14, 681a.7(h) settles them from the
dealer's right) and Double Back Jack's ``boxes`` (at most six) are
options of the casino's Rules Submission. The server offered the
game's default count whatever they said: seven seats at a 21 Baccarat
table of 14, six boxes at a Double Back Jack table of two.
"""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.conftest import Seat, finish_round, operator


def _new_table(client: TestClient, game: str, rules: dict[str, int]) -> int:
    made = client.post(
        "/tables",
        json={"game": game, "rules": rules},
        headers=operator(client),
    )
    assert made.status_code == 200, made.json()
    return int(made.json()["id"])


def _player(client: TestClient, table_id: int, seat: int, name: str) -> Seat:
    made = client.post("/players", json={"name": name}).json()
    return Seat(client, table_id, seat, made["token"], made["id"])


def test_681a_7_h_a_table_of_14_seats_deals_seat_14(
    client: TestClient,
) -> None:
    table_id = _new_table(client, "21-baccarat", {"seats": 14})
    view = client.get(f"/tables/{table_id}").json()
    assert view["table"]["seat_count"] == 14
    seat = _player(client, table_id, 14, "far")
    assert seat.post("/seats", {"seat": 14}).status_code == 200
    placed = seat.post(
        "/wagers", {"seat": 14, "wager": "player", "amount": 500}
    )
    assert placed.status_code == 200, placed.json()
    finish_round(seat)
    last = client.get(f"/tables/{table_id}", headers=seat.headers).json()
    settled = [s["seat"] for s in last["last"]["settlements"]]
    assert settled == [14]


def test_591_7_a_table_of_two_boxes_offers_two(client: TestClient) -> None:
    table_id = _new_table(client, "double-back-jack", {"boxes": 2})
    view = client.get(f"/tables/{table_id}").json()
    assert view["table"]["seat_count"] == 2
    seat = _player(client, table_id, 3, "third")
    refused = seat.post("/seats", {"seat": 3})
    assert refused.status_code in (400, 404, 409, 422), refused.json()
    assert "1 to 2" in refused.json()["message"]
    assert seat.post("/seats", {"seat": 2}).status_code == 200
