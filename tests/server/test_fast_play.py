"""Issue 18, point 5: one router for the play routes, and its fast path.

The play routes are declared once (``PlayApi.router``). With
``fast_play`` (the default) :class:`~croupier.server.fast_play.FastPlay`
calls their handlers directly; without it FastAPI serves them. The
fast path must give the same answers: the same request sequences are
sent to a server of each kind, in lockstep, and every refusal and
validation error must be byte-identical, every success the same status
and the same fields (cards are drawn from each server's own shoe).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.requests import Request
from starlette.types import Receive, Scope, Send
from tests.server.conftest import OPERATOR, Seat, seat_player

from croupier.server.app import create_app
from croupier.server.fast_play import FastPlay

GAME = "midibaccarat"


@pytest.fixture(scope="module")
def servers(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Seat, Seat]]:
    """A fast and a plain server, each with one seated player."""
    seats = []
    with_clients = []
    for fast in (True, False):
        path: Path = tmp_path_factory.mktemp("fast" if fast else "plain")
        app = create_app(
            f"sqlite:///{path / 'croupier.db'}",
            operator_token=OPERATOR,
            pacing=False,
            starting_balance=10_000_000,
            fast_play=fast,
        )
        client = TestClient(app)
        client.__enter__()
        with_clients.append(client)
        seats.append(seat_player(client, GAME, 1))
    yield seats[0], seats[1]
    for client in with_clients:
        client.__exit__(None, None, None)


TABLE_IDS = st.sampled_from(["", "0", "-1", "abc", "99999999999", "999"])
BODIES: st.SearchStrategy[Any] = st.one_of(
    st.fixed_dictionaries(
        {
            "seat": st.sampled_from([1, 2, 0, "1", None]),
            "wager": st.sampled_from(["player", "banker", "tie", "x", 3]),
            "amount": st.sampled_from([100, 500, 0, -5, 10**12, "100"]),
        }
    ),
    st.fixed_dictionaries(
        {"seat": st.just(1), "action": st.sampled_from(["stand", "hit"])}
    ),
    st.just({"seat": 1, "wager": "player", "amount": 100, "extra": 1}),
    st.just({}),
    st.none(),
)
REQUESTS = st.tuples(
    st.sampled_from(
        ["wagers", "wagers/change", "deal", "actions", "seats", "nope"]
    ),
    TABLE_IDS,
    st.sampled_from(["own", "none", "bad"]),
    BODIES,
    st.sampled_from([None, "k1", "k2", "x" * 200]),
    st.booleans(),
)


def _send(seat: Seat, request: tuple[Any, ...]) -> httpx.Response:
    path, table, auth, body, key, minimal = request
    headers = {}
    if auth == "own":
        headers.update(seat.headers)
    elif auth == "bad":
        headers["Authorization"] = "Bearer not-a-token-of-this-server"
    if key is not None:
        headers["Idempotency-Key"] = key
    if minimal:
        headers["Prefer"] = "return=minimal"
    table_id = table or str(seat.table_id)
    response: httpx.Response = seat.client.post(
        f"/tables/{table_id}/{path}", json=body, headers=headers
    )
    return response


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(REQUESTS, min_size=1, max_size=8))
def test_issue_18_5_fast_play_answers_as_the_router(
    servers: tuple[Seat, Seat], requests: list[tuple[Any, ...]]
) -> None:
    fast, plain = servers
    for request in requests:
        got, want = _send(fast, request), _send(plain, request)
        assert got.status_code == want.status_code, (request, got.text)
        if got.status_code == 200:
            assert got.json().keys() == want.json().keys(), request
        else:
            assert got.content == want.content, request
            assert got.headers.get("content-type") == want.headers.get(
                "content-type"
            )


def test_issue_18_5_fast_play_serves_only_its_routes() -> None:
    seen: list[str] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(f"{scope['method']} {scope['path']}")
        await JSONResponse({"from": "app"})(scope, receive, send)

    async def handler(http: Request) -> JSONResponse:
        return JSONResponse({"table": http.path_params["table_id"]})

    router = APIRouter()
    router.add_api_route("/tables/{table_id}/deal", handler, methods=["POST"])
    client = TestClient(FastPlay(app, router=router))
    assert client.post("/tables/7/deal").json() == {"table": "7"}
    assert client.get("/tables/7/deal").json() == {"from": "app"}
    assert client.post("/tables/7/other").json() == {"from": "app"}
    assert seen == ["GET /tables/7/deal", "POST /tables/7/other"]
