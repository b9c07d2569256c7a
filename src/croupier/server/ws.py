"""The WebSocket hub: pushes each client its own view of a table.

A client connects to ``/ws/tables/{id}?token=...`` (browsers cannot set
headers on WebSockets); it receives the table as its viewer may see it
at once, then again after every committed change at that table.

A change builds each distinct view once: one for every anonymous
spectator of the table together, one for each account watching (a
seated player's own cards, an unseated player's balance). The view is
serialised once and the same text goes to every client that shares it,
so 500 spectators cost one view and one encoding per change, not 500.

Limits (:class:`SocketLimits`, named settings with defaults, each also
read from the environment):

- at most ``per_table`` connections to one table and ``per_address``
  from one client address (a proxy in front of the server makes every
  client one address: raise it there). The connection over the limit is
  accepted and closed at once with :data:`CLOSE_TOO_MANY` and a reason
  naming the limit;
- each client has a queue of at most ``queue`` messages. A client that
  does not read fast enough to keep its queue below that (a stalled
  connection: its socket stopped taking data) is closed with
  :data:`CLOSE_TOO_SLOW` instead of being queued for without end; it
  may reconnect and receive the table as it is now. Every message is the
  whole table, so nothing is lost by starting over.

Messages are sent in order, each client from its own task: a slow
client never holds the others up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from croupier.server.runtime import Player

__all__ = [
    "CLOSE_TOO_MANY",
    "CLOSE_TOO_SLOW",
    "Client",
    "Hub",
    "Snapshot",
    "SocketLimits",
    "encode",
]

log = logging.getLogger("croupier.server")

CLOSE_TOO_MANY = 4429
"""Close code: the table's or the address's connection limit is reached
(as HTTP 429, in the application's 4000-4999 range)."""
CLOSE_TOO_SLOW = 4408
"""Close code: the client's queue filled up; it reads too slowly."""
CLOSE_WAIT = 5.0
"""Seconds allowed to send the close frame to a dropped client."""

MAX_PER_TABLE = 1000
"""Default ``per_table`` (``$CROUPIER_WS_PER_TABLE``)."""
MAX_PER_ADDRESS = 32
"""Default ``per_address`` (``$CROUPIER_WS_PER_ADDRESS``)."""
MAX_QUEUE = 8
"""Default ``queue`` (``$CROUPIER_WS_QUEUE``)."""


@dataclass(frozen=True, slots=True)
class SocketLimits:
    """How many WebSocket clients, and how far behind each may fall."""

    per_table: int = MAX_PER_TABLE
    """Connections to one table."""
    per_address: int = MAX_PER_ADDRESS
    """Connections from one client address, over every table."""
    queue: int = MAX_QUEUE
    """Messages waiting for one client before it is dropped."""

    def __post_init__(self) -> None:
        for name in ("per_table", "per_address", "queue"):
            if getattr(self, name) < 1:
                msg = f"WebSocket limit {name} must be at least 1"
                raise ValueError(msg)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SocketLimits:
        """The limits from ``$CROUPIER_WS_*``, defaults where unset."""
        env = os.environ if env is None else env
        return cls(
            per_table=int(env.get("CROUPIER_WS_PER_TABLE", MAX_PER_TABLE)),
            per_address=int(
                env.get("CROUPIER_WS_PER_ADDRESS", MAX_PER_ADDRESS)
            ),
            queue=int(env.get("CROUPIER_WS_QUEUE", MAX_QUEUE)),
        )


class Socket(Protocol):
    """What the hub uses of a Starlette WebSocket."""

    @property
    def client(self) -> Any:
        """The peer address (``host``, ``port``), if known."""

    async def accept(self) -> None:
        """Complete the handshake."""

    async def receive(self) -> Mapping[str, Any]:
        """The next ASGI message from the client."""

    async def send_text(self, data: str) -> None:
        """Send one text frame."""

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Send a close frame."""


@dataclass(eq=False, slots=True)
class Client:
    """One connected WebSocket."""

    table_id: int
    """The table watched."""
    player: Player | None
    """The account, ``None`` for a spectator."""
    address: str = ""
    """The peer's address (the per-address limit)."""
    pending: deque[str] = field(default_factory=deque)
    """Encoded messages waiting to be sent, oldest first."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when a message is queued or the client is dropped."""
    dropped: tuple[int, str] | None = None
    """Close code and reason, once the hub let the client go."""

    @property
    def viewer(self) -> int | None:
        """Whose view the client gets: the account, ``None`` anonymous."""
        return None if self.player is None else self.player.id


Snapshot = Callable[[int], Callable[[Player | None], dict[str, Any]]]
"""For a table id, what builds its message for a viewer.

The table is looked up once per change, then viewed once per distinct
viewer (with several processes, looking a table up reads its version).
"""


def encode(data: dict[str, Any]) -> str:
    """A table message as sent: ``{"type": "table", "data": ...}``."""
    return json.dumps(
        {"type": "table", "data": data},
        separators=(",", ":"),
        ensure_ascii=False,
    )


class Hub:
    """Every connected client, by table."""

    def __init__(
        self, snapshot: Snapshot, limits: SocketLimits | None = None
    ) -> None:
        self.snapshot = snapshot
        """How to build a viewer's message."""
        self.limits = limits if limits is not None else SocketLimits.from_env()
        """Connection and queue limits."""
        self.clients: dict[int, set[Client]] = {}
        """Clients by table id."""
        self.addresses: Counter[str] = Counter()
        """Connections by client address."""
        self.builds = 0
        """Views built so far (one per distinct viewer per change)."""

    def notify(self, table_id: int) -> None:
        """Queue the new state of ``table_id`` for each of its clients."""
        clients = self.clients.get(table_id)
        if not clients:
            return
        view = self.snapshot(table_id)
        texts: dict[int | None, str] = {}
        for client in list(clients):
            text = texts.get(client.viewer)
            if text is None:
                text = texts[client.viewer] = self._build(view, client)
            self._queue(client, text)

    def _build(
        self, view: Callable[[Player | None], dict[str, Any]], client: Client
    ) -> str:
        self.builds += 1
        return encode(view(client.player))

    def _queue(self, client: Client, text: str) -> None:
        if client.dropped is not None:
            return
        if len(client.pending) >= self.limits.queue:
            self._drop(
                client,
                CLOSE_TOO_SLOW,
                f"too slow: {len(client.pending)} messages were waiting",
            )
            return
        client.pending.append(text)
        client.wake.set()

    def _drop(self, client: Client, code: int, reason: str) -> None:
        """Let ``client`` go: no more messages; its task closes it."""
        if client.dropped is None:
            client.dropped = (code, reason)
            log.info(
                "WebSocket of table %s dropped: %s", client.table_id, reason
            )
        client.pending.clear()
        client.wake.set()
        self._forget(client)

    def _forget(self, client: Client) -> None:
        table = self.clients.get(client.table_id)
        if table is not None and client in table:
            table.discard(client)
            if not table:
                del self.clients[client.table_id]
            self.addresses[client.address] -= 1
            if self.addresses[client.address] <= 0:
                del self.addresses[client.address]

    def _refusal(self, table_id: int, address: str) -> str | None:
        """Why a new connection is refused, or ``None``."""
        limits = self.limits
        if len(self.clients.get(table_id, ())) >= limits.per_table:
            return (
                f"too many connections to table {table_id} "
                f"(limit {limits.per_table})"
            )
        if self.addresses[address] >= limits.per_address:
            return (
                f"too many connections from {address} "
                f"(limit {limits.per_address})"
            )
        return None

    async def serve(
        self, websocket: Socket, table_id: int, player: Player | None
    ) -> None:
        """Run one connection until the client goes away or is dropped."""
        peer = websocket.client
        address = str(getattr(peer, "host", None) or "unknown")
        await websocket.accept()
        refusal = self._refusal(table_id, address)
        if refusal is not None:
            log.info("WebSocket of table %s refused: %s", table_id, refusal)
            await websocket.close(code=CLOSE_TOO_MANY, reason=refusal)
            return
        client = Client(table_id, player, address)
        self.clients.setdefault(table_id, set()).add(client)
        self.addresses[address] += 1
        sender = asyncio.create_task(self._send(websocket, client))
        receiver = asyncio.create_task(self._receive(websocket))
        try:
            self._queue(client, self._build(self.snapshot(table_id), client))
            await asyncio.wait(
                {sender, receiver}, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            self._forget(client)
            for task in (sender, receiver):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    @staticmethod
    async def _receive(websocket: Socket) -> None:
        """Read (and ignore) what the client sends, until it goes."""
        while True:
            message = await websocket.receive()
            if message.get("type") == "websocket.disconnect":
                return

    @staticmethod
    async def _send(websocket: Socket, client: Client) -> None:
        """Send the client's messages in order; close it once dropped."""
        while client.dropped is None:
            await client.wake.wait()
            client.wake.clear()
            while client.pending and client.dropped is None:
                await _interruptible(
                    websocket.send_text(client.pending[0]), client
                )
                if client.dropped is None and client.pending:
                    client.pending.popleft()
        code, reason = client.dropped
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                websocket.close(code=code, reason=reason), CLOSE_WAIT
            )


async def _interruptible(send: Any, client: Client) -> None:
    """Await ``send``, but give up on it once the client is dropped.

    A stalled connection blocks its send until the peer reads: the hub
    drops the client (its queue full) and the send is abandoned here so
    that the close frame can go out.
    """
    task = asyncio.ensure_future(send)
    while not task.done():
        dropped = asyncio.ensure_future(client.wake.wait())
        done, _ = await asyncio.wait(
            {task, dropped}, return_when=asyncio.FIRST_COMPLETED
        )
        if task not in done:
            client.wake.clear()
            if client.dropped is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
                dropped.cancel()
                return
        dropped.cancel()
    task.result()
