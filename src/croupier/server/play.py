"""Play at a table: wagers, the deal, decisions, each stored atomically.

:class:`Dealer` deals for a house it knows only through the small
:class:`Storage` protocol (the casino is one: its tables, balances and
how a table is read back from the database). Each request is one call
here, run to completion as a job of the serial thread
(:mod:`croupier.server.serial`: one change at a time, off the event
loop), and one database transaction: the round's new input, its new
events, the money moved and the stored idempotent
response are committed together, with the statements of
:mod:`croupier.server.store` (a few ``executemany`` on the driver). If
the commit fails, the table is rebuilt from the database
(:mod:`croupier.server.recovery`), so memory never runs ahead of
storage.

Money: a stake leaves the balance when the round's ledger shows it (a
wager before the deal, or a double, insurance, second chance or split
placed during play); stake plus net comes back when the round settles
the wager.
"""

from __future__ import annotations

import copy
import json
import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, Protocol

from sqlalchemy.engine import Connection, Engine

import croupier
from croupier.errors import LedgerError, WagerError, WrongPhaseError
from croupier.history import Recorder
from croupier.money import amount_text, dollars, in_cents
from croupier.procedures.ch629a import seated_at_cut
from croupier.round import Action, Round
from croupier.server import db, shared
from croupier.server.decisions import (
    CLOSE_BETTING,
    NO_CREDIT,
    SEATS,
    TABLE_LIMITS,
)
from croupier.server.errors import (
    InsufficientBalanceError,
    NotSeatOwnerError,
    StorageUnavailableError,
    TableLimitError,
)
from croupier.server.store import (
    Statements,
    event_row,
    idempotent_row,
    money_move,
)
from croupier.server.tables import (
    Idem,
    LiveRound,
    Player,
    RecordedRng,
    TableRuntime,
)

__all__ = ["AnsweredMeanwhileError", "Dealer", "Responder", "Storage"]

log = logging.getLogger("croupier.server")

Responder = Callable[[TableRuntime], dict[str, Any]]
"""Builds the response body once the step is applied."""


class AnsweredMeanwhileError(Exception):
    """The request's Idempotency-Key was answered while it waited.

    With several processes a client may retry on one process while its
    first attempt still runs on another; the retry waits for the table's
    lock, then finds the answer stored. It is replayed, not applied.
    """

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(status)
        self.status = status
        """The stored status."""
        self.body = body
        """The stored body."""


class Storage(Protocol):
    """What a :class:`Dealer` needs of the house it deals for.

    The casino (:class:`~croupier.server.casino.Casino`) is one; the
    dealer holds no table or balance of its own.
    """

    engine: Engine
    """The database."""
    balances: dict[int, int]
    """Balances by account id (mirror of the committed rows)."""
    tables: dict[int, TableRuntime]
    """Tables by id, as this process holds them."""
    shared: bool
    """Whether other processes serve the same database (PostgreSQL)."""
    origin: str
    """This process's name in table notifications."""
    on_change: Callable[[int], None]
    """Called with a table id after each committed change there."""

    def table(self, table_id: int) -> TableRuntime:
        """The table ``table_id`` as last committed; refuse if unknown."""
        ...

    def stored_response(
        self, idem: Idem, request: str
    ) -> tuple[int, dict[str, Any]] | None:
        """The response already given to an Idempotency-Key, if any."""
        ...

    def load_table(self, conn: Connection, table_id: int) -> TableRuntime:
        """Read a table back from storage inside a turn's transaction."""
        ...

    def rebuild_table(self, rt: TableRuntime) -> None:
        """Read a table and its balances back after a failed commit."""
        ...


