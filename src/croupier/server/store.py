"""The play path's SQL: statements compiled once, run on the driver.

Every action at a table writes a handful of rows (its input, its events,
the money it moved, a balance, perhaps an idempotent response). Going
through SQLAlchemy's statement machinery for each of them costs more
than the database does, so the statements of the play path are
compiled once per dialect (:class:`Prepared`) and executed on the
DBAPI cursor of the SQLAlchemy connection that holds the transaction,
with the column types' own bind processors applied (SQLite dates are
stored exactly as SQLAlchemy stores them). Rows of one kind are written
with one ``executemany``.

The transaction itself stays SQLAlchemy's (``engine.begin()``), so
these writes commit or roll back together with anything else done on
that connection.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, cast

from sqlalchemy import Table as SqlTable
from sqlalchemy import bindparam, false
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

from croupier.money import WagerKey
from croupier.server import db

__all__ = [
    "Prepared",
    "Statements",
    "event_row",
    "idempotent_row",
    "money_move",
]

_PLAYERS = cast(SqlTable, db.PlayerRow.__table__)
_TABLES = cast(SqlTable, db.GameTableRow.__table__)
_ROUNDS = cast(SqlTable, db.RoundRow.__table__)
_EVENTS = cast(SqlTable, db.EventRow.__table__)
_INPUTS = cast(SqlTable, db.RoundInputRow.__table__)
_MONEY = cast(SqlTable, db.TransactionRow.__table__)
_IDEM = cast(SqlTable, db.IdempotencyRow.__table__)

Processor = Callable[[Any], Any]


class Prepared:
    """One statement compiled for a dialect, run on the DBAPI cursor."""

    def __init__(
        self,
        statement: ClauseElement,
        dialect: Dialect,
        *,
        columns: Sequence[str] | None = None,
    ) -> None:
        compiled = cast(
            "SQLCompiler",
            statement.compile(
                dialect=dialect,
                column_keys=list(columns) if columns is not None else None,
            ),
        )
        self.sql = str(compiled)
        """The SQL text in the driver's parameter style."""
        positions = compiled.positiontup
        self.positions: tuple[str, ...] | None = (
            tuple(positions) if positions is not None else None
        )
        """Parameter names in order (positional styles), else ``None``."""
        rendered = compiled.bind_names  # parameter -> name in the SQL
        processors: dict[str, Processor] = {}
        fixed: dict[str, Any] = {}
        for bind, name in rendered.items():
            impl = bind.type.dialect_impl(dialect)
            process = impl.bind_processor(dialect)
            if process is not None:
                processors[name] = process
            if name not in (columns or ()) and bind.value is not None:
                fixed[name] = bind.effective_value
        self.processors = processors
        """Bind processors of the parameters that have one."""
        self.names = tuple(dict.fromkeys(rendered.values()))
        """Every parameter name."""
        self.fixed = fixed
        """Values written in the statement itself (``values(x=True)``)."""

        self._plain = (
            itemgetter(*self.positions)
            if self.positions and not processors and not fixed
            else None
        )
        # (head, one row, names) to write many rows in one INSERT
        self._rows = _multi_row(self.sql, dialect)

    def params(self, values: Mapping[str, Any]) -> Any:
        """The driver's parameters for one row of ``values``."""
        if self._plain is not None:
            got = self._plain(values)
            return got if len(self.positions or ()) > 1 else (got,)
        processors = self.processors
        if self.fixed:
            values = {**self.fixed, **values}
        if self.positions is not None:
            return tuple(
                processors[name](values[name])
                if name in processors
                else values[name]
                for name in self.positions
            )
        return {
            name: processors[name](values[name])
            if name in processors
            else values[name]
            for name in self.names
        }

    def run(self, conn: Connection, values: Mapping[str, Any]) -> Any:
        """Execute for one row; the cursor (for ``RETURNING``)."""
        cursor = _cursor(conn)
        cursor.execute(self.sql, self.params(values))
        return cursor

    def run_many(
        self, conn: Connection, rows: Iterable[Mapping[str, Any]]
    ) -> None:
        """Execute for many rows with one ``executemany``."""
        params = [self.params(row) for row in rows]
        if not params:
            return
        if self._rows is not None and len(params) > 1:
            # one statement for all the rows: PostgreSQL's driver sends an
            # executemany row by row, which costs more than the insert
            head, one, names = self._rows
            values = [p[name] for p in params for name in names]
            sql = head + ", ".join([one] * len(params))
            _cursor(conn).execute(sql, values)
            return
        _cursor(conn).executemany(self.sql, params)


_NAMED = re.compile(r"%\((\w+)\)s")


