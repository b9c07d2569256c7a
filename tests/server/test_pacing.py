"""Issue 12 point 2: no idle player freezes a table.

The table clocks run as a task of the server (no request drives them).
Most tests inject the wall clock (``casino.dealer.time_ms``) and move it
past a deadline; the task then applies the default within its tick,
which the test waits for by polling the table (never a timed
assertion). One test runs on the real clock with sub-second settings,
one on PostgreSQL with two server processes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import (
    OPERATOR,
    Seat,
    balanced_books,
    operator,
    passive_action,
)

from croupier.server.app import create_app

START = 1_800_000_000_000
"""The injected wall clock's first reading (epoch ms)."""


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * 1000)


@pytest.fixture
def paced(db_url: str) -> Iterator[tuple[TestClient, Clock]]:
    app = create_app(db_url, operator_token=OPERATOR)
    clock = Clock()
    app.state.casino.dealer.time_ms = clock
    with TestClient(app) as client:
        yield client, clock


def new_table(
    client: TestClient,
    game: str,
    rules: dict[str, Any] | None = None,
    **settings: Any,
) -> int:
    r = client.post(
        "/tables",
        json={
            "game": game,
            "name": f"paced {game}",
            "rules": rules or {},
            **settings,
        },
        headers=operator(client),
    )
    assert r.status_code == 200, r.json()
    assert r.json()["settings"] == {
        "betting_seconds": 20,
        "decision_seconds": 30,
        "idle_seat_minutes": 5,
        "idle_rounds": 3,
        **settings,
    }
    return int(r.json()["id"])


def sit(client: TestClient, table: int, seat: int, name: str) -> Seat:
    created = client.post("/players", json={"name": name}).json()
    seated = Seat(client, table, seat, created["token"], created["id"])
    r = seated.post("/seats", {"seat": seat})
    assert r.status_code == 200, r.json()
    return seated


def state_of(client: TestClient, table: int) -> dict[str, Any]:
    return dict(client.get(f"/tables/{table}").json())


