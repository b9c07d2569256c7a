"""Issue 13 point 6: the recall list and a round's envelope (§ 810a.11).

``GET /rounds`` pages over the whole history with filters, each round
with its time, table, game, players and money; ``GET /rounds/{id}``
adds times, rules, versions, balances before and after and the results
per hand. The money is checked against rounds stacked here and paid by
the paytable in force, worked out in the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import OPERATOR, Seat, seat_player
from tests.web.live import stack_open_round

import croupier
from croupier.server.app import create_app

OP = {"Authorization": f"Bearer {OPERATOR}"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'recall.db'}"
    with TestClient(create_app(url, operator_token=OPERATOR)) as c:
        yield c


def _round(p: Seat, wager: str, amount: int) -> dict[str, Any]:
    r = p.post("/wagers", {"seat": p.seat, "wager": wager, "amount": amount})
    assert r.status_code == 200, r.json()
    state = p.post("/deal").json()
    return dict(state["last"])


def _stacked(client: TestClient, p: Seat, cards: str) -> None:
    casino = cast(Any, client.app).state.casino
    stack_open_round(casino, p.table_id, cards)


@pytest.mark.proves("810a.11")
def test_810a_11_recall_list_pages_filters_and_money(
    client: TestClient,
) -> None:
    ann = seat_player(client, "midibaccarat", 1, "Ann")
    bob = seat_player(client, "midibaccarat", 2, "Bob")
    _round(ann, "banker", 100)  # the new shoe's burn round
    # Player 4h 5d = 9 (natural) v Banker Kc 7s = 7: Player wins
    _stacked(client, ann, "4h Kc 5d 7s")
    assert (
        ann.post(
            "/wagers", {"seat": 1, "wager": "player", "amount": 1000}
        ).status_code
        == 200
    )
    assert (
        bob.post(
            "/wagers", {"seat": 2, "wager": "banker", "amount": 2000}
        ).status_code
        == 200
    )
    ann.post("/ready", {"seat": 1})
    state = bob.post("/ready", {"seat": 2}).json()
    stacked = state["last"]["id"]
    payout = Fraction(
        client.get(f"/tables/{ann.table_id}")
        .json()["table"]["rules"]["player_payout"]
        .replace(":", "/")
    )
    ann_net = int(1000 * payout)
    for _ in range(7):
        _round(ann, "banker", 100)
    # the operator sees both players' money in the stacked round
    rows = client.get(
        f"/rounds?limit=50&table_id={ann.table_id}", headers=OP
    ).json()
    row = next(r for r in rows if r["id"] == stacked)
    assert row["players"] == ["Ann", "Bob"]
    assert row["total_bet"] == 3000
    assert row["total_won"] == 1000 + ann_net
    assert row["net"] == ann_net - 2000
    assert row["table"] == "Midibaccarat"
    assert row["started_at"]
    # a player sees his own figures only
    own = client.get("/rounds?limit=50", headers=ann.headers).json()
    mine = next(r for r in own if r["id"] == stacked)
    assert (mine["total_bet"], mine["net"]) == (1000, ann_net)
    assert mine["players"] == ["Ann"]
    bobs = client.get("/rounds?limit=50", headers=bob.headers).json()
    assert [r["id"] for r in bobs] == [stacked]
    # paging over the whole history: pages add up to the list, in order
    whole = client.get("/rounds?limit=500", headers=ann.headers)
    total = int(whole.headers["X-Total-Count"])
    assert total == len(whole.json()) == 9
    seen: list[int] = []
    offset = 0
    while True:
        page = client.get(
            f"/rounds?limit=4&offset={offset}", headers=ann.headers
        )
        assert int(page.headers["X-Total-Count"]) == total
        seen += [r["id"] for r in page.json()]
        if "X-Next-Offset" not in page.headers:
            break
        offset = int(page.headers["X-Next-Offset"])
    assert seen == [r["id"] for r in whole.json()]
    assert seen == sorted(seen, reverse=True)
    # filters: game, player (any case), dates
    assert (
        client.get("/rounds?game=21-baccarat", headers=ann.headers).json()
        == []
    )
    other = client.get("/rounds?game=21-baccarat", headers=OP).json()
    assert {r["game"] for r in other} == {"21-baccarat"}
    by_name = client.get("/rounds?player=bob&limit=50", headers=OP).json()
    assert [r["id"] for r in by_name] == [stacked]
    today = datetime.now(UTC).date()
    tomorrow = (today + timedelta(days=1)).isoformat()
    dated = client.get(
        f"/rounds?since={today}&until={today}&limit=50", headers=ann.headers
    ).json()
    assert len(dated) == total
    assert (
        client.get(f"/rounds?since={tomorrow}", headers=ann.headers).json()
        == []
    )


@pytest.mark.proves("810a.11")
def test_810a_11_round_envelope_balances_rules_version(
    client: TestClient,
) -> None:
    ann = seat_player(client, "midibaccarat", 3, "Ann")
    _round(ann, "banker", 100)
    before = client.get("/me", headers=ann.headers).json()["balance"]
    _stacked(client, ann, "4h Kc 5d 7s")  # Player 9 v Banker 7
    last = _round(ann, "banker", 500)
    after = client.get("/me", headers=ann.headers).json()["balance"]
    assert after == before - 500
    detail = client.get(f"/rounds/{last['id']}", headers=ann.headers).json()
    [mine] = detail["balances"]
    assert (mine["before"], mine["after"], mine["net"]) == (
        before,
        after,
        -500,
    )
    assert detail["results"] == [
        {
            "seat": 3,
            "wager": "banker",
            "hand": 0,
            "stake": 500,
            "outcome": "lose",
            "net": -500,
            "commission": 0,
            "ref": detail["results"][0]["ref"],
        }
    ]
    assert detail["results"][0]["ref"].startswith("629")
    table = client.get(f"/tables/{ann.table_id}").json()["table"]
    assert detail["rules"] == table["rules"]
    assert detail["software"]["version"] == croupier.__version__
    assert detail["table"] == "Midibaccarat"
    assert detail["started_at"]
    assert detail["ended_at"]