def _multi_row(
    sql: str, dialect: Dialect
) -> tuple[str, str, tuple[str, ...]] | None:
    """A plain PostgreSQL ``INSERT ... VALUES (...)`` split for many rows.

    >>> from sqlalchemy.dialects.postgresql import psycopg
    >>> _multi_row("INSERT INTO t (a, b) VALUES (%(a)s, %(b)s::INTEGER)",
    ...            psycopg.dialect())
    ('INSERT INTO t (a, b) VALUES ', '(%s, %s::INTEGER)', ('a', 'b'))
    """
    if dialect.name != "postgresql" or not sql.startswith("INSERT "):
        return None
    head, sep, row = sql.partition(" VALUES ")
    if not sep or not row.startswith("(") or not row.endswith(")"):
        return None
    if "RETURNING" in row:
        return None
    names = tuple(_NAMED.findall(row))
    return head + sep, _NAMED.sub("%s", row), names


def _cursor(conn: Connection) -> Any:
    driver: Any = conn.connection.dbapi_connection
    return driver.cursor()


class Statements:
    """The play path's statements, compiled for one engine's dialect."""

    def __init__(self, dialect: Dialect) -> None:
        self.input = Prepared(
            _INPUTS.insert().inline(),
            dialect,
            columns=("round_id", "n", "kind", "data_json"),
        )
        """Insert a round input."""
        self.events = Prepared(
            _EVENTS.insert().inline(),
            dialect,
            columns=("round_id", "scope", "seq", "type", "ref", "data_json"),
        )
        """Insert events."""
        self.money = Prepared(
            _MONEY.insert().inline(),
            dialect,
            columns=(
                "player_id",
                "round_id",
                "seat",
                "kind",
                "amount",
                "layout",
                "wager",
            ),
        )
        """Insert money movements."""
        self.balance = Prepared(
            _PLAYERS.update()
            .where(_PLAYERS.c.id == bindparam("pid"))
            .values(balance=_PLAYERS.c.balance + bindparam("delta")),
            dialect,
        )
        """Add ``delta`` to player ``pid``'s balance."""
        self.owners = Prepared(
            _ROUNDS.update()
            .where(_ROUNDS.c.id == bindparam("rid"))
            .values(owners_json=bindparam("owners")),
            dialect,
        )
        """Store a round's seat owners."""
        self.pacing = Prepared(
            _TABLES.update()
            .where(_TABLES.c.id == bindparam("tid"))
            .values(pacing_json=bindparam("pacing")),
            dialect,
        )
        """Store a table's pacing state (clock, ready, seats)."""
        self.idempotent = Prepared(
            _IDEM.insert().inline(),
            dialect,
            columns=("player_id", "key", "status", "body_json"),
        )
        """Store an idempotent response."""
        self.new_round = Prepared(
            _ROUNDS.insert().returning(_ROUNDS.c.id),
            dialect,
            columns=(
                "table_id",
                "game",
                "status",
                "rules_json",
                "shoe",
                "discard",
                "new_shoe",
                "shoe_no",
                "starting_position",
                "owners_json",
                "seated_at_cut",
                "software",
                "disclosed",
                "started_at",
            ),
        )
        """Insert a round row, returning its id."""
        self.finish = Prepared(
            _ROUNDS.update()
            .where(_ROUNDS.c.id == bindparam("rid"))
            .values(
                status=bindparam("status"),
                record_json=bindparam("record"),
                ended_at=bindparam("ended"),
            ),
            dialect,
        )
        """Store the end of a round."""
        self.disclose = Prepared(
            _ROUNDS.update()
            .where(_ROUNDS.c.id == bindparam("rid"))
            .where(_ROUNDS.c.disclosed == false())
            .values(disclosed=True),
            dialect,
        )
        """Mark a round's stack disclosable (its shoe is out of play)."""
        self.shoe_no = Prepared(
            _TABLES.update()
            .where(_TABLES.c.id == bindparam("tid"))
            .values(shoe_no=bindparam("shoe_no")),
            dialect,
        )
        """Store a table's shoe count."""


def money_move(
    player_id: int,
    round_id: int,
    key: WagerKey,
    kind: str,
    amount: int,
    layout: int,
) -> dict[str, Any]:
    """A ``transactions`` row for a stake or a payout of ``key``."""
    wager = key.wager if not key.hand else f"{key.wager}#{key.hand}"
    return {
        "player_id": player_id,
        "round_id": round_id,
        "seat": key.seat,
        "kind": kind,
        "amount": amount,
        "layout": layout,
        "wager": wager,
    }


def idempotent_row(
    idem: tuple[int, str], request: str, body: Mapping[str, Any]
) -> dict[str, Any]:
    """An ``idempotency`` row: ``body`` answered ``request``.

    Under the account's Idempotency-Key ``idem``, read back by
    :meth:`~croupier.server.casino.Casino.stored_response`.
    """
    return {
        "player_id": idem[0],
        "key": idem[1],
        "status": 200,
        "body_json": json.dumps({"request": request, "response": body}),
    }


def event_row(
    round_id: int, scope: str, seq: int, data: Mapping[str, Any]
) -> dict[str, Any]:
    """An ``events`` row for one event in JSON form."""
    ref = data.get("ref")
    return {
        "round_id": round_id,
        "scope": scope,
        "seq": seq,
        "type": str(data.get("type")),
        "ref": None if ref is None else str(ref),
        "data_json": json.dumps(data),
    }
