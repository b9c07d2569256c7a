"""Export a table server's stored rounds as CHH (read-only on storage).

Every finished round (``over``) and every round the server voided
(``voided``, D25) becomes one :class:`~croupier.hhf.HandHistory`: the
stored record gives the stack, the procedure and the settlements; the
table's shuffle and cut before the round (events of scope ``shoe``)
become ``shoe.preparation``; the seats' owners give the player ids; and
the append-only ``transactions`` give each player's balance before the
round's first movement and after its last (810a.11). A server's table
deals from the game's whole shoe (:attr:`croupier.registry.GameSpec.
new_shoe`, kept whole from round to round), so every round says so
(``shoe.whole``, D75).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.history import RoundRecord
from croupier.registry import find_game
from croupier.server import db

from .format import (
    Balances,
    HandHistory,
    ShoeState,
    from_record,
    players_of,
    settled_rows,
)

__all__ = ["BATCH_ROUNDS", "export_rounds", "sealed"]


def _aware(moment: datetime | None) -> datetime | None:
    return None if moment is None else db.aware(moment)


BATCH_ROUNDS = 256
"""Rounds read from the database at a time (:func:`export_rounds`)."""


def export_rounds(
    url: str,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    batch: int = BATCH_ROUNDS,
    stacks_in_play: bool = False,
) -> Iterator[HandHistory]:
    """Every over or voided round of the database at ``url``, by id.

    ``since`` keeps the rounds that started at or after it, ``until``
    those that started before it (UTC when they carry no offset). A
    round whose shoe is still in play (not yet disclosed: the table
    deals on from it) is written as dealt, its stack withheld
    (:func:`sealed`, D188), unless ``stacks_in_play``. The
    rounds are read ``batch`` at a time, with
    their events and transactions alone, so a database of any size is
    exported in bounded memory; the balances come from one pass over
    the transactions in order (:class:`_Balances`).
    """
    if batch < 1:
        msg = f"batch is 1 or more rounds, not {batch}"
        raise ValueError(msg)
    engine = db.make_engine(url)
    since, until = _aware(since), _aware(until)
    with Session(engine) as conn:
        balances = _Balances(conn)
        after = 0
        while True:
            heads = conn.execute(
                select(db.RoundRow.id, db.RoundRow.started_at)
                .where(
                    db.RoundRow.status.in_(("over", "voided")),
                    db.RoundRow.id > after,
                )
                .order_by(db.RoundRow.id)
                .limit(batch)
            ).all()
            if not heads:
                return
            after = int(heads[-1][0])
            ids = [
                int(rid)
                for rid, started_at in heads
                if _within(_aware(started_at), since, until)
            ]
            if ids:
                yield from _export_batch(
                    conn, ids, balances, stacks_in_play=stacks_in_play
                )
            balances.done_through(after)


def _within(
    started: datetime | None, since: datetime | None, until: datetime | None
) -> bool:
    """Whether a round started in ``[since, until)`` (either open)."""
    if since is None and until is None:
        return True
    if started is None:
        return False
    return (since is None or started >= since) and (
        until is None or started < until
    )


def sealed(history: HandHistory) -> HandHistory:
    """``history`` as dealt: its stack withheld (D188).

    A round's stack is the shoe it was dealt from, top card first: its
    cards below the last one drawn are the cards still to come at the
    table while that shoe is in play. The server's recall seals it from
    everybody until the shoe is out of play (``disclosed``); an export
    made meanwhile, a file that leaves the server (for a testing lab, a
    regulator, an archive), seals it likewise. The cards as they appear
    in the procedure are all there, burns and cover card included, so
    ``croupier verify`` rebuilds the shoe from them (``as_dealt``).

    >>> from croupier.hhf.sample import sample_histories
    >>> history = next(iter(sample_histories("double-back-jack", 1, seed=1)))
    >>> history.shoe.known, history.shoe.stack is None
    ('stacked', False)
    >>> shut = sealed(history)
    >>> shut.shoe.known, shut.shoe.stack, shut.procedure == history.procedure
    ('as_dealt', None, True)
    """
    return replace(
        history, shoe=replace(history.shoe, known="as_dealt", stack=None)
    )


def _export_batch(
    conn: Session,
    ids: list[int],
    balances: _Balances,
    *,
    stacks_in_play: bool,
) -> Iterator[HandHistory]:
    """The rounds ``ids`` (ascending), with their events and money.

    A round whose shoe is still in play is :func:`sealed` unless
    ``stacks_in_play``.
    """
    rows = conn.scalars(
        select(db.RoundRow)
        .where(db.RoundRow.id.in_(ids))
        .order_by(db.RoundRow.id)
    ).all()
    events: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for round_id, scope, text in conn.execute(
        select(db.EventRow.round_id, db.EventRow.scope, db.EventRow.data_json)
        .where(db.EventRow.round_id.in_(ids))
        .order_by(db.EventRow.id)
    ):
        events[(int(round_id), str(scope))].append(json.loads(text))
    moves = conn.execute(
        select(
            db.TransactionRow.id,
            db.TransactionRow.round_id,
            db.TransactionRow.seat,
            db.TransactionRow.kind,
            db.TransactionRow.amount,
            db.TransactionRow.wager,
        )
        .where(db.TransactionRow.round_id.in_(ids))
        .order_by(db.TransactionRow.id)
    ).all()
    through = max((int(m[0]) for m in moves), default=0)
    held = balances.through(through, set(ids))
    stakes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for _, moved_in, seat, kind, amount, wager in moves:
        if seat is not None and moved_in is not None:
            stakes[int(moved_in)].append(
                {
                    "seat": int(seat),
                    "kind": kind,
                    "amount": int(amount),
                    "wager": wager,
                }
            )
    for row in rows:
        owners = {
            int(seat): str(pid)
            for seat, pid in json.loads(row.owners_json or "{}").items()
        }
        by_player = held.get(row.id, {})
        seat_balances = {
            seat: by_player.get(int(pid), Balances(None, None))
            for seat, pid in owners.items()
        }
        preparation = events.get((row.id, "shoe"), [])
        if row.status == "over" and row.record_json:
            history = from_record(
                RoundRecord.loads(row.record_json),
                round_id=str(row.id),
                table=row.table_id,
                started_at=_aware(row.started_at),
                ended_at=_aware(row.ended_at),
                owners=owners,
                balances=seat_balances,
                preparation=preparation,
                table_steps=events.get((row.id, "server"), []),
                whole=True,
                seated=_seated(row),
                software=db.dealt_by(row.software),
            )
        else:
            history = _voided(row, events, owners, seat_balances, stakes)
        yield history if row.disclosed or stacks_in_play else sealed(history)


def _seated(row: db.RoundRow) -> tuple[int, ...] | None:
    """The seats stored as seated at the round's cut (D78), if any."""
    if row.seated_at_cut is None:
        return None
    return tuple(sorted(int(seat) for seat in json.loads(row.seated_at_cut)))


