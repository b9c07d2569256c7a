"""What each client receives: the table as its seat may see it.

Every message to a seat (HTTP response or WebSocket push) is built here
from the round's seat-filtered events and the game's ``view(seat)``, then
passed through :func:`~croupier.server.visibility.censor` against the
cards that seat has seen. Round records (``GET /rounds/{id}``) keep the
stack sealed while the shoe it came from is still in play.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.registry import GameSpec
from croupier.server import db
from croupier.server.errors import NotFoundError
from croupier.server.runtime import Casino, LiveRound, Player, TableRuntime
from croupier.server.visibility import censor, seat_events

__all__ = [
    "game_info",
    "minimal_result",
    "round_detail",
    "round_list",
    "table_snapshot",
    "table_summary",
]


def game_info(spec: GameSpec) -> dict[str, Any]:
    """A registered game, for the lobby."""
    return {
        "name": spec.name,
        "title": spec.title,
        "section": spec.section,
        "wagers": list(spec.wagers),
        "actions": list(spec.actions),
        "max_seats": spec.max_seats,
        "rules": spec.rules_type().to_dict(),
    }


def table_summary(casino: Casino, rt: TableRuntime) -> dict[str, Any]:
    """The public description of a table."""
    return {
        "id": rt.id,
        "name": rt.name,
        "game": rt.spec.name,
        "title": rt.spec.title,
        "section": rt.spec.section,
        "min_bet": rt.limits.min_bet,
        "max_bet": rt.limits.max_bet,
        "wager_limits": {k: list(v) for k, v in rt.limits.per_wager.items()},
        "wagers": list(rt.spec.wagers),
        "seat_count": casino.seat_count(rt),
        "seats": [
            {"seat": s, "player_id": p, "name": casino.player_name(p)}
            for s, p in sorted(rt.seats.items())
        ],
        "rules": rt.table.rules.to_dict(),
    }


def _round_view(live: LiveRound, seat: int | None) -> dict[str, Any]:
    rnd = live.round
    events, vis = seat_events(live.event_dicts, seat)
    try:
        view = rnd.view(seat)
    except CroupierError:
        view = rnd.view(None)
    pending = rnd.pending()
    if live.finished:
        status = "over"
    elif live.dealt:
        status = "playing"
    else:
        status = "betting"
    return {
        "id": live.db_id,
        "status": status,
        "phase": rnd.phase.value,
        "over": rnd.is_over,
        "pending": None if pending is None else pending.to_dict(),
        "view": censor(view, vis.cards),
        "events": events,
        "stakes": [
            {
                "seat": k.seat,
                "wager": k.wager,
                "hand": k.hand,
                "amount": amount,
                "open": rnd.ledger.is_open(k),
            }
            for k, amount in rnd.ledger.stakes.items()
        ],
        "settlements": [s.to_dict() for s in rnd.settlements],
    }


def _seat_view(
    rt: TableRuntime, live: LiveRound, seat: int | None
) -> dict[str, Any]:
    """A round as ``seat`` sees it, built once per change of the table.

    The answer to a step and the WebSocket pushes after it show the same
    state to the same seat: the view is kept with the table's version.
    """
    kept = live.views.get(seat)
    if kept is not None and kept[0] == rt.version:
        return kept[1]
    view = _round_view(live, seat)
    live.views[seat] = (rt.version, view)
    return view


def table_snapshot(
    casino: Casino, rt: TableRuntime, player: Player | None
) -> dict[str, Any]:
    """The table as ``player`` (``None``: a spectator) may see it now."""
    seat = None if player is None else rt.seat_of(player.id)
    out: dict[str, Any] = {
        "table": table_summary(casino, rt),
        "round": None if rt.live is None else _seat_view(rt, rt.live, seat),
        "last": None if rt.last is None else _seat_view(rt, rt.last, seat),
        "you": None,
    }
    if player is not None:
        out["you"] = {
            "id": player.id,
            "name": player.name,
            "balance": casino.balances.get(player.id, 0),
            "seat": seat,
            "operator": player.is_operator,
        }
    return out


def minimal_result(
    casino: Casino, rt: TableRuntime, player: Player
) -> dict[str, Any]:
    """A short answer (``Prefer: return=minimal``): no cards at all."""
    live = rt.live
    last = rt.last
    pending = None if live is None else live.round.pending()
    return {
        "ok": True,
        "round": None if live is None else live.db_id,
        "dealt": live is not None and live.dealt,
        "pending": None if pending is None else pending.to_dict(),
        "last_round": None if last is None else last.db_id,
        "balance": casino.balances.get(player.id, 0),
    }


def round_list(
    casino: Casino, *, table_id: int | None = None, limit: int = 50
) -> list[dict[str, Any]]:
    """Recent rounds, newest first."""
    counts = (
        select(db.EventRow.round_id, func.count().label("n"))
        .group_by(db.EventRow.round_id)
        .subquery()
    )
    query = (
        select(
            db.RoundRow.id,
            db.RoundRow.table_id,
            db.RoundRow.game,
            db.RoundRow.status,
            db.RoundRow.disclosed,
            db.RoundRow.started_at,
            db.RoundRow.ended_at,
            counts.c.n,
        )
        .outerjoin(counts, counts.c.round_id == db.RoundRow.id)
        .order_by(db.RoundRow.id.desc())
        .limit(max(1, min(limit, 500)))
    )
    if table_id is not None:
        query = query.where(db.RoundRow.table_id == table_id)
    with casino.engine.connect() as conn:
        rows = conn.execute(query).all()
    return [
        {
            "id": r[0],
            "table_id": r[1],
            "game": r[2],
            "status": r[3],
            "disclosed": bool(r[4]),
            "started_at": r[5].isoformat() if r[5] else None,
            "ended_at": r[6].isoformat() if r[6] else None,
            "events": int(r[7] or 0),
        }
        for r in rows
    ]


def round_detail(
    casino: Casino, round_id: int, viewer: Player | None
) -> dict[str, Any]:
    """One round: events, settlements and (once disclosed) its record.

    While the round is open, or its shoe still in play, a player sees
    the events as a spectator would and no record; an operator sees all.
    """
    with Session(casino.engine, expire_on_commit=False) as session:
        row = session.get(db.RoundRow, round_id)
        if row is None:
            raise NotFoundError(f"no round {round_id}")
        events = [
            {"scope": scope, **json.loads(text)}
            for scope, text in session.execute(
                select(db.EventRow.scope, db.EventRow.data_json)
                .where(db.EventRow.round_id == round_id)
                .order_by(db.EventRow.id)
            )
        ]
    full = (viewer is not None and viewer.is_operator) or (
        row.disclosed and row.status != "open"
    )
    settlements = [
        {k: v for k, v in e.items() if k not in ("scope", "type", "seq")}
        | {"outcome": e["outcome"]}
        for e in events
        if e.get("type") == "wager_settled"
    ]
    record = None
    if full and row.record_json:
        record = json.loads(row.record_json)
    if not full:
        shown, vis = seat_events(events, None)
        events = censor(shown, vis.cards)
    return {
        "id": row.id,
        "table_id": row.table_id,
        "game": row.game,
        "status": row.status,
        "disclosed": bool(row.disclosed),
        "sealed": not full,
        "started_at": row.started_at.isoformat(),
        "ended_at": row.ended_at.isoformat() if row.ended_at else None,
        "events": events,
        "settlements": settlements,
        "record": record,
    }
