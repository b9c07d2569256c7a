"""Every state change on one thread, off the event loop.

Until issue 12 every handler ran its step on the event loop and never
awaited while changing state: the loop itself serialised the changes.
It also meant that a step waiting on the database (a write lock another
connection holds on the SQLite file, a PostgreSQL round trip that does
not come back) froze every other request, ``GET /games`` included.

Now the work is split by what it touches:

- **Changes** (a wager, the deal, a decision, a clock's default, a
  seat, an account, a deposit, the books) are jobs run one at a time
  on one dedicated thread (:class:`Serial`, a one-thread executor).
  A job does what a handler did before, in the same order, with the
  same transaction, so the serialisation guarantee and the
  idempotency semantics are unchanged: the stored answer to an
  Idempotency-Key is looked up inside the job, before the step, where
  no other change can slip in between. One thread rather than one per
  table keeps the writer's single connection (SQLite has one writer
  anyway) and the in-memory balances, which several tables share,
  owned by one thread.
- **A table is held while a job runs on it.** Each table has an
  :class:`asyncio.Lock`; the job's coroutine holds it from before the
  job is queued until the WebSocket pushes of the change are built.
  A read of that table (``GET /tables/{id}``, a push) takes the same
  lock, so it never sees a step half applied, while reads of every
  other table go on. A read that needs no storage runs on the loop; one
  that does (several processes on PostgreSQL read a table's version)
  runs on the default thread pool (:meth:`Serial.read`).
- **Static data** (``/games``, pages, ``/health``) never waits.

A storage outage -- SQLite still locked after its bounded wait
(``busy_timeout``), a lost PostgreSQL connection -- surfaces as
:class:`~croupier.server.errors.StorageUnavailableError`: JSON 503
``{"error": "StorageUnavailable", ...}`` with ``Retry-After``. The step
is rolled back and memory follows storage again (the table is rebuilt
from the database at once, or at its next turn if the database cannot
even be read).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy import exc as sa_exc

from croupier.server.errors import StorageUnavailableError

__all__ = ["RETRY_AFTER", "Serial", "is_outage"]

log = logging.getLogger("croupier.server")

T = TypeVar("T")

RETRY_AFTER = 2
"""Seconds a client is asked to wait after a storage outage."""

_SQLITE_OUTAGE = ("locked", "busy", "disk i/o", "unable to open")


def _driver_outage(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.OperationalError):
        text = str(exc).lower()
        return any(word in text for word in _SQLITE_OUTAGE)
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is storage being unavailable.

    SQLAlchemy wraps the driver's errors; the play path's statements
    run on the driver's cursor and raise them bare. A lost connection,
    a database still locked after the bounded wait and an I/O failure
    are outages; a constraint violation or an SQL error is not.
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, StorageUnavailableError):
            return True
        if isinstance(current, sa_exc.DBAPIError):
            if current.connection_invalidated:
                return True
            if isinstance(current.orig, BaseException) and _driver_outage(
                current.orig
            ):
                return True
            if isinstance(current, sa_exc.InterfaceError):
                return True
        elif isinstance(
            current, sa_exc.DisconnectionError | sa_exc.TimeoutError
        ) or _driver_outage(current):
            return True
        current = current.__cause__ or current.__context__
    return False


def unavailable(exc: BaseException) -> StorageUnavailableError:
    """The refusal that answers an outage."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    msg = f"storage is unavailable, try again shortly ({first[:160]})"
    return StorageUnavailableError(msg, retry_after=RETRY_AFTER)


class Serial:
    """The one thread that changes state, and a lock per table."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="croupier-serial"
        )
        self._locks: dict[int, asyncio.Lock] = {}
        self._local = threading.local()
        self.notify: Callable[[int], None] = lambda _table_id: None
        """Pushes a table's new state to its clients (on the loop)."""
        self.busy = 0
        """Jobs running now (0 or 1)."""

    def changed(self, table_id: int) -> None:
        """A change at ``table_id`` was committed (any thread).

        Inside a job the push is built after the job, on the loop, while
        the table is still held; elsewhere (start-up) at once.
        """
        pending: list[int] | None = getattr(self._local, "changed", None)
        if pending is None:
            self.notify(table_id)
        elif table_id not in pending:
            pending.append(table_id)

    def lock(self, table_id: int) -> asyncio.Lock:
        """The lock that holds ``table_id`` still."""
        found = self._locks.get(table_id)
        if found is None:
            found = self._locks[table_id] = asyncio.Lock()
        return found

    @contextlib.asynccontextmanager
    async def holding(self, table_id: int | None) -> AsyncIterator[None]:
        """Hold ``table_id`` (nothing for ``None``)."""
        if table_id is None:
            yield
            return
        async with self.lock(table_id):
            yield

    def _call(self, fn: Callable[[], T]) -> tuple[T, list[int]]:
        changed: list[int] = []
        self._local.changed = changed
        self.busy += 1
        try:
            return fn(), changed
        except BaseException as exc:
            exc.changed_tables = changed  # type: ignore[attr-defined]
            raise
        finally:
            self.busy -= 1
            self._local.changed = None

    async def run(self, fn: Callable[[], T], *, table: int | None = None) -> T:
        """Run the change ``fn`` on the serial thread; its result.

        With ``table`` the table is held from before the job is queued
        until its pushes are built. An outage is re-raised as
        :class:`StorageUnavailableError`.
        """
        loop = asyncio.get_running_loop()
        async with self.holding(table):
            try:
                result, changed = await loop.run_in_executor(
                    self._pool, self._call, fn
                )
            except Exception as exc:
                for table_id in getattr(exc, "changed_tables", ()):
                    self._push(table_id)
                if is_outage(exc) and not isinstance(
                    exc, StorageUnavailableError
                ):
                    log.warning("storage unavailable: %s", exc)
                    raise unavailable(exc) from exc
                raise
            for table_id in changed:
                self._push(table_id)
            return result

    def _push(self, table_id: int) -> None:
        try:
            self.notify(table_id)
        except Exception:
            log.exception("table %s: pushing the change failed", table_id)

    async def read(
        self,
        fn: Callable[[], T],
        *,
        table: int | None = None,
        blocking: bool = True,
    ) -> T:
        """Run the read ``fn`` with ``table`` held.

        ``blocking`` reads (those that may touch storage) run on the
        default thread pool; others on the loop.
        """
        async with self.holding(table):
            try:
                if not blocking:
                    return fn()
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(None, fn)
            except Exception as exc:
                if is_outage(exc) and not isinstance(
                    exc, StorageUnavailableError
                ):
                    raise unavailable(exc) from exc
                raise

    def close(self) -> None:
        """Stop the thread once its queued jobs are done."""
        self._pool.shutdown(wait=True)
