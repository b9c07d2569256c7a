"""Issue 13 point 6: the recall list and a round's envelope (§ 810a.11).

``GET /rounds`` pages over the whole history with filters, each round
with its time, table, game, players and money; ``GET /rounds/{id}``
adds times, rules, versions, balances before and after and the results
per hand. The money is checked against rounds stacked here and paid by
the paytable in force, worked out in the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from fractions import Fraction
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import OPERATOR, Seat, finish_round, seat_player
from tests.web.live import stack_open_round

import croupier
from croupier.hhf.export import export_rounds
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
def test_810a_11_the_operators_list_leaves_out_rounds_nobody_wagered_in(
    client: TestClient,
) -> None:
    """Every table holds a round open for wagers: none of them is listed
    until a stake moves in it; the rounds dealt are, and only they."""
    tables = client.get("/tables").json()
    assert client.get("/rounds", headers=OP).json() == []
    ann = seat_player(client, "midibaccarat", 1, "Ann")
    dealt = [_round(ann, "banker", 100)["id"] for _ in range(3)]
    listed = client.get("/rounds?limit=50", headers=OP)
    assert [r["id"] for r in listed.json()] == dealt[::-1]
    assert listed.headers["X-Total-Count"] == "3"
    # a stake on the open round lists it, open
    ann.post("/wagers", {"seat": 1, "wager": "banker", "amount": 100})
    newest = client.get("/rounds?limit=50", headers=OP).json()[0]
    assert (newest["status"], newest["players"]) == ("open", ["Ann"])
    # the unlisted rounds are still there to be asked for by id
    opened = [
        client.get(f"/tables/{t['id']}").json()["round"]["id"] for t in tables
    ]
    for round_id in opened:
        detail = client.get(f"/rounds/{round_id}", headers=OP)
        assert detail.status_code == 200, detail.json()


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
    cy = seat_player(client, "21-baccarat", 1, "Cy")
    cys = _round(cy, "player", 100)["id"]
    assert (
        client.get("/rounds?game=21-baccarat", headers=ann.headers).json()
        == []
    )
    other = client.get("/rounds?game=21-baccarat", headers=OP).json()
    assert [(r["id"], r["game"]) for r in other] == [(cys, "21-baccarat")]
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


def _void_dealt_round(client: TestClient) -> tuple[Seat, Seat, int]:
    """Ann ($7) and Bob ($9) at Double Back Jack, dealt 17 and 17 against
    the dealer's 6, voided by the operator while Ann decides (D25)."""
    ann = seat_player(client, "double-back-jack", 1, "Ann")
    bob = seat_player(client, "double-back-jack", 2, "Bob")
    bet = {"seat": 1, "wager": "blackjack", "amount": 100}
    assert ann.post("/wagers", bet).status_code == 200
    finish_round(ann)  # the new shoe's burn round
    _stacked(client, ann, "Th 9c 6s 7d 8h Ts")
    for p, amount in ((ann, 700), (bob, 900)):
        bet = {"seat": p.seat, "wager": "blackjack", "amount": amount}
        assert p.post("/wagers", bet).status_code == 200
    ann.post("/ready", {"seat": 1})
    state = bob.post("/ready", {"seat": 2}).json()
    assert state["round"]["pending"]["seat"] == 1
    voided = client.post(
        f"/tables/{ann.table_id}/void",
        json={"reason": "a card found face up in the shoe"},
        headers=OP,
    )
    assert voided.status_code == 200, voided.json()
    rows = client.get(f"/rounds?table_id={ann.table_id}", headers=OP).json()
    return ann, bob, next(r["id"] for r in rows if r["status"] == "voided")


