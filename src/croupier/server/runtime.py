"""The table runtime: the server's in-memory state and its writer.

The runtime is split by concern; this module gathers its public names:

- :mod:`croupier.server.tables`: accounts, limits, tables and live
  rounds as held in memory (:class:`Player`, :class:`Limits`,
  :class:`TableRuntime`, :class:`LiveRound`);
- :mod:`croupier.server.casino`: :class:`Casino`, every table and
  account, seats, idempotency, the books (``ledger_check``);
- :mod:`croupier.server.play`: the casino's dealer
  (:class:`~croupier.server.play.Dealer`, typed against the small
  :class:`~croupier.server.play.Storage` protocol the casino fulfils):
  wagers, deals and decisions, each stored in one transaction;
- :mod:`croupier.server.store`: the play path's SQL, compiled once and
  run on the driver with ``executemany``;
- :mod:`croupier.server.shared`: several processes on one PostgreSQL
  database (a table's row lock per change, versions, LISTEN/NOTIFY);
- :mod:`croupier.server.serial`: every change on one thread, off the
  event loop (a 503 on storage outages);
- :mod:`croupier.server.pacing`: the table clocks, ready, sit-out, idle
  seats and the operator's void (:class:`~croupier.server.pacing.Pacer`,
  the dealer the casino holds as ``casino.dealer``);
- :mod:`croupier.server.recovery`: loading and rebuilding tables into a
  :class:`~croupier.server.recovery.House` (the casino).
"""

from __future__ import annotations

from croupier.server.casino import Casino, refusal
from croupier.server.play import Dealer, Responder, seat_stakes
from croupier.server.tables import (
    DEFAULT_MAX,
    DEFAULT_MIN,
    Idem,
    Limits,
    LiveRound,
    Player,
    TableRuntime,
)

__all__ = [
    "DEFAULT_MAX",
    "DEFAULT_MIN",
    "Casino",
    "Dealer",
    "Idem",
    "Limits",
    "LiveRound",
    "Player",
    "Responder",
    "TableRuntime",
    "refusal",
    "seat_stakes",
]
