"""Storage: the SQLAlchemy 2.0 schema, the engine, and migrations.

Tables are append-only where they record what happened (``events``,
``round_inputs``, ``transactions``, ``server_log``); balances, seats and
round status are the only rows that change. The schema is created and
upgraded by alembic (:func:`migrate`), run on every start so that an
existing database upgrades in place.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from croupier.server import DB_ENV, DEFAULT_DB_URL

__all__ = [
    "DB_ENV",
    "IDLE_IN_TRANSACTION_MS",
    "LOCK_WAIT_MS",
    "LOG_LEVELS",
    "UNRECORDED",
    "Base",
    "EventRow",
    "GameTableRow",
    "IdempotencyRow",
    "LogLevel",
    "PlayerRow",
    "RoundInputRow",
    "RoundRow",
    "SeatRow",
    "ServerLogRow",
    "TransactionRow",
    "aware",
    "dealt_by",
    "default_db_url",
    "iso",
    "make_engine",
    "migrate",
    "now",
    "schema_mismatch",
]

MIGRATIONS = Path(__file__).with_name("migrations")


def now() -> datetime:
    """The current time (UTC, timezone-aware)."""
    return datetime.now(UTC)


def aware(at: datetime) -> datetime:
    """``at`` with its UTC offset: a time without one is UTC.

    SQLite gives the stored UTC times back without their zone, and a
    time typed without an offset (``--since 2026-12-01T00:00``) means UTC.
    """
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def iso(at: datetime | None) -> str | None:
    """A stored time as ISO 8601 with its UTC offset, or ``None``.

    SQLite gives the stored UTC times back without their zone; every
    view writes them with ``+00:00``, as PostgreSQL's come back, so
    that the same round's time reads the same in every answer.
    """
    return None if at is None else aware(at).isoformat()


UNRECORDED = "unrecorded"
"""The software version of a round stored before 0005 recorded it."""


def dealt_by(software: str | None) -> str:
    """The croupier version that dealt a stored round (D132).

    >>> dealt_by("0.1.0"), dealt_by(None)
    ('0.1.0', 'unrecorded')
    """
    return UNRECORDED if software is None else software


def default_db_url() -> str:
    """The default database: ``croupier.db`` in the working directory."""
    return DEFAULT_DB_URL


class Base(DeclarativeBase):
    """Declarative base of the server schema."""


class PlayerRow(Base):
    """A player (or operator) account with its balance in minor units."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    is_operator: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameTableRow(Base):
    """A gaming table: game, Rules Submission overrides, limits."""

    __tablename__ = "game_tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(64))
    rules_json: Mapped[str] = mapped_column(Text)
    min_bet: Mapped[int] = mapped_column(BigInteger)
    max_bet: Mapped[int] = mapped_column(BigInteger)
    wager_limits_json: Mapped[str] = mapped_column(Text, default="{}")
    shoe_no: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    version: Mapped[int] = mapped_column(
        BigInteger, default=0, server_default="0"
    )
    """Committed changes at the table (several processes, PostgreSQL)."""
    settings_json: Mapped[str] = mapped_column(
        Text, default="{}", server_default="{}"
    )
    """Pacing settings (clocks, idle seats; 0003)."""
    pacing_json: Mapped[str] = mapped_column(
        Text, default="{}", server_default="{}"
    )
    """The clock running, seats ready or sitting out (0003)."""


class SeatRow(Base):
    """A betting position taken by a player."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))


class RoundRow(Base):
    """One round at a table: its inputs' frame and its outcome.

    ``status`` is ``open`` while it is played, then ``over`` or
    ``voided``. ``disclosed`` turns true once the shoe the round was
    dealt from is out of play, so that the stack may be shown. An open
    round that took no wager is deleted, its events with it, when the
    operator ends its shoe (D194): nothing of it was in play, and one
    opened on the new shoe takes its place.
    """

    __tablename__ = "rounds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(
        ForeignKey("game_tables.id"), index=True
    )
    game: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    rules_json: Mapped[str] = mapped_column(Text)
    shoe: Mapped[str] = mapped_column(Text)
    discard: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The discard rack when the round began (``None`` before 0002)."""
    new_shoe: Mapped[bool] = mapped_column(Boolean)
    shoe_no: Mapped[int] = mapped_column(Integer, default=0)
    starting_position: Mapped[int | None] = mapped_column(
        Integer, nullable=True
    )
    owners_json: Mapped[str] = mapped_column(Text, default="{}")
    seated_at_cut: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The seats occupied when the round's shoe was offered for the cut
    (a JSON list, 629a.5(b), D78); ``None`` when its preparation offered
    no cut, or before 0004."""
    software: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The croupier version that opened the round (810a.11, D132);
    ``None`` before 0005: not recorded."""
    record_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    disclosed: Mapped[bool] = mapped_column(Boolean, default=False)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