class _Balances:
    """Each player's balance before and after each round, in one pass.

    The transactions are read once, in id order, as the batches need
    them: a player's balance before a round is the sum of their
    movements before its first one, after it the sum through its last.
    A player may play at several tables at once: when others of the
    account's movements (another table's round, a deposit) fall between
    a round's first and last, the round's balances still are the
    account's, and the net of those others is given beside them
    (``moved_elsewhere``, D74), so that the balances differ by the
    round's money and that net. Rounds run side by side on several
    tables, so a movement read for one batch may belong to a round of a
    later batch: what is read is kept for every round not yet exported,
    and dropped once its batch is done (:meth:`done_through`).
    """

    def __init__(self, conn: Session) -> None:
        self._rows = iter(
            conn.execute(
                select(
                    db.TransactionRow.id,
                    db.TransactionRow.player_id,
                    db.TransactionRow.round_id,
                    db.TransactionRow.amount,
                )
                .order_by(db.TransactionRow.id)
                .execution_options(yield_per=4096)
            )
        )
        self._running: dict[int, int] = defaultdict(int)
        self._read = 0
        """The id of the last movement read."""
        self._floor = 0
        """Rounds at or below this id are done: nothing is kept for them."""
        self._moves: dict[int, int] = defaultdict(int)
        """Each player's movements read so far."""
        self._kept: dict[int, dict[int, _Kept]] = defaultdict(dict)
        """Per round and player, what :class:`_Kept` holds."""

    def through(
        self, last: int, rounds: set[int]
    ) -> dict[int, dict[int, Balances]]:
        """Read on to movement ``last``; each of ``rounds``' balances."""
        while self._read < last:
            row = next(self._rows, None)
            if row is None:
                break
            txn, player_id, round_id, amount = row
            self._read = int(txn)
            pid = int(player_id)
            before = self._running[pid]
            self._running[pid] = before + int(amount)
            self._moves[pid] += 1
            if round_id is None or int(round_id) <= self._floor:
                continue
            seen = self._kept[int(round_id)].get(pid)
            if seen is None:
                seen = _Kept(before, self._moves[pid] - 1)
                self._kept[int(round_id)][pid] = seen
            seen.after = self._running[pid]
            seen.latest = self._moves[pid]
            seen.own += 1
            seen.own_net += int(amount)
        return {
            r: {pid: held.balances() for pid, held in kept.items()}
            for r in rounds
            if (kept := self._kept.get(r)) is not None
        }

    def done_through(self, round_id: int) -> None:
        """Every round up to ``round_id`` is exported or never will be."""
        self._floor = max(self._floor, round_id)
        for done in [r for r in self._kept if r <= round_id]:
            del self._kept[done]


