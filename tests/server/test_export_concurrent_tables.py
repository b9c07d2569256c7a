"""D74: a player at two tables at once, in the exported balances.

The server lets one account play at several tables. Here it wagers at
table A, then at table B, deals B to its end, then A: table B's round
falls inside table A's, so A's balance after includes B's money. A's
record still gives the account's balances, and beside them the net that
moved elsewhere meanwhile (``moved_elsewhere``), which this test works
out from table B's record; B's round, inside which nothing else of the
account moved, has none. Before, the export gave A's balances alone
and ``croupier verify`` reported the server's own log as breaking the
books (810a.11).
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from tests.server.conftest import Seat, finish_round, operator
from typer.testing import CliRunner

from croupier.cli import app

runner = CliRunner()


def _table(client: TestClient) -> int:
    r = client.post(
        "/tables", json={"game": "midibaccarat"}, headers=operator(client)
    )
    assert r.status_code == 200, r.json()
    return int(r.json()["id"])


def test_810a_11_a_round_with_another_tables_money_inside_says_what_moved(
    client: TestClient, db_url: str, tmp_path: Path
) -> None:
    a_table, b_table = _table(client), _table(client)
    made = client.post("/players", json={"name": "two tables"}).json()
    a = Seat(client, a_table, 1, made["token"], made["id"])
    b = Seat(client, b_table, 1, made["token"], made["id"])
    alone = client.post("/players", json={"name": "one table"}).json()
    c = Seat(client, b_table, 2, alone["token"], alone["id"])
    for seat in (a, b, c):
        assert seat.post("/seats", {"seat": seat.seat}).status_code == 200
    for _ in range(3):
        for seat, amount in ((a, 500), (b, 700), (c, 300)):
            r = seat.post(
                "/wagers",
                {"seat": seat.seat, "wager": "banker", "amount": amount},
            )
            assert r.status_code == 200, r.json()
        # both players at table B say deal; the last one's call deals
        assert b.post("/deal").status_code == 200
        finish_round(c)
        finish_round(a)
    out = tmp_path / "day.jsonl"
    export = ["history", "export", "--db", db_url, "--out", str(out)]
    assert runner.invoke(app, export).exit_code == 0
    docs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(docs) == 6
    ann = made["id"]
    # the two-table player's net at table B, round by round, from B's
    # own records: what moved elsewhere during each of A's rounds
    at_b = [
        entry["total_won"] - entry["total_bet"]
        for doc in docs
        if doc["table"] == b_table
        for entry in doc["players"]
        if entry["player_id"] == str(ann)
    ]
    at_a = [doc for doc in docs if doc["table"] == a_table]
    assert len(at_b) == len(at_a) == 3
    for doc, elsewhere in zip(at_a, at_b, strict=True):
        (entry,) = doc["players"]
        assert entry["moved_elsewhere"] == elsewhere
        assert entry["balance_after"] == (
            entry["balance_before"]
            - entry["total_bet"]
            + entry["total_won"]
            + elsewhere
        )
    for doc in docs:
        if doc["table"] == b_table:
            for entry in doc["players"]:
                assert "moved_elsewhere" not in entry
                before, after = entry["balance_before"], entry["balance_after"]
                assert (
                    after == before - entry["total_bet"] + entry["total_won"]
                )
    # the balances are the account's own, not figures fitted to each
    # round: A's round starts where the last ended, and B's stake is
    # placed once A's (Midibaccarat's only stake) is off the balance
    b_before = [
        entry["balance_before"]
        for doc in docs
        if doc["table"] == b_table
        for entry in doc["players"]
        if entry["player_id"] == str(ann)
    ]
    a_players = [doc["players"][0] for doc in at_a]
    assert [e["balance_before"] for e in a_players[1:]] == [
        e["balance_after"] for e in a_players[:-1]
    ]
    assert b_before == [
        e["balance_before"] - e["total_bet"] for e in a_players
    ]
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 0, result.output
    # the round's page (recall) tells the player the same
    for doc, elsewhere in zip(at_a, at_b, strict=True):
        (entry,) = doc["players"]
        page = client.get(f"/rounds/{doc['round_id']}", headers=a.headers)
        [mine] = page.json()["balances"]
        assert (mine["before"], mine["after"], mine["moved_elsewhere"]) == (
            entry["balance_before"],
            entry["balance_after"],
            elsewhere,
        )
    for doc in docs:
        if doc["table"] == b_table:
            page = client.get(f"/rounds/{doc['round_id']}", headers=a.headers)
            [mine] = page.json()["balances"]
            assert "moved_elsewhere" not in mine
