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

Either way a ``server_log`` row says which, and the table takes a new
shoe for its next round.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from typing import Any

from sqlalchemy import false, insert, select, update
from sqlalchemy.orm import Session

from croupier.history import Recorder
from croupier.rng import SecureRng
from croupier.round import Action
from croupier.server import db
from croupier.server.runtime import (
    Casino,
    Limits,
    LiveRound,
    Player,
    TableRuntime,
)
from croupier.shoe import Shoe

__all__ = [
    "ReplayMismatchError",
    "load",
    "rebuild_table",
    "restore_round",
    "void_round",
]

log = logging.getLogger("croupier.server")


class ReplayMismatchError(RuntimeError):
    """Replaying a round's inputs did not give back what was stored."""


def _same(got: dict[str, Any], want: dict[str, Any]) -> bool:
    if got.get("type") == want.get("type") == "shuffled":
        return got.get("ref") == want.get("ref")
    return got == want


def write_log(
    casino: Casino, level: str, message: str, round_id: int | None = None
) -> None:
    """Add a ``server_log`` row (and say it on the console)."""
    log.log(logging.WARNING if level != "info" else logging.INFO, message)
    with casino.engine.begin() as conn:
        conn.execute(
            insert(db.ServerLogRow).values(
                at=db.now(), level=level, round_id=round_id, message=message
            )
        )


def restore_round(
    casino: Casino, rt: TableRuntime, row: db.RoundRow
) -> LiveRound:
    """Rebuild an unfinished round from storage by replaying its inputs."""
    spec = rt.spec
    rules = spec.rules_type.from_mapping(json.loads(row.rules_json))
    rnd = spec.new_round(
        rules=rules,
        shoe=Shoe.stacked(row.shoe),
        rng=SecureRng(),
        new_shoe=row.new_shoe,
        starting_position=row.starting_position,
    )
    recorder = Recorder(
        spec.name, rnd, starting_position=row.starting_position
    )
    with casino.engine.connect() as conn:
        inputs = conn.execute(
            select(db.RoundInputRow.kind, db.RoundInputRow.data_json)
            .where(db.RoundInputRow.round_id == row.id)
            .order_by(db.RoundInputRow.n)
        ).all()
        stored = [
            json.loads(text)
            for (text,) in conn.execute(
                select(db.EventRow.data_json)
                .where(db.EventRow.round_id == row.id)
                .where(db.EventRow.scope == "round")
                .order_by(db.EventRow.seq)
            )
        ]
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
        elif kind == "deal":
            recorder.deal()
            dealt = True
        else:
            recorder.apply(Action.from_dict(data))
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
        detached=True,
    )
    live.persisted = len(stored)
    live.inputs = len(inputs)
    live.debited = dict(rnd.ledger.stakes)
    live.credited = set(rnd.ledger.settlements)
    live.event_dicts = stored
    live.dealt = dealt
    return live


def void_round(
    casino: Casino, rt: TableRuntime, row: db.RoundRow, reason: str
) -> None:
    """Void an unfinished round: every stake on the layout goes back."""
    ref = "670a.9(e)" if rt.spec.section.startswith("670a") else None
    with casino.engine.begin() as conn:
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
            for (player_id, seat), amount in sorted(on_layout.items())
            if amount > 0
        ]
        if refunds:
            casino.apply_moves(conn, refunds)
        inputs = [
            {"kind": kind, **json.loads(text)}
            for kind, text in conn.execute(
                select(db.RoundInputRow.kind, db.RoundInputRow.data_json)
                .where(db.RoundInputRow.round_id == row.id)
                .order_by(db.RoundInputRow.n)
            )
        ]
        event = {
            "seq": 1,
            "ref": ref,
            "type": "round_voided",
            "reason": reason,
        }
        conn.execute(
            insert(db.EventRow).values(
                round_id=row.id,
                scope="server",
                seq=1,
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
                record_json=json.dumps({"voided": reason, "inputs": inputs}),
            )
        )
    returned = ", ".join(
        f"{r['amount']} to player {r['player_id']} (seat {r['seat']})"
        for r in refunds
    )
    write_log(
        casino,
        "warning",
        f"round {row.id} at table {rt.id} voided (D25): {reason}; "
        f"returned {returned or 'nothing (no wager)'}",
        row.id,
    )


def _recover(
    casino: Casino, rt: TableRuntime, row: db.RoundRow, policy: str
) -> None:
    try:
        live = restore_round(casino, rt, row)
        if policy == "void" and live.inputs:
            msg = "the server was started with recovery=void"
            raise ReplayMismatchError(msg)
    except Exception as exc:
        void_round(casino, rt, row, f"{type(exc).__name__}: {exc}")
        rt.live = None
        rt.fresh_table()
        return
    rt.live = live
    rt.fresh_table()
    write_log(
        casino,
        "info",
        f"round {row.id} at table {rt.id} resumed by replaying "
        f"{live.inputs} inputs ({live.persisted} events reproduced)",
        row.id,
    )


def _open_row(casino: Casino, table_id: int) -> db.RoundRow | None:
    with Session(casino.engine, expire_on_commit=False) as session:
        rows = list(
            session.scalars(
                select(db.RoundRow)
                .where(db.RoundRow.table_id == table_id)
                .where(db.RoundRow.status == "open")
                .order_by(db.RoundRow.id)
            )
        )
        session.expunge_all()
    return rows[-1] if rows else None


def load(casino: Casino, *, recovery: str = "resume") -> None:
    """Load accounts and tables; resume or void every unfinished round."""
    with casino.engine.connect() as conn:
        for pid, name, digest, balance, op in conn.execute(
            select(
                db.PlayerRow.id,
                db.PlayerRow.name,
                db.PlayerRow.token_hash,
                db.PlayerRow.balance,
                db.PlayerRow.is_operator,
            )
        ):
            casino.players[digest] = Player(pid, name, bool(op))
            casino.names[pid] = name
            casino.balances[pid] = int(balance)
        tables = list(
            Session(bind=conn).scalars(
                select(db.GameTableRow).order_by(db.GameTableRow.id)
            )
        )
        seats = conn.execute(
            select(db.SeatRow.table_id, db.SeatRow.seat, db.SeatRow.player_id)
        ).all()
        sealed = conn.execute(
            select(db.RoundRow.table_id, db.RoundRow.id)
            .where(db.RoundRow.disclosed == false())
            .where(db.RoundRow.status != "open")
            .order_by(db.RoundRow.id)
        ).all()
    for row in tables:
        spec = casino.games.get(row.game)
        if spec is None:
            write_log(
                casino,
                "warning",
                f"table {row.id}: game {row.game!r} is not available",
            )
            continue
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
        casino.tables[row.id] = rt
        for table_id, seat, player_id in seats:
            if table_id == row.id:
                rt.seats[int(seat)] = int(player_id)
        rt.undisclosed = [int(r) for t, r in sealed if t == row.id]
        open_row = _open_row(casino, row.id)
        if open_row is not None:
            _recover(casino, rt, open_row, recovery)
        if rt.live is None:
            with casino.transaction() as conn:
                casino.open_round(conn, rt)


def rebuild_table(casino: Casino, rt: TableRuntime) -> None:
    """After a failed commit: reload balances and the table's round."""
    with casino.engine.connect() as conn:
        for pid, balance in conn.execute(
            select(db.PlayerRow.id, db.PlayerRow.balance)
        ):
            casino.balances[pid] = int(balance)
    rt.live = None
    rt.fresh_table()
    row = _open_row(casino, rt.id)
    if row is not None:
        _recover(casino, rt, row, "resume")
