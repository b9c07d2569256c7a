"""Recall of rounds for people: the paged list and a round's envelope (D35).

58 Pa. Code § 810a.11 asks that a table game's history be recalled with
its time, table, game, player, wagers and results. :func:`round_page`
answers ``GET /rounds``: filters (table, game, player name, dates), the
newest first, offset paging over the whole history and the total, each
round with its table's name, the players and the money (total bet, total
won, net). A player's figures are his own; the operator's are the whole
round's. Who may recall which rounds is the caller's ``scope``
(:func:`croupier.server.access.round_scope`).

:func:`round_envelope` adds to one round (``GET /rounds/{id}``) what a
lab expects around its events: start and end time, the rules in force,
the game and software version, each player's balance before and after,
and every wager's result per hand. It adds no event and no card: what a
viewer may see of those is :func:`croupier.server.views.round_detail`'s.

:func:`player_list` pages the accounts (``GET /players``) and
:func:`log_page` the server's own log (``GET /log``), both the
operator's, newest first, as the rounds are.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import ColumnElement, case, exists, func, select
from sqlalchemy.engine import Connection

from croupier.errors import ScenarioError
from croupier.registry import find_game
from croupier.server import db
from croupier.server.runtime import Casino, Player

__all__ = [
    "MAX_PAGE",
    "log_page",
    "player_list",
    "round_balances",
    "round_envelope",
    "round_page",
]

MAX_PAGE = 500
"""Most rounds in one page."""

_STAKE_KINDS = ("stake",)
_RETURN_KINDS = ("payout", "refund")


def _bound(when: date | None, *, end: bool) -> datetime | None:
    """A filter's bound as an instant (UTC when it carries no offset).

    A date is a whole UTC day: ``since`` its first instant, ``until``
    the first instant of the next day. A time is that instant, in UTC
    (SQLite compares the stored UTC times as text, without offsets;
    :func:`croupier.server.inputs.day_or_time` gives it so).
    """
    if when is None:
        return None
    if isinstance(when, datetime):
        return db.aware(when).astimezone(UTC)
    if end and when == date.max:
        return None  # every day there is: no next day to stop before
    day = when + timedelta(days=1) if end else when
    return datetime.combine(day, time(0), tzinfo=UTC)


def round_page(
    casino: Casino,
    *,
    scope: ColumnElement[bool],
    viewer: Player | None,
    table_id: int | None = None,
    game: str | None = None,
    player: str | None = None,
    since: date | None = None,
    until: date | None = None,
    offset: int = 0,
    limit: int = 50,
) -> tuple[list[dict[str, Any]], int]:
    """One page of the rounds in ``scope``, newest first, and the total.

    Only rounds in which a stake moved are listed, for the operator too.

    ``player`` matches a player's name (case-insensitive, exact);
    ``since`` and ``until`` are dates (UTC days, both included) or
    times (a datetime: rounds started at or after ``since`` and before
    ``until``, so that a viewer's own day, or any hour of it, can be
    asked for). Money: ``total_bet`` is what left the balances for the
    round's wagers (less what was taken back before the deal),
    ``total_won`` what came back (stake plus winnings, refunds) and
    ``net`` the difference, for the viewer alone unless an operator.
    """
    own = viewer is not None and not viewer.is_operator
    t = db.TransactionRow
    money = select(
        t.round_id.label("rid"),
        func.sum(case((t.kind.in_(_STAKE_KINDS), -t.amount), else_=0)).label(
            "bet"
        ),
        func.sum(case((t.kind.in_(_RETURN_KINDS), t.amount), else_=0)).label(
            "won"
        ),
    ).where(t.round_id.is_not(None))
    if own and viewer is not None:
        money = money.where(t.player_id == viewer.id)
    sums = money.group_by(t.round_id).subquery()
    counts = (
        select(db.EventRow.round_id.label("rid"), func.count().label("n"))
        .group_by(db.EventRow.round_id)
        .subquery()
    )
    r = db.RoundRow
    conditions: list[ColumnElement[bool]] = [scope]
    if not own:
        # a round no stake moved in (a table's round waiting for wagers,
        # one voided before any) is nobody's: the operator's list leaves
        # it out as a player's scope does (GET /rounds/{id} still answers)
        conditions.append(exists(select(t.id).where(t.round_id == r.id)))
    if table_id is not None:
        conditions.append(r.table_id == table_id)
    if game:
        conditions.append(r.game == game)
    start, stop = _bound(since, end=False), _bound(until, end=True)
    if start is not None:
        conditions.append(r.started_at >= start)
    if stop is not None:
        conditions.append(r.started_at < stop)
    if player:
        named = (
            select(t.round_id)
            .join(db.PlayerRow, db.PlayerRow.id == t.player_id)
            .where(func.lower(db.PlayerRow.name) == player.lower())
        )
        conditions.append(r.id.in_(named))
    query = (
        select(
            r.id,
            r.table_id,
            db.GameTableRow.name,
            r.game,
            r.status,
            r.disclosed,
            r.started_at,
            r.ended_at,
            counts.c.n,
            sums.c.bet,
            sums.c.won,
        )
        .join(db.GameTableRow, db.GameTableRow.id == r.table_id)
        .outerjoin(counts, counts.c.rid == r.id)
        .outerjoin(sums, sums.c.rid == r.id)
        .where(*conditions)
        .order_by(r.id.desc())
        .offset(max(0, offset))
        .limit(max(1, min(limit, MAX_PAGE)))
    )
    total_q = select(func.count()).select_from(r).where(*conditions)
    with casino.engine.connect() as conn:
        rows = conn.execute(query).all()
        total = int(conn.execute(total_q).scalar() or 0)
        names = _players_of(conn, [row[0] for row in rows], viewer)
    out = []
    for row in rows:
        bet, won = int(row[9] or 0), int(row[10] or 0)
        out.append(
            {
                "id": row[0],
                "table_id": row[1],
                "table": row[2],
                "game": row[3],
                "title": _title(row[3]),
                "status": row[4],
                "disclosed": bool(row[5]),
                "started_at": db.iso(row[6]),
                "ended_at": db.iso(row[7]),
                "events": int(row[8] or 0),
                "players": names.get(row[0], []),
                "total_bet": bet,
                "total_won": won,
                "net": won - bet,
            }
        )
    return out, total


def _title(game: str) -> str:
    try:
        return find_game(game).title
    except ScenarioError:  # a game no longer installed
        return game


def _players_of(
    conn: Connection, round_ids: list[int], viewer: Player | None
) -> dict[int, list[str]]:
    """The names of the players with money in each round."""
    if not round_ids:
        return {}
    t = db.TransactionRow
    query = (
        select(t.round_id, db.PlayerRow.name)
        .join(db.PlayerRow, db.PlayerRow.id == t.player_id)
        .where(t.round_id.in_(round_ids))
        .distinct()
    )
    if viewer is not None and not viewer.is_operator:
        query = query.where(t.player_id == viewer.id)
    found: dict[int, list[str]] = defaultdict(list)
    for rid, name in conn.execute(query.order_by(db.PlayerRow.name)):
        found[int(rid or 0)].append(str(name))
    return dict(found)


def round_envelope(
    casino: Casino, round_id: int, viewer: Player | None
) -> dict[str, Any]:
    """What surrounds a round's events: times, rules, versions, money.

    ``balances`` are :func:`round_balances`' (the viewer's alone unless
    an operator asks). ``results`` lists
    each wager per hand with stake, outcome and net; a voided round's
    ``void`` says why, by whom (``operator`` or ``server``) and under
    which §, and its results end with each seat's stake returned
    (outcome ``void``), as the hand history's settlements do.
    """
    t = db.TransactionRow
    with casino.engine.connect() as conn:
        row = conn.execute(
            select(
                db.RoundRow.rules_json,
                db.RoundRow.started_at,
                db.RoundRow.ended_at,
                db.RoundRow.game,
                db.GameTableRow.name,
                db.RoundRow.software,
            )
            .join(db.GameTableRow, db.GameTableRow.id == db.RoundRow.table_id)
            .where(db.RoundRow.id == round_id)
        ).one()
        refunds = conn.execute(
            select(t.seat, t.amount)
            .where(t.round_id == round_id, t.kind == "refund")
            .order_by(t.id)
        ).all()
        own = viewer is not None and not viewer.is_operator
        balances = round_balances(
            conn, round_id, only=viewer.id if own and viewer else None
        )
    settled, voided = _settled(casino, round_id)
    results = [
        {
            "seat": e["seat"],
            "wager": e["wager"],
            "hand": e.get("hand", 0),
            "stake": e["amount"],
            "outcome": e["outcome"],
            "net": e["net"],
            "commission": e.get("commission", 0),
            "ref": e.get("ref"),
        }
        for e in settled
    ]
    dealt = db.dealt_by(row[5])
    envelope: dict[str, Any] = {
        "table": row[4],
        "title": _title(row[3]),
        "started_at": db.iso(row[1]),
        "ended_at": db.iso(row[2]),
        "rules": json.loads(row[0]),
        # the version that dealt the round, not the one answering (D132)
        "software": {"name": "croupier", "version": dealt},
        "game_version": f"{row[3]} (croupier {dealt})"
        if row[5] is not None
        else f"{row[3]} (croupier, version not recorded)",
        "balances": balances,
        "results": results,
    }
    if voided is not None:
        # D25: who voided the round and why; every stake still on the
        # layout went back, one result per seat's refund, as the hand
        # history's void settlements (croupier.hhf.export) give them
        ref = voided.get("ref") or "D25"
        envelope["void"] = {
            "reason": voided.get("reason", ""),
            "by": voided.get("by", "server"),
            "ref": ref,
        }
        results.extend(
            {
                "seat": int(seat or 0),
                "wager": "stake",
                "hand": 0,
                "stake": int(amount),
                "outcome": "void",
                "net": 0,
                "commission": 0,
                "ref": ref,
            }
            for seat, amount in refunds
            if int(amount) > 0
        )
    return envelope


def round_balances(
    conn: Connection, round_id: int, *, only: int | None = None
) -> list[dict[str, Any]]:
    """Each player's balance before and after round ``round_id``.

    One entry per player with money in the round (player ``only``
    alone when given), by id: ``before`` the balance before the round's
    first movement of the player's, ``after`` it after the last, and
    ``net`` the round's own movements, derived from the ``transactions``
    rows (every balance change is one). When others of the account's
    movements fell in between (another table's round, a deposit),
    ``moved_elsewhere`` says how much (D74).
    """
    t = db.TransactionRow
    moves = conn.execute(
        select(t.id, t.player_id, t.amount, db.PlayerRow.name)
        .join(db.PlayerRow, db.PlayerRow.id == t.player_id)
        .where(t.round_id == round_id)
        .order_by(t.id)
    ).all()
    balances = []
    # each player's name, net, first and last movement, and their count
    players: dict[int, tuple[str, int, int, int, int]] = {}
    for move_id, pid, amount, name in moves:
        if only is not None and pid != only:
            continue
        name0, delta, first, _, own_moves = players.get(
            int(pid), (str(name), 0, int(move_id), 0, 0)
        )
        players[int(pid)] = (
            name0,
            delta + int(amount),
            first,
            int(move_id),
            own_moves + 1,
        )
    for pid, (name, delta, first, last, own_moves) in sorted(players.items()):
        now = conn.execute(
            select(db.PlayerRow.balance).where(db.PlayerRow.id == pid)
        ).scalar()
        later, inside, count = conn.execute(
            select(
                func.coalesce(
                    func.sum(case((t.id > last, t.amount), else_=0)), 0
                ),
                func.coalesce(
                    func.sum(
                        case((t.id.between(first, last), t.amount), else_=0)
                    ),
                    0,
                ),
                func.count(case((t.id.between(first, last), 1))),
            ).where(t.player_id == pid)
        ).one()
        after = int(now or 0) - int(later or 0)
        entry: dict[str, Any] = {
            "player_id": pid,
            "name": name,
            "before": after - int(inside or 0),
            "after": after,
            "net": delta,
        }
        if int(count) != own_moves:
            # the account moved elsewhere too while the round ran
            # (another table, a deposit): the balances stay the
            # account's, and the difference is said (D74)
            entry["moved_elsewhere"] = int(inside or 0) - delta
        balances.append(entry)
    return balances


def _settled(
    casino: Casino, round_id: int
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The round's settlements and its void (no cards in either).

    Its ``wager_settled`` events in order, and its ``round_voided`` one
    if it was voided, else ``None``.
    """
    with casino.engine.connect() as conn:
        rows = conn.execute(
            select(db.EventRow.type, db.EventRow.data_json)
            .where(db.EventRow.round_id == round_id)
            .where(db.EventRow.type.in_(("wager_settled", "round_voided")))
            .order_by(db.EventRow.id)
        ).all()
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for kind, text in rows:
        found[str(kind)].append(json.loads(text))
    voided = found["round_voided"]
    return found["wager_settled"], voided[0] if voided else None


def player_list(
    casino: Casino,
    *,
    name: str | None = None,
    operators: bool = True,
    offset: int = 0,
    limit: int = 100,
) -> tuple[list[dict[str, Any]], int]:
    """One page of the accounts, newest first, and their total.

    Each with its balance and seats. ``name`` keeps the accounts whose
    name holds it (any case); ``operators`` false leaves the operators'
    accounts out (the desk's list of players). A casino of many
    thousand accounts is paged, as the recall list is.
    """
    p = db.PlayerRow
    conditions: list[ColumnElement[bool]] = []
    if name:
        conditions.append(
            func.lower(p.name).contains(name.lower(), autoescape=True)
        )
    if not operators:
        conditions.append(p.is_operator.is_(False))
    with casino.engine.connect() as conn:
        rows = conn.execute(
            select(p.id, p.name, p.balance, p.is_operator)
            .where(*conditions)
            .order_by(p.id.desc())
            .offset(max(0, offset))
            .limit(max(1, min(limit, MAX_PAGE)))
        ).all()
        total = int(
            conn.execute(
                select(func.count()).select_from(p).where(*conditions)
            ).scalar()
            or 0
        )
    seats: dict[int, list[dict[str, int]]] = defaultdict(list)
    for rt in casino.all_tables():
        for seat, pid in rt.seats.items():
            seats[pid].append({"table_id": rt.id, "seat": seat})
    page = [
        {
            "id": pid,
            "name": who,
            "balance": int(balance),
            "operator": bool(op),
            "seats": seats.get(pid, []),
        }
        for pid, who, balance, op in rows
    ]
    return page, total


def log_page(
    casino: Casino,
    *,
    level: str | None = None,
    round_id: int | None = None,
    since: date | None = None,
    until: date | None = None,
    offset: int = 0,
    limit: int = 100,
) -> tuple[list[dict[str, Any]], int]:
    """One page of the server's log, newest first, and its total.

    ``level`` keeps the rows of that level, ``round_id`` those about
    that round; ``since`` and ``until`` bound the rows' times as they
    bound the rounds' in :func:`round_page` (UTC days, both included, or
    instants). The page and the total are counted by the database: a
    log of months is never read whole (D140).
    """
    s = db.ServerLogRow
    conditions: list[ColumnElement[bool]] = []
    if level is not None:
        conditions.append(s.level == level)
    if round_id is not None:
        conditions.append(s.round_id == round_id)
    start, stop = _bound(since, end=False), _bound(until, end=True)
    if start is not None:
        conditions.append(s.at >= start)
    if stop is not None:
        conditions.append(s.at < stop)
    with casino.engine.connect() as conn:
        rows = conn.execute(
            select(s.id, s.at, s.level, s.round_id, s.message)
            .where(*conditions)
            .order_by(s.id.desc())
            .offset(max(0, offset))
            .limit(max(1, min(limit, MAX_PAGE)))
        ).all()
        total = int(
            conn.execute(
                select(func.count()).select_from(s).where(*conditions)
            ).scalar()
            or 0
        )
    page = [
        {
            "id": rid,
            "at": db.iso(at),
            "level": lvl,
            "round_id": about,
            "message": message,
        }
        for rid, at, lvl, about, message in rows
    ]
    return page, total