@pytest.mark.proves("810a.11")
def test_d25_a_voided_rounds_recall_says_who_voided_it_why_and_each_return(
    client: TestClient, tmp_path: Path
) -> None:
    """The audit of 2026-12-06: a voided round's page gave no result at
    all (the export gave each seat's stake back as a void settlement)
    and did not say who voided it."""
    ann, _bob, voided = _void_dealt_round(client)
    for headers in (ann.headers, OP):
        detail = client.get(f"/rounds/{voided}", headers=headers).json()
        assert detail["status"] == "voided"
        assert detail["void"] == {
            "reason": "a card found face up in the shoe",
            "by": "operator",
            "ref": "D25",
        }
        returned = [
            (r["seat"], r["stake"], r["outcome"], r["net"], r["ref"])
            for r in detail["results"]
        ]
        assert returned == [
            (1, 700, "void", 0, "D25"),
            (2, 900, "void", 0, "D25"),
        ]
    # the same returns as the hand history's settlements
    url = f"sqlite:///{tmp_path / 'recall.db'}"
    [record] = [h for h in export_rounds(url) if h.round_id == str(voided)]
    assert [
        (s["seat"], s["amount"], s["outcome"], s["net"], s["ref"])
        for s in record.settlements
    ] == returned
    # a round that was not voided says nothing of a void
    over = client.get(f"/rounds?table_id={ann.table_id}", headers=OP).json()
    played = next(r["id"] for r in over if r["status"] == "over")
    assert "void" not in client.get(f"/rounds/{played}", headers=OP).json()


@pytest.mark.proves("810a.11")
def test_810a_11_a_rounds_times_read_the_same_in_its_row_and_its_page(
    client: TestClient,
) -> None:
    """SQLite gives its UTC times back without a zone: the list wrote
    them with +00:00, the round's page without (audit of 2026-12-06)."""
    ann = seat_player(client, "midibaccarat", 1, "Ann")
    last = _round(ann, "banker", 100)
    [row] = [
        r
        for r in client.get("/rounds", headers=ann.headers).json()
        if r["id"] == last["id"]
    ]
    detail = client.get(f"/rounds/{last['id']}", headers=ann.headers).json()
    for key in ("started_at", "ended_at"):
        assert detail[key] == row[key]
        assert datetime.fromisoformat(detail[key]).utcoffset() == timedelta(0)


@pytest.mark.proves("810a.11")
def test_810a_11_recall_filters_by_a_time_window_as_well_as_by_days(
    client: TestClient,
) -> None:
    """A complaint names an hour, and the recall page asks for the
    viewer's own day: ``since`` and ``until`` take times (an instant,
    ``until`` excluded) besides UTC days (audit of 2026-12-06)."""
    ann = seat_player(client, "midibaccarat", 1, "Ann")
    ids = [_round(ann, "banker", 100)["id"] for _ in range(3)]
    rows = {
        r["id"]: r for r in client.get("/rounds", headers=ann.headers).json()
    }
    middle = datetime.fromisoformat(rows[ids[1]]["started_at"])
    after = datetime.fromisoformat(rows[ids[2]]["started_at"])

    def found(query: str) -> list[int]:
        reply = client.get("/rounds?" + query, headers=ann.headers)
        assert reply.status_code == 200, reply.json()
        return [r["id"] for r in reply.json()]

    since = quote(middle.isoformat())
    until = quote(after.isoformat())
    assert found(f"since={since}&until={until}") == [ids[1]]
    # the same instants in another zone, and without a zone (UTC)
    eastern = timezone(timedelta(hours=-5))
    assert found(
        f"since={quote(middle.astimezone(eastern).isoformat())}"
        f"&until={quote(after.replace(tzinfo=None).isoformat())}"
    ) == [ids[1]]
    today = middle.date()
    assert found(f"since={today}&until={today}") == ids[::-1]
    # the last day there is, and what is neither a day nor a time
    assert found("until=9999-12-31") == ids[::-1]
    for bad in ("yesterday", "2026-13-01", "2026-12-06T25:00"):
        reply = client.get(f"/rounds?since={bad}", headers=ann.headers)
        assert reply.status_code == 422, reply.json()
