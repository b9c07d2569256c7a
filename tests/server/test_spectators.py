"""Issue 12 point 4: spectators cannot stall the tables.

A change builds and encodes each distinct view once (one for every
anonymous spectator, one per account watching) and sends the same text to
every client that shares it; connections are capped per table and per
client address; a client that cannot keep up is dropped, not queued for.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import seat_player

from croupier.registry import all_games
from croupier.server.runtime import Player
from croupier.server.ws import (
    CLOSE_TOO_MANY,
    CLOSE_TOO_SLOW,
    Hub,
    SocketLimits,
)


def _count_builds(hub: Hub) -> list[int]:
    """Count the views the hub asks for (wraps its snapshot)."""
    calls = [0]
    inner = hub.snapshot

    def snapshot(
        table_id: int,
    ) -> Callable[[Player | None], dict[str, Any]]:
        view = inner(table_id)

        def counted(player: Player | None) -> dict[str, Any]:
            calls[0] += 1
            return view(player)

        return counted

    hub.snapshot = snapshot
    return calls


def test_issue12_point4_one_view_build_per_distinct_viewer(
    client: TestClient,
) -> None:
    """Six spectators and two players: three views per change, not eight.

    Every spectator receives the very same text; each player his own.
    """
    spec = all_games()[0]
    ann = seat_player(client, spec.name, 1, "ann")
    bob = seat_player(client, spec.name, 2, "bob")
    hub = client.app.state.hub  # type: ignore[attr-defined]
    builds = _count_builds(hub)
    url = f"/ws/tables/{ann.table_id}"
    managers = [client.websocket_connect(url) for _ in range(6)]
    managers += [
        client.websocket_connect(f"{url}?token={p.token}") for p in (ann, bob)
    ]
    sockets = [m.__enter__() for m in managers]
    try:
        for ws in sockets:
            ws.receive_text()  # the table on connecting
        before = builds[0]
        r = ann.post(
            "/wagers", {"seat": 1, "wager": spec.wagers[0], "amount": 500}
        )
        assert r.status_code == 200, r.text
        texts = [ws.receive_text() for ws in sockets]
        assert builds[0] - before == 3
        spectators, players = texts[:6], texts[6:]
        assert len(set(spectators)) == 1
        assert json.loads(spectators[0])["data"]["you"] is None
        mine = [json.loads(t)["data"]["you"]["name"] for t in players]
        assert mine == ["ann", "bob"]
    finally:
        for m in reversed(managers):
            m.__exit__(None, None, None)


def _refused(client: TestClient, url: str) -> WebSocketDisconnect:
    with (
        client.websocket_connect(url) as ws,
        pytest.raises(WebSocketDisconnect) as refused,
    ):
        ws.receive_text()
    return refused.value


def test_issue12_point4_table_cap_refuses_the_next_connection(
    client: TestClient,
) -> None:
    """With ``per_table`` 3, the fourth connection is closed with 4429."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.limits = SocketLimits(per_table=3, per_address=100)
    tables = client.get("/tables").json()
    url = f"/ws/tables/{tables[0]['id']}"
    managers = [client.websocket_connect(url) for _ in range(3)]
    sockets = [m.__enter__() for m in managers]
    try:
        for ws in sockets:
            assert json.loads(ws.receive_text())["type"] == "table"
        refused = _refused(client, url)
        assert refused.code == CLOSE_TOO_MANY
        assert "table" in refused.reason
        assert "limit 3" in refused.reason
        # another table still takes connections
        with client.websocket_connect(
            f"/ws/tables/{tables[1]['id']}"
        ) as other:
            assert json.loads(other.receive_text())["type"] == "table"
    finally:
        for m in reversed(managers):
            m.__exit__(None, None, None)
    # the places are given back when clients leave
    with client.websocket_connect(url) as again:
        assert json.loads(again.receive_text())["type"] == "table"