class RoundInputRow(Base):
    """One input of a round, in order: a wager, the deal, a decision."""

    __tablename__ = "round_inputs"
    __table_args__ = (UniqueConstraint("round_id", "n"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    n: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data_json: Mapped[str] = mapped_column(Text)


class EventRow(Base):
    """One event, append-only.

    ``scope`` is ``round`` (the round's own log, ``seq`` from 1),
    ``shoe`` (the table's shuffle and cut before the round) or
    ``server`` (a void after a restart).
    """

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("round_id", "scope", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    scope: Mapped[str] = mapped_column(String(8))
    seq: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(32))
    ref: Mapped[str | None] = mapped_column(String(32), nullable=True)
    data_json: Mapped[str] = mapped_column(Text)


class TransactionRow(Base):
    """A movement of money, append-only.

    ``amount`` changes the player's balance; ``layout`` changes the money
    on the layout (a stake moves from the balance to the layout, a
    payout moves the stake and the net back). ``kind``: ``deposit``,
    ``stake``, ``payout``, ``refund``.
    """

    __tablename__ = "transactions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id"), index=True
    )
    round_id: Mapped[int | None] = mapped_column(
        ForeignKey("rounds.id"), nullable=True, index=True
    )
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(16))
    amount: Mapped[int] = mapped_column(BigInteger)
    layout: Mapped[int] = mapped_column(BigInteger, default=0)
    wager: Mapped[str | None] = mapped_column(String(64), nullable=True)


class IdempotencyRow(Base):
    """The stored response to a request that carried Idempotency-Key."""

    __tablename__ = "idempotency"
    __table_args__ = (UniqueConstraint("player_id", "key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(Integer)
    key: Mapped[str] = mapped_column(String(128))
    status: Mapped[int] = mapped_column(Integer)
    body_json: Mapped[str] = mapped_column(Text)


LogLevel = Literal["info", "warning"]
"""A ``server_log`` row's level: ``info`` (a round resumed by replaying
its inputs) or ``warning`` (a round voided, a table whose game is
gone). ``GET /log?level=`` takes these names alone (D141)."""
LOG_LEVELS: tuple[LogLevel, ...] = ("info", "warning")
"""Every :data:`LogLevel`, mildest first."""


class ServerLogRow(Base):
    """What the server did on its own: recoveries, voids.

    ``round_id`` and ``at`` are indexed (migration 0006, D142): the
    operator's log finds one round's rows, or a day's, among months of
    them without reading every row.
    """

    __tablename__ = "server_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    level: Mapped[str] = mapped_column(String(8))
    round_id: Mapped[int | None] = mapped_column(
        Integer, nullable=True, index=True
    )
    message: Mapped[str] = mapped_column(Text)


LOCK_WAIT_MS = 5_000
"""How long a statement waits for a lock on the SQLite file (ms).

Past it the statement fails, the step rolls back and the request is
answered 503 (``StorageUnavailable``, :mod:`croupier.server.serial`).
"""


def _sqlite_pragmas(lock_wait_ms: int) -> Any:
    def pragmas(dbapi_connection: Any, _record: object) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(lock_wait_ms)}")
        cursor.close()

    return pragmas


IDLE_IN_TRANSACTION_MS = 10_000
"""PostgreSQL ends a session idle inside a transaction this long (ms)."""


def make_engine(
    url: str,
    *,
    idle_in_transaction_ms: int = IDLE_IN_TRANSACTION_MS,
    lock_wait_ms: int = LOCK_WAIT_MS,
) -> Engine:
    """An engine for ``url``; SQLite gets WAL mode and NORMAL sync.

    WAL with ``synchronous=NORMAL`` keeps every committed transaction
    across a killed process (only a power cut may lose the last ones).
    On PostgreSQL a session left idle inside a transaction is ended after
    ``idle_in_transaction_ms``: a server process that hangs (rather than
    dies) while it holds a table's lock loses it then, and its step rolls
    back. The server's transactions never wait on anything but the
    database, so they are never idle that long. On SQLite a statement
    waits at most ``lock_wait_ms`` for another connection's lock.
    """
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas(lock_wait_ms))
        return engine
    options = (
        f"-c idle_in_transaction_session_timeout={idle_in_transaction_ms}"
    )
    return create_engine(
        url, pool_pre_ping=True, connect_args={"options": options}
    )


def alembic_config(engine: Engine) -> Config:
    """An alembic configuration pointing at the packaged migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option(
        "sqlalchemy.url",
        engine.url.render_as_string(hide_password=False).replace("%", "%%"),
    )
    return config


def schema_mismatch(engine: Engine) -> tuple[str, str, bool] | None:
    """The database's schema revision if it is not this croupier's.

    ``(found, head, known)``: ``known`` is false for a revision of a
    newer croupier. ``None`` when the schema is this croupier's, or
    carries no revision (no croupier's tables: said elsewhere). Reads
    only: a command that reads (an export, a replay) never migrates a
    database that a running server of another version may hold.
    """
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from alembic.util.exc import CommandError as AlembicError

    script = ScriptDirectory.from_config(alembic_config(engine))
    head = script.get_current_head() or ""
    with engine.connect() as conn:
        found = MigrationContext.configure(conn).get_current_revision()
    if found is None or found == head:
        return None
    try:
        known = script.get_revision(found) is not None
    except AlembicError:
        known = False
    return found, head, known


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest revision.

    A schema of a newer croupier is refused with a :class:`ValueError`
    in words (D139), not alembic's "Can't locate revision".
    """
    found = schema_mismatch(engine)
    if found is not None and not found[2]:
        msg = (
            f"the database has croupier's schema {found[0]}, newer than "
            f"this croupier's {found[1]}: serve it with the croupier that "
            "wrote it (D139)"
        )
        raise ValueError(msg)
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
