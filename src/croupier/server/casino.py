"""The casino: accounts, tables, seats, idempotency and the books.

One :class:`Casino` holds every table and account in memory and, on
SQLite, is the only writer of the database; on PostgreSQL several
processes' casinos share it (:mod:`croupier.server.shared`). Play
(wagers, deals, decisions, their storage and the table clocks) is done
by its dealer, a :class:`~croupier.server.pacing.Pacer`, which sees the
casino only as its :class:`~croupier.server.play.Storage`; recovery
(:mod:`croupier.server.recovery`) sees it as a
:class:`~croupier.server.recovery.House`.
:meth:`Casino.ledger_check` verifies that balances plus the money on the
layouts equal deposits plus the players' settled nets.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from croupier.errors import CroupierError, RulesError, WagerError
from croupier.games.runout import round_run_out
from croupier.jsontypes import json_text
from croupier.money import amount_text, dollars, in_cents
from croupier.registry import GameSpec, all_games
from croupier.server import db, recovery, shared
from croupier.server.auth import (
    RECHECK_SECONDS,
    TokenLifetimes,
    hash_token,
    new_token,
    token_expiry,
    token_refusal,
)
from croupier.server.decisions import (
    BOUNDS,
    ONE_NAME,
    OPERATOR_TASKS,
    REGULATION_FIXES,
    RETRIED_ONCE,
    SEATS,
    TABLE_LIMITS,
)
from croupier.server.errors import (
    IdempotencyConflictError,
    NameTakenError,
    NotFoundError,
    NotOperatorError,
    SeatError,
    TableLimitError,
    TableNameTakenError,
)
from croupier.server.inputs import (
    MAX_AMOUNT,
    MAX_BALANCE,
    name_key,
    table_name_key,
)
from croupier.server.pacing import Pacer
from croupier.server.serial import Serial
from croupier.server.store import idempotent_row
from croupier.server.tables import (
    DEFAULT_MAX,
    DEFAULT_MIN,
    Idem,
    Limits,
    Player,
    TableRuntime,
    TableSettings,
    checked_limits,
)

__all__ = ["Casino", "refusal"]

log = logging.getLogger("croupier.server")

_T = TypeVar("_T")
"""What a request made once under an Idempotency-Key answers."""


class Casino:
    """Every table and account of this process, and its dealer."""

    def __init__(
        self,
        engine: Engine,
        *,
        games: Mapping[str, GameSpec] | None = None,
        starting_balance: int = 100_000,
    ) -> None:
        self.engine = engine
        """The database."""

        self.games: dict[str, GameSpec] = dict(
            games
            if games is not None
            else {spec.name: spec for spec in all_games()}
        )
        """Games this server deals."""
        self.starting_balance = starting_balance
        """Balance of a self-registered player account."""
        self.tables: dict[int, TableRuntime] = {}
        """Tables by id."""
        self.players: dict[str, Player] = {}
        """Accounts by token digest."""
        self.names: dict[int, str] = {}
        """Account names by id."""
        self.balances: dict[int, int] = {}
        """Balances by account id (mirror of the committed rows)."""
        self.default_settings = TableSettings()
        """Pacing of a table opened without its own (``croupier serve``)."""
        self.default_limits: tuple[int, int] = (DEFAULT_MIN, DEFAULT_MAX)
        """(minimum, maximum) of a table opened without its own (D195)."""
        self.serial = Serial()
        """The thread every change runs on (:mod:`.serial`)."""
        self.on_change: Callable[[int], None] = self.serial.changed
        """Called with a table id after each committed change there."""
        self.shared = shared.is_shared(engine)
        """Whether other processes may serve this database too."""
        self.origin = shared.new_origin()
        """This process's name in table notifications."""
        self.token_lifetimes = TokenLifetimes()
        """How long the tokens made here last (D32)."""
        self.supplied_operator: str | None = None
        """Digest of the operator token this server was given, if any."""
        self._checked: dict[str, float] = {}
        """When each token was last found in storage (monotonic)."""
        self._name_keys: set[str] | None = None
        """Every account's :func:`~croupier.server.inputs.name_key`
        (read on the first registration)."""
        self.dealer = Pacer(self, serial=self.serial)
        """Plays at the tables and stores each step (its writer)."""

    # -- accounts ---------------------------------------------------------

    def authenticate(self, token: str | None) -> Player:
        """The account of ``token``; refuse if unknown."""
        player = self.optional_player(token)
        if player is None:
            raise token_refusal(token)
        return player

    def optional_player(self, token: str | None) -> Player | None:
        """The account of ``token``, or ``None`` (spectator).

        An expired token is unknown (D32), and so is one without an
        expiry unless it is the operator token this server was given.
        A token known from memory is checked against storage again
        after :data:`~croupier.server.auth.RECHECK_SECONDS`, so that a
        rotation or revocation made elsewhere takes effect.
        """
        if token is None:
            return None
        expiry = token_expiry(token)
        digest = hash_token(token)
        if expiry is None:
            if digest != self.supplied_operator:
                return None
        elif expiry <= time.time():
            return None
        player = self.players.get(digest)
        now = time.monotonic()
        if player is None:
            player = (
                self._load_player(digest)
                if self.shared
                else self._adopt_token(digest)
            )
        elif now - self._checked.get(
            digest, 0.0
        ) > RECHECK_SECONDS and not self._token_stored(digest):
            self.players.pop(digest, None)
            return None
        if player is not None:
            self._checked[digest] = now
        return player

    def _adopt_token(self, digest: str) -> Player | None:
        """A known account's token set outside this process.

        ``croupier token rotate`` writes it to storage; the account's
        balance in memory is left alone.
        """
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    db.PlayerRow.id,
                    db.PlayerRow.name,
                    db.PlayerRow.is_operator,
                ).where(db.PlayerRow.token_hash == digest)
            ).first()
        if row is None or int(row[0]) not in self.balances:
            return None
        player = Player(int(row[0]), str(row[1]), bool(row[2]))
        self.players[digest] = player
        return player

    def _token_stored(self, digest: str) -> bool:
        """Whether an account still has the token of ``digest``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(db.PlayerRow.id).where(
                    db.PlayerRow.token_hash == digest
                )
            ).first()
        return row is not None

    def issue_token(self, player_id: int) -> tuple[str, int]:
        """A new token for an account; its old one stops working (D32).

        Returns the token and its expiry (Unix time).
        """
        with self.engine.connect() as conn:
            row = conn.execute(
                select(db.PlayerRow.is_operator).where(
                    db.PlayerRow.id == player_id
                )
            ).first()
        if row is None:
            raise NotFoundError(f"no player {player_id}")
        operator = bool(row[0])
        expires = self.token_lifetimes.expiry(operator=operator)
        token = new_token(expires)
        self._set_token(player_id, hash_token(token))
        return token, expires

    def revoke_token(self, player_id: int) -> None:
        """Make an account's token unknown (a new one is issued later)."""
        # a value no SHA-256 hex digest can equal: the column is unique
        self._set_token(player_id, "revoked-" + secrets.token_hex(28))

    def _set_token(self, player_id: int, digest: str) -> None:
        with self.dealer.transaction() as conn:
            found = conn.execute(
                update(db.PlayerRow)
                .where(db.PlayerRow.id == player_id)
                .values(token_hash=digest)
                .returning(
                    db.PlayerRow.id,
                    db.PlayerRow.name,
                    db.PlayerRow.is_operator,
                )
            ).first()
        if found is None:
            raise NotFoundError(f"no player {player_id}")
        for old in [d for d, p in self.players.items() if p.id == player_id]:
            del self.players[old]
            self._checked.pop(old, None)
        if not digest.startswith("revoked-"):
            self.players[digest] = Player(
                int(found[0]), str(found[1]), bool(found[2])
            )
            self._checked[digest] = time.monotonic()

    def _load_player(self, digest: str) -> Player | None:
        """An account opened by another process, read from storage."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    db.PlayerRow.id,
                    db.PlayerRow.name,
                    db.PlayerRow.is_operator,
                    db.PlayerRow.balance,
                ).where(db.PlayerRow.token_hash == digest)
            ).first()
        if row is None:
            return None
        player = Player(int(row[0]), str(row[1]), bool(row[2]))
        self.players[digest] = player
        self.names[player.id] = player.name
        self.balances[player.id] = int(row[3])
        return player

    def refresh_balance(self, player_id: int) -> int:
        """An account's balance (read again if others may change it)."""
        if self.shared:
            with self.engine.connect() as conn:
                self.balances.update(shared.balances(conn, [player_id]))
        return self.balances[player_id]

    def player_name(self, player_id: int) -> str:
        """The display name of an account (read once if not yet known)."""
        name = self.names.get(player_id)
        if name is None:
            with self.engine.connect() as conn:
                found = conn.execute(
                    select(db.PlayerRow.name).where(
                        db.PlayerRow.id == player_id
                    )
                ).scalar()
            name = self.names[player_id] = str(found or f"#{player_id}")
        return name

    def register(
        self,
        name: str,
        *,
        balance: int | None = None,
        operator: bool = False,
        token: str | None = None,
    ) -> tuple[Player, str]:
        """Open an account; returns it with its bearer token.

        Names are unique whatever their case (D31): a name taken already
        is refused with :class:`~croupier.server.errors.NameTakenError`.
        """
        token = token or new_token(
            self.token_lifetimes.expiry(operator=operator)
        )
        digest = hash_token(token)
        amount = self.starting_balance if balance is None else balance
        with self.dealer.transaction() as conn:
            self._claim_name(conn, name)
            pid = conn.execute(
                insert(db.PlayerRow).values(
                    name=name[:80],
                    token_hash=digest,
                    balance=amount,
                    is_operator=operator,
                    created_at=db.now(),
                )
            ).inserted_primary_key
            player_id = int(pid[0]) if pid is not None else 0
            if amount:
                conn.execute(
                    insert(db.TransactionRow).values(
                        player_id=player_id,
                        kind="deposit",
                        amount=amount,
                        layout=0,
                    )
                )
        player = Player(player_id, name[:80], operator)
        self.players[digest] = player
        self.names[player_id] = player.name
        self.balances[player_id] = amount
        return player, token

    def _claim_name(self, conn: Connection, name: str) -> None:
        """Refuse ``name`` if an account has it already, in any case.

        With other processes on the database the check runs under a
        transaction-scoped advisory lock on the name, so two processes
        cannot both open it.
        """
        key = name_key(name)
        if self.shared:
            conn.execute(
                select(func.pg_advisory_xact_lock(func.hashtext(key)))
            )
            taken = conn.execute(
                select(db.PlayerRow.id)
                .where(func.lower(db.PlayerRow.name) == name.lower())
                .limit(1)
            ).first()
            if taken is not None:
                raise NameTakenError(
                    f"the name {json_text(name)} is taken", ref=BOUNDS
                )
        if self._name_keys is None:
            self._name_keys = {
                name_key(str(n))
                for n in conn.execute(select(db.PlayerRow.name)).scalars()
            }
        if key in self._name_keys:
            raise NameTakenError(
                f"the name {json_text(name)} is taken", ref=BOUNDS
            )
        self._name_keys.add(key)

    def deposit(
        self,
        operator: Player,
        player_id: int,
        amount: int,
        *,
        idem: Idem = None,
        request: str = "",
    ) -> int:
        """The cashier: credit ``amount`` to an account (operators only).

        With ``idem`` (the operator's Idempotency-Key) the answer is
        stored with the deposit, in its transaction, for
        :meth:`stored_response` to replay to a retry (D138).
        """
        self.require_operator(operator, "make a deposit")
        if amount <= 0:
            msg = f"a deposit must be positive, not {amount_text(amount)}"
            raise WagerError(msg, ref=BOUNDS)
        if amount > MAX_AMOUNT:
            msg = (
                f"a deposit is at most {dollars(MAX_AMOUNT)} "
                f"{in_cents(MAX_AMOUNT)}"
            )
            raise WagerError(msg, ref=BOUNDS)
        with self.dealer.transaction() as conn:
            balance = conn.execute(
                update(db.PlayerRow)
                .where(db.PlayerRow.id == player_id)
                .where(db.PlayerRow.balance <= MAX_BALANCE - amount)
                .values(balance=db.PlayerRow.balance + amount)
                .returning(db.PlayerRow.balance)
            ).scalar()
            if balance is None:
                exists = conn.execute(
                    select(db.PlayerRow.id).where(db.PlayerRow.id == player_id)
                ).first()
                if exists is None:
                    raise NotFoundError(f"no player {player_id}")
                msg = (
                    f"a balance may not exceed {dollars(MAX_BALANCE)} "
                    f"{in_cents(MAX_BALANCE, also=str(BOUNDS))}"
                )
                raise WagerError(msg, ref=BOUNDS)
            conn.execute(
                insert(db.TransactionRow).values(
                    player_id=player_id,
                    kind="deposit",
                    amount=amount,
                    layout=0,
                )
            )
            answer = {"id": player_id, "balance": int(balance)}
            self._remember(conn, idem, request, answer)
        self.balances[player_id] = int(balance)
        return int(balance)

    @staticmethod
    def _remember(
        conn: Connection,
        idem: Idem,
        request: str,
        answer: dict[str, Any],
    ) -> None:
        """Store an operator's answer under its Idempotency-Key (D138)."""
        if idem is not None:
            # through SQLAlchemy, not the play path's DBAPI statement: a
            # key another process stored meanwhile is then its
            # IntegrityError, whatever the driver (Casino.once)
            conn.execute(
                insert(db.IdempotencyRow).values(
                    **idempotent_row(idem, request, answer)
                )
            )

    @staticmethod
    def require_operator(player: Player, task: str) -> None:
        """Refuse ``player`` unless an operator may: ``task`` names it.

        >>> from croupier.server.tables import Player
        >>> try:
        ...     Casino.require_operator(Player(7, "ann"), "open a table")
        ... except NotOperatorError as refusal:
        ...     print(refusal)
        only an operator may open a table [D200]
        """
        if not player.is_operator:
            msg = f"only an operator may {task}"
            raise NotOperatorError(msg, ref=OPERATOR_TASKS)

    # -- tables -----------------------------------------------------------

    def table(self, table_id: int) -> TableRuntime:
        """The table ``table_id`` as last committed; refuse if unknown.

        With other processes on the database, the committed version is
        read and the table rebuilt from storage if it moved on (inside a
        :meth:`turn` the turn's table is current already).
        """
        if self.shared and not self.dealer.in_transaction:
            return self._fresh(table_id)
        try:
            return self.tables[table_id]
        except KeyError:
            raise NotFoundError(f"no table {table_id}") from None

    def _fresh(self, table_id: int) -> TableRuntime:
        """Read a table's version; rebuild it if another process moved it.

        The rebuild reads one consistent snapshot (REPEATABLE READ) and
        writes nothing; a round that cannot be replayed is left for the
        next change at the table to void.
        """
        with self.engine.connect() as raw:
            conn = raw.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                version = shared.table_version(conn, table_id)
                rt = self.tables.get(table_id)
                if rt is None or rt.stored_version != version:
                    rt = recovery.load_table(
                        self, conn, table_id, writable=False
                    )
                    self.balances.update(
                        shared.balances(conn, rt.seats.values())
                    )
        return rt

    def load_table(self, conn: Connection, table_id: int) -> TableRuntime:
        """Read a table back inside a turn (its row locked: writable)."""
        return recovery.load_table(self, conn, table_id, writable=True)

    def rebuild_table(self, rt: TableRuntime) -> None:
        """Read a table and its balances back after a failed commit."""
        recovery.rebuild_table(self, rt)

    def all_tables(self) -> list[TableRuntime]:
        """Every table, by id (current ones, with other processes)."""
        if self.shared:
            with self.engine.connect() as conn:
                ids = conn.execute(
                    select(db.GameTableRow.id).order_by(db.GameTableRow.id)
                ).scalars()
                found = [int(i) for i in ids]
            out: list[TableRuntime] = []
            for table_id in found:
                with contextlib.suppress(NotFoundError):
                    out.append(self._fresh(table_id))
            return out
        return [rt for _, rt in sorted(self.tables.items())]

    def open_game_tables(
        self, rules: Mapping[str, Mapping[str, Any]] | None = None
    ) -> None:
        """Open a table of the server's own for each game that has none.

        ``rules`` gives a game's table Rules Submission options (its
        defaults for a game not named), as an operator's ``POST /tables``
        would.
        """
        present = {rt.spec.name for rt in self.tables.values()}
        for name in sorted(self.games):
            if name not in present:
                self.create_table(None, name, rules=(rules or {}).get(name))

    def _table_limits(
        self, min_bet: int | None, max_bet: int | None
    ) -> tuple[int, int]:
        """A new table's limits: those given, the server's where absent.

        Refused as :func:`checked_limits` refuses them (D195), which
        names a default that took part.
        """
        return checked_limits(
            (
                self.default_limits[0] if min_bet is None else min_bet,
                self.default_limits[1] if max_bet is None else max_bet,
            ),
            defaulted=[
                name
                for name, given in (("minimum", min_bet), ("maximum", max_bet))
                if given is None
            ],
        )

    def create_table(
        self,
        operator: Player | None,
        game: str,
        *,
        name: str | None = None,
        rules: Mapping[str, Any] | None = None,
        min_bet: int | None = None,
        max_bet: int | None = None,
        wager_limits: Mapping[str, tuple[int, int]] | None = None,
        settings: Mapping[str, Any] | None = None,
        idem: Idem = None,
        request: str = "",
        respond: Callable[[TableRuntime], dict[str, Any]] | None = None,
    ) -> TableRuntime:
        """Open a table (operators only; ``None`` is the server itself).

        ``settings`` are its pacing (:class:`TableSettings`: clocks and
        idle seats), the defaults where absent; ``min_bet`` and
        ``max_bet`` its limits, the server's (:attr:`default_limits`,
        D195) where absent. With ``idem`` (the
        operator's Idempotency-Key) ``respond``'s answer is stored with
        the table, for a retry to be answered again (D138).
        """
        if operator is not None:
            self.require_operator(operator, "open a table")
        spec = self.games.get(game)
        if spec is None:
            known = ", ".join(sorted(self.games)) or "(none)"
            msg = (
                f"unknown game {json_text(game, limit=40)}; games are: {known}"
            )
            raise NotFoundError(msg)
        overrides = dict(rules or {})
        parsed = spec.rules_type.from_mapping(overrides)
        for key, ref, _, value in parsed.against_regulation():
            # a what-if for analysis, not a table to deal for money (D97)
            msg = (
                f"{ref} fixes it at {json.dumps(value)}: a table deals under "
                f"the regulation's value"
            )
            raise RulesError(msg, key=key, ref=REGULATION_FIXES)
        min_bet, max_bet = self._table_limits(min_bet, max_bet)
        per_wager: dict[str, tuple[int, int]] = {}
        for wager, pair in (wager_limits or {}).items():
            if wager not in spec.wagers:
                msg = (
                    f"{spec.name} has no {json_text(wager, limit=40)} wager "
                    f"(its wagers: {', '.join(spec.wagers)}) ({TABLE_LIMITS})"
                )
                raise TableLimitError(msg, ref=TABLE_LIMITS)
            per_wager[wager] = checked_limits(
                pair, of=f"{json_text(wager, limit=40)} wager"
            )
        paced = TableSettings.from_mapping(
            {**self.default_settings.to_dict(), **(settings or {})}
        )
        found = round_run_out(parsed)
        warning = None if found is None else found.warning()
        with self.dealer.transaction() as conn:
            title = self._table_name(conn, name, spec.title)
            if warning is not None:  # opened all the same (D76)
                log.warning("table %r: %s", title, warning.split(": ", 1)[1])
            tid = conn.execute(
                insert(db.GameTableRow).values(
                    name=title[:80],
                    game=spec.name,
                    rules_json=json.dumps(overrides),
                    min_bet=min_bet,
                    max_bet=max_bet,
                    wager_limits_json=json.dumps(per_wager),
                    settings_json=json.dumps(paced.to_dict()),
                    shoe_no=0,
                    created_at=db.now(),
                )
            ).inserted_primary_key
            table_id = int(tid[0]) if tid is not None else 0
            runtime = TableRuntime(
                table_id,
                title[:80],
                spec,
                overrides,
                Limits(min_bet, max_bet, per_wager),
            )
            runtime.table.rules = parsed
            runtime.settings = paced
            self.dealer.open_round(conn, runtime)
            if self.shared:
                runtime.stored_version = shared.bump_version(
                    conn, table_id, self.origin
                )
            if idem is not None and respond is not None:
                self._remember(conn, idem, request, respond(runtime))
        # served once its row is committed: a transaction rolled back (an
        # answer another process stored meanwhile, D138) leaves no table
        self.tables[table_id] = runtime
        return runtime

    def _table_name(
        self, conn: Connection, name: str | None, title: str
    ) -> str:
        """The new table's name: ``name``, refused if taken (D157).

        Taken means another table's name reads the same
        (:func:`~croupier.server.inputs.table_name_key`): any case, any
        spaces around or between the words. Without a name the table is
        the game's ``title``, or ``title 2``, ``title 3``... the first
        free. Names stored twice before D157 stay (each table keeps its
        name); only a new table is held to this. With other processes on
        the database the check runs under a transaction-scoped advisory
        lock, so that two cannot open the same name at once.
        """
        if self.shared:
            conn.execute(
                select(
                    func.pg_advisory_xact_lock(
                        func.hashtext("croupier table names")
                    )
                )
            )
        taken = {
            table_name_key(str(other)): int(tid)
            for tid, other in conn.execute(
                select(db.GameTableRow.id, db.GameTableRow.name).order_by(
                    db.GameTableRow.id.desc()
                )
            )
        }
        if name:
            holder = taken.get(table_name_key(name))
            if holder is not None:
                msg = (
                    f"the table name {json_text(name)} is taken by table "
                    f"{holder}: "
                    "an open table's name must differ from the others' in "
                    "more than case and spaces (D157)"
                )
                raise TableNameTakenError(msg, ref=ONE_NAME)
            return name[:80]
        number = 1
        title = title[:80]
        candidate = title
        while table_name_key(candidate) in taken:
            number += 1
            candidate = f"{title[: 80 - len(str(number)) - 1]} {number}"
        return candidate

    def sit(self, player: Player, table_id: int, seat: int) -> None:
        """Take a free seat (one per player per table)."""
        with self.dealer.turn(table_id) as rt:
            self._sit(rt, player, seat)

    def _sit(self, rt: TableRuntime, player: Player, seat: int) -> None:
        seats = self.seat_count(rt)
        if not 1 <= seat <= seats:
            msg = f"seats at this table are 1 to {seats}"
            raise SeatError(msg, ref=rt.spec.seats_ref)
        if seat in rt.seats:
            raise SeatError(f"seat {seat} is taken", ref=SEATS)
        held = rt.seat_of(player.id)
        if held is not None:
            msg = f"you already sit at seat {held}"
            raise SeatError(msg, ref=SEATS)
        try:
            with self.dealer.transaction() as conn:
                conn.execute(
                    insert(db.SeatRow).values(
                        table_id=rt.id, seat=seat, player_id=player.id
                    )
                )
                rt.seats[seat] = player.id
                rt.seen[seat] = self.dealer.now_ms()
                rt.idle[seat] = 0
                rt.version += 1
                self.dealer._paced(conn, rt)
        except BaseException:
            rt.seats.pop(seat, None)
            rt.stored_pacing = ""
            raise

    def leave(self, player: Player, table_id: int, seat: int) -> None:
        """Leave a seat that has nothing on the layout."""
        with self.dealer.turn(table_id) as rt:
            self._leave(rt, player, seat)

    def _leave(self, rt: TableRuntime, player: Player, seat: int) -> None:
        self.dealer._require_owner(rt, player, seat)
        live = rt.live
        if live is not None and any(
            k.seat == seat for k in live.round.ledger.open_keys()
        ):
            msg = f"seat {seat} has wagers on the layout; finish the round"
            raise SeatError(msg, ref=SEATS)
        with self.dealer.transaction() as conn:
            conn.execute(
                delete(db.SeatRow).where(
                    (db.SeatRow.table_id == rt.id) & (db.SeatRow.seat == seat)
                )
            )
        del rt.seats[seat]
        for state in (rt.idle, rt.seen, rt.stored_seen):
            state.pop(seat, None)
        rt.sitting_out.discard(seat)
        rt.ready.discard(seat)
        rt.version += 1

    def announce(self, table_id: int) -> None:
        """Push ``table_id`` to its clients anew (a deposit moved a balance).

        With other processes on the database the change is counted at
        the table (a turn that changes nothing else), so that each of
        them reads the table and its players' balances again and pushes
        it to its own clients.
        """
        if self.shared:
            with self.dealer.turn(table_id):
                pass
        else:
            self.on_change(table_id)

    @staticmethod
    def seat_count(rt: TableRuntime) -> int:
        """Betting positions at the table, as its rules number them.

        21 Baccarat's ``seats`` and Double Back Jack's ``boxes`` are
        options of the table's Rules Submission.
        """
        return rt.spec.positions(rt.table.rules)[0]

    # -- idempotency ------------------------------------------------------

    def once(
        self, idem: Idem, request: str, make: Callable[[], _T]
    ) -> tuple[int, dict[str, Any]] | _T:
        """``make()``, unless ``idem`` was answered: then that answer.

        ``make`` stores its answer under ``idem`` in its own transaction.
        Another process may store one for the same key between the
        lookup and that transaction's commit (a retry taken by two
        processes): the unique key then rolls ``make``'s work back, and
        the answer stored meanwhile is given, as a replay (D138). A
        table's name is found taken then (D157) by the table that answer
        opened: that answer is given too.
        """
        stored = self.stored_response(idem, request)
        if stored is not None:
            return stored
        try:
            return make()
        except (IntegrityError, TableNameTakenError):
            stored = self.stored_response(idem, request)
            if stored is None:
                raise
            return stored

    def stored_response(
        self, idem: Idem, request: str
    ) -> tuple[int, dict[str, Any]] | None:
        """The response already given to this Idempotency-Key, if any."""
        if idem is None:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(db.IdempotencyRow.status, db.IdempotencyRow.body_json)
                .where(db.IdempotencyRow.player_id == idem[0])
                .where(db.IdempotencyRow.key == idem[1])
            ).first()
        if row is None:
            return None
        body = json.loads(row[1])
        if body.get("request") != request:
            msg = "this Idempotency-Key was used for another request"
            raise IdempotencyConflictError(msg, ref=RETRIED_ONCE)
        return int(row[0]), body["response"]

    # -- books ------------------------------------------------------------

    def ledger_check(self) -> dict[str, Any]:
        """Balances + layout against deposits + settled nets, from rows.

        ``ok`` is true when every stored balance equals the sum of its
        account's transactions, the in-memory balances equal the stored
        ones, and the money on the layouts equals the open stakes of the
        rounds in play. With several processes the tables are brought up
        to date first; the figures are exact when no other process is
        changing them meanwhile.
        """
        tables = self.all_tables()
        with self.engine.connect() as conn:
            balances: dict[int, int] = {
                int(r[0]): int(r[1])
                for r in conn.execute(
                    select(db.PlayerRow.id, db.PlayerRow.balance)
                )
            }
            sums = dict(
                conn.execute(
                    select(
                        db.TransactionRow.player_id,
                        func.sum(db.TransactionRow.amount),
                    ).group_by(db.TransactionRow.player_id)
                ).all()
            )
            deposits = conn.execute(
                select(
                    func.coalesce(func.sum(db.TransactionRow.amount), 0)
                ).where(db.TransactionRow.kind == "deposit")
            ).scalar_one()
            layout = conn.execute(
                select(func.coalesce(func.sum(db.TransactionRow.layout), 0))
            ).scalar_one()
        total = sum(balances.values())
        if self.shared:
            self.balances.update(balances)
        open_stakes = sum(
            rt.live.round.ledger.on_layout
            for rt in tables
            if rt.live is not None and not rt.live.finished
        )
        consistent = all(
            balances[p] == int(sums.get(p) or 0) for p in balances
        ) and all(self.balances.get(p) == b for p, b in balances.items())
        return {
            "ok": consistent and int(layout) == open_stakes,
            "balances": total,
            "on_layout": int(layout),
            "open_stakes": open_stakes,
            "deposits": int(deposits),
            "players_net": total + int(layout) - int(deposits),
        }


def refusal(exc: CroupierError) -> str:
    """One line describing a refusal, for logs."""
    return f"{type(exc).__name__}: {exc}"
