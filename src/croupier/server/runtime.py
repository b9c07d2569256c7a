"""The table runtime: drives every table's rounds and stores each step.

One :class:`Casino` holds every table in memory and is the only writer
of the database. Each request is one call here, run to completion on the
event loop (no ``await`` inside), and one database transaction: the
round's new events, its new input, the money moved and the stored
idempotent response are committed together. If the commit fails, the
table is rebuilt from the database (:mod:`croupier.server.recovery`), so
memory never runs ahead of storage.

Money: a stake leaves the balance when the round's ledger shows it (a
wager before the deal, or a double, insurance, second chance or split
placed during play); stake plus net comes back when the round settles
the wager. :meth:`Casino.ledger_check` verifies that balances plus the
money on the layouts equal deposits plus the players' settled nets.
"""

from __future__ import annotations

import copy
import json
import logging
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table as SqlTable
from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.engine import Connection, Engine

from croupier.errors import (
    CroupierError,
    LedgerError,
    WagerError,
    WrongPhaseError,
)
from croupier.history import Recorder
from croupier.money import WagerKey
from croupier.registry import GameSpec, all_games
from croupier.rng import SecureRng
from croupier.round import Action, Round
from croupier.server import db
from croupier.server.auth import hash_token, new_token
from croupier.server.errors import (
    IdempotencyConflictError,
    InsufficientBalanceError,
    NotAuthenticatedError,
    NotFoundError,
    NotOperatorError,
    NotSeatOwnerError,
    SeatError,
    TableLimitError,
)
from croupier.table import Table

__all__ = [
    "Casino",
    "Limits",
    "LiveRound",
    "Player",
    "TableRuntime",
]

log = logging.getLogger("croupier.server")

DEFAULT_MIN = 100
"""Default table minimum, minor units."""
DEFAULT_MAX = 100_000
"""Default table maximum, minor units."""


