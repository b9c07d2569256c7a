"""Several server processes on one PostgreSQL database.

On PostgreSQL any number of ``croupier serve`` processes (uvicorn
workers behind one socket, or separate processes behind a balancer)
share the database, and every one of them can serve any table:

- **One driver at a time.** A request that changes a table runs in one
  transaction that first locks the table's ``game_tables`` row
  (``SELECT ... FOR UPDATE``, :func:`lock_table`). Whoever holds the lock
  drives the table; the others wait for the commit. The lock is the
  transaction's, so a process killed mid-request loses it the moment
  PostgreSQL sees its connection drop, and its half-done step rolls back
  with it: no lease has to expire before another process takes over.
- **Memory follows storage.** ``game_tables.version`` counts committed
  changes. A process that finds a version other than the one it holds
  rebuilds the table from storage (the round in play is replayed on the
  stack and discard rack stored when it began, so the shoe goes on; see
  :func:`croupier.server.recovery.load_table`).
- **Events reach every process.** Each commit at a table sends
  ``NOTIFY croupier_tables`` with the table, its new version and the
  sending process (:func:`bump_version`); every process ``LISTEN`` s
  (:class:`Listener`) and pushes the new view to its own WebSocket
  clients. PostgreSQL is the only broker.
- **Money is the database's.** A balance is changed in storage, in
  account order (no deadlocks), and the new value read back
  (:func:`add_to_balances`); a step that would take one below zero is
  refused and rolled back. The in-memory balances are a cache.

SQLite stays single-process (its file lock cannot hand tables over), and
the single-process path does none of this.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.engine import Connection, Engine

from croupier.server import db
from croupier.server.errors import NotFoundError

__all__ = [
    "CHANNEL",
    "Listener",
    "add_to_balances",
    "balances",
    "bump_version",
    "is_shared",
    "libpq_url",
    "lock_table",
    "new_origin",
    "startup_lock",
    "table_version",
]

log = logging.getLogger("croupier.server")

CHANNEL = "croupier_tables"
"""The NOTIFY channel of table changes."""

STARTUP_LOCK_KEY = 0x63726F75
"""Advisory lock held while a process migrates and seeds the database."""

_TABLES = db.GameTableRow
_PLAYERS = db.PlayerRow


def is_shared(engine: Engine) -> bool:
    """Whether several processes may serve this database (PostgreSQL)."""
    return engine.dialect.name == "postgresql"


def new_origin() -> str:
    """A name for this process in notifications (unique per start)."""
    return uuid.uuid4().hex[:12]


def libpq_url(engine: Engine) -> str:
    """The engine's URL as libpq (psycopg) takes it."""
    return engine.url.set(drivername="postgresql").render_as_string(
        hide_password=False
    )


@contextlib.contextmanager
def startup_lock(engine: Engine) -> Iterator[None]:
    """Serialise start-up work (migrations, seeding) across processes.

    On PostgreSQL this holds a session advisory lock on a connection of
    its own; elsewhere it does nothing.
    """
    if not is_shared(engine):
        yield
        return
    with engine.connect() as conn:
        conn.execute(
            text("SELECT pg_advisory_lock(:key)"), {"key": STARTUP_LOCK_KEY}
        )
        conn.commit()
        try:
            yield
        finally:
            conn.execute(
                text("SELECT pg_advisory_unlock(:key)"),
                {"key": STARTUP_LOCK_KEY},
            )
            conn.commit()


def table_version(conn: Connection, table_id: int) -> int:
    """The committed version of a table (no lock)."""
    version = conn.execute(
        select(_TABLES.version).where(_TABLES.id == table_id)
    ).scalar()
    if version is None:
        raise NotFoundError(f"no table {table_id}")
    return int(version)


