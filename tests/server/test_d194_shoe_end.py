"""D194: the operator ends a table's shoe between rounds.

``POST /tables/{id}/shoe/end {"reason": ...}``, operator only, while no
stake is on the layout: the table takes new decks, the round that waited
for wagers on the old shoe is withdrawn (its row and events deleted:
nothing of it was in play) and one is opened on the new shoe, shuffled
and burned as the game prepares every shoe; the rounds dealt from the
old shoe are disclosed, so that ``croupier history export`` writes their
stacks; the new round's record says the operator ended the shoe, with
the reason. While a stake is on the layout the request is refused and
nothing changes. Every test here fails without D194 (the route is new).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import (
    OPERATOR,
    Seat,
    balanced_books,
    finish_round,
    operator,
)
from tests.web.live import stack_open_round
from typer.testing import CliRunner

from croupier.cli import app as cli
from croupier.hhf.format import HandHistory
from croupier.server.app import create_app

WAGERS = {
    "double-back-jack": "blackjack",
    "midibaccarat": "player",
    "midibaccarat-commission-free": "player",
    "21-baccarat": "player",
    "six-card-fortune-pai-gow": "pai_gow",
}


def _path(db_url: str) -> str:
    return db_url.removeprefix("sqlite:///")


def _rows(db_url: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(_path(db_url)) as conn:
        return list(conn.execute(sql, args))


def _seated(client: TestClient, game: str, name: str = "ann") -> Seat:
    table = next(t for t in client.get("/tables").json() if t["game"] == game)
    made = client.post("/players", json={"name": name}).json()
    seat = Seat(client, int(table["id"]), 1, made["token"], made["id"])
    assert seat.post("/seats", {"seat": 1}).status_code == 200
    return seat


def _play(seat: Seat, game: str, rounds: int) -> None:
    for _ in range(rounds):
        r = seat.post(
            "/wagers", {"seat": 1, "wager": WAGERS[game], "amount": 500}
        )
        assert r.status_code == 200, r.json()
        finish_round(seat)


def _end(client: TestClient, table: int, reason: str, **body: Any) -> Any:
    return client.post(
        f"/tables/{table}/shoe/end",
        json={"reason": reason, **body},
        headers=operator(client),
    )


def _state(client: TestClient, table: int) -> dict[str, Any]:
    return dict(
        client.get(f"/tables/{table}", headers=operator(client)).json()
    )


def _export(db_url: str, tmp_path: Path) -> tuple[list[HandHistory], Any]:
    out = tmp_path / "day.jsonl"
    runner = CliRunner()
    export = ["history", "export", "--db", db_url, "--out", str(out)]
    assert runner.invoke(cli, export).exit_code == 0
    verified = runner.invoke(cli, ["verify", str(out)])
    lines = out.read_text(encoding="utf-8").splitlines()
    return [HandHistory.loads(line) for line in lines], verified


def test_d194_only_the_operator_ends_a_shoe(client: TestClient) -> None:
    ann = _seated(client, "double-back-jack")
    before = _state(client, ann.table_id)
    refused = ann.post("/shoe/end", {"reason": "I saw a marked card"})
    assert refused.status_code == 403, refused.json()
    assert refused.json()["error"] == "NotOperatorError"
    assert "only an operator may end a shoe" in refused.json()["message"]
    after = _state(client, ann.table_id)
    assert after["round"]["id"] == before["round"]["id"]
    assert after["table"]["shoe"] == before["table"]["shoe"]


@pytest.mark.parametrize("dealt", [False, True])
def test_d194_refused_while_a_stake_is_on_the_layout(
    client: TestClient, db_url: str, *, dealt: bool
) -> None:
    game = "double-back-jack"
    ann = _seated(client, game)
    _play(ann, game, 1)
    # seat 1 Th 6d (16), the dealer 9s up and 9c in the hole: a decision
    # is pending after the deal (a Blackjack dealt would settle at once)
    casino = client.app.state.casino  # type: ignore[attr-defined]
    stack_open_round(casino, ann.table_id, "Th 9s 6d 9c")
    r = ann.post("/wagers", {"seat": 1, "wager": "blackjack", "amount": 700})
    assert r.status_code == 200, r.json()
    if dealt:
        state = ann.post("/deal").json()
        assert state["round"]["status"] == "playing", state["round"]
    before = _state(client, ann.table_id)
    rows = _rows(db_url, "SELECT id, status, disclosed FROM rounds")
    events = _rows(db_url, "SELECT count(*) FROM events")
    round_id = before["round"]["id"]
    refused = _end(client, ann.table_id, "dispute at the table")
    assert refused.status_code == 409, refused.json()
    assert refused.json()["error"] == "WrongPhaseError"
    message = refused.json()["message"]
    assert (
        f"round {round_id} is in play at this table: end the shoe after "
        "it, or void it (D29)"
    ) in message
    assert "D194" in message
    after = _state(client, ann.table_id)
    assert after["round"]["id"] == round_id
    assert after["round"]["stakes"] == before["round"]["stakes"]
    assert after["table"]["shoe"] == before["table"]["shoe"]
    assert after["table"]["in_play"] == before["table"]["in_play"]
    assert _rows(db_url, "SELECT id, status, disclosed FROM rounds") == rows
    assert _rows(db_url, "SELECT count(*) FROM events") == events
    balanced_books(client)


@pytest.mark.parametrize("game", sorted(WAGERS))
def test_d194_the_shoe_ends_at_once_between_rounds_and_the_day_verifies(
    client: TestClient, db_url: str, tmp_path: Path, game: str
) -> None:
    ann = _seated(client, game)
    table = ann.table_id
    _play(ann, game, 3)
    state = _state(client, table)
    waiting = state["round"]["id"]
    shoe = state["table"]["shoe"]["number"]
    assert state["table"]["in_play"] is None
    dealt = [
        rid
        for (rid,) in _rows(
            db_url,
            "SELECT id FROM rounds WHERE table_id = ? AND shoe_no = ? "
            "AND status = 'over' ORDER BY id",
            table,
            shoe,
        )
    ]
    sealed = _rows(
        db_url,
        "SELECT id FROM rounds WHERE table_id = ? AND status = 'over' "
        "AND NOT disclosed ORDER BY id",
        table,
    )
    # pai gow shuffles its deck for every round: nothing is sealed
    assert [rid for (rid,) in sealed] == (
        [] if game == "six-card-fortune-pai-gow" else dealt
    )

    r = _end(client, table, "card found marked", shoe=shoe)
    assert r.status_code == 200, r.json()
    answer = r.json()
    ended = answer["shoe_ended"]
    new_round = answer["round"]["id"]
    assert ended == {
        "table_id": table,
        "reason": "card found marked",
        "shoe": shoe,
        "new_shoe": shoe + 1,
        "round_id": new_round,
        "withdrawn": waiting,
        "disclosed": [rid for (rid,) in sealed],
    }
    assert new_round > waiting
    assert answer["table"]["shoe"]["number"] == shoe + 1
    assert answer["round"]["status"] == "betting"
    step = answer["round"]["events"][-1]
    assert step == {
        "seq": 1,
        "scope": "server",
        "type": "shoe_ended",
        "ref": "D194",
        "by": "operator",
        "reason": "card found marked",
        "shoe": shoe,
        "rounds": len(sealed),
        "withdrawn": waiting,  # D198: named, for its id to be answered
    }
    # the waiting round is gone everywhere; the new one begins a shoe
    assert _rows(db_url, "SELECT id FROM rounds WHERE id = ?", waiting) == []
    assert (
        _rows(db_url, "SELECT id FROM events WHERE round_id = ?", waiting)
        == []
    )
    # its id is answered as withdrawn, not unknown (D198)
    assert (
        client.get(f"/rounds/{waiting}", headers=operator(client)).status_code
        == 410
    )
    [(new_shoe, shoe_no, status)] = _rows(
        db_url,
        "SELECT new_shoe, shoe_no, status FROM rounds WHERE id = ?",
        new_round,
    )
    assert (bool(new_shoe), shoe_no, status) == (True, shoe + 1, "open")
    preparation = [
        t
        for (t,) in _rows(
            db_url,
            "SELECT type FROM events WHERE round_id = ? AND scope = 'shoe'",
            new_round,
        )
    ]
    assert "shuffled" in preparation
    # every round dealt from the retired shoe is disclosed
    assert (
        _rows(
            db_url,
            "SELECT id FROM rounds WHERE table_id = ? AND shoe_no = ? "
            "AND NOT disclosed",
            table,
            shoe,
        )
        == []
    )
    # a second request naming the same shoe ends nothing
    again = _end(client, table, "card found marked", shoe=shoe)
    assert again.status_code == 409, again.json()
    assert f"shoe {shoe} is no longer in play" in again.json()["message"]
    assert _state(client, table)["round"]["id"] == new_round

    _play(ann, game, 3)
    balanced_books(client)
    histories, verified = _export(db_url, tmp_path)
    assert verified.exit_code == 0, verified.output
    assert "0 with a deviation" in verified.output
    mine = {int(h.round_id): h for h in histories if h.table == table}
    for rid in dealt:
        assert mine[rid].shoe.known == "stacked", rid
        assert mine[rid].shoe.stack
    first = mine[new_round]
    assert first.shoe.new_shoe
    assert [s["type"] for s in first.table_steps] == ["shoe_ended"]
    assert first.table_steps[0]["reason"] == "card found marked"
    assert waiting not in mine
    log = client.get(
        f"/log?round_id={new_round}", headers=operator(client)
    ).json()
    assert any("ended by the operator (D194)" in row["message"] for row in log)


def test_d194_a_seat_freed_while_the_round_waited_goes_on_with_its_replacement(
    client: TestClient, db_url: str, tmp_path: Path
) -> None:
    """A seat freed between rounds (D28) is a step of the waiting round:
    the round that replaces it keeps it, before the shoe's end."""
    made = client.post(
        "/tables",
        json={"game": "midibaccarat", "name": "idle", "idle_rounds": 1},
        headers=operator(client),
    ).json()
    table = int(made["id"])
    seats = []
    for n, name in ((1, "ann"), (2, "bob")):
        player = client.post("/players", json={"name": name}).json()
        seat = Seat(client, table, n, player["token"], player["id"])
        assert seat.post("/seats", {"seat": n}).status_code == 200
        seats.append(seat)
    ann, bob = seats
    r = ann.post("/wagers", {"seat": 1, "wager": "player", "amount": 500})
    assert r.status_code == 200, r.json()
    finish_round(ann)
    state = _state(client, table)
    freed = [e for e in state["round"]["events"] if e["type"] == "seat_freed"]
    assert [e["seat"] for e in freed] == [2]
    r = _end(client, table, "dealer change of cards")
    assert r.status_code == 200, r.json()
    server = [
        (e["seq"], e["type"])
        for e in r.json()["round"]["events"]
        if e.get("scope") == "server"
    ]
    assert server == [(1, "seat_freed"), (2, "shoe_ended")]
    _play(ann, "midibaccarat", 1)
    histories, verified = _export(db_url, tmp_path)
    assert verified.exit_code == 0, verified.output
    new = next(
        h
        for h in histories
        if int(h.round_id) == r.json()["shoe_ended"]["round_id"]
    )
    assert [s["type"] for s in new.table_steps] == ["seat_freed", "shoe_ended"]
    del bob


