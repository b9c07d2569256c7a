"""``croupier replay``: prints the procedure and verifies the record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from tests.server.conftest import finish_round, operator, seat_player
from tests.web.live import stack_open_round
from typer.testing import CliRunner

import croupier
from croupier.cli.replay import replay
from croupier.registry import all_games
from croupier.server import db as storage


def _cli() -> typer.Typer:
    app = typer.Typer()
    app.command()(replay)
    return app


def _played(client: TestClient, who: str = "p", seat: int = 1) -> int:
    """A round played to its end by a new player ``who``: its id."""
    spec = all_games()[0]
    p = seat_player(client, spec.name, seat, who)
    p.post("/wagers", {"seat": seat, "wager": spec.wagers[0], "amount": 500})
    state = p.post("/deal").json()
    while state["round"]["pending"]:
        pending = state["round"]["pending"]
        name = "stand" if "stand" in pending["legal"] else pending["legal"][0]
        state = p.post("/actions", {"seat": seat, "action": name}).json()
    return int(state["last"]["id"])


def test_replay_to_a_reader_that_goes_exits_141(
    client: TestClient, db_url: str
) -> None:
    """``croupier replay N | head -1``: 141, not 1 (a failed replay)."""
    round_id = _played(client)
    command = Path(sys.executable).with_name("croupier")
    proc = subprocess.Popen(  # noqa: S603 - the project's own command
        [str(command), "replay", str(round_id), "--db", db_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.close()  # gone before the command writes a byte
    assert proc.wait(timeout=120) == 141
    assert proc.stderr.read() == b""


def test_replay_verifies_a_stored_round(
    client: TestClient, db_url: str
) -> None:
    spec = all_games()[0]
    round_id = _played(client)
    detail = client.get(f"/rounds/{round_id}", headers=operator(client)).json()
    assert detail["status"] == "over"
    runner = CliRunner()
    ok = runner.invoke(_cli(), [str(round_id), "--db", db_url])
    assert ok.exit_code == 0, ok.output
    assert "replay reproduces" in ok.output
    assert "§" in ok.output or spec.section in ok.output
    engine = storage.make_engine(db_url)
    # the record is read from storage: HTTP withholds it while the shoe
    # is in play (issue 12 point 7)
    with engine.connect() as conn:
        stored = conn.execute(
            select(storage.RoundRow.record_json).where(
                storage.RoundRow.id == round_id
            )
        ).scalar_one()
    assert stored is not None
    record = json.loads(stored)
    record["settlements"][0]["net"] += 1
    with engine.begin() as conn:
        conn.execute(
            update(storage.RoundRow)
            .where(storage.RoundRow.id == round_id)
            .values(record_json=json.dumps(record))
        )
    bad = runner.invoke(_cli(), [str(round_id), "--db", db_url])
    assert bad.exit_code == 1, bad.output


def test_replay_of_a_round_in_play_is_not_a_failed_replay(
    client: TestClient, db_url: str
) -> None:
    """A round still taking wagers or decisions exits 3, not 1.

    1 says the stored record does not replay (a tampered or broken
    store); a round in play has nothing settled to verify yet, and a
    monitoring script reading 1 raised a false alarm on it. Over, the
    same round replays (0).
    """
    p = seat_player(client, "double-back-jack", 1, name="inplay")
    state = p.post(
        "/wagers", {"seat": 1, "wager": "blackjack", "amount": 500}
    ).json()
    round_id = int(state["round"]["id"])
    runner = CliRunner()
    for args in ([], ["--json"]):
        open_round = runner.invoke(
            _cli(), [str(round_id), "--db", db_url, *args]
        )
        assert open_round.exit_code == 3, open_round.output
    assert (
        "no settled record to verify"
        in runner.invoke(_cli(), [str(round_id), "--db", db_url]).output
    )


def test_591_7_q_1_replay_tells_a_splits_hands_apart_in_dollars(
    client: TestClient, db_url: str
) -> None:
    """8-8 split against a 6 over a 10: 11 and 18 stand, the dealer
    draws a 6 to 22 and both hands push (591.7(q)(1)). The two
    settlements read the same ("seat 1 blackjack: push net 0") and the
    net was in cents; each now names its hand and says dollars."""
    p = seat_player(client, "double-back-jack", 1)
    casino = client.app.state.casino  # type: ignore[attr-defined]
    live = casino.table(p.table_id).live
    if live.round.new_shoe:  # its burn comes first: not stacked
        p.post("/wagers", {"seat": 1, "wager": "blackjack", "amount": 500})
        finish_round(p)
    stack_open_round(casino, p.table_id, "8h 6s 8d Ts 3c Tc 6h")
    p.post("/wagers", {"seat": 1, "wager": "blackjack", "amount": 1000})
    state = p.post("/deal").json()
    for action in ("split", "stand", "stand"):
        assert action in state["round"]["pending"]["legal"], state
        state = p.post("/actions", {"seat": 1, "action": action}).json()
    round_id = int(state["last"]["id"])
    result = CliRunner().invoke(_cli(), [str(round_id), "--db", db_url])
    assert result.exit_code == 0, result.output
    lines = [x for x in result.output.splitlines() if x.startswith("seat ")]
    assert "rules in force: the game's defaults" in result.output
    assert f"dealt by croupier {croupier.__version__}\n" in result.output
    # settled from the dealer's right: the second hand first
    assert lines == [
        "seat 1 blackjack, hand 2: push, net $0.00 [§ 591.7(q)(1)]",
        "seat 1 blackjack, hand 1: push, net $0.00 [§ 591.7(q)(1)]",
    ], result.output


@pytest.mark.proves("810a.11")
def test_810a_11_replay_gives_each_players_balance_before_and_after(
    client: TestClient, db_url: str
) -> None:
    """The balances ``GET /me`` gave before and after the round."""
    spec = next(s for s in all_games() if s.name == "midibaccarat")
    ann = seat_player(client, spec.name, 1, "Ann")
    before = client.get("/me", headers=ann.headers).json()["balance"]
    ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 1500})
    state = ann.post("/deal").json()
    after = client.get("/me", headers=ann.headers).json()["balance"]
    round_id = int(state["last"]["id"])
    result = CliRunner().invoke(_cli(), [str(round_id), "--db", db_url])
    assert result.exit_code == 0, result.output
    net = after - before
    sign = "+" if net > 0 else "-" if net < 0 else ""
    expected = (
        f"Ann (player {ann.player_id}): balance "
        f"${before // 100:,}.{before % 100:02d} before, "
        f"${after // 100:,}.{after % 100:02d} after, "
        f"net {sign}${abs(net) // 100:,}.{abs(net) % 100:02d}"
    )
    assert expected in result.output.splitlines(), result.output
    verdict = json.loads(
        CliRunner()
        .invoke(_cli(), [str(round_id), "--db", db_url, "--json"])
        .output
    )
    assert verdict["balances"] == [
        {
            "player_id": ann.player_id,
            "name": "Ann",
            "before": before,
            "after": after,
            "net": net,
        }
    ]