@dataclass(slots=True)
class _Kept:
    """One player's movements in one round, as far as read."""

    before: int
    """The balance before the round's first movement."""
    since: int
    """The player's movements read before that one."""
    after: int = 0
    """The balance after the round's latest movement."""
    latest: int = 0
    """The player's movements read through that one."""
    own: int = 0
    """The round's own movements."""
    own_net: int = 0
    """Their sum."""

    def balances(self) -> Balances:
        """The balances, with the net moved elsewhere in between (D74)."""
        if self.latest - self.since == self.own:
            return Balances(self.before, self.after)
        return Balances(
            self.before, self.after, self.after - self.before - self.own_net
        )


def _voided(
    row: db.RoundRow,
    events: dict[tuple[int, str], list[dict[str, Any]]],
    owners: dict[int, str],
    balances: dict[int, Balances],
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
    # what the procedure settled before the void (a Blackjack paid at
    # once), as it settled it; then every stake still on the layout went
    # back (D25): one void settlement per refund the server made
    settlements = [
        *settled_rows(steps),
        *(
            {
                "seat": m["seat"],
                "wager": str(m["wager"] or "stake"),
                "amount": m["amount"],
                "outcome": "void",
                "net": 0,
                "ref": void_ref,
            }
            for m in stakes.get(row.id, [])
            if m["kind"] == "refund" and m["amount"] > 0
        ),
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
        started_at=db.iso(row.started_at),
        ended_at=db.iso(row.ended_at),
        status="voided",
        void_reason=reason,
        shoe=ShoeState(
            known="stacked",
            new_shoe=row.new_shoe,
            stack=row.shoe,
            discard=row.discard,
            starting_position=row.starting_position,
            preparation=tuple(events.get((row.id, "shoe"), [])),
            whole=True,
            seated_at_cut=_seated(row),
        ),
        procedure=tuple(steps),
        settlements=tuple(settlements),
        players=players,
        software=("croupier", db.dealt_by(row.software)),
    )
