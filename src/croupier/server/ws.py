"""The WebSocket hub: pushes each client its own view of a table.

A client connects to ``/ws/tables/{id}?token=...`` (browsers cannot set
headers on WebSockets); it receives the table as its viewer may see it
at once, then again after every committed change at that table.

A change builds each distinct view once: one for every anonymous
spectator of the table together, one for each account watching (a
seated player's own cards, an unseated player's balance). The view is
serialised once and the same text goes to every client that shares it,
so 500 spectators cost one view and one encoding per change, not 500.

Accounts receive every change at once. Anonymous spectators receive the
table at most once every ``spectator_interval`` seconds: a change after
a quiet spell goes out at once, changes that follow within the interval
are gathered into one push of the latest state at its end. At a table
played by people that is every change; at a table played as fast as
machines can (the load bench: ~100 rounds/s, several changes a round)
it keeps 500 spectators from costing 150,000 sends a second. Every
message is the whole table, so nothing is lost by skipping one.

Limits (:class:`SocketLimits`, named settings with defaults, each also
read from the environment):

- at most ``per_table`` connections to one table and ``per_address``
  from one client address (a proxy in front of the server makes every
  client one address: raise it there). The connection over the limit is
  accepted and closed at once with :data:`CLOSE_TOO_MANY` and a reason
  naming the limit;
- ``spectator_interval``: the spectators' pacing above (0: every
  change);
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
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager
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
SPECTATOR_INTERVAL = 0.5
"""Default ``spectator_interval``, seconds
(``$CROUPIER_WS_SPECTATOR_INTERVAL``): two pushes a second at most."""


@dataclass(frozen=True, slots=True)
class SocketLimits:
    """How many WebSocket clients, and how far behind each may fall."""

    per_table: int = MAX_PER_TABLE
    """Connections to one table."""
    per_address: int = MAX_PER_ADDRESS
    """Connections from one client address, over every table."""
    queue: int = MAX_QUEUE
    """Messages waiting for one client before it is dropped."""
    spectator_interval: float = SPECTATOR_INTERVAL
    """Seconds between two pushes to a table's anonymous spectators."""

    def __post_init__(self) -> None:
        for name in ("per_table", "per_address", "queue"):
            if getattr(self, name) < 1:
                msg = f"WebSocket limit {name} must be at least 1"
                raise ValueError(msg)
        if not 0 <= self.spectator_interval <= 60:
            msg = "spectator_interval must be from 0 to 60 seconds"
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
            spectator_interval=float(
                env.get("CROUPIER_WS_SPECTATOR_INTERVAL", SPECTATOR_INTERVAL)
            ),
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
    sender: asyncio.Task[None] | None = None
    """The task sending this client's messages."""

    @property
    def viewer(self) -> int | None:
        """Whose view the client gets: the account, ``None`` anonymous."""
        return None if self.player is None else self.player.id


Snapshot = Callable[[int], Callable[[Player | None], dict[str, Any]]]
"""For a table id, what builds its message for a viewer.

The table is looked up once per change, then viewed once per distinct
viewer (with several processes, looking a table up reads its version).
"""


Hold = Callable[[int], AbstractAsyncContextManager[None]]
"""Holds a table still while its view is built (the serial lock)."""


@contextlib.asynccontextmanager
async def _no_hold(_table_id: int) -> AsyncIterator[None]:
    yield


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
        self,
        snapshot: Snapshot,
        limits: SocketLimits | None = None,
        *,
        hold: Hold | None = None,
    ) -> None:
        self.snapshot = snapshot
        """How to build a viewer's message."""
        self.limits = limits if limits is not None else SocketLimits.from_env()
        """Connection, queue and pacing limits."""
        self.hold: Hold = hold or _no_hold
        """Holds a table while a later spectator push is built."""
        self.clients: dict[int, set[Client]] = {}
        """Clients by table id."""
        self.addresses: Counter[str] = Counter()
        """Connections by client address."""
        self._pushed: dict[int, float] = {}
        """When each table's spectators were last pushed (loop time)."""
        self._later: dict[int, asyncio.Task[None]] = {}
        """Spectator pushes waiting for the end of their interval."""

    def notify(self, table_id: int) -> None:
        """Queue the new state of ``table_id`` for its clients.

        Accounts get it now; anonymous spectators now or, within their
        interval, with the push that ends it.
        """
        clients = self.clients.get(table_id)
        if not clients:
            return
        spectators = self._spectators_due(table_id)
        view = self.snapshot(table_id)
        texts: dict[int | None, str] = {}
        for client in list(clients):
            if client.player is None and not spectators:
                continue
            text = texts.get(client.viewer)
            if text is None:
                text = texts[client.viewer] = self._build(view, client)
            self._queue(client, text)

    def _spectators_due(self, table_id: int) -> bool:
        """Whether the spectators get this change now (else later)."""
        interval = self.limits.spectator_interval
        if interval <= 0:
            return True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (start-up): nothing to pace
            return True
        last = self._pushed.get(table_id)
        now = loop.time()
        if last is None or now - last >= interval:
            self._pushed[table_id] = now
            later = self._later.pop(table_id, None)
            if later is not None:  # this push supersedes it
                later.cancel()
            return True
        if table_id not in self._later:
            task = loop.create_task(
                self._push_spectators(table_id, last + interval - now)
            )
            self._later[table_id] = task
        return False

    async def _push_spectators(self, table_id: int, delay: float) -> None:
        """At the end of the interval, the latest state to spectators."""
        try:
            await asyncio.sleep(delay)
            async with self.hold(table_id):
                self._pushed[table_id] = asyncio.get_running_loop().time()
                watching = [
                    c
                    for c in self.clients.get(table_id, ())
                    if c.player is None
                ]
                if watching:
                    text = self._build(self.snapshot(table_id), watching[0])
                    for client in watching:
                        self._queue(client, text)
        except Exception:
            log.exception("table %s: spectator push failed", table_id)
        finally:
            if self._later.get(table_id) is asyncio.current_task():
                del self._later[table_id]

    def _build(
        self, view: Callable[[Player | None], dict[str, Any]], client: Client
    ) -> str:
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
        self._forget(client)
        if client.sender is not None:
            client.sender.cancel()  # a stalled send is abandoned

    def _forget(self, client: Client) -> None:
        table = self.clients.get(client.table_id)
        if table is not None and client in table:
            table.discard(client)
            if not table:
                del self.clients[client.table_id]
                self._pushed.pop(client.table_id, None)
                later = self._later.pop(client.table_id, None)
                if later is not None:
                    later.cancel()
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
        client.sender = sender
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
        """Send the client's messages in order; close it once dropped.

        The hub drops a client by cancelling this task, which may be
        stuck in a send to a peer that stopped reading: the send is
        abandoned and the close frame goes out (within
        :data:`CLOSE_WAIT`).
        """
        try:
            while True:
                await client.wake.wait()
                client.wake.clear()
                while client.pending:
                    await websocket.send_text(client.pending.popleft())
        except asyncio.CancelledError:
            if client.dropped is None:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        code, reason = client.dropped
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                websocket.close(code=code, reason=reason), CLOSE_WAIT
            )
