"""Start-up and recovery: load the tables, resume or void open rounds.

After a crash (``kill -9`` at any point) the database holds, for every
unfinished round, the stack as it stood, the inputs in order and the
events, all committed together with the money they moved. Each such
round is either

- **resumed**: its inputs are replayed through the engine on the stored
  stack (the engine is deterministic), the replayed events must equal
  the stored ones and the replayed stakes the money taken; or
- **voided** (D25) when it cannot be resumed: every stake still on the
  layout is returned to its player.

Either way a ``server_log`` row says which (a round still waiting for
its first wager, which every table holds between rounds, is resumed
without a row: nothing of it was in play, D156), and the table takes a
new shoe for its next round.

Recovery fills a :class:`House` (the casino is one) and stores through
its :class:`~croupier.server.play.Dealer`; it knows neither the casino
nor its pacing.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from typing import Any, Protocol

from sqlalchemy import ColumnElement, false, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from croupier.history import Recorder
from croupier.jsontypes import json_text
from croupier.money import dollars
from croupier.registry import GameSpec
from croupier.round import Action
from croupier.rules import GameRules
from croupier.server import db, shared
from croupier.server.errors import NotFoundError
from croupier.server.play import Dealer
from croupier.server.serial import is_outage
from croupier.server.tables import (
    Limits,
    LiveRound,
    Player,
    RecordedRng,
    TableRuntime,
    TableSettings,
)
from croupier.shoe import Shoe

__all__ = [
    "House",
    "ReplayMismatchError",
    "load",
    "load_table",
    "rebuild_table",
    "restore_round",
    "void_round",
]

log = logging.getLogger("croupier.server")


class House(Protocol):
    """What recovery loads into: accounts, games, tables and a dealer."""

    engine: Engine
    """The database."""
    games: dict[str, GameSpec]
    """Games this server deals, by name."""
    players: dict[str, Player]
    """Accounts by token digest."""
    names: dict[int, str]
    """Account names by id."""
    balances: dict[int, int]
    """Balances by account id."""
    tables: dict[int, TableRuntime]
    """Tables by id."""
    shared: bool
    """Whether other processes serve the same database."""
    origin: str
    """This process's name in table notifications."""

    @property
    def dealer(self) -> Dealer:
        """Stores what recovery changes (refunds, new rounds)."""
        ...


class ReplayMismatchError(RuntimeError):
    """Replaying a round's inputs did not give back what was stored."""


def _same(got: dict[str, Any], want: dict[str, Any]) -> bool:
    if got.get("type") == want.get("type") == "shuffled":
        return got.get("ref") == want.get("ref")
    return got == want


def write_log(
    engine: Engine,
    level: db.LogLevel,
    message: str,
    round_id: int | None = None,
    *,
    conn: Connection | None = None,
) -> None:
    """Add a ``server_log`` row (and say it on the console)."""
    log.log(logging.WARNING if level != "info" else logging.INFO, message)
    row = insert(db.ServerLogRow).values(
        at=db.now(), level=level, round_id=round_id, message=message
    )
    if conn is not None:
        conn.execute(row)
        return
    with engine.begin() as own:
        own.execute(row)


