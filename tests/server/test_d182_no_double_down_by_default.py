"""D182: the server's pai gow table offers no Double Down by default.

The table every server opens for Six-Card Fortune Pai Gow Poker deals
under the default rules, which no longer offer the Double Down Wager
(670a.7(e): an optional wager only where the Rules Submission specifies
it). Through the API: the seat is asked to set its hands at once, a
Double Down is refused citing 670a.7(e), and a table an operator opens
with ``double_down_offered`` on asks for it first.
"""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.conftest import Seat, balanced_books, operator, seat_player

GAME = "six-card-fortune-pai-gow"


def _dealt(seat: Seat) -> dict[str, object]:
    """$5.00 on the Six-Card Wager, dealt: the pending decision."""
    placed = seat.post(
        "/wagers", {"seat": 1, "wager": "pai_gow", "amount": 500}
    )
    assert placed.status_code == 200, placed.json()
    dealt = seat.post("/deal")
    assert dealt.status_code == 200, dealt.json()
    pending: dict[str, object] = dealt.json()["round"]["pending"]
    return pending


def test_670a_7_e_only_a_pai_gow_table_whose_rules_say_so_offers_it(
    client: TestClient,
) -> None:
    """The server's own table (the defaults) offers no Double Down; one
    an operator opens with ``double_down_offered`` asks for it first."""
    ann = seat_player(client, GAME, 1, "ann")
    (listed,) = [
        t for t in client.get("/tables").json() if t["id"] == ann.table_id
    ]
    assert listed["rules"]["double_down_offered"] is False
    pending = _dealt(ann)
    assert pending["legal"] == ["set", "house_way"]
    refused = ann.post("/actions", {"seat": 1, "action": "double_down"})
    assert refused.status_code == 400, refused.json()
    body = refused.json()
    assert (body["error"], body["ref"]) == ("WagerError", "670a.7(e)")
    assert "offers no Double Down Wager" in body["message"]
    # the round goes on: the seat sets its hands, nothing else was staked
    done = ann.post("/actions", {"seat": 1, "action": "house_way"})
    assert done.status_code == 200, done.json()
    wagers = {s["wager"] for s in done.json()["last"]["settlements"]}
    assert wagers == {"pai_gow"}
    balanced_books(client)
    opened = client.post(
        "/tables",
        json={"game": GAME, "rules": {"double_down_offered": True}},
        headers=operator(client),
    )
    assert opened.status_code == 200, opened.json()
    made = client.post("/players", json={"name": "bea"}).json()
    bea = Seat(client, int(opened.json()["id"]), 1, made["token"], made["id"])
    assert bea.post("/seats", {"seat": 1}).status_code == 200
    assert _dealt(bea)["legal"] == ["double_down", "no_double_down"]