def test_issue12_point4_address_cap_refuses_the_next_connection(
    client: TestClient,
) -> None:
    """With ``per_address`` 2, a third connection from it is refused."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.limits = SocketLimits(per_table=100, per_address=2)
    tables = client.get("/tables").json()
    managers = [
        client.websocket_connect(f"/ws/tables/{t['id']}") for t in tables[:2]
    ]
    sockets = [m.__enter__() for m in managers]
    try:
        for ws in sockets:
            ws.receive_text()
        refused = _refused(client, f"/ws/tables/{tables[2]['id']}")
        assert refused.code == CLOSE_TOO_MANY
        assert "from" in refused.reason
        assert "limit 2" in refused.reason
    finally:
        for m in reversed(managers):
            m.__exit__(None, None, None)


def test_issue12_point4_limits_are_named_settings() -> None:
    """Defaults, the environment, and nonsense refused."""
    assert SocketLimits() == SocketLimits.from_env({})
    got = SocketLimits.from_env(
        {
            "CROUPIER_WS_PER_TABLE": "7",
            "CROUPIER_WS_PER_ADDRESS": "5",
            "CROUPIER_WS_QUEUE": "3",
        }
    )
    assert (got.per_table, got.per_address, got.queue) == (7, 5, 3)
    with pytest.raises(ValueError, match="queue"):
        SocketLimits(queue=0)


class FakeSocket:
    """A WebSocket whose sends may stall, as a client that stops reading."""

    def __init__(self, host: str, *, stalled: bool = False) -> None:
        self.client = type("Peer", (), {"host": host, "port": 1})()
        self.stalled = stalled
        self.sent: list[str] = []
        self.closed: tuple[int, str | None] | None = None
        self.gone = asyncio.Event()

    async def accept(self) -> None:
        return None

    async def receive(self) -> Mapping[str, Any]:
        await self.gone.wait()
        return {"type": "websocket.disconnect"}

    async def send_text(self, data: str) -> None:
        if self.stalled:
            await asyncio.Event().wait()  # the peer never reads
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)
        self.gone.set()


def test_issue12_point4_slow_consumer_dropped_others_keep_receiving() -> None:
    """A stalled client is closed (4408) once its queue is full; a
    reading client on the same table receives every change meanwhile."""
    version = [0]

    def snapshot(
        table_id: int,
    ) -> Callable[[Player | None], dict[str, Any]]:
        return lambda player: {"table": table_id, "version": version[0]}

    async def scenario() -> tuple[FakeSocket, FakeSocket, Hub]:
        hub = Hub(snapshot, SocketLimits(queue=3, spectator_interval=0))
        fast = FakeSocket("10.0.0.1")
        slow = FakeSocket("10.0.0.2", stalled=True)
        tasks = [
            asyncio.create_task(hub.serve(s, 1, None)) for s in (fast, slow)
        ]
        await asyncio.sleep(0)
        for _ in range(10):
            version[0] += 1
            hub.notify(1)
            await asyncio.sleep(0.001)
        await asyncio.wait_for(tasks[1], 5)  # the slow one is gone
        assert not tasks[0].done()
        fast.gone.set()
        await asyncio.wait_for(tasks[0], 5)
        return fast, slow, hub

    fast, slow, hub = asyncio.run(scenario())
    assert slow.closed is not None
    assert slow.closed[0] == CLOSE_TOO_SLOW
    assert "too slow" in str(slow.closed[1])
    versions = [json.loads(t)["data"]["version"] for t in fast.sent]
    assert versions == list(range(11))
    assert slow.sent == []
    assert hub.clients == {}
    assert not hub.addresses


def test_issue12_point4_spectators_get_the_latest_state_paced() -> None:
    """Five changes within the interval: an account receives all five,
    the spectators the first at once and the fifth at the interval's end
    (one view built for them each time)."""
    version = [0]
    built: list[int | None] = []

    def snapshot(
        table_id: int,
    ) -> Callable[[Player | None], dict[str, Any]]:
        def view(player: Player | None) -> dict[str, Any]:
            built.append(None if player is None else player.id)
            return {"table": table_id, "version": version[0]}

        return view

    async def scenario() -> tuple[list[FakeSocket], FakeSocket]:
        hub = Hub(snapshot, SocketLimits(spectator_interval=0.2))
        crowd = [FakeSocket("10.0.0.1") for _ in range(3)]
        ann = FakeSocket("10.0.0.2")
        tasks = [asyncio.create_task(hub.serve(s, 1, None)) for s in crowd]
        tasks.append(asyncio.create_task(hub.serve(ann, 1, Player(7, "ann"))))
        await asyncio.sleep(0.01)
        built.clear()
        for _ in range(5):
            version[0] += 1
            hub.notify(1)
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.4)
        for sock in [*crowd, ann]:
            sock.gone.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 5)
        return crowd, ann

    crowd, ann = asyncio.run(scenario())
    mine = [json.loads(t)["data"]["version"] for t in ann.sent]
    assert mine == [0, 1, 2, 3, 4, 5]
    for sock in crowd:
        seen = [json.loads(t)["data"]["version"] for t in sock.sent]
        assert seen == [0, 1, 5]
    assert built.count(None) == 2
    assert built.count(7) == 5


def _handshake(port: int, path: str, *, rcvbuf: int | None = None) -> Any:
    """A raw WebSocket connection (its socket), past the 101 answer."""
    import base64
    import os
    import socket

    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nhost: 127.0.0.1\r\nupgrade: websocket\r\n"
        f"connection: Upgrade\r\nsec-websocket-key: {key}\r\n"
        "sec-websocket-version: 13\r\n\r\n".encode()
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _frames(sock: Any) -> list[tuple[int, bytes]]:
    """Every frame the server sent until it closed: (opcode, payload)."""
    data = b""
    while chunk := sock.recv(1 << 16):
        data += chunk
    frames = []
    i = 0
    while i + 2 <= len(data):
        opcode, size = data[i] & 0x0F, data[i + 1] & 0x7F
        i += 2
        if size == 126:
            size = int.from_bytes(data[i : i + 2], "big")
            i += 2
        elif size == 127:
            size = int.from_bytes(data[i : i + 8], "big")
            i += 8
        frames.append((opcode, data[i : i + size]))
        i += size
    return frames


@pytest.mark.slow  # a real uvicorn server and a stalled socket
def test_issue12_point4_stalled_client_dropped_on_a_real_server(
    tmp_path: Any,
) -> None:
    """uvicorn, real sockets: a client that stops reading (its socket
    full) is closed with 4408 once its queue fills, while a reading
    client on the same table goes on receiving every change."""
    import threading
    import time

    import httpx
    import uvicorn
    from tests.server.conftest import OPERATOR
    from tests.server.procs import free_port

    from croupier.server.app import create_app

    app = create_app(
        f"sqlite:///{tmp_path / 'slow.db'}", operator_token=OPERATOR
    )
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    hub = app.state.hub
    try:
        while not server.started:
            time.sleep(0.02)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            table = next(
                t["id"]
                for t in http.get("/tables").json()
                if t["game"] == "six-card-fortune-pai-gow"
            )
            made = [
                http.post("/players", json={"name": n}).json()
                for n in ("ann", "sam", "rea")
            ]
            ann = {"Authorization": f"Bearer {made[0]['token']}"}
            http.post(f"/tables/{table}/seats", json={"seat": 1}, headers=ann)
            path = f"/ws/tables/{table}?token="
            stalled = _handshake(port, path + made[1]["token"], rcvbuf=4096)
            reader = _handshake(port, path + made[2]["token"])
            got: list[tuple[int, bytes]] = []
            done = threading.Thread(target=lambda: got.extend(_frames(reader)))
            done.start()

            def watchers() -> set[int]:
                return {
                    c.player.id
                    for c in list(hub.clients.get(table, ()))
                    if c.player is not None
                }

            rounds = after = 0
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and after < 5:
                if made[1]["id"] not in watchers():
                    after += 1  # rounds played once it is gone
                rounds += 1
                http.post(
                    f"/tables/{table}/wagers",
                    json={"seat": 1, "wager": "pai_gow", "amount": 100},
                    headers=ann,
                )
                state = http.post(f"/tables/{table}/deal", headers=ann).json()
                for _ in range(4):
                    pending = state["round"]["pending"]
                    if not pending:
                        break
                    legal = pending["legal"]
                    name = next(
                        a
                        for a in ("no_double_down", "house_way")
                        if a in legal
                    )
                    state = http.post(
                        f"/tables/{table}/actions",
                        json={"seat": 1, "action": name},
                        headers=ann,
                    ).json()
            assert after == 5, "the stalled client was never dropped"
            assert made[2]["id"] in watchers()
            reader.shutdown(1)
            stalled_frames = _frames(stalled)
            done.join(10)
    finally:
        server.should_exit = True
        thread.join(10)
    closes = [p for op, p in stalled_frames if op == 8]
    assert closes, "no close frame reached the stalled client"
    assert int.from_bytes(closes[0][:2], "big") == CLOSE_TOO_SLOW
    assert b"too slow" in closes[0]
    texts = [p for op, p in got if op == 1]
    assert len(texts) >= 3 * rounds  # wager, deal, decisions: each pushed
    assert sum(op == 1 for op, _p in stalled_frames) < len(texts)
