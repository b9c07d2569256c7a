"""What each client receives: the table as its seat may see it.

Every message to a viewer (HTTP response or WebSocket push) is derived
here from what that viewer may know: the round's events field by field
through the rule table of :mod:`croupier.server.visibility`, and the
game's state through its ``view(seat)``, which builds each field from
the state only when the seat may see it. Nothing is copied and blanked
afterwards.

Recall (``GET /rounds/{id}``) follows the same rules on the stored
events: a player sees a round as his seat saw it (once over: all that
was shown at showdown, 670a.11, and his own cards), a spectator as a
spectator. The operator sees an open round as a spectator does, and a
finished one with every card that left the shoe. The round record --
the stored stack the round was dealt from, which names the cards still
to come -- goes to nobody while that shoe is in play; once the shoe is
finished (reshuffled, or the deck removed) it goes to the operator only
(for audit and ``croupier replay``). Players and spectators never get
it over HTTP: it names cards (the eleven pai gow cards counted face
down, burned cards) that were never shown to anybody.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.registry import GameSpec
from croupier.server import db
from croupier.server.errors import NotFoundError
from croupier.server.runtime import Casino, LiveRound, Player, TableRuntime
from croupier.server.visibility import Viewer, viewer_events
from croupier.server.withdrawn import withdrawn_round

__all__ = [
    "game_info",
    "in_play",
    "minimal_result",
    "round_detail",
    "round_list",
    "shoe_info",
    "table_snapshot",
    "table_summary",
]


def game_info(spec: GameSpec) -> dict[str, Any]:
    """A registered game, for the lobby."""
    return {
        "name": spec.name,
        "title": spec.title,
        "section": spec.section,
        "cites": spec.cites,
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
        "cites": rt.spec.cites,
        "min_bet": rt.limits.min_bet,
        "max_bet": rt.limits.max_bet,
        "wager_limits": {k: list(v) for k, v in rt.limits.per_wager.items()},
        "wagers": list(rt.spec.wagers),
        "seat_count": casino.seat_count(rt),
        "seats": [
            {
                "seat": s,
                "player_id": p,
                "name": casino.player_name(p),
                "sitting_out": s in rt.sitting_out,
            }
            for s, p in sorted(rt.seats.items())
        ],
        "settings": rt.settings.to_dict(),
        "rules": rt.table.rules.to_dict(),
        "shoe": shoe_info(rt),
        "in_play": in_play(rt),
    }


def in_play(rt: TableRuntime) -> dict[str, Any] | None:
    """The round an operator may void at the table, if any (D137).

    ``None`` while the table's round waits for its first wager (nothing
    to void); else its id, whether it is ``betting`` or ``playing`` and
    the money on its layout (as the table shows it to all).
    """
    live = rt.live
    if live is None or live.finished or live.inputs == 0:
        return None
    return {
        "round_id": live.db_id,
        "status": "playing" if live.dealt else "betting",
        "on_layout": live.round.ledger.on_layout,
    }


def shoe_info(rt: TableRuntime) -> dict[str, Any]:
    """Decks in play and cards left in the shoe (what a player can see).

    ``number``: the table's shoes so far, counting this one (an ended
    shoe, D194, or a cover card makes the next one).
    """
    shoe = rt.table.shoe
    decks = getattr(rt.table.rules, "decks", None)
    return {
        "decks": decks if isinstance(decks, int) else 1,
        "cards_left": None if shoe is None else len(shoe),
        "kind": "shoe" if isinstance(decks, int) else "deck",
        "number": rt.shoe_no,
    }


def _round_view(live: LiveRound, seat: int | None) -> dict[str, Any]:
    rnd = live.round
    events = viewer_events(live.event_dicts, Viewer(seat))
    try:
        envelope = rnd.envelope(seat)
    except CroupierError:
        envelope = rnd.envelope(None)
    if live.voided is not None:
        status = "voided"
    elif live.finished:
        status = "over"
    elif live.dealt:
        status = "playing"
    else:
        status = "betting"
    return {
        "id": live.db_id,
        "status": status,
        "phase": envelope["phase"],
        "over": rnd.is_over,
        "pending": envelope["pending"],
        "view": envelope["layout"],
        "events": events,
        "stakes": envelope["stakes"],
        "settlements": envelope["settlements"],
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
        "clock": rt.clock,
        "ready": sorted(rt.ready),
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
    casino: Casino,
    *,
    table_id: int | None = None,
    limit: int = 50,
    scope: ColumnElement[bool] | None = None,
) -> list[dict[str, Any]]:
    """Recent rounds, newest first; only those in ``scope`` if given.

    ``scope`` is :func:`croupier.server.access.round_scope` of the
    caller: who may recall which rounds.
    """
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
    if scope is not None:
        query = query.where(scope)
    with casino.engine.connect() as conn:
        rows = conn.execute(query).all()
    return [
        {
            "id": r[0],
            "table_id": r[1],
            "game": r[2],
            "status": r[3],
            "disclosed": bool(r[4]),
            "started_at": db.iso(r[5]),
            "ended_at": db.iso(r[6]),
            "events": int(r[7] or 0),
        }
        for r in rows
    ]


def round_detail(
    casino: Casino, round_id: int, viewer: Player | None
) -> dict[str, Any]:
    """One round as ``viewer`` may recall it (see the module docstring).

    ``sealed``: the shoe the round was dealt from is still in play (or
    the round is open). ``record``: the stored record, to the operator
    only, once the round is over and its shoe finished.
    """
    with Session(casino.engine, expire_on_commit=False) as session:
        row = session.get(db.RoundRow, round_id)
        if row is None:
            # withdrawn meanwhile by an ended shoe: said so (D198)
            gone = withdrawn_round(session.connection(), round_id)
            if gone is not None:
                raise gone.refusal()
            raise NotFoundError(f"no round {round_id}")
        stored = [
            {"scope": scope, **json.loads(text)}
            for scope, text in session.execute(
                select(db.EventRow.scope, db.EventRow.data_json)
                .where(db.EventRow.round_id == round_id)
                .order_by(db.EventRow.id)
            )
        ]
    over = row.status != "open"
    sealed = not (row.disclosed and over)
    operator = viewer is not None and viewer.is_operator
    events = viewer_events(stored, _recall_viewer(row, viewer, over=over))
    settlements = [
        {k: v for k, v in e.items() if k not in ("scope", "type", "seq")}
        | {"outcome": e["outcome"]}
        for e in events
        if e.get("type") == "wager_settled"
    ]
    record = None
    if operator and not sealed and row.record_json:
        record = json.loads(row.record_json)
    return {
        "id": row.id,
        "table_id": row.table_id,
        "game": row.game,
        "status": row.status,
        "disclosed": bool(row.disclosed),
        "sealed": sealed,
        "started_at": db.iso(row.started_at),
        "ended_at": db.iso(row.ended_at),
        "events": events,
        "settlements": settlements,
        "record": record,
    }


def _recall_viewer(
    row: db.RoundRow, viewer: Player | None, *, over: bool
) -> Viewer:
    """Whose eyes a recall looks through: the viewer's seat in that round."""
    if viewer is None:
        return Viewer()
    if viewer.is_operator:
        return Viewer(everything=over)
    try:
        owners = json.loads(row.owners_json or "{}")
    except ValueError:
        owners = {}
    for seat, owner in owners.items():
        if owner == viewer.id:
            return Viewer(seat=int(seat))
    return Viewer()