def restore_round(
    engine: Engine,
    rt: TableRuntime,
    row: db.RoundRow,
    *,
    conn: Connection | None = None,
    attach: bool = False,
) -> LiveRound:
    """Rebuild a round from storage by replaying its inputs.

    Detached (after a restart) the round is dealt on to its end from its
    own stack and the table then takes a new shoe. Attached (another
    process takes the table over) the stack and discard rack stored when
    the round began become the table's shoe, which goes on after it.
    """
    if conn is None:
        with engine.connect() as own:
            return restore_round(engine, rt, row, conn=own, attach=attach)
    spec = rt.spec
    rules = rules_of(spec, row)
    attach = attach and row.discard is not None
    # the rack too when detached: a shuffle in play gathers it (591.7(d))
    shoe = Shoe.stacked(row.shoe, discard=row.discard or "")
    inputs = conn.execute(
        select(db.RoundInputRow.kind, db.RoundInputRow.data_json)
        .where(db.RoundInputRow.round_id == row.id)
        .order_by(db.RoundInputRow.n)
    ).all()
    # a shuffle in play draws again what it drew then (RecordedRng)
    drawn = [
        pair
        for kind, text in inputs
        if kind == "draws"
        for pair in json.loads(text)["draws"]
    ]
    rng = rt.table.rng if attach else RecordedRng()
    if not isinstance(rng, RecordedRng):  # pragma: no cover - server tables
        rng = RecordedRng()
    rng.replay.clear()
    rng.replay.extend((int(n), int(v)) for n, v in drawn)
    rnd = spec.new_round(
        rules=rules,
        shoe=shoe,
        rng=rng,
        new_shoe=row.new_shoe,
        starting_position=row.starting_position,
    )
    recorder = Recorder(
        spec.name, rnd, starting_position=row.starting_position
    )
    every = conn.execute(
        select(db.EventRow.scope, db.EventRow.data_json)
        .where(db.EventRow.round_id == row.id)
        .where(db.EventRow.scope.in_(("round", "server")))
        .order_by(db.EventRow.id)
    ).all()
    shown = [json.loads(text) for _scope, text in every]
    stored = [
        event
        for (scope, _text), event in zip(every, shown, strict=True)
        if scope == "round"
    ]
    stored.sort(key=lambda event: int(event["seq"]))
    moves = conn.execute(
        select(
            db.TransactionRow.seat,
            db.TransactionRow.kind,
            db.TransactionRow.amount,
            db.TransactionRow.layout,
        ).where(db.TransactionRow.round_id == row.id)
    ).all()
    dealt = False
    for kind, text in inputs:
        data = json.loads(text)
        if kind == "wager":
            recorder.place_wager(
                int(data["seat"]), str(data["wager"]), int(data["amount"])
            )
        elif kind == "change":
            recorder.change_wager(
                int(data["seat"]), str(data["wager"]), int(data["amount"])
            )
        elif kind == "deal":
            recorder.deal()
            dealt = True
        elif kind == "draws":
            continue
        else:
            recorder.apply(Action.from_dict(data))
    if rng.replay:
        rng.replay.clear()
        msg = "replaying the inputs left stored draws unused"
        raise ReplayMismatchError(msg)
    replayed = [e.to_dict() for e in rnd.events]
    if len(replayed) != len(stored) or not all(
        _same(g, w) for g, w in zip(replayed, stored, strict=True)
    ):
        msg = (
            f"replaying {len(inputs)} inputs gave {len(replayed)} events, "
            f"{len(stored)} stored, and they differ"
        )
        raise ReplayMismatchError(msg)
    staked: Counter[int] = Counter()
    for seat, kind, amount, _layout in moves:
        if kind == "stake":
            staked[int(seat or 0)] -= int(amount)
    ledger: Counter[int] = Counter()
    for key, amount in rnd.ledger.stakes.items():
        ledger[key.seat] += amount
    if +staked != +ledger:
        msg = (
            f"stakes taken {dict(staked)} differ from the round's "
            f"{dict(ledger)}"
        )
        raise ReplayMismatchError(msg)
    payouts = sum(1 for _s, kind, _a, _l in moves if kind == "payout")
    if payouts != len(rnd.ledger.settlements):
        msg = "settlements paid differ from the round's"
        raise ReplayMismatchError(msg)
    live = LiveRound(
        row.id,
        recorder,
        shoe_no=row.shoe_no,
        owners={
            int(k): int(v) for k, v in json.loads(row.owners_json).items()
        },
        detached=not attach,
    )
    live.persisted = len(stored)
    live.inputs = len(inputs)
    live.debited = dict(rnd.ledger.stakes)
    live.credited = set(rnd.ledger.settlements)
    live.event_dicts = shown
    live.server_seq = sum(1 for scope, _text in every if scope == "server")
    live.dealt = dealt
    live.finished = row.status != "open"
    if attach:
        rt.table.adopt(rnd)
    return live


def rules_of(spec: GameSpec, row: db.RoundRow) -> GameRules:
    """The rules a stored round ran under (its own, as stored)."""
    return spec.rules_type.from_mapping(json.loads(row.rules_json))


