"""Export a table server's stored rounds as CHH (read-only on storage).

Every finished round (``over``) and every round the server voided
(``voided``, D25) becomes one :class:`~croupier.hhf.HandHistory`: the
stored record gives the stack, the procedure and the settlements; the
table's shuffle and cut before the round (events of scope ``shoe``)
become ``shoe.preparation``; the seats' owners give the player ids; and
the append-only ``transactions`` give each player's balance before the
round's first movement and after its last (810a.11).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.history import RoundRecord
from croupier.registry import find_game
from croupier.server import db

from .format import HandHistory, ShoeState, from_record, players_of

__all__ = ["export_rounds"]


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _balances(
    conn: Session, round_ids: set[int]
) -> dict[int, dict[int, tuple[int, int]]]:
    """Per round, per player: balance before and after the round."""
    running: dict[int, int] = defaultdict(int)
    out: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    rows = conn.execute(
        select(
            db.TransactionRow.player_id,
            db.TransactionRow.round_id,
            db.TransactionRow.amount,
        ).order_by(db.TransactionRow.id)
    )
    for player_id, round_id, amount in rows:
        pid = int(player_id)
        before = running[pid]
        running[pid] = before + int(amount)
        if round_id is None or int(round_id) not in round_ids:
            continue
        seen = out[int(round_id)].get(pid)
        first = before if seen is None else seen[0]
        out[int(round_id)][pid] = (first, running[pid])
    return out


def export_rounds(
    url: str, *, since: datetime | None = None
) -> Iterator[HandHistory]:
    """Every over or voided round of the database at ``url``, by id.

    ``since`` keeps the rounds that started at or after it (UTC when it
    carries no offset).
    """
    engine = db.make_engine(url)
    since = _aware(since)
    with Session(engine) as conn:
        query = (
            select(db.RoundRow)
            .where(db.RoundRow.status.in_(("over", "voided")))
            .order_by(db.RoundRow.id)
        )
        rows = [
            row
            for row in conn.scalars(query)
            if since is None
            or (
                (started := _aware(row.started_at)) is not None
                and started >= since
            )
        ]
        ids = {row.id for row in rows}
        events: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
        for round_id, scope, text in conn.execute(
            select(
                db.EventRow.round_id, db.EventRow.scope, db.EventRow.data_json
            ).order_by(db.EventRow.id)
        ):
            if round_id in ids:
                events[(int(round_id), str(scope))].append(json.loads(text))
        balances = _balances(conn, ids)
        stakes = _voided_stakes(conn, ids)
    for row in rows:
        owners = {
            int(seat): str(pid)
            for seat, pid in json.loads(row.owners_json or "{}").items()
        }
        by_player = balances.get(row.id, {})
        seat_balances: dict[int, tuple[int | None, int | None]] = {
            seat: by_player.get(int(pid), (None, None))
            for seat, pid in owners.items()
        }
        preparation = events.get((row.id, "shoe"), [])
        if row.status == "over" and row.record_json:
            yield from_record(
                RoundRecord.loads(row.record_json),
                round_id=str(row.id),
                table=row.table_id,
                started_at=_aware(row.started_at),
                ended_at=_aware(row.ended_at),
                owners=owners,
                balances=seat_balances,
                preparation=preparation,
                table_steps=events.get((row.id, "server"), []),
            )
        else:
            yield _voided(row, events, owners, seat_balances, stakes)


def _voided_stakes(
    conn: Session, round_ids: set[int]
) -> dict[int, list[dict[str, Any]]]:
    """A voided round's money per seat: staked and refunded."""
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for round_id, seat, kind, amount, wager in conn.execute(
        select(
            db.TransactionRow.round_id,
            db.TransactionRow.seat,
            db.TransactionRow.kind,
            db.TransactionRow.amount,
            db.TransactionRow.wager,
        ).order_by(db.TransactionRow.id)
    ):
        if round_id in round_ids and seat is not None:
            out[int(round_id)].append(
                {
                    "seat": int(seat),
                    "kind": kind,
                    "amount": int(amount),
                    "wager": wager,
                }
            )
    return out


def _voided(
    row: db.RoundRow,
    events: dict[tuple[int, str], list[dict[str, Any]]],
    owners: dict[int, str],
    balances: dict[int, tuple[int | None, int | None]],
    stakes: dict[int, list[dict[str, Any]]],
) -> HandHistory:
    """A round the server voided (D25): its steps, every stake returned."""
    reason = ""
    if row.record_json:
        reason = str(json.loads(row.record_json).get("voided", ""))
    spec = find_game(row.game)
    steps = list(events.get((row.id, "round"), []))
    for extra in events.get((row.id, "server"), []):
        steps.append({**extra, "seq": len(steps) + 1})
    void_ref = next(
        (
            str(step["ref"])
            for step in reversed(steps)
            if step.get("type") == "round_voided" and step.get("ref")
        ),
        "D25",
    )
    # every stake went back (D25): one void settlement per stake
    settlements = [
        {
            "seat": m["seat"],
            "wager": str(m["wager"] or "stake"),
            "amount": -m["amount"],
            "outcome": "void",
            "net": 0,
            "ref": void_ref,
        }
        for m in stakes.get(row.id, [])
        if m["kind"] == "stake" and m["amount"] < 0
    ]
    players = players_of(settlements, owners, balances)
    return HandHistory(
        round_id=str(row.id),
        table=row.table_id,
        game=row.game,
        section=spec.section,
        rules=spec.rules_type.from_mapping(
            json.loads(row.rules_json)
        ).to_dict(),
        started_at=_iso(_aware(row.started_at)),
        ended_at=_iso(_aware(row.ended_at)),
        status="voided",
        void_reason=reason,
        shoe=ShoeState(
            known="stacked",
            new_shoe=row.new_shoe,
            stack=row.shoe,
            discard=row.discard,
            starting_position=row.starting_position,
            preparation=tuple(events.get((row.id, "shoe"), [])),
        ),
        procedure=tuple(steps),
        settlements=tuple(settlements),
        players=players,
    )


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()