def test_d194_a_restart_after_an_ended_shoe_deals_on_from_the_new_shoe(
    db_url: str, tmp_path: Path
) -> None:
    game = "double-back-jack"
    with TestClient(create_app(db_url, operator_token=OPERATOR)) as client:
        ann = _seated(client, game)
        _play(ann, game, 2)
        r = _end(client, ann.table_id, "cards damaged")
        assert r.status_code == 200, r.json()
        ended = r.json()["shoe_ended"]
        shown = r.json()["round"]["view"]
    with TestClient(create_app(db_url, operator_token=OPERATOR)) as client:
        state = _state(client, ann.table_id)
        # the round opened on the new shoe is the one resumed, its step
        # kept; the withdrawn one does not come back
        assert state["round"]["id"] == ended["round_id"]
        assert state["round"]["view"] == shown
        steps = [e["type"] for e in state["round"]["events"]]
        assert steps.count("shoe_ended") == 1
        assert state["table"]["shoe"]["number"] == ended["new_shoe"]
        ann = Seat(client, ann.table_id, 1, ann.token, ann.player_id)
        _play(ann, game, 2)
        balanced_books(client)
    opened = _rows(db_url, "SELECT id FROM rounds WHERE status = 'open'")
    assert (ended["withdrawn"],) not in opened
    _histories, verified = _export(db_url, tmp_path)
    assert verified.exit_code == 0, verified.output


def test_d194_the_schema_holds_the_step_to_its_reason(
    client: TestClient, db_url: str, tmp_path: Path
) -> None:
    """The CHH schema knows the step: one without its reason is refused."""
    game = "midibaccarat"
    ann = _seated(client, game)
    _play(ann, game, 1)
    assert _end(client, ann.table_id, "dispute").status_code == 200
    _play(ann, game, 1)
    histories, _verified = _export(db_url, tmp_path)
    record = next(h for h in histories if h.table_steps).to_dict()
    HandHistory.loads(json.dumps(record))
    del record["table_steps"][0]["reason"]
    with pytest.raises(ValueError, match="reason"):
        HandHistory.loads(json.dumps(record))