class Dealer:
    """Wagers, deals and decisions, each stored in one transaction."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        """The house: its tables, balances and database."""
        self.sql = Statements(storage.engine.dialect)
        """The play path's statements, compiled for this database."""
        self._writer: Connection | None = None
        self._tls = threading.local()
        """Per thread: the transaction open on it (see :meth:`transaction`)."""

    @property
    def _open(self) -> Connection | None:
        """The transaction open on this thread, if any."""
        return getattr(self._tls, "open", None)

    @_open.setter
    def _open(self, conn: Connection | None) -> None:
        self._tls.open = conn

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction (or a turn) is open on this thread."""
        return self._open is not None

    def _answered_meanwhile(self, idem: Idem, request: str) -> None:
        """Refuse to apply a step whose key was answered already.

        Checked inside the step's job (:mod:`croupier.server.serial`),
        under the table's lock with several processes, where the first
        attempt's commit is visible: the answer is replayed instead.
        """
        if idem is not None:
            stored = self.storage.stored_response(idem, request)
            if stored is not None:
                raise AnsweredMeanwhileError(*stored)

    @staticmethod
    def _require_owner(rt: TableRuntime, player: Player, seat: int) -> None:
        if rt.seats.get(seat) != player.id:
            msg = f"seat {seat} is not yours"
            raise NotSeatOwnerError(msg, ref=SEATS)

    @contextmanager
    def stored(self, rt: TableRuntime) -> Iterator[Connection]:
        """:meth:`transaction` for a change to ``rt`` already made in memory.

        When storing it fails, memory has run ahead of storage: on shared
        storage the turn rolls back and marks the table for a reload; one
        process alone reads the balances and the table back from the
        database (at the table's next turn if it cannot be read now).
        """
        try:
            with self.transaction() as conn:
                yield conn
        except Exception:
            if not self.storage.shared:
                log.warning("table %s: storing failed; rebuilding", rt.id)
                self.rebuild_or_mark(rt)
            raise

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One transaction on the writer's own connection (kept open).

        The casino runs on one thread, so one connection serves every
        write; it is opened again if a failed transaction left it
        unusable. Inside a :meth:`turn` this is the turn's transaction
        (nothing commits until the turn ends).
        """
        if self._open is not None:
            yield self._open
            return
        conn = self._writer
        if conn is None or conn.closed or conn.invalidated:
            conn = self._writer = self.storage.engine.connect()
        try:
            with conn.begin():
                self._open = conn
                yield conn
        except BaseException:
            self._writer = None
            with suppress(Exception):
                conn.close()
            raise
        finally:
            self._open = None

    @contextmanager
    def turn(
        self, table_id: int, player: Player | None = None
    ) -> Iterator[TableRuntime]:
        """The table, driven by this process alone until the block ends.

        With one process this is just the table. With several on
        PostgreSQL (:mod:`croupier.server.shared`) the block is one
        transaction holding the table's row lock; the table is rebuilt
        from storage if another process changed it since, the caller's
        balance is read again, and on commit the change is counted and
        announced. If the block fails, its writes roll back and the
        table is rebuilt before its next use.
        """
        storage = self.storage
        if not storage.shared:
            here = storage.table(table_id)
            if here.stale:
                self.rebuild_or_mark(here)
                if here.stale:
                    msg = "the table could not be read back from storage"
                    raise StorageUnavailableError(msg)
            yield here
            return
        with self.transaction() as conn:
            version, balance = shared.lock_table(
                conn, table_id, None if player is None else player.id
            )
            rt = storage.tables.get(table_id)
            if rt is None or rt.stored_version != version:
                rt = storage.load_table(conn, table_id)
            if player is not None and balance is not None:
                storage.balances[player.id] = balance
            # memory runs ahead of storage until the commit: if the block
            # or the commit fails, the next use rebuilds the table
            rt.stored_version = -1
            yield rt
            version = shared.bump_version(conn, table_id, storage.origin)
        rt.stored_version = version
        storage.on_change(table_id)

    def close_writer(self) -> None:
        """Give the writer's connection back to the pool."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def rebuild_or_mark(self, rt: TableRuntime) -> None:
        """After a failed commit: read the table back from storage.

        If storage cannot be read either (an outage), the table is
        marked stale and rebuilt at its next turn. The server steps the
        failed step queued (a seat left out, a clock run out) go with it:
        they were for the round as it was in memory.
        """
        rt.queued_events.clear()
        rt.version += 1
        rt.stale = True
        try:
            self.storage.rebuild_table(rt)
        except Exception:
            log.exception("table %s: not rebuilt; at its next turn", rt.id)
            return
        rt.stale = False

    # -- pacing hooks (croupier.server.pacing) ----------------------------

    def _paced(self, conn: Connection, rt: TableRuntime) -> None:
        """Inside a step's transaction: clocks and pacing state stored."""

    def _round_over(
        self, conn: Connection, rt: TableRuntime, live: LiveRound
    ) -> None:
        """Inside the last step of ``live``: between rounds."""

    def _may_wager(self, rt: TableRuntime, seat: int) -> None:
        """Refuse a wager the table's pacing does not allow."""

    def _touched(self, rt: TableRuntime, seat: int) -> None:
        """A request of the player at ``seat``: not gone."""

    def _close_betting(
        self,
        rt: TableRuntime,
        live: LiveRound,
        player: Player,
        idem: Idem,
        request: str,
        respond: Responder | None,
    ) -> dict[str, Any]:
        """``player`` calls the deal: here betting closes at once."""
        return self._deal_now(rt, live, idem, request, respond)

    # -- the requests -----------------------------------------------------

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
        respond: Responder | None = None,
    ) -> dict[str, Any]:
        """Place a wager on the open round; the stake leaves the balance."""
        with self.turn(table_id, player) as rt:
            return self._place_wager(
                rt, player, seat, wager, amount, idem, request, respond
            )

    def _place_wager(
        self,
        rt: TableRuntime,
        player: Player,
        seat: int,
        wager: str,
        amount: int,
        idem: Idem,
        request: str,
        respond: Responder | None,
    ) -> dict[str, Any]:
        self._answered_meanwhile(idem, request)
        self._require_owner(rt, player, seat)
        if wager not in rt.spec.wagers:
            names = ", ".join(rt.spec.wagers)
            msg = f"{rt.spec.title} wagers are: {names}"
            raise WagerError(msg, ref=rt.spec.offered_ref)
        _verify_limits(rt, wager, amount)
        if amount > self.storage.balances[player.id]:
            msg = (
                f"a wager of {amount_text(amount)} exceeds your balance of "
                f"{dollars(self.storage.balances[player.id])}"
            )
            raise InsufficientBalanceError(msg, ref=NO_CREDIT)
        live = self._live(rt)
        owner = live.owners.get(seat)
        if owner is not None and owner != player.id:
            msg = f"seat {seat} is played by another"
            raise NotSeatOwnerError(msg, ref=SEATS)
        self._may_wager(rt, seat)
        live.recorder.place_wager(seat, wager, amount)
        live.owners[seat] = player.id
        return self._commit(
            rt,
            ("wager", {"seat": seat, "wager": wager, "amount": amount}),
            idem=idem,
            request=request,
            respond=respond,
        )

    def change_wager(
        self,
        player: Player,
        table_id: int,
        seat: int,
        wager: str,
        amount: int,
        *,
        idem: Idem = None,
        request: str = "",
        respond: Responder | None = None,
    ) -> dict[str, Any]:
        """Set a wager of the open round to ``amount`` before the deal.

        The web table stacks chips on a spot, takes some off, clears it:
        each is one call with the spot's new total (0 takes the wager
        back; a spot without a wager is placed as by
        :meth:`place_wager`). The engine records the change
        (:meth:`~croupier.round.Round.change_wager`, one ``wager_changed``
        event citing the wager's subsection), the table limits apply to
        the new total, and only the difference moves between the balance
        and the layout. Chosen over a server-side pending bet placed at
        the deal so that the round's own log and ledger hold every chip
        at every moment, and replay and recovery need nothing new beyond
        the recorded change.
        """
        with self.turn(table_id, player) as rt:
            self._answered_meanwhile(idem, request)
            self._require_owner(rt, player, seat)
            live = self._live(rt)
            key = next(
                (
                    k
                    for k in live.round.ledger.stakes
                    if k.seat == seat and k.wager == wager and not k.hand
                ),
                None,
            )
            if key is None:
                return self._place_wager(
                    rt, player, seat, wager, amount, idem, request, respond
                )
            if amount:
                _verify_limits(rt, wager, amount)
            added = amount - live.round.ledger.stakes[key]
            if added > self.storage.balances[player.id]:
                msg = (
                    f"adding {amount_text(added)} exceeds your balance of "
                    f"{dollars(self.storage.balances[player.id])}"
                )
                raise InsufficientBalanceError(msg, ref=NO_CREDIT)
            if live.owners.get(seat, player.id) != player.id:
                msg = f"seat {seat} is played by another"
                raise NotSeatOwnerError(msg, ref=SEATS)
            live.recorder.change_wager(seat, wager, amount)
            return self._commit(
                rt,
                (
                    "change",
                    {"seat": seat, "wager": wager, "amount": amount},
                ),
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
        respond: Responder | None = None,
    ) -> dict[str, Any]:
        """Close wagering and deal (a seated player or the operator)."""
        with self.turn(table_id, player) as rt:
            return self._deal(rt, player, idem, request, respond)

    def _deal(
        self,
        rt: TableRuntime,
        player: Player,
        idem: Idem,
        request: str,
        respond: Responder | None,
    ) -> dict[str, Any]:
        self._answered_meanwhile(idem, request)
        if not player.is_operator and rt.seat_of(player.id) is None:
            msg = "only a seated player may call the deal"
            raise NotSeatOwnerError(msg, ref=SEATS)
        live = self._live(rt)
        if live.dealt:
            msg = "the cards are already dealt"
            raise WrongPhaseError(msg, ref=CLOSE_BETTING)
        if not live.round.ledger.stakes:
            msg = "no wager is on the layout"
            raise WrongPhaseError(msg, ref=CLOSE_BETTING)
        return self._close_betting(rt, live, player, idem, request, respond)

    def _deal_now(
        self,
        rt: TableRuntime,
        live: LiveRound,
        idem: Idem,
        request: str,
        respond: Responder | None,
    ) -> dict[str, Any]:
        """Betting has closed: deal the open round and store the deal."""
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
        respond: Responder | None = None,
    ) -> dict[str, Any]:
        """Apply a decision for the player's own seat."""
        with self.turn(table_id, player) as rt:
            return self._act(rt, player, action, idem, request, respond)

    def _act(
        self,
        rt: TableRuntime,
        player: Player,
        action: Action,
        idem: Idem,
        request: str,
        respond: Responder | None,
    ) -> dict[str, Any]:
        self._answered_meanwhile(idem, request)
        self._require_owner(rt, player, action.seat)
        live = self._live(rt)
        if live.owners.get(action.seat, player.id) != player.id:
            msg = f"seat {action.seat} is played by another"
            raise NotSeatOwnerError(msg, ref=SEATS)
        self._verify_affordable(live, action, player.id)
        self._touched(rt, action.seat)
        live.recorder.apply(action)
        data: dict[str, Any] = {"seat": action.seat, "action": action.name}
        if action.amount is not None:
            data["amount"] = action.amount
        if action.card is not None:
            data["low"] = str(action.card)
        return self._commit(
            rt, ("decision", data), idem=idem, request=request, respond=respond
        )

    def _verify_affordable(
        self, live: LiveRound, action: Action, player_id: int
    ) -> None:
        """Refuse a decision whose added stake exceeds the balance.

        A decision adds at most the seat's stake so far (a double, a
        split) or the amount it names; when the balance covers that, no
        trial is needed. Otherwise the decision is tried on a copy. The
        refusal names the decision as its button does
        (:meth:`~croupier.round.Round.action_title`, D189).
        """
        rnd = live.round
        balance = self.storage.balances[player_id]
        on_seat = seat_stakes(rnd, action.seat)
        bound = max(on_seat, action.amount or 0)
        if balance >= bound:
            return
        trial = copy.deepcopy(rnd)
        trial.apply(action)
        added = seat_stakes(trial, action.seat) - on_seat
        if added > balance:
            msg = (
                f"{rnd.action_title(action.name)} would stake "
                f"{dollars(added)} more; your balance is {dollars(balance)}"
            )
            raise InsufficientBalanceError(msg, ref=NO_CREDIT)

    def _live(self, rt: TableRuntime) -> LiveRound:
        if rt.live is None or rt.live.finished:
            with self.transaction() as conn:
                self.open_round(conn, rt)
        if rt.live is None:  # pragma: no cover - opened above
            raise WrongPhaseError("no round is open")
        return rt.live

    # -- storage ----------------------------------------------------------

    def open_round(self, conn: Connection, rt: TableRuntime) -> None:
        """Open the next round for wagers (shuffling a new shoe if due)."""
        if rt.live is not None and rt.live.finished:
            rt.last = rt.live
        # a pai gow round draws its starting position itself when it
        # deals, from the table's RNG (670a.5(i), D84): the draw is
        # stored with the deal's other draws, and the record shows it
        # (the row's starting_position stays NULL; older rows hold one)
        occupied = tuple(sorted(rt.seats))
        rnd = rt.table.new_round(occupied_seats=occupied)
        _draws(rt)  # the shuffle before the round is stored as its stack
        sql = self.sql
        shoe_events = rt.table.log.events[rt.shoe_events :]
        # who was seated when the shoe was offered for the cut (D78)
        seated = seated_at_cut((e.to_dict() for e in shoe_events), occupied)
        if rnd.new_shoe:
            rt.shoe_no += 1
            sql.shoe_no.run(conn, {"tid": rt.id, "shoe_no": rt.shoe_no})
            self._disclose(conn, rt)
        round_id = int(
            sql.new_round.run(
                conn,
                {
                    "table_id": rt.id,
                    "game": rt.spec.name,
                    "status": "open",
                    "rules_json": rt.rules_json(),
                    "shoe": rnd.initial_stack,
                    "discard": rnd.initial_discard,
                    "new_shoe": rnd.new_shoe,
                    "shoe_no": rt.shoe_no,
                    "starting_position": None,
                    "owners_json": "{}",
                    "seated_at_cut": None
                    if seated is None
                    else json.dumps(list(seated)),
                    # the version that deals it (810a.11, D132)
                    "software": croupier.__version__,
                    "disclosed": False,
                    "started_at": db.now(),
                },
            ).fetchone()[0]
        )
        sql.events.run_many(
            conn,
            (
                event_row(round_id, "shoe", i + 1, e.to_dict())
                for i, e in enumerate(shoe_events)
            ),
        )
        rt.shoe_events = len(rt.table.log)
        live = LiveRound(
            round_id,
            Recorder(rt.spec.name, rnd),
            shoe_no=rt.shoe_no,
        )
        self._store_events(conn, live)
        rt.live = live

    def _disclose(self, conn: Connection, rt: TableRuntime) -> None:
        """The finished rounds' shoe is out of play: unseal their stacks."""
        self.sql.disclose.run_many(
            conn, ({"rid": rid} for rid in rt.undisclosed)
        )
        rt.undisclosed.clear()

    def _commit(
        self,
        rt: TableRuntime,
        new_input: tuple[str, dict[str, Any]],
        *,
        idem: Idem,
        request: str,
        respond: Responder | None,
    ) -> dict[str, Any]:
        """Store the step just taken in memory, in one transaction."""
        live = rt.live
        if live is None:  # pragma: no cover - callers hold a live round
            raise WrongPhaseError("no round is open")
        with self.stored(rt) as conn:
            body = self._store(
                conn, rt, live, new_input, idem, request, respond
            )
        if not self.storage.shared:
            self.storage.on_change(rt.id)
        return body

    def _store(
        self,
        conn: Connection,
        rt: TableRuntime,
        live: LiveRound,
        new_input: tuple[str, dict[str, Any]],
        idem: Idem,
        request: str,
        respond: Responder | None,
    ) -> dict[str, Any]:
        """The statements of one step; the response to give once stored."""
        kind, data = new_input
        draws = _draws(rt, live)
        self.sql.input.run(
            conn,
            {
                "round_id": live.db_id,
                "n": live.inputs + 1,
                "kind": kind,
                "data_json": json.dumps(data),
            },
        )
        live.inputs += 1
        if draws:
            # the step shuffled in play: its draws, to replay it elsewhere
            self.sql.input.run(
                conn,
                {
                    "round_id": live.db_id,
                    "n": live.inputs + 1,
                    "kind": "draws",
                    "data_json": json.dumps({"draws": draws}),
                },
            )
            live.inputs += 1
        self._store_step(conn, rt, live)
        rt.version += 1
        self._paced(conn, rt)
        body = respond(rt) if respond is not None else {}
        if idem is not None:
            self.sql.idempotent.run(conn, idempotent_row(idem, request, body))
        return body

    def _store_events(self, conn: Connection, live: LiveRound) -> None:
        dicts = live.recorder.event_dicts()
        new = dicts[live.persisted :]
        if not new:
            return
        rows = [event_row(live.db_id, "round", int(d["seq"]), d) for d in new]
        self.sql.events.run_many(conn, rows)
        live.persisted += len(new)
        live.event_dicts.extend(new)

    def _store_step(
        self, conn: Connection, rt: TableRuntime, live: LiveRound
    ) -> None:
        rnd = live.round
        self._store_events(conn, live)
        moves: list[dict[str, Any]] = []
        stakes = rnd.ledger.stakes
        for key in [k for k in live.debited if k not in stakes]:
            # a wager taken back before the deal: its chips come back
            back = live.debited.pop(key)
            holder = live.owners[key.seat]
            moves.append(
                money_move(holder, live.db_id, key, "stake", back, -back)
            )
            if not any(k.seat == key.seat for k in stakes):
                # nothing left at the seat: it may change hands
                live.owners.pop(key.seat, None)
        for key, stake in stakes.items():
            added = stake - live.debited.get(key, 0)
            if added < 0 and live.dealt:
                raise LedgerError(f"a stake shrank: {key}")
            if added == 0:
                continue
            owner = live.owners.get(key.seat)
            if owner is None:
                raise LedgerError(f"a wager at an unowned seat: {key}")
            moves.append(
                money_move(owner, live.db_id, key, "stake", -added, added)
            )
            live.debited[key] = stake
        for key, settlement in rnd.ledger.settlements.items():
            if key in live.credited:
                continue
            owner = live.owners[key.seat]
            moves.append(
                money_move(
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
            self.sql.owners.run(conn, {"rid": live.db_id, "owners": owners})
            live.stored_owners = owners
        if rnd.is_over:
            self._finish(conn, rt, live)

    def apply_moves(
        self, conn: Connection, moves: list[dict[str, Any]]
    ) -> None:
        """Insert money movements and update the balances they touch."""
        deltas: Counter[int] = Counter()
        for move in moves:
            deltas[move["player_id"]] += move["amount"]
        if self.storage.shared:
            # storage holds the balances; other processes move them too
            self.sql.money.run_many(conn, moves)
            after = shared.add_to_balances(
                conn, {p: d for p, d in deltas.items() if d}
            )
            for player_id, balance in after.items():
                if balance < 0:
                    # another process spent the same balance meanwhile:
                    # a refusal (the block rolls back), not a broken ledger
                    msg = f"player {player_id}'s balance is too low now"
                    raise InsufficientBalanceError(msg, ref=NO_CREDIT)
            self.storage.balances.update(after)
            return
        for player_id, delta in deltas.items():
            if self.storage.balances[player_id] + delta < 0:
                raise LedgerError(f"player {player_id} would go below zero")
        self.sql.money.run_many(conn, moves)
        self.sql.balance.run_many(
            conn,
            (
                {"pid": player_id, "delta": delta}
                for player_id, delta in deltas.items()
                if delta
            ),
        )
        for player_id, delta in deltas.items():
            self.storage.balances[player_id] += delta

    def _finish(
        self, conn: Connection, rt: TableRuntime, live: LiveRound
    ) -> None:
        """Store the end of a round and open the next one."""
        rnd = live.round
        if live.detached:
            # its chips and cards were accounted for as it ended (D193)
            rt.table.carry(rnd)  # the meter goes on (D23)
        else:
            rt.table.finish_round(rnd)
        retired = (
            live.detached
            or rnd.cover_card_reached
            or rnd.shoe_ran_out  # D69: the round reshuffled
            or rt.spec.reshuffle_every_round
        )
        self.sql.finish.run(
            conn,
            {
                "rid": live.db_id,
                "status": "over",
                "record": live.recorder.record.dumps(),
                "ended": db.now(),
            },
        )
        rt.undisclosed.append(live.db_id)
        if retired:
            self._disclose(conn, rt)
        live.finished = True
        if live.detached:
            rt.fresh_table()
        self.open_round(conn, rt)
        self._round_over(conn, rt, live)


def _draws(rt: TableRuntime, live: LiveRound | None = None) -> list[list[int]]:
    """The random draws made at ``rt`` since the last call.

    A round rebuilt after a restart (``live.detached``) is dealt on an
    RNG of its own, not the table's (which took a new one): its draws
    are taken from there, so that they are stored too (D84).
    """
    rng = rt.table.rng
    if live is not None and live.detached:
        rng = live.round.rng
    return rng.take() if isinstance(rng, RecordedRng) else []


def seat_stakes(rnd: Round, seat: int) -> int:
    """The total staked at ``seat`` in ``rnd``."""
    return sum(a for k, a in rnd.ledger.stakes.items() if k.seat == seat)


def _verify_limits(rt: TableRuntime, wager: str, amount: int) -> None:
    """Raise unless ``amount`` is within the table's limits for ``wager``.

    A wager placed and a wager changed to a new total are held to the
    same limits; the refusal names the wager as its game's section does
    (:attr:`~croupier.registry.GameSpec.wager_titles`, D187; the id for
    one the game does not name), and states the limits in dollars and
    once more in the cents an API client sends (D190); it cites the
    table limits' decision (D195).
    """
    low, high = rt.limits.bounds(wager)
    if not low <= amount <= high:
        title = rt.spec.wager_titles.get(wager, wager)
        msg = (
            f"a {title} must be between {dollars(low)} and {dollars(high)} "
            f"{in_cents(low, high)} at this table, not "
            f"{amount_text(amount)}"
        )
        raise TableLimitError(msg, ref=TABLE_LIMITS)