def void_round(
    dealer: Dealer,
    rt: TableRuntime,
    row: db.RoundRow,
    reason: str,
    *,
    conn: Connection | None = None,
    by_operator: bool = False,
) -> dict[str, Any]:
    """Void an unfinished round: every stake on the layout goes back.

    Returns the ``round_voided`` event stored (server scope). An
    operator's void (``by_operator``) cites D25 and gives its reason.
    """
    if conn is None:
        with dealer.storage.engine.begin() as own:
            return void_round(
                dealer, rt, row, reason, conn=own, by_operator=by_operator
            )
    ref = "670a.9(e)" if rt.spec.section.startswith("670a") else None
    if by_operator:
        ref = "D25"
    moves = conn.execute(
        select(
            db.TransactionRow.player_id,
            db.TransactionRow.seat,
            db.TransactionRow.layout,
        ).where(db.TransactionRow.round_id == row.id)
    ).all()
    on_layout: Counter[tuple[int, int]] = Counter()
    for player_id, seat, layout in moves:
        on_layout[(int(player_id), int(seat or 0))] += int(layout)
    owed = [
        (player_id, seat, amount)
        for (player_id, seat), amount in sorted(on_layout.items())
        if amount > 0
    ]
    refunds = [
        {
            "player_id": player_id,
            "round_id": row.id,
            "seat": seat,
            "kind": "refund",
            "amount": amount,
            "layout": -amount,
            "wager": None,
        }
        for player_id, seat, amount in owed
    ]
    if refunds:
        dealer.apply_moves(conn, refunds)
    inputs = [
        {"kind": kind, **json.loads(text)}
        for kind, text in conn.execute(
            select(db.RoundInputRow.kind, db.RoundInputRow.data_json)
            .where(db.RoundInputRow.round_id == row.id)
            .order_by(db.RoundInputRow.n)
        )
    ]
    seq = 1 + int(
        conn.execute(
            select(func.coalesce(func.max(db.EventRow.seq), 0))
            .where(db.EventRow.round_id == row.id)
            .where(db.EventRow.scope == "server")
        ).scalar_one()
    )
    event: dict[str, Any] = {
        "seq": seq,
        "ref": ref,
        "type": "round_voided",
        "reason": reason,
    }
    if by_operator:
        event["scope"] = "server"
        event["by"] = "operator"
        event["returned"] = sum(r["amount"] for r in refunds)
    conn.execute(
        insert(db.EventRow).values(
            round_id=row.id,
            scope="server",
            seq=seq,
            type="round_voided",
            ref=ref,
            data_json=json.dumps(event),
        )
    )
    conn.execute(
        update(db.RoundRow)
        .where(db.RoundRow.id == row.id)
        .values(
            status="voided",
            ended_at=db.now(),
            disclosed=True,
            record_json=json.dumps(
                {
                    "voided": reason,
                    "by": "operator" if by_operator else "server",
                    "inputs": inputs,
                }
            ),
        )
    )
    # the table's state goes on from where the voided round began (its
    # progressive meter, D68), whatever rebuilt the table before
    rt.table.carry_from(rules_of(rt.spec, row))
    returned = ", ".join(
        f"{dollars(amount)} to player {player_id} (seat {seat})"
        for player_id, seat, amount in owed
    )
    write_log(
        dealer.storage.engine,
        "warning",
        f"round {row.id} at table {rt.id} voided (D25): {reason}; "
        f"returned {returned or 'nothing (no wager)'}",
        row.id,
        conn=conn,
    )
    return event


def _recover(
    house: House, rt: TableRuntime, row: db.RoundRow, policy: str
) -> None:
    try:
        live = restore_round(house.engine, rt, row)
        if policy == "void" and live.inputs:
            msg = "the server was started with recovery=void"
            raise ReplayMismatchError(msg)
    except Exception as exc:
        void_round(house.dealer, rt, row, f"{type(exc).__name__}: {exc}")
        rt.live = None
        rt.fresh_table()
        return
    rt.live = live
    rt.fresh_table()
    if not live.inputs:
        # a round waiting for its first wager (every table has one open
        # between rounds): nothing of it was in play, nothing to tell the
        # operator (D156)
        return
    write_log(
        house.engine,
        "info",
        f"round {row.id} at table {rt.id} resumed by replaying "
        f"{live.inputs} inputs ({live.persisted} events reproduced)",
        row.id,
    )


def _open_row(conn: Connection, table_id: int) -> db.RoundRow | None:
    """The table's round in play (the newest open one), if any."""
    return _newest(conn, table_id, db.RoundRow.status == "open")


def _newest(
    conn: Connection, table_id: int, *where: ColumnElement[bool]
) -> db.RoundRow | None:
    with Session(bind=conn, expire_on_commit=False) as session:
        row = session.scalars(
            select(db.RoundRow)
            .where(db.RoundRow.table_id == table_id, *where)
            .order_by(db.RoundRow.id.desc())
            .limit(1)
        ).first()
        session.expunge_all()
    return row