def wait_for(
    client: TestClient, table: int, done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Poll the table until ``done`` (the clock task works meanwhile)."""
    for _ in range(400):
        state = state_of(client, table)
        if done(state):
            return state
        time.sleep(0.025)
    raise AssertionError(f"the table never got there: {state}")


def wager(p: Seat, name: str = "blackjack", amount: int = 500) -> None:
    r = p.post("/wagers", {"seat": p.seat, "wager": name, "amount": amount})
    assert r.status_code == 200, r.json()


def play_out(players: list[Seat], state: dict[str, Any]) -> dict[str, Any]:
    """Every seat decides passively until betting opens again."""
    for _ in range(60):
        pending = state["round"]["pending"]
        if pending is None or state["round"]["status"] == "betting":
            return state
        actor = next(p for p in players if p.seat == pending["seat"])
        r = actor.post(
            "/actions",
            {"seat": actor.seat, "action": passive_action(pending["legal"])},
        )
        assert r.status_code == 200, r.json()
        state = r.json()
    raise AssertionError("the round did not end")


def pending_for(
    players: list[Seat], seat: int, legal: str | None = None
) -> dict[str, Any]:
    """Deal rounds until the round waits for ``seat``'s decision (one
    that offers the action ``legal``, when given: an ace up first asks
    for insurance, 591.7(g), whose default is no insurance)."""
    for _ in range(40):
        for p in players:
            wager(p)
        for p in players:
            state = p.post("/deal").json()
        pending = state["round"]["pending"]
        if (
            pending is not None
            and pending["seat"] == seat
            and (legal is None or legal in pending["legal"])
        ):
            return dict(state)
        play_out(players, state)
    raise AssertionError(f"seat {seat} never had a decision")


def _moved_on(
    round_id: int, deadline: int
) -> Callable[[dict[str, Any]], bool]:
    """Whether the round ended or its clock is a new one."""

    def done(state: dict[str, Any]) -> bool:
        clock = state["clock"] or {}
        return bool(
            state["round"]["id"] != round_id
            or clock.get("deadline_ms") != deadline
        )

    return done


def events_of(round_view: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in round_view["events"] if e["type"] == kind]


def test_issue12_point2_idle_player_defaulted_to_stand(
    paced: tuple[TestClient, Clock],
) -> None:
    client, clock = paced
    table = new_table(client, "double-back-jack", decision_seconds=30)
    ann = sit(client, table, 1, "ann")
    bob = sit(client, table, 2, "bob")
    state = pending_for([ann, bob], 1, legal="stand")
    pending = state["round"]["pending"]
    shown = state["clock"]
    assert shown["kind"] == "decision"
    assert shown["seat"] == 1
    assert shown["default"] == "stand"
    assert shown["ref"] == pending["ref"]
    assert shown["seconds"] == 30
    assert shown["deadline_ms"] == START + 30_000
    round_id = state["round"]["id"]
    # a player who sits down in play is dealt in from the next round
    cy = sit(client, table, 3, "cy")
    late = cy.post("/wagers", {"seat": 3, "wager": "blackjack", "amount": 500})
    assert late.status_code == 409, late.json()
    clock.advance(29)  # not yet: nothing moves
    time.sleep(0.3)
    assert state_of(client, table)["round"]["pending"] == pending
    clock.advance(2)
    state = wait_for(
        client,
        table,
        lambda s: (
            (s["round"]["pending"] or {}).get("seat") != 1
            or s["round"]["id"] != round_id
        ),
    )
    # bob finishes his own hand; the round settles every seat
    state = play_out([bob], state)
    assert state["last"]["id"] == round_id
    expired = events_of(state["last"], "clock_expired")
    assert expired[0]["seat"] == 1
    assert expired[0]["action"] == "stand"
    assert expired[0]["clock"] == "decision"
    assert expired[0]["ref"] == pending["ref"]
    stood = [
        e for e in events_of(state["last"], "decision_made") if e["seat"] == 1
    ]
    assert stood[-1]["action"] == "stand"
    settled = {s["seat"] for s in state["last"]["settlements"]}
    assert settled == {1, 2}
    wager(cy)  # the next round takes the late player's wager
    detail = client.get(f"/rounds/{round_id}", headers=operator(client))
    assert any(e["type"] == "clock_expired" for e in detail.json()["events"])
    balanced_books(client)


def test_issue12_point2_betting_clock_deals_those_who_bet(
    paced: tuple[TestClient, Clock],
) -> None:
    client, clock = paced
    table = new_table(client, "midibaccarat", betting_seconds=20)
    ann = sit(client, table, 1, "ann")
    bob = sit(client, table, 2, "bob")
    cat = sit(client, table, 3, "cat")
    assert state_of(client, table)["clock"] is None  # no wager, no clock
    wager(ann, "banker", 1000)
    clock.advance(5)
    wager(bob, "player", 1000)
    state = ann.post("/ready", {"seat": 1}).json()
    assert state["ready"] == [1]
    assert state["round"]["status"] == "betting"
    # the clock started with the first wager, not the second
    assert state["clock"]["kind"] == "betting"
    assert state["clock"]["deadline_ms"] == START + 20_000
    round_id = state["round"]["id"]
    clock.advance(16)
    state = wait_for(client, table, lambda s: s["round"]["id"] != round_id)
    last = state["last"]
    assert last["id"] == round_id
    assert {s["seat"] for s in last["settlements"]} == {1, 2}
    assert events_of(last, "clock_expired")[0]["clock"] == "betting"
    assert events_of(last, "seats_left_out")[0]["seats"] == [3]
    assert state["ready"] == []
    del cat
    balanced_books(client)


def test_issue12_point2_seated_player_without_wager_cannot_close_betting(
    paced: tuple[TestClient, Clock],
) -> None:
    client, _clock = paced
    table = new_table(client, "21-baccarat")
    ann = sit(client, table, 1, "ann")
    bob = sit(client, table, 2, "bob")
    wager(ann, "player", 1000)
    for path, body in (("/deal", None), ("/ready", {"seat": 2})):
        r = bob.post(path, body)
        assert r.status_code == 409, r.json()
        assert r.json()["error"] == "NoWagerError"
    state = state_of(client, table)
    assert state["round"]["status"] == "betting"
    assert state["ready"] == []
    round_id = state["round"]["id"]
    # the one seat with a wager is ready: the deal starts at once, and a
    # retry with the same Idempotency-Key is answered again, not applied
    state = ann.post("/ready", {"seat": 1}, **{"Idempotency-Key": "r1"})
    again = ann.post("/ready", {"seat": 1}, **{"Idempotency-Key": "r1"})
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == state.json()
    state = state.json()
    assert state["last"]["id"] == round_id
    assert {s["seat"] for s in state["last"]["settlements"]} == {1}
    assert events_of(state["last"], "seats_left_out")[0]["seats"] == [2]
    balanced_books(client)


def test_issue12_point2_idle_seats_freed(
    paced: tuple[TestClient, Clock],
) -> None:
    client, clock = paced
    table = new_table(
        client, "midibaccarat", idle_rounds=2, idle_seat_minutes=5
    )
    ann = sit(client, table, 1, "ann")
    bob = sit(client, table, 2, "bob")  # never wagers
    cat = sit(client, table, 3, "cat")  # sits out: not idle by rounds
    assert cat.post("/sit-out", {"seat": 3}).status_code == 200
    refused = cat.post(
        "/wagers", {"seat": 3, "wager": "banker", "amount": 1000}
    )
    assert refused.status_code == 409, refused.json()
    for n in range(2):
        wager(ann, "banker", 1000)
        state = ann.post("/deal").json()
        seats = {s["seat"] for s in state["table"]["seats"]}
        assert (2 in seats) == (n == 0), (n, seats)
    freed = events_of(state["round"], "seat_freed")
    assert [(e["seat"], e["player_id"]) for e in freed] == [(2, bob.player_id)]
    assert "2 rounds" in freed[0]["reason"]
    sitting = [s for s in state["table"]["seats"] if s["seat"] == 3]
    assert sitting[0]["sitting_out"] is True
    # gone: no connection and no request for idle_seat_minutes; ann keeps
    # her seat while her WebSocket is open
    with client.websocket_connect(
        f"/ws/tables/{table}?token={ann.token}"
    ) as ws:
        ws.receive_json()
        clock.advance(5 * 60 + 1)
        state = wait_for(
            client,
            table,
            lambda s: {x["seat"] for x in s["table"]["seats"]} == {1},
        )
    gone = events_of(state["round"], "seat_freed")[-1]
    assert gone["seat"] == 3
    assert "no connection and no request" in gone["reason"]
    balanced_books(client)


def test_issue12_point2_operator_void_returns_every_stake(
    paced: tuple[TestClient, Clock],
) -> None:
    client, _clock = paced
    table = new_table(client, "double-back-jack")
    ann = sit(client, table, 1, "ann")
    bob = sit(client, table, 2, "bob")
    for _ in range(20):
        state = pending_for([ann, bob], 1)
        staked = {
            s["seat"]: s["amount"]
            for s in state["round"]["stakes"]
            if s["open"]
        }
        if staked == {1: 500, 2: 500}:
            break
        # a seat's Blackjack was paid at once (591.7(f)): deal again
        play_out([ann, bob], state)
    assert staked == {1: 500, 2: 500}
    round_id = state["round"]["id"]
    before = {
        p.player_id: client.get("/me", headers=p.headers).json()["balance"]
        for p in (ann, bob)
    }
    refused = ann.post("/void", {"reason": "mine"})
    assert refused.status_code == 403, refused.json()
    r = client.post(
        f"/tables/{table}/void",
        json={"reason": "dealer misdeal reported by the pit"},
        headers=operator(client),
    )
    assert r.status_code == 200, r.json()
    state = r.json()
    assert state["last"]["id"] == round_id
    assert state["last"]["status"] == "voided"
    voided = events_of(state["last"], "round_voided")[0]
    assert voided["reason"] == "dealer misdeal reported by the pit"
    assert voided["ref"] == "D25"
    after = {
        p.player_id: client.get("/me", headers=p.headers).json()["balance"]
        for p in (ann, bob)
    }
    assert after == {pid: before[pid] + 500 for pid in before}
    detail = client.get(f"/rounds/{round_id}", headers=operator(client))
    assert detail.json()["status"] == "voided"
    assert detail.json()["record"]["voided"] == (
        "dealer misdeal reported by the pit"
    )
    assert state["round"]["status"] == "betting"
    assert state["clock"] is None
    books = balanced_books(client)
    assert books["on_layout"] == 0
    # the table goes on
    wager(ann)
    assert ann.post("/deal").status_code == 200


def test_issue12_point2_clock_runs_on_its_own_in_real_time(
    client: TestClient,
) -> None:
    """Sub-second clocks on the real wall clock, no request meanwhile:
    5-second clocks (the shortest an operator may set, D170) run at
    0.06 of their time, 0.3 s each."""
    client.app.state.casino.dealer.clock_scale = 0.06  # type: ignore[attr-defined]
    table = new_table(
        client, "double-back-jack", decision_seconds=5, betting_seconds=5
    )
    ann = sit(client, table, 1, "ann")
    bob = sit(client, table, 2, "bob")
    wager(ann)
    wager(bob)
    # betting ran out (nobody said ready), then every decision did
    state = wait_for(client, table, lambda s: s["last"] is not None)
    last = state["last"]
    kinds = [e["clock"] for e in events_of(last, "clock_expired")]
    assert kinds[0] == "betting"
    assert {s["seat"] for s in last["settlements"]} == {1, 2}
    for e in events_of(last, "clock_expired")[1:]:
        assert e["action"] in ("stand", "no_insurance", "no_second_chance")
    balanced_books(client)


def test_issue12_point2_restart_honours_a_stored_deadline(
    db_url: str,
) -> None:
    clock = Clock()
    first = create_app(db_url, operator_token=OPERATOR)
    first.state.casino.dealer.time_ms = clock
    with TestClient(first) as client:
        table = new_table(client, "double-back-jack")
        ann = sit(client, table, 1, "ann")
        for _ in range(40):
            wager(ann)
            state = ann.post("/deal").json()
            if state["round"]["pending"]:
                break
            play_out([ann], state)
        round_id = state["round"]["id"]
        deadline = state["clock"]["deadline_ms"]
    clock.advance(31)
    second = create_app(db_url, operator_token=OPERATOR)
    second.state.casino.dealer.time_ms = clock
    with TestClient(second) as client:
        state = wait_for(
            client,
            table,
            lambda s: (
                s["round"]["id"] != round_id
                or (s["clock"] or {}).get("deadline_ms") != deadline
            ),
        )
        detail = client.get(
            f"/rounds/{round_id}", headers=operator(client)
        ).json()
        assert any(e["type"] == "clock_expired" for e in detail["events"])
        balanced_books(client)


def test_issue12_point2_server_settings_are_the_tables_defaults(
    db_url: str,
) -> None:
    app = create_app(
        db_url,
        operator_token=OPERATOR,
        table_settings={"decision_seconds": 12, "idle_rounds": 5},
    )
    with TestClient(app) as client:
        tables = client.get("/tables").json()
        assert tables, tables
        for table in tables:  # the default tables, opened at start-up
            assert table["settings"] == {
                "betting_seconds": 20,
                "decision_seconds": 12,
                "idle_seat_minutes": 5,
                "idle_rounds": 5,
            }
        r = client.post(
            "/tables",
            json={"game": "midibaccarat", "betting_seconds": 7},
            headers=operator(client),
        )
        assert r.json()["settings"]["betting_seconds"] == 7
        assert r.json()["settings"]["decision_seconds"] == 12
        refused = client.post(
            "/tables",
            json={"game": "midibaccarat", "idle_rounds": 0},
            headers=operator(client),
        )
        assert refused.status_code == 422, refused.json()


def test_issue12_point2_pai_gow_hand_set_the_house_way_by_the_clock(
    paced: tuple[TestClient, Clock],
) -> None:
    client, clock = paced
    table = new_table(
        client,
        "six-card-fortune-pai-gow",
        # the clock declines the Double Down too (off by default, D182)
        {"double_down_offered": True},
        decision_seconds=30,
    )
    ann = sit(client, table, 1, "ann")
    wager(ann, "pai_gow", 500)
    state = ann.post("/deal").json()
    round_id = state["round"]["id"]
    for _ in range(10):  # each decision's clock runs out in turn
        if state["round"]["id"] != round_id:
            break
        assert state["clock"]["kind"] == "decision", state["clock"]
        before = state["clock"]["deadline_ms"]
        clock.advance(31)
        state = wait_for(client, table, _moved_on(round_id, before))
    assert state["last"]["id"] == round_id
    applied = [e["action"] for e in events_of(state["last"], "clock_expired")]
    assert "house_way" in applied
    assert set(applied) <= {"house_way", "no_double_down"}
    assert [s["seat"] for s in state["last"]["settlements"]][:1] == [1]
    balanced_books(client)


def test_d27_a_deal_the_engine_refuses_closes_no_betting(
    paced: tuple[TestClient, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused deal leaves betting open and queues nothing.

    The last seat's "ready" closed betting (a ``seats_left_out`` step
    queued, the seat marked ready) before the engine was asked to deal;
    a deal the engine refused left both behind, and the next "ready"
    queued a second step: the round's record said twice who was left
    out. The engine's refusal now comes first, the table unchanged.
    (No wager the server takes makes today's engines refuse: the
    refusal is injected.)
    """
    from croupier.errors import WagerError
    from croupier.games.midibaccarat.round import MidibaccaratRound
    from croupier.regs import Ref

    client, _clock = paced
    table = new_table(client, "midibaccarat")
    ann = sit(client, table, 1, "ann")
    bob = sit(client, table, 2, "bob")
    sit(client, table, 3, "cat")
    wager(ann, "banker", 1000)
    wager(bob, "player", 1000)
    assert ann.post("/ready", {"seat": 1}).status_code == 200
    real = MidibaccaratRound.verify_deal

    def refuse(self: MidibaccaratRound) -> None:
        raise WagerError("injected refusal", ref=Ref.parse("629a.7"))

    monkeypatch.setattr(MidibaccaratRound, "verify_deal", refuse)
    refused = bob.post("/ready", {"seat": 2})
    assert refused.status_code == 400, refused.json()
    assert "injected refusal" in refused.json()["message"]
    state = state_of(client, table)
    assert state["round"]["status"] == "betting"
    assert state["ready"] == [1]
    monkeypatch.setattr(MidibaccaratRound, "verify_deal", real)
    dealt = bob.post("/ready", {"seat": 2}).json()
    left_out = events_of(dealt["last"], "seats_left_out")
    assert [e["seats"] for e in left_out] == [[3]]
    balanced_books(client)
