"""Issue 13 point 1: a seat changes its wager during betting.

``POST /tables/{id}/wagers/change`` sets a spot's new total: chips are
added, taken off, or the wager taken back before the deal; the limits
apply to the total, only the difference moves, the round's log cites the
wager's subsection, and the change survives a restart and a replay.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import (
    OPERATOR,
    Seat,
    balanced_books,
    passive_action,
    seat_player,
)
from tests.web.live import stack_open_round

from croupier.errors import WagerError, WrongPhaseError
from croupier.history import RoundRecord, replay
from croupier.registry import find_game
from croupier.server.app import create_app
from croupier.shoe import Shoe

START = 100_000


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'croupier.db'}"
    with TestClient(create_app(url, operator_token=OPERATOR)) as c:
        yield c


def _change(p: Seat, amount: int, wager: str = "blackjack") -> Any:
    return p.post(
        "/wagers/change", {"seat": p.seat, "wager": wager, "amount": amount}
    )


def test_issue_13_chips_stack_to_30_and_to_the_table_maximum(
    client: TestClient,
) -> None:
    p = seat_player(client, "double-back-jack", 1)
    for total in (500, 1000, 2000, 2500, 3000):  # $5, $5, $10, $5, $5
        r = _change(p, total)
        assert r.status_code == 200, r.json()
    me = client.get("/me", headers=p.headers).json()
    assert me["balance"] == START - 3000
    state = client.get(f"/tables/{p.table_id}", headers=p.headers).json()
    stakes = state["round"]["stakes"]
    assert [(s["wager"], s["amount"]) for s in stakes] == [("blackjack", 3000)]
    high = state["table"]["max_bet"]
    assert _change(p, high).status_code == 200
    over = _change(p, high + 100)
    assert over.status_code >= 400
    me = client.get("/me", headers=p.headers).json()
    assert me["balance"] == START - high  # the refusal moved nothing
    events = [
        e
        for e in client.get(f"/tables/{p.table_id}", headers=p.headers).json()[
            "round"
        ]["events"]
        if e["type"] == "wager_changed"
    ]
    assert [e["amount"] for e in events] == [1000, 2000, 2500, 3000, high]
    assert {e["ref"] for e in events} == {"673a.6(d)"}
    balanced_books(client)


def test_issue_13_reduce_and_take_back_return_exactly_the_difference(
    client: TestClient,
) -> None:
    p = seat_player(client, "midibaccarat", 2)
    assert _change(p, 5000, "banker").status_code == 200
    assert _change(p, 1500, "banker").status_code == 200
    me = client.get("/me", headers=p.headers).json()
    assert me["balance"] == START - 1500
    assert _change(p, 0, "banker").status_code == 200
    me = client.get("/me", headers=p.headers).json()
    assert me["balance"] == START
    state = client.get(f"/tables/{p.table_id}", headers=p.headers).json()
    assert state["round"]["stakes"] == []
    # nothing on the layout: the deal is refused
    assert p.post("/deal").status_code >= 400
    balanced_books(client)


def test_issue_13_change_after_the_deal_is_refused(
    client: TestClient,
) -> None:
    p = seat_player(client, "double-back-jack", 1)
    assert _change(p, 1000).status_code == 200
    state = p.post("/deal").json()  # the new shoe's first round
    while state["round"]["status"] == "playing":
        legal = state["round"]["pending"]["legal"]
        state = p.post(
            "/actions", {"seat": 1, "action": passive_action(legal)}
        ).json()
    # Th 9c against 6s: no dealer Blackjack, the round waits for seat 1
    casino = cast(Any, client.app).state.casino
    stack_open_round(casino, p.table_id, "Th 6s 9c Td 2d")
    assert _change(p, 1000).status_code == 200
    dealt = p.post("/deal").json()
    assert dealt["round"]["status"] == "playing"
    r = _change(p, 2000)
    assert r.status_code >= 400
    assert r.json()["ref"]


def test_issue_13_changed_wager_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    with TestClient(create_app(url, operator_token=OPERATOR)) as c:
        p = seat_player(c, "double-back-jack", 1)
        assert _change(p, 1000).status_code == 200
        assert _change(p, 2500).status_code == 200
        assert _change(p, 1500).status_code == 200
    with TestClient(create_app(url, operator_token=OPERATOR)) as c:
        p.client = c
        me = c.get("/me", headers=p.headers).json()
        assert me["balance"] == START - 1500
        state = c.get(f"/tables/{p.table_id}", headers=p.headers).json()
        assert state["round"]["stakes"][0]["amount"] == 1500
        assert p.post("/deal").status_code == 200
        balanced_books(c)


@pytest.mark.proves("673a.6")
def test_673a_6_change_wager_is_replayed_and_refused_after_the_deal() -> None:
    game = find_game("double-back-jack")
    rnd = game.new_round(
        rules=game.rules_type(), shoe=Shoe.stacked("2c Th 6d 9s 7c 5h Kd")
    )
    rnd.place_wager(1, "blackjack", 1000)
    changed = rnd.change_wager(1, "blackjack", 3000)
    assert (changed.previous, changed.amount) == (1000, 3000)
    assert rnd.ledger.stakes[next(iter(rnd.ledger.stakes))] == 3000
    rnd.change_wager(1, "blackjack", 0)
    assert rnd.ledger.stakes == {}
    with pytest.raises(WagerError):
        rnd.change_wager(1, "blackjack", 500)  # nothing left to change
    rnd.place_wager(1, "blackjack", 500)  # the box is free again
    with pytest.raises(WagerError):
        rnd.change_wager(1, "blackjack", 10**9)  # over the table maximum
    rnd.deal()
    with pytest.raises(WrongPhaseError):
        rnd.change_wager(1, "blackjack", 1000)
    record = RoundRecord(
        game=game.name,
        rules=rnd.rules.to_dict(),
        shoe="2c Th 6d 9s 7c 5h Kd",
        new_shoe=True,
        wagers=[
            {"seat": 1, "wager": "blackjack", "amount": 1000},
            {"seat": 1, "wager": "blackjack", "amount": 3000, "change": True},
            {"seat": 1, "wager": "blackjack", "amount": 0, "change": True},
            {"seat": 1, "wager": "blackjack", "amount": 500},
        ],
        events=[e.to_dict() for e in rnd.events],
        settlements=[s.to_dict() for s in rnd.settlements],
    )
    assert replay(record).ok


@pytest.mark.proves("670a.7")
def test_670a_7_pai_gow_wager_stays_while_a_side_wager_stands() -> None:
    game = find_game("six-card-fortune-pai-gow")
    rnd = game.new_round(rules=game.rules_type(), shoe=Shoe.new(jokers=1))
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.place_wager(1, "fortune_bonus", 500)
    with pytest.raises(WagerError):
        rnd.change_wager(1, "pai_gow", 0)
    rnd.change_wager(1, "pai_gow", 2000)  # raising it is fine
    rnd.change_wager(1, "fortune_bonus", 0)
    rnd.change_wager(1, "pai_gow", 0)
    assert rnd.ledger.stakes == {}
