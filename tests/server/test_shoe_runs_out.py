"""D69 through the server: a one-deck shoe that runs out voids the round.

Six players hit at a one-deck Double Back Jack table whose cover card
lies deep (19/20): the shoe runs out within a few rounds. The round is
void (591.7(a)), every open stake goes back to its player, the books
balance, and the next round deals from the reshuffled shoe: the table
does not stall.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import (
    OPERATOR,
    Seat,
    SeededStream,
    balanced_books,
    export_verifies,
    operator,
)

from croupier.server import tables as server_tables
from croupier.server.app import create_app

GAME = "double-back-jack"


def _table(client: TestClient) -> int:
    r = client.post(
        "/tables",
        json={"game": GAME, "rules": {"decks": 1, "penetration": "19/20"}},
        headers=operator(client),
    )
    assert r.status_code == 200, r.json()
    return int(r.json()["id"])


def _players(client: TestClient, table_id: int) -> list[Seat]:
    players = []
    for seat in range(1, 7):
        made = client.post("/players", json={"name": f"p{seat}"}).json()
        player = Seat(client, table_id, seat, made["token"], made["id"])
        r = player.post("/seats", {"seat": seat})
        assert r.status_code == 200, r.json()
        players.append(player)
    return players


def _balance(player: Seat) -> int:
    me = player.client.get("/me", headers=player.headers).json()
    return int(me["balance"])


def _play(players: list[Seat]) -> dict[str, Any]:
    """Each wagers 500 and hits while it may; the last ready one deals."""
    for p in players:
        r = p.post(
            "/wagers", {"seat": p.seat, "wager": "blackjack", "amount": 500}
        )
        assert r.status_code == 200, r.json()
    state: dict[str, Any] = {}
    for p in players:
        state = p.post("/deal").json()
    for _ in range(200):
        pending = state["round"]["pending"]
        if pending is None or state["round"]["status"] == "betting":
            return state
        legal = pending["legal"]
        name = next(
            (
                n
                for n in ("hit", "no_second_chance", "no_insurance")
                if n in legal
            ),
            legal[0],
        )
        actor = players[pending["seat"] - 1]
        r = actor.post("/actions", {"seat": actor.seat, "action": name})
        assert r.status_code == 200, r.json()
        state = r.json()
    raise AssertionError(state)


def test_591_7_a_the_server_voids_a_round_the_shoe_cannot_finish(
    client: TestClient, db_url: str, tmp_path: Path
) -> None:
    table_id = _table(client)
    players = _players(client, table_id)
    op = operator(client)
    for _ in range(15):
        before = [_balance(p) for p in players]
        state = _play(players)
        balanced_books(client)
        last = state["last"]
        detail = client.get(f"/rounds/{last['id']}", headers=op).json()
        types = [e["type"] for e in detail["events"]]
        if "round_voided" not in types:
            continue
        # each player's balance moved by what was settled before the void
        # (a Blackjack paid, a bust collected); what was open came back
        void_at = types.index("round_voided")
        nets = [0] * 6
        for e in detail["events"][:void_at]:
            if e["type"] == "wager_settled":
                nets[e["seat"] - 1] += e["net"]
        returned = [
            e
            for e in detail["events"][void_at:]
            if e["type"] == "wager_settled"
        ]
        assert returned
        assert all(e["outcome"] == "void" and e["net"] == 0 for e in returned)
        assert [
            _balance(p) - b for p, b in zip(players, before, strict=True)
        ] == nets
        # the table goes on: the next round is dealt from the new shoe
        after = _play(players)
        assert after["last"]["id"] != last["id"]
        balanced_books(client)
        # the exported log, voided round included, verifies
        export_verifies(db_url, tmp_path)
        return
    raise AssertionError("six players hitting ran a one-deck shoe out")


def test_d76_a_table_that_may_run_out_is_opened_with_a_warning(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="croupier.server"):
        _table(client)
    [line] = [r.getMessage() for r in caplog.records if "D76" in r.message]
    assert "with 1 deck and the cover card at 49 of 52" in line
    assert "a round of 6 boxes takes about 21 (up to 52)" in line


@pytest.mark.proves("681a.7(a)")
def test_681a_7_a_the_server_deals_on_after_the_deal_runs_out(
    db_url: str, tmp_path: Path
) -> None:
    """A 21 Baccarat shoe that runs out in the deal leaves a one-card hand.

    The answer to the step that dealt it viewed that hand's Bonus and
    raised: the step was rolled back, the same void was dealt again at
    every try, and the table was stuck (found by the stateful soak test,
    issue 17). Now the void is answered, stored and exported, and the
    table deals on.
    """
    source = random.Random(17)
    seeded = SeededStream(source)
    with mock.patch.object(server_tables, "SecureRng", return_value=seeded):
        server = create_app(db_url, operator_token=OPERATOR, pacing=False)
        with TestClient(server) as client:
            r = client.post(
                "/tables",
                json={
                    "game": "21-baccarat",
                    "rules": {"decks": 1, "penetration": "19/20"},
                },
                headers=operator(client),
            )
            table_id = int(r.json()["id"])
            made = client.post("/players", json={"name": "ann"}).json()
            ann = Seat(client, table_id, 1, made["token"], made["id"])
            assert ann.post("/seats", {"seat": 1}).status_code == 200
            for _ in range(400):
                body = {"seat": 1, "wager": "player", "amount": 100}
                assert ann.post("/wagers", body).status_code == 200
                dealt = ann.post("/ready", {"seat": 1})
                assert dealt.status_code == 200, dealt.json()
                last = dealt.json()["last"]
                hands = last["view"]
                if last["status"] == "over" and 1 in (
                    len(hands["player"]["cards"]),
                    len(hands["banker"]["cards"]),
                ):
                    break
            else:
                raise AssertionError("no deal ran out with a one-card hand")
            assert [s["outcome"] for s in last["settlements"]] == ["void"]
            assert ann.post("/wagers", body).status_code == 200
            assert ann.post("/ready", {"seat": 1}).status_code == 200
            balanced_books(client)
    export_verifies(db_url, tmp_path)