def _runtime(
    conn: Connection, row: db.GameTableRow, spec: GameSpec
) -> TableRuntime:
    """A table as stored: game, rules, limits, seats, sealed rounds."""
    limits = {
        k: (int(v[0]), int(v[1]))
        for k, v in json.loads(row.wager_limits_json).items()
    }
    rt = TableRuntime(
        row.id,
        row.name,
        spec,
        json.loads(row.rules_json),
        Limits(row.min_bet, row.max_bet, limits),
        shoe_no=row.shoe_no,
    )
    rt.stored_version = int(row.version or 0)
    rt.settings, _changed = TableSettings.stored(
        json.loads(row.settings_json or "{}")
    )
    for seat, player_id in conn.execute(
        select(db.SeatRow.seat, db.SeatRow.player_id).where(
            db.SeatRow.table_id == row.id
        )
    ):
        rt.seats[int(seat)] = int(player_id)
    rt.undisclosed = [
        int(r)
        for r in conn.execute(
            select(db.RoundRow.id)
            .where(db.RoundRow.table_id == row.id)
            .where(db.RoundRow.disclosed == false())
            .where(db.RoundRow.status != "open")
            .order_by(db.RoundRow.id)
        ).scalars()
    ]
    _pacing(rt, row.pacing_json)
    return rt


def _pacing(rt: TableRuntime, text: str | None) -> None:
    """The stored pacing state: clock, ready, sitting out, idle, seen."""
    rt.stored_pacing = text or ""
    state = json.loads(text or "{}")
    seated = set(rt.seats)
    rt.clock = state.get("clock")
    rt.clock_key = state.get("key")
    rt.ready = {int(s) for s in state.get("ready", ())} & seated
    rt.sitting_out = {int(s) for s in state.get("sitting_out", ())} & seated
    rt.idle = {
        int(k): int(v)
        for k, v in state.get("idle", {}).items()
        if int(k) in seated
    }
    rt.stored_seen = {
        int(k): int(v)
        for k, v in state.get("seen", {}).items()
        if int(k) in seated
    }
    rt.seen = dict(rt.stored_seen)


def _load_players(house: House, conn: Connection) -> None:
    for pid, name, digest, balance, op in conn.execute(
        select(
            db.PlayerRow.id,
            db.PlayerRow.name,
            db.PlayerRow.token_hash,
            db.PlayerRow.balance,
            db.PlayerRow.is_operator,
        )
    ):
        house.players[digest] = Player(pid, name, bool(op))
        house.names[pid] = name
        house.balances[pid] = int(balance)


def _game_of(house: House, row: db.GameTableRow) -> GameSpec:
    spec = house.games.get(row.game)
    if spec is None:
        msg = f"table {row.id}: game {json_text(row.game)} is not available"
        raise NotFoundError(msg)
    return spec


def load(house: House, *, recovery: str = "resume") -> None:
    """Load accounts and tables; resume or void every unfinished round.

    With other processes on the database (PostgreSQL) a round in play
    may be theirs: it is taken over as any process takes a table over
    (:func:`load_table`, under the table's lock), never voided for being
    unfinished, so ``recovery="void"`` is refused there.
    """
    with house.engine.connect() as conn:
        _load_players(house, conn)
        tables = list(
            Session(bind=conn).scalars(
                select(db.GameTableRow).order_by(db.GameTableRow.id)
            )
        )
    _settle_settings(house, tables)
    if house.shared:
        if recovery != "resume":
            msg = "several processes share this database: recovery=resume"
            raise ValueError(msg)
        for row in tables:
            try:
                _game_of(house, row)
            except NotFoundError as exc:
                write_log(house.engine, "warning", str(exc))
                continue
            with house.dealer.turn(row.id):
                pass
        return
    for row in tables:
        try:
            spec = _game_of(house, row)
        except NotFoundError as exc:
            write_log(house.engine, "warning", str(exc))
            continue
        with house.engine.connect() as conn:
            rt = house.tables[row.id] = _runtime(conn, row, spec)
            open_row = _open_row(conn, row.id)
        if open_row is not None:
            _recover(house, rt, open_row, recovery)
        if rt.live is None:
            with house.dealer.transaction() as conn:
                house.dealer.open_round(conn, rt)


