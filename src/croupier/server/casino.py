"""The casino: accounts, tables, seats, idempotency and the books.

One :class:`Casino` holds every table and account in memory and is the
only writer of the database. Play (wagers, deals, decisions and their
storage) is its :class:`~croupier.server.play.Dealer` half;
:meth:`Casino.ledger_check` verifies that balances plus the money on the
layouts equal deposits plus the players' settled nets.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine

from croupier.errors import CroupierError, WagerError
from croupier.registry import GameSpec, all_games
from croupier.server import db
from croupier.server.auth import hash_token, new_token
from croupier.server.errors import (
    IdempotencyConflictError,
    NotAuthenticatedError,
    NotFoundError,
    NotOperatorError,
    SeatError,
    TableLimitError,
)
from croupier.server.play import Dealer
from croupier.server.store import Statements
from croupier.server.tables import (
    DEFAULT_MAX,
    DEFAULT_MIN,
    Idem,
    Limits,
    Player,
    TableRuntime,
)

__all__ = ["Casino", "refusal"]


class Casino(Dealer):
    """Every table and account; the single writer of the database."""

    def __init__(
        self,
        engine: Engine,
        *,
        games: Mapping[str, GameSpec] | None = None,
        starting_balance: int = 100_000,
    ) -> None:
        self.engine = engine
        """The database."""
        self.sql = Statements(engine.dialect)
        """The play path's statements, compiled for this database."""

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
        self.on_change: Callable[[int], None] = lambda _table_id: None
        """Called with a table id after each committed change there."""

    # -- accounts ---------------------------------------------------------

    def authenticate(self, token: str | None) -> Player:
        """The account of ``token``; refuse if unknown."""
        player = None if token is None else self.players.get(hash_token(token))
        if player is None:
            msg = "a valid bearer token is required"
            raise NotAuthenticatedError(msg)
        return player

    def optional_player(self, token: str | None) -> Player | None:
        """The account of ``token``, or ``None`` (spectator)."""
        if token is None:
            return None
        return self.players.get(hash_token(token))

    def register(
        self,
        name: str,
        *,
        balance: int | None = None,
        operator: bool = False,
        token: str | None = None,
    ) -> tuple[Player, str]:
        """Open an account; returns it with its bearer token."""
        token = token or new_token()
        digest = hash_token(token)
        amount = self.starting_balance if balance is None else balance
        with self.transaction() as conn:
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

    def deposit(self, operator: Player, player_id: int, amount: int) -> int:
        """The cashier: credit ``amount`` to an account (operators only)."""
        self._require_operator(operator)
        if player_id not in self.balances:
            raise NotFoundError(f"no player {player_id}")
        if amount <= 0:
            raise WagerError(f"a deposit must be positive, not {amount}")
        with self.transaction() as conn:
            conn.execute(
                insert(db.TransactionRow).values(
                    player_id=player_id,
                    kind="deposit",
                    amount=amount,
                    layout=0,
                )
            )
            conn.execute(
                update(db.PlayerRow)
                .where(db.PlayerRow.id == player_id)
                .values(balance=db.PlayerRow.balance + amount)
            )
        self.balances[player_id] += amount
        return self.balances[player_id]

    @staticmethod
    def _require_operator(player: Player) -> None:
        if not player.is_operator:
            msg = "only an operator may do this"
            raise NotOperatorError(msg)

    # -- tables -----------------------------------------------------------

    def table(self, table_id: int) -> TableRuntime:
        """The table ``table_id``; refuse if unknown."""
        try:
            return self.tables[table_id]
        except KeyError:
            raise NotFoundError(f"no table {table_id}") from None

    def create_table(
        self,
        operator: Player | None,
        game: str,
        *,
        name: str | None = None,
        rules: Mapping[str, Any] | None = None,
        min_bet: int = DEFAULT_MIN,
        max_bet: int = DEFAULT_MAX,
        wager_limits: Mapping[str, tuple[int, int]] | None = None,
    ) -> TableRuntime:
        """Open a table (operators only; ``None`` is the server itself)."""
        if operator is not None:
            self._require_operator(operator)
        spec = self.games.get(game)
        if spec is None:
            known = ", ".join(sorted(self.games)) or "(none)"
            raise NotFoundError(f"unknown game {game!r}; games are: {known}")
        overrides = dict(rules or {})
        parsed = spec.rules_type.from_mapping(overrides)
        per_wager = {
            k: (int(v[0]), int(v[1])) for k, v in (wager_limits or {}).items()
        }
        for wager, (low, high) in [
            ("table", (min_bet, max_bet)),
            *per_wager.items(),
        ]:
            if wager != "table" and wager not in spec.wagers:
                raise TableLimitError(f"{spec.name} has no {wager!r} wager")
            if not 0 < low <= high:
                raise TableLimitError(
                    f"limits for {wager} must satisfy 0 < min <= max"
                )
        title = name or f"{spec.title}"
        with self.transaction() as conn:
            tid = conn.execute(
                insert(db.GameTableRow).values(
                    name=title[:80],
                    game=spec.name,
                    rules_json=json.dumps(overrides),
                    min_bet=min_bet,
                    max_bet=max_bet,
                    wager_limits_json=json.dumps(per_wager),
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
            self.tables[table_id] = runtime
            self.open_round(conn, runtime)
        return runtime

    def sit(self, player: Player, table_id: int, seat: int) -> None:
        """Take a free seat (one per player per table)."""
        rt = self.table(table_id)
        seats = self.seat_count(rt)
        if not 1 <= seat <= seats:
            raise SeatError(f"seats at this table are 1 to {seats}")
        if seat in rt.seats:
            raise SeatError(f"seat {seat} is taken")
        held = rt.seat_of(player.id)
        if held is not None:
            raise SeatError(f"you already sit at seat {held}")
        with self.transaction() as conn:
            conn.execute(
                insert(db.SeatRow).values(
                    table_id=table_id, seat=seat, player_id=player.id
                )
            )
        rt.seats[seat] = player.id

    def leave(self, player: Player, table_id: int, seat: int) -> None:
        """Leave a seat that has nothing on the layout."""
        rt = self.table(table_id)
        self._require_owner(rt, player, seat)
        live = rt.live
        if live is not None and any(
            k.seat == seat for k in live.round.ledger.open_keys()
        ):
            msg = f"seat {seat} has wagers on the layout; finish the round"
            raise SeatError(msg)
        with self.transaction() as conn:
            conn.execute(
                delete(db.SeatRow).where(
                    (db.SeatRow.table_id == table_id)
                    & (db.SeatRow.seat == seat)
                )
            )
        del rt.seats[seat]

    @staticmethod
    def seat_count(rt: TableRuntime) -> int:
        """Betting positions at the table (the rules may have fewer)."""
        seats = getattr(rt.table.rules, "seats", None)
        if isinstance(seats, int) and 0 < seats <= rt.spec.max_seats:
            return seats
        return rt.spec.max_seats

    # -- idempotency ------------------------------------------------------

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
            raise IdempotencyConflictError(msg)
        return int(row[0]), body["response"]

    # -- books ------------------------------------------------------------

    def ledger_check(self) -> dict[str, Any]:
        """Balances + layout against deposits + settled nets, from rows.

        ``ok`` is true when every stored balance equals the sum of its
        account's transactions, the in-memory balances equal the stored
        ones, and the money on the layouts equals the open stakes of the
        rounds in play.
        """
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
        open_stakes = sum(
            rt.live.round.ledger.on_layout
            for rt in self.tables.values()
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
