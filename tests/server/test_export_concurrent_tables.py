"""D74: a player at two tables at once, in the exported balances.

The server lets one account play at several tables. Here it wagers at
table A, then at table B, deals B to its end, then A: table B's round
falls inside table A's, so A's balance after includes B's money and
does not differ from its balance before by A's round alone. Such a
round's balances are not given (``null``); table B's round, inside
which nothing else of the account moved, keeps them. Before, the
export gave A's wallet balances and ``croupier verify`` reported the
server's own log as breaking the books (810a.11).
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


def test_810a_11_a_round_with_another_tables_money_inside_has_no_balances(
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
    for doc in docs:
        for entry in doc["players"]:
            balances = (entry["balance_before"], entry["balance_after"])
            if doc["table"] == a_table:
                # table B's round was dealt and settled inside it
                assert balances == (None, None)
            else:
                assert None not in balances
                before, after = balances
                assert (
                    after == before - entry["total_bet"] + entry["total_won"]
                )
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 0, result.output
