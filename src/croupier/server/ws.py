"""The WebSocket hub: pushes each client its own view of a table.

A client connects to ``/ws/tables/{id}?token=...`` (browsers cannot set
headers on WebSockets); it receives the table as its seat may see it at
once, then again after every committed change at that table. Messages
are queued per client in order, so none is lost or reordered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from croupier.server.runtime import Player

__all__ = ["Client", "Hub"]

log = logging.getLogger("croupier.server")

_MAX_QUEUE = 1000


@dataclass(eq=False, slots=True)
class Client:
    """One connected WebSocket."""

    table_id: int
    """The table watched."""
    player: Player | None
    """The account, ``None`` for a spectator."""
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    """Messages waiting to be sent."""


Snapshot = Callable[[int], Callable[[Player | None], dict[str, Any]]]
"""For a table id, what builds its message for a viewer.

The table is looked up once per change, then viewed once per client
(with several processes, looking a table up reads its version).
"""


class Hub:
    """Every connected client, by table."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        """How to build a client's message."""
        self.clients: dict[int, set[Client]] = {}
        """Clients by table id."""

    def notify(self, table_id: int) -> None:
        """Queue the new state of ``table_id`` for each of its clients."""
        clients = list(self.clients.get(table_id, ()))
        if not clients:
            return
        view = self.snapshot(table_id)
        for client in clients:
            if client.queue.qsize() >= _MAX_QUEUE:
                self._drop(client)
                continue
            message = {
                "type": "table",
                "data": view(client.player),
            }
            client.queue.put_nowait(message)

    def _drop(self, client: Client) -> None:
        self.clients.get(client.table_id, set()).discard(client)

    async def serve(
        self, websocket: WebSocket, table_id: int, player: Player | None
    ) -> None:
        """Run one connection until the client goes away."""
        await websocket.accept()
        client = Client(table_id, player)
        self.clients.setdefault(table_id, set()).add(client)
        client.queue.put_nowait(
            {"type": "table", "data": self.snapshot(table_id)(player)}
        )
        sender = asyncio.create_task(self._send(websocket, client))
        try:
            while True:
                message = await websocket.receive()
                if message.get("type") == "websocket.disconnect":
                    break
        except WebSocketDisconnect:
            pass
        finally:
            self._drop(client)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    @staticmethod
    async def _send(websocket: WebSocket, client: Client) -> None:
        while True:
            message = await client.queue.get()
            await websocket.send_json(message)