def _settle_settings(house: House, tables: list[db.GameTableRow]) -> None:
    """Store in today's ranges the settings of tables stored outside them.

    A table opened before a range narrowed (``idle_seat_minutes`` of
    0.001, D158; a clock of 0.1 seconds, D170) is loaded with the
    nearest bound, and that is stored, with one warning row naming the
    table, the setting and both values; the next start finds it in
    range and says nothing. With other processes on the database the
    table's row is locked and its version bumped in the same
    transaction (D171): every process holding the table in memory
    reads the corrected value before it next serves the table.
    """
    for row in tables:
        if not TableSettings.stored(json.loads(row.settings_json or "{}"))[1]:
            continue
        with house.engine.begin() as conn:
            if house.shared:
                # read again under the table's lock: the row is the
                # table's as committed, and no change runs meanwhile
                shared.lock_table(conn, row.id)
                row.settings_json = conn.execute(
                    select(db.GameTableRow.settings_json).where(
                        db.GameTableRow.id == row.id
                    )
                ).scalar_one()
            given = json.loads(row.settings_json or "{}")
            settings, changed = TableSettings.stored(given)
            if not changed:
                continue
            now = settings.to_dict()
            text = json.dumps(now)
            conn.execute(
                update(db.GameTableRow)
                .where(db.GameTableRow.id == row.id)
                .values(settings_json=text)
            )
            if house.shared:
                row.version = shared.bump_version(conn, row.id, house.origin)
            for key in changed:
                write_log(
                    house.engine,
                    "warning",
                    f"table {row.id} ({row.name}): {key} was stored as "
                    f"{given[key]!r}, outside {TableSettings.range_text(key)}"
                    f"; it is {now[key]!r} now ({TableSettings.DECIDED[key]})",
                    conn=conn,
                )
        row.settings_json = text


def load_table(
    house: House, conn: Connection, table_id: int, *, writable: bool
) -> TableRuntime:
    """Rebuild a table from storage, in the middle of its shoe.

    Another process changed the table (or this one never held it). The
    round in play is replayed attached: the stack and discard rack stored
    when it began become the table's shoe, so dealing goes on from the
    same shoe. The previous round is replayed too, for the views. When
    ``writable`` (the caller holds the table's lock) a round that cannot
    be replayed is voided (D25) and a missing round is opened; a reader
    only reads.
    """
    row = Session(bind=conn).get(db.GameTableRow, table_id)
    if row is None:
        raise NotFoundError(f"no table {table_id}")
    rt = _runtime(conn, row, _game_of(house, row))
    open_row = _open_row(conn, table_id)
    if open_row is not None:
        try:
            rt.live = restore_round(
                house.engine, rt, open_row, conn=conn, attach=True
            )
        except Exception as exc:
            if not writable:
                raise
            void_round(
                house.dealer,
                rt,
                open_row,
                f"{type(exc).__name__}: {exc}",
                conn=conn,
            )
            rt.fresh_table()
    before = () if open_row is None else (db.RoundRow.id < open_row.id,)
    last_row = _newest(conn, table_id, db.RoundRow.status == "over", *before)
    if last_row is not None:
        try:
            rt.last = restore_round(house.engine, rt, last_row, conn=conn)
        except Exception:
            log.exception(
                "table %s: round %s not shown", table_id, last_row.id
            )
        else:
            if rt.live is None:
                # the next round begins where the last one left the
                # table's state: its progressive meter (D23)
                rt.table.carry(rt.last.round)
    if rt.live is None and writable:
        house.dealer.open_round(conn, rt)
    house.tables[table_id] = rt
    return rt


def rebuild_table(house: House, rt: TableRuntime) -> None:
    """After a failed commit: reload balances and the table's round.

    Only reads (the database may be locked for writing): the round in
    play is replayed on its own stack, as after a restart. If it cannot
    be, or storage cannot be read, this raises and the caller rebuilds
    at the next turn (a replay that fails then is voided).
    """
    with house.engine.connect() as conn:
        balances = {
            int(pid): int(balance)
            for pid, balance in conn.execute(
                select(db.PlayerRow.id, db.PlayerRow.balance)
            )
        }
        table = Session(bind=conn).get(db.GameTableRow, rt.id)
        row = _open_row(conn, rt.id)
        live = None
        if row is not None:
            try:
                live = restore_round(house.engine, rt, row, conn=conn)
            except Exception as exc:
                if is_outage(exc):
                    raise
                failed: Exception | None = exc
            else:
                failed = None
        seats = {
            int(seat): int(player_id)
            for seat, player_id in conn.execute(
                select(db.SeatRow.seat, db.SeatRow.player_id).where(
                    db.SeatRow.table_id == rt.id
                )
            )
        }
    if row is not None and live is None:
        void_round(house.dealer, rt, row, f"{type(failed).__name__}: {failed}")
        with house.engine.connect() as conn:
            house.balances.update(
                shared.balances(conn, {p for p, _seat in _owners(row)})
            )
    else:
        house.balances.update(balances)
    rt.seats = seats
    if table is not None:
        _pacing(rt, table.pacing_json)
    rt.live = live  # none: the next wager opens a round
    rt.fresh_table()


def _owners(row: db.RoundRow) -> list[tuple[int, int]]:
    """(player, seat) of a stored round's owners."""
    return [(int(v), int(k)) for k, v in json.loads(row.owners_json).items()]