@dataclass(frozen=True, slots=True)
class Player:
    """An authenticated account."""

    id: int
    """Account id."""
    name: str
    """Display name."""
    is_operator: bool = False
    """Whether the account may run tables and the cashier."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Table limits in minor units, optionally per wager."""

    min_bet: int
    """Smallest wager."""
    max_bet: int
    """Largest wager."""
    per_wager: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Limits for particular wagers (a fixed progressive, say)."""

    def bounds(self, wager: str) -> tuple[int, int]:
        """The (minimum, maximum) for ``wager``."""
        return self.per_wager.get(wager, (self.min_bet, self.max_bet))


class LiveRound:
    """A round in play at a table, with what the database already has."""

    def __init__(
        self,
        db_id: int,
        recorder: Recorder,
        *,
        shoe_no: int,
        owners: dict[int, int] | None = None,
        detached: bool = False,
    ) -> None:
        self.db_id = db_id
        """The ``rounds`` row."""
        self.recorder = recorder
        """Drives the round and records its inputs."""
        self.shoe_no = shoe_no
        """Which shoe of the table the round is dealt from."""
        self.owners: dict[int, int] = dict(owners or {})
        """Seat to the player whose stakes are on it this round."""
        self.detached = detached
        """Rebuilt from storage on its own stacked shoe (not the table's)."""
        self.persisted = 0
        """Round events already stored."""
        self.inputs = 0
        """Inputs already stored."""
        self.debited: dict[WagerKey, int] = {}
        """Stakes already taken from balances."""
        self.credited: set[WagerKey] = set()
        """Settlements already paid to balances."""
        self.event_dicts: list[dict[str, Any]] = []
        """The stored events in JSON form (cache for views)."""
        self.dealt = False
        """Whether the deal has happened."""
        self.finished = False
        """Whether the end of the round has been stored."""
        self.stored_owners = json.dumps(self.owners)
        """The owners as last stored."""

    @property
    def round(self) -> Round:
        """The engine's round."""
        return self.recorder.round


class TableRuntime:
    """One table: its game, rules, limits, seats, shoe and rounds."""

    def __init__(
        self,
        db_id: int,
        name: str,
        spec: GameSpec,
        rules: dict[str, Any],
        limits: Limits,
        *,
        shoe_no: int = 0,
    ) -> None:
        self.id = db_id
        """The ``game_tables`` row."""
        self.name = name
        """Display name."""
        self.spec = spec
        """The game dealt here."""
        self.rules_overrides = rules
        """The Rules Submission overrides, as given."""
        self.limits = limits
        """Table limits."""
        self.shoe_no = shoe_no
        """Shoes used so far."""
        self.table = Table(
            spec, spec.rules_type.from_mapping(rules), rng=SecureRng()
        )
        """The engine's table (shoe across rounds, CSPRNG shuffles)."""
        self.shoe_events = 0
        """Shoe-level events of :attr:`table` already stored."""
        self.seats: dict[int, int] = {}
        """Seat to player id."""
        self.live: LiveRound | None = None
        """The round in play (or open for wagers)."""
        self.last: LiveRound | None = None
        """The previous round, shown until the next deal."""

    def seat_of(self, player_id: int) -> int | None:
        """The seat ``player_id`` holds here, if any."""
        for seat, owner in self.seats.items():
            if owner == player_id:
                return seat
        return None

    def fresh_table(self) -> None:
        """Start over with a new engine table (a new shoe is due)."""
        self.table = Table(self.spec, self.table.rules, rng=SecureRng())
        self.shoe_events = 0


_PLAYERS = cast(SqlTable, db.PlayerRow.__table__)
_ROUNDS = cast(SqlTable, db.RoundRow.__table__)
_EVENTS = cast(SqlTable, db.EventRow.__table__)
_INPUTS = cast(SqlTable, db.RoundInputRow.__table__)
_MONEY = cast(SqlTable, db.TransactionRow.__table__)
_IDEM = cast(SqlTable, db.IdempotencyRow.__table__)
_SEATS = cast(SqlTable, db.SeatRow.__table__)
_ADD_BALANCE = (
    _PLAYERS.update()
    .where(_PLAYERS.c.id == bindparam("pid"))
    .values(balance=_PLAYERS.c.balance + bindparam("delta"))
)
_SET_OWNERS = (
    _ROUNDS.update()
    .where(_ROUNDS.c.id == bindparam("rid"))
    .values(owners_json=bindparam("owners"))
)

Idem = tuple[int, str] | None
"""(player id, Idempotency-Key) of a request, if it carried one."""


class Casino:
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
        with self.engine.begin() as conn:
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
        with self.engine.begin() as conn:
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
        with self.engine.begin() as conn:
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
        with self.engine.begin() as conn:
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
        with self.engine.begin() as conn:
            conn.execute(
                _SEATS.delete().where(
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

    @staticmethod
    def _require_owner(rt: TableRuntime, player: Player, seat: int) -> None:
        if rt.seats.get(seat) != player.id:
            msg = f"seat {seat} is not yours"
            raise NotSeatOwnerError(msg)

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

    # -- play -------------------------------------------------------------

    def place_wager(
        self,
        player: Player,
        table_id: int,
        seat: int,
        wager: str,
        amount: int,
        *,
        idem: Idem = None,
        request: str = "",
        respond: Callable[[TableRuntime], dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """Place a wager on the open round; the stake leaves the balance."""
        rt = self.table(table_id)
        self._require_owner(rt, player, seat)
        if wager not in rt.spec.wagers:
            names = ", ".join(rt.spec.wagers)
            raise WagerError(f"{rt.spec.title} wagers are: {names}")
        low, high = rt.limits.bounds(wager)
        if not low <= amount <= high:
            msg = (
                f"a {wager} wager must be between {low} and {high} at "
                f"this table, not {amount}"
            )
            raise TableLimitError(msg)
        if amount > self.balances[player.id]:
            msg = (
                f"a wager of {amount} exceeds your balance of "
                f"{self.balances[player.id]}"
            )
            raise InsufficientBalanceError(msg)
        live = self._live(rt)
        owner = live.owners.get(seat)
        if owner is not None and owner != player.id:
            raise NotSeatOwnerError(f"seat {seat} is played by another")
        live.recorder.place_wager(seat, wager, amount)
        live.owners[seat] = player.id
        return self._commit(
            rt,
            ("wager", {"seat": seat, "wager": wager, "amount": amount}),
            idem=idem,
            request=request,
            respond=respond,
        )

    def deal(
        self,
        player: Player,
        table_id: int,
        *,
        idem: Idem = None,
        request: str = "",
        respond: Callable[[TableRuntime], dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """Close wagering and deal (a seated player or the operator)."""
        rt = self.table(table_id)
        if not player.is_operator and rt.seat_of(player.id) is None:
            raise NotSeatOwnerError("only a seated player may call the deal")
        live = self._live(rt)
        if live.dealt:
            raise WrongPhaseError("the cards are already dealt")
        if not live.round.ledger.stakes:
            raise WrongPhaseError("no wager is on the layout")
        live.recorder.deal()
        live.dealt = True
        return self._commit(
            rt, ("deal", {}), idem=idem, request=request, respond=respond
        )

    def act(
        self,
        player: Player,
        table_id: int,
        action: Action,
        *,
        idem: Idem = None,
        request: str = "",
        respond: Callable[[TableRuntime], dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """Apply a decision for the player's own seat."""
        rt = self.table(table_id)
        self._require_owner(rt, player, action.seat)
        live = self._live(rt)
        rnd = live.round
        if live.owners.get(action.seat, player.id) != player.id:
            raise NotSeatOwnerError(f"seat {action.seat} is played by another")
        self._verify_affordable(live, action, player.id)
        live.recorder.apply(action)
        data: dict[str, Any] = {"seat": action.seat, "action": action.name}
        if action.amount is not None:
            data["amount"] = action.amount
        if action.card is not None:
            data["low"] = str(action.card)
        del rnd
        return self._commit(
            rt, ("decision", data), idem=idem, request=request, respond=respond
        )

    def _verify_affordable(
        self, live: LiveRound, action: Action, player_id: int
    ) -> None:
        """Refuse a decision whose added stake exceeds the balance.

        A decision adds at most the seat's stake so far (a double, a
        split) or the amount it names; when the balance covers that, no
        trial is needed. Otherwise the decision is tried on a copy.
        """
        rnd = live.round
        balance = self.balances[player_id]
        on_seat = _seat_stakes(rnd, action.seat)
        bound = max(on_seat, action.amount or 0)
        if balance >= bound:
            return
        trial = copy.deepcopy(rnd)
        trial.apply(action)
        added = _seat_stakes(trial, action.seat) - on_seat
        if added > balance:
            msg = (
                f"{action.name} would stake {added} more; your balance is "
                f"{balance}"
            )
            raise InsufficientBalanceError(msg)

    def _live(self, rt: TableRuntime) -> LiveRound:
        if rt.live is None or rt.live.finished:
            with self.engine.begin() as conn:
                self.open_round(conn, rt)
        if rt.live is None:  # pragma: no cover - opened above
            raise WrongPhaseError("no round is open")
        return rt.live

    def open_round(self, conn: Connection, rt: TableRuntime) -> None:
        """Open the next round for wagers (shuffling a new shoe if due)."""
        if rt.live is not None and rt.live.finished:
            rt.last = rt.live
        starting = None
        if rt.spec.uses_starting_position:
            starting = rt.table.rng.randbelow(rt.spec.max_seats + 1) + 1
        rnd = rt.table.new_round(
            occupied_seats=tuple(rt.seats), starting_position=starting
        )
        if rnd.new_shoe:
            rt.shoe_no += 1
            conn.execute(
                update(db.GameTableRow)
                .where(db.GameTableRow.id == rt.id)
                .values(shoe_no=rt.shoe_no)
            )
            conn.execute(
                update(db.RoundRow)
                .where(db.RoundRow.table_id == rt.id)
                .where(db.RoundRow.status != "open")
                .values(disclosed=True)
            )
        rid = conn.execute(
            insert(db.RoundRow).values(
                table_id=rt.id,
                game=rt.spec.name,
                status="open",
                rules_json=json.dumps(rnd.rules.to_dict()),
                shoe=rnd.initial_stack,
                new_shoe=rnd.new_shoe,
                shoe_no=rt.shoe_no,
                starting_position=starting,
                owners_json="{}",
                disclosed=False,
                started_at=db.now(),
            )
        ).inserted_primary_key
        round_id = int(rid[0]) if rid is not None else 0
        shoe_events = rt.table.log.events[rt.shoe_events :]
        if shoe_events:
            conn.execute(
                _EVENTS.insert(),
                [
                    _event_row(round_id, "shoe", i + 1, e.to_dict())
                    for i, e in enumerate(shoe_events)
                ],
            )
        rt.shoe_events = len(rt.table.log)
        live = LiveRound(
            round_id,
            Recorder(rt.spec.name, rnd, starting_position=starting),
            shoe_no=rt.shoe_no,
        )
        self._store_events(conn, live)
        rt.live = live

    # -- the transaction --------------------------------------------------

    def _commit(
        self,
        rt: TableRuntime,
        new_input: tuple[str, dict[str, Any]],
        *,
        idem: Idem,
        request: str,
        respond: Callable[[TableRuntime], dict[str, Any]] | None,
    ) -> dict[str, Any]:
        """Store the step just taken in memory, in one transaction."""
        live = rt.live
        if live is None:  # pragma: no cover - callers hold a live round
            raise WrongPhaseError("no round is open")
        before = dict(self.balances)
        try:
            with self.engine.begin() as conn:
                kind, data = new_input
                conn.execute(
                    _INPUTS.insert(),
                    {
                        "round_id": live.db_id,
                        "n": live.inputs + 1,
                        "kind": kind,
                        "data_json": json.dumps(data),
                    },
                )
                live.inputs += 1
                self._store_step(conn, rt, live)
                body = respond(rt) if respond is not None else {}
                if idem is not None:
                    conn.execute(
                        _IDEM.insert(),
                        {
                            "player_id": idem[0],
                            "key": idem[1],
                            "status": 200,
                            "body_json": json.dumps(
                                {"request": request, "response": body}
                            ),
                        },
                    )
        except Exception:
            log.exception("table %s: storing failed; rebuilding", rt.id)
            self.balances = before
            from croupier.server.recovery import rebuild_table

            rebuild_table(self, rt)
            raise
        self.on_change(rt.id)
        return body

    def _store_events(self, conn: Connection, live: LiveRound) -> None:
        events = live.round.events[live.persisted :]
        if not events:
            return
        dicts = [e.to_dict() for e in events]
        conn.execute(
            _EVENTS.insert(),
            [_event_row(live.db_id, "round", int(d["seq"]), d) for d in dicts],  # type: ignore[call-overload]
        )
        live.persisted += len(events)
        live.event_dicts.extend(dicts)

    def _store_step(
        self, conn: Connection, rt: TableRuntime, live: LiveRound
    ) -> None:
        rnd = live.round
        self._store_events(conn, live)
        moves: list[dict[str, Any]] = []
        for key, stake in rnd.ledger.stakes.items():
            added = stake - live.debited.get(key, 0)
            if added < 0:
                raise LedgerError(f"a stake shrank: {key}")
            if added == 0:
                continue
            owner = live.owners.get(key.seat)
            if owner is None:
                raise LedgerError(f"a wager at an unowned seat: {key}")
            moves.append(_move(owner, live.db_id, key, "stake", -added, added))
            live.debited[key] = stake
        for key, settlement in rnd.ledger.settlements.items():
            if key in live.credited:
                continue
            owner = live.owners[key.seat]
            moves.append(
                _move(
                    owner,
                    live.db_id,
                    key,
                    "payout",
                    settlement.amount + settlement.net,
                    -settlement.amount,
                )
            )
            live.credited.add(key)
        if moves:
            self.apply_moves(conn, moves)
        owners = json.dumps(live.owners)
        if owners != live.stored_owners:
            conn.execute(_SET_OWNERS, {"rid": live.db_id, "owners": owners})
            live.stored_owners = owners
        if rnd.is_over:
            self._finish(conn, rt, live)

    def apply_moves(
        self, conn: Connection, moves: list[dict[str, Any]]
    ) -> None:
        """Insert money movements and update the balances they touch."""
        conn.execute(_MONEY.insert(), moves)
        deltas: Counter[int] = Counter()
        for move in moves:
            deltas[move["player_id"]] += move["amount"]
        for player_id, delta in deltas.items():
            if self.balances[player_id] + delta < 0:
                raise LedgerError(f"player {player_id} would go below zero")
            if delta:
                conn.execute(_ADD_BALANCE, {"pid": player_id, "delta": delta})
            self.balances[player_id] += delta

    def _finish(
        self, conn: Connection, rt: TableRuntime, live: LiveRound
    ) -> None:
        """Store the end of a round and open the next one."""
        rnd = live.round
        if live.detached:
            rnd.ledger.verify()
            rnd.verify_conservation()
        else:
            rt.table.finish_round(rnd)
        retired = (
            live.detached
            or rnd.cover_card_reached
            or rt.spec.reshuffle_every_round
        )
        conn.execute(
            update(db.RoundRow)
            .where(db.RoundRow.id == live.db_id)
            .values(
                status="over",
                record_json=live.recorder.record.dumps(),
                ended_at=db.now(),
            )
        )
        if retired:
            conn.execute(
                update(db.RoundRow)
                .where(db.RoundRow.table_id == rt.id)
                .where(db.RoundRow.shoe_no <= live.shoe_no)
                .where(db.RoundRow.status != "open")
                .values(disclosed=True)
            )
        live.finished = True
        if live.detached:
            rt.fresh_table()
        self.open_round(conn, rt)

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


def _seat_stakes(rnd: Round, seat: int) -> int:
    return sum(a for k, a in rnd.ledger.stakes.items() if k.seat == seat)


def _move(
    player_id: int,
    round_id: int,
    key: WagerKey,
    kind: str,
    amount: int,
    layout: int,
) -> dict[str, Any]:
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


def _event_row(
    round_id: int, scope: str, seq: int, data: dict[str, Any]
) -> dict[str, Any]:
    return {
        "round_id": round_id,
        "scope": scope,
        "seq": seq,
        "type": str(data.get("type")),
        "ref": None if data.get("ref") is None else str(data["ref"]),
        "data_json": json.dumps(data),
    }


def refusal(exc: CroupierError) -> str:
    """One line describing a refusal, for logs."""
    return f"{type(exc).__name__}: {exc}"