# The statements of every change at a table run on the driver's cursor
# (psycopg prepares them after a few uses): a change is a dozen round
# trips, and SQLAlchemy's statement machinery would cost more than they.
_LOCK = (
    "SELECT t.version, (SELECT p.balance FROM players p "
    "WHERE p.id = %(pid)s) FROM game_tables t "
    "WHERE t.id = %(tid)s FOR UPDATE OF t"
)
_BUMP = (
    "WITH bumped AS (UPDATE game_tables SET version = version + 1 "
    "WHERE id = %(tid)s RETURNING version) "
    "SELECT version, pg_notify(%(channel)s, "
    "%(tid)s::text || ' ' || version || ' ' || %(origin)s) FROM bumped"
)
_ADD = (
    "UPDATE players SET balance = balance + %(delta)s "
    "WHERE id = %(pid)s RETURNING balance"
)


def _cursor(conn: Connection) -> Any:
    driver: Any = conn.connection.dbapi_connection
    return driver.cursor()


def lock_table(
    conn: Connection, table_id: int, player_id: int | None = None
) -> tuple[int, int | None]:
    """Lock a table's row for this transaction: (version, balance).

    Every change at a table takes this lock first, so exactly one
    process drives a table at a time. The balance of ``player_id`` (if
    given) is read in the same round trip.
    """
    cursor = _cursor(conn)
    cursor.execute(_LOCK, {"tid": table_id, "pid": player_id})
    row = cursor.fetchone()
    if row is None:
        raise NotFoundError(f"no table {table_id}")
    return int(row[0]), None if row[1] is None else int(row[1])


def bump_version(conn: Connection, table_id: int, origin: str) -> int:
    """Count a change at a locked table and announce it on commit."""
    cursor = _cursor(conn)
    cursor.execute(
        _BUMP, {"tid": table_id, "channel": CHANNEL, "origin": origin}
    )
    row = cursor.fetchone()
    if row is None:
        raise NotFoundError(f"no table {table_id}")
    return int(row[0])


def balances(conn: Connection, player_ids: Iterable[int]) -> dict[int, int]:
    """Committed balances of some accounts (no lock)."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    rows = conn.execute(
        select(_PLAYERS.id, _PLAYERS.balance).where(_PLAYERS.id.in_(ids))
    )
    return {int(pid): int(balance) for pid, balance in rows}


def add_to_balances(
    conn: Connection, deltas: Mapping[int, int]
) -> dict[int, int]:
    """Add to balances in storage; the new balances.

    Rows are updated (and so locked) in account order, so two
    transactions never wait for each other in a circle. The caller
    refuses, and so rolls back, a balance that went below zero.
    """
    cursor = _cursor(conn)
    out: dict[int, int] = {}
    for player_id, delta in sorted(deltas.items()):
        cursor.execute(_ADD, {"pid": player_id, "delta": delta})
        row = cursor.fetchone()
        if row is None:
            raise NotFoundError(f"no player {player_id}")
        out[player_id] = int(row[0])
    return out


Notified = Callable[[int, int, str], None]
"""Called with (table id, version, origin) for each notification."""


class Listener:
    """``LISTEN croupier_tables`` on a connection of its own.

    :meth:`run` is a task of the server's event loop. If the connection
    drops it reconnects, and calls ``on_reconnect`` (notifications may
    have been missed, so every table must be checked again).
    """

    def __init__(
        self,
        url: str,
        on_notify: Notified,
        on_reconnect: Callable[[], None],
    ) -> None:
        self.url = url
        """libpq URL of the database."""
        self.on_notify = on_notify
        """Called for each notification."""
        self.on_reconnect = on_reconnect
        """Called after a reconnection."""
        self.listening = asyncio.Event()
        """Set once ``LISTEN`` has been issued."""

    async def run(self) -> None:
        """Listen until cancelled."""
        import psycopg

        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        self.on_reconnect()
                    first = False
                    async for note in conn.notifies():
                        self._dispatch(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN connection lost; reconnecting")
                self.listening.clear()
                await asyncio.sleep(0.5)

    def _dispatch(self, payload: str) -> None:
        try:
            table, version, origin = payload.split()
            self.on_notify(int(table), int(version), origin)
        except Exception:
            log.exception("notification %r not handled", payload)
