"""Table pacing: clocks, ready, sit-out, idle seats, void, end of a shoe.

One idle player must not hold a table (issue 12, point 2). Each table
has :class:`~croupier.server.tables.TableSettings` (stored with it) and
runs at most one clock, shown to every client as
``{"kind", "deadline_ms", "seconds", "seat", "default", "ref"}``:

- **The betting clock** starts with the round's first wager (D27).
  Betting closes when every seat with a wager is ready
  (``POST /tables/{id}/ready``, or ``/deal`` for one's own seat), or
  when the clock runs out: the cards are dealt to the seats that
  wagered. A seat without a wager cannot close betting (it is refused,
  :class:`~croupier.server.errors.NoWagerError`) and is left out of the
  round, which says so (``seats_left_out``). A player who sits down
  after the deal plays from the next round.
- **The decision clock** runs for each decision the round waits for
  (D26). When it runs out the table applies the decision's default:
  stand; decline insurance, Second Chance and Double Down; the house
  way for pai gow (:func:`default_action`). The round's log gets a
  ``clock_expired`` event naming the seat, the action, the clock and
  the subsection of the decision.
- **Gone players' seats are freed** between rounds (D28): no WebSocket
  connection and no request for ``idle_seat_minutes``, or no wager for
  ``idle_rounds`` rounds in a row (a seat that sits out is not counted
  idle by rounds). A seat with stakes in the round keeps them until the
  round settles.
- **The operator voids** the round in play (``POST /tables/{id}/void``):
  every stake goes back (D25), the reason is stored in the round's record
  and its ``round_voided`` event (D29).
- **The operator ends the shoe** (``POST /tables/{id}/shoe/end``) while
  no stake is on the layout: the table deals on from a new shoe, the old
  shoe's rounds are disclosed, and the first round of the new shoe
  records a ``shoe_ended`` step with the reason (D194).

Deadlines are wall-clock epoch milliseconds stored in
``game_tables.pacing_json`` with every change, so another process (or
this one after a restart) honours them. Nothing waits for a client:
:func:`run_clocks`, a task of the server's event loop, applies due
defaults as jobs on the serial thread (:mod:`croupier.server.serial`),
through the same path as requests; with several processes on
PostgreSQL a default is applied in a :meth:`~croupier.server.play.
Dealer.turn`, that is, by the process holding the table's lock, which
first reads the table (and the deadline) back from storage.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from croupier.errors import WrongPhaseError
from croupier.round import Action, GameRound
from croupier.server import db
from croupier.server.decisions import (
    CLOSE_BETTING,
    DEFAULT_DECISION,
    IDLE_SEAT,
    SEATS,
    SHOE_END,
    VOID,
    VOID_NAMED,
)
from croupier.server.errors import (
    NotFoundError,
    NotOperatorError,
    NoWagerError,
    SeatError,
    StorageUnavailableError,
)
from croupier.server.play import Dealer, Responder, Storage
from croupier.server.recovery import void_round, write_log
from croupier.server.serial import Serial
from croupier.server.store import idempotent_row
from croupier.server.tables import Idem, LiveRound, Player, TableRuntime
from croupier.server.withdrawn import withdrawn_round

__all__ = [
    "DEFAULTS",
    "Pacer",
    "default_action",
    "run_clocks",
]

log = logging.getLogger("croupier.server")

DEFAULTS = (
    "stand",
    "no_insurance",
    "no_second_chance",
    "no_double_down",
    "house_way",
)
"""The default of a decision, first legal one of these (D26)."""

# the decisions the pacing's steps cite, as the steps' JSON writes them
DECISION_REF = str(DEFAULT_DECISION)
BETTING_REF = str(CLOSE_BETTING)
IDLE_REF = str(IDLE_SEAT)
SHOE_REF = str(SHOE_END)


def default_action(legal: Iterable[str]) -> str | None:
    """The action a run-out clock applies, given the legal ones (D26).

    Never one that stakes more: stand; decline insurance, Second Chance
    and Double Down; the house way (670a.11) for a pai gow hand.

    >>> default_action(("surrender", "double", "stand", "hit"))
    'stand'
    >>> default_action(("insurance", "no_insurance"))
    'no_insurance'
    >>> default_action(("set", "house_way")) is None
    False
    """
    names = tuple(legal)
    return next((name for name in DEFAULTS if name in names), None)


def wall_ms() -> int:
    """The wall clock in epoch milliseconds."""
    return int(time.time() * 1000)


def _seconds(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


class Pacer(Dealer):
    """A dealer that paces its tables: clocks, ready, seats, void."""

    def __init__(self, storage: Storage, *, serial: Serial) -> None:
        super().__init__(storage)
        self.time_ms: Callable[[], int] = wall_ms
        """The wall clock in epoch milliseconds (tests inject their own)."""
        self.clock_scale = 1.0
        """How much of its seconds a betting or decision clock runs: a
        test sets 0.1 to see a 5-second clock run out in half a second.
        The table's settings and the clock's ``seconds`` stay as set;
        only the deadline comes sooner. No option, setting or variable
        reaches it: the operator's clocks are 5 seconds at the least
        (D170)."""
        self.connections: Counter[tuple[int, int]] = Counter()
        """Open WebSocket connections by (table, player), this process."""
        self.serial = serial
        """The thread every change runs on (:mod:`.serial`)."""

    def now_ms(self) -> int:
        """The wall clock, epoch milliseconds."""
        return int(self.time_ms())

    def _run_ms(self, seconds: float) -> int:
        """How long a clock of ``seconds`` runs, in milliseconds."""
        return int(seconds * 1000 * self.clock_scale)

    # -- signs of life ----------------------------------------------------

    def cached(self, table_id: int) -> TableRuntime:
        """The table as this process holds it (no storage read)."""
        try:
            return self.storage.tables[table_id]
        except KeyError:
            raise NotFoundError(f"no table {table_id}") from None

    def seen(self, rt: TableRuntime, player_id: int) -> None:
        """A request of ``player_id`` at ``rt``: the seat is not gone."""
        seat = rt.seat_of(player_id)
        if seat is not None:
            rt.seen[seat] = self.now_ms()

    def connected(
        self, table_id: int, player: Player | None, delta: int
    ) -> None:
        """A WebSocket of ``player`` opened (+1) or closed (-1)."""
        if player is None:
            return
        key = (table_id, player.id)
        self.connections[key] += delta
        if self.connections[key] <= 0:
            del self.connections[key]
        rt = self.storage.tables.get(table_id)
        if rt is not None:
            self.seen(rt, player.id)

    def _gone(self, rt: TableRuntime, seat: int, now: int) -> bool:
        player_id = rt.seats.get(seat)
        if player_id is None or self.connections.get((rt.id, player_id)):
            return False
        last = rt.seen.get(seat)
        if last is None:
            rt.seen[seat] = last = now
        return now - last > rt.settings.idle_seat_minutes * 60_000

    def _in_round(self, rt: TableRuntime, seat: int) -> bool:
        live = rt.live
        if live is None or live.finished:
            return False
        return any(k.seat == seat for k in live.round.ledger.stakes)

    def idle_seats(self, rt: TableRuntime, now: int) -> list[int]:
        """Seats to free now: gone, and with nothing in the round."""
        for seat in rt.seats:
            player_id = rt.seats[seat]
            if self.connections.get((rt.id, player_id)):
                rt.seen[seat] = now
        return [
            seat
            for seat in sorted(rt.seats)
            if self._gone(rt, seat, now) and not self._in_round(rt, seat)
        ]

    # -- the clock --------------------------------------------------------

    def _refresh_clock(self, rt: TableRuntime) -> None:
        """Start, keep or stop the table's clock after a change."""
        live = rt.live
        if live is None or live.finished or live.voided:
            rt.clock = rt.clock_key = None
            return
        rnd = live.round
        if not live.dealt:
            if not rnd.ledger.stakes:
                rt.clock = rt.clock_key = None
                return
            key: list[Any] = [live.db_id, "betting"]
            if rt.clock_key == key:
                return
            seconds = rt.settings.betting_seconds
            rt.clock_key = key
            rt.clock = {
                "kind": "betting",
                "deadline_ms": self.now_ms() + self._run_ms(seconds),
                "seconds": _seconds(seconds),
                "seat": None,
                "default": "deal",
                "ref": BETTING_REF,
            }
            return
        pending = rnd.pending()
        if pending is None:
            rt.clock = rt.clock_key = None
            return
        key = [live.db_id, "decision", live.inputs, pending.seat]
        if rt.clock_key == key:
            return
        seconds = rt.settings.decision_seconds
        rt.clock_key = key
        rt.clock = {
            "kind": "decision",
            "deadline_ms": self.now_ms() + self._run_ms(seconds),
            "seconds": _seconds(seconds),
            "seat": pending.seat,
            "default": default_action(pending.legal),
            "ref": str(pending.ref),
        }

    def pacing_state(self, rt: TableRuntime) -> str:
        """The pacing state of ``rt`` as stored (JSON)."""
        interval = min(60_000, rt.settings.idle_seat_minutes * 15_000)
        for seat, at in rt.seen.items():
            if at - rt.stored_seen.get(seat, 0) >= interval:
                rt.stored_seen[seat] = at
        for seat in [s for s in rt.stored_seen if s not in rt.seats]:
            del rt.stored_seen[seat]
        return json.dumps(
            {
                "clock": rt.clock,
                "key": rt.clock_key,
                "ready": sorted(rt.ready),
                "sitting_out": sorted(rt.sitting_out),
                "idle": {str(k): v for k, v in sorted(rt.idle.items())},
                "seen": {str(k): v for k, v in sorted(rt.stored_seen.items())},
            }
        )

    def _paced(self, conn: Connection, rt: TableRuntime) -> None:
        """Inside a step's transaction: clocks and pacing state stored."""
        self._refresh_clock(rt)
        for live, event in rt.queued_events:
            self._store_server_event(conn, live, event)
        rt.queued_events.clear()
        state = self.pacing_state(rt)
        if state != rt.stored_pacing:
            self.sql.pacing.run(conn, {"tid": rt.id, "pacing": state})
            rt.stored_pacing = state

    def _store_server_event(
        self, conn: Connection, live: LiveRound, event: dict[str, Any]
    ) -> None:
        """Store a server event of ``live`` (a clock, a seat, a void)."""
        if live.server_seq == 0:
            found = conn.execute(
                select(func.max(db.EventRow.seq))
                .where(db.EventRow.round_id == live.db_id)
                .where(db.EventRow.scope == "server")
            ).scalar()
            live.server_seq = int(found or 0)
        live.server_seq += 1
        data = {"seq": live.server_seq, "scope": "server", **event}
        conn.execute(
            insert(db.EventRow).values(
                round_id=live.db_id,
                scope="server",
                seq=live.server_seq,
                type=str(event["type"]),
                ref=event.get("ref"),
                data_json=json.dumps(data),
            )
        )
        live.event_dicts.append(data)

    def _commit_pacing(
        self,
        rt: TableRuntime,
        *,
        idem: Idem,
        request: str,
        respond: Responder | None,
        change: Callable[[Connection], None] | None = None,
    ) -> dict[str, Any]:
        """Store a change of pacing state alone (no round input)."""
        with self.stored(rt) as conn:
            if change is not None:
                change(conn)
            rt.version += 1
            self._paced(conn, rt)
            body = respond(rt) if respond is not None else {}
            if idem is not None:
                self.sql.idempotent.run(
                    conn, idempotent_row(idem, request, body)
                )
        if not self.storage.shared:
            self.storage.on_change(rt.id)
        return body

    # -- betting ----------------------------------------------------------

    def _touched(self, rt: TableRuntime, seat: int) -> None:
        rt.seen[seat] = self.now_ms()

    def _may_wager(self, rt: TableRuntime, seat: int) -> None:
        if seat in rt.sitting_out:
            msg = (
                f"seat {seat} sits out; come back in "
                "(POST /tables/{id}/sit-out) to wager"
            )
            raise SeatError(msg, ref=SEATS)
        rt.seen[seat] = self.now_ms()

    def _close_betting(
        self,
        rt: TableRuntime,
        live: LiveRound,
        player: Player,
        idem: Idem,
        request: str,
        respond: Responder | None,
    ) -> dict[str, Any]:
        """A deal request: the operator deals; a seat says it is ready.

        Betting closes when every seat with a wager is ready (D27);
        until then the request only stores the seat's readiness.
        """
        seat = rt.seat_of(player.id)
        if seat is None:  # the operator calls the deal
            _verify_deal(live)  # refused: betting stays open
            self._left_out(rt, live)
        elif not self._mark_ready(rt, live, seat):
            return self._commit_pacing(
                rt, idem=idem, request=request, respond=respond
            )
        return self._deal_now(rt, live, idem, request, respond)

    def _mark_ready(
        self, rt: TableRuntime, live: LiveRound, seat: int
    ) -> bool:
        wagered = {k.seat for k in live.round.ledger.stakes}
        if seat not in wagered:
            msg = (
                f"seat {seat} has no wager this round: only a seat with a "
                "wager may close betting"
            )
            raise NoWagerError(msg, ref=CLOSE_BETTING)
        closes = wagered <= rt.ready | {seat}
        if closes:
            # a deal the engine refuses is refused before betting closes:
            # no seat marked ready, no seats_left_out step queued for a
            # deal that did not happen (the next try queued a second)
            _verify_deal(live)
        rt.ready.add(seat)
        rt.seen[seat] = self.now_ms()
        if closes:
            self._left_out(rt, live)
        return closes

    def _left_out(self, rt: TableRuntime, live: LiveRound) -> None:
        wagered = {k.seat for k in live.round.ledger.stakes}
        out = sorted(
            s for s in rt.seats if s not in wagered and s not in rt.sitting_out
        )
        if out:
            rt.queued_events.append(
                (
                    live,
                    {
                        "type": "seats_left_out",
                        "ref": BETTING_REF,
                        "seats": out,
                        "reason": "no wager when betting closed",
                    },
                )
            )

    def ready(
        self,
        player: Player,
        table_id: int,
        seat: int,
        *,
        idem: Idem = None,
        request: str = "",
        respond: Responder | None = None,
    ) -> dict[str, Any]:
        """``seat`` is done betting; deal once every wagered seat is."""
        with self.turn(table_id, player) as rt:
            self._answered_meanwhile(idem, request)
            self._require_owner(rt, player, seat)
            live = self._live(rt)
            if live.dealt:
                msg = "the cards are already dealt"
                raise WrongPhaseError(msg, ref=CLOSE_BETTING)
            if not self._mark_ready(rt, live, seat):
                return self._commit_pacing(
                    rt, idem=idem, request=request, respond=respond
                )
            return self._deal_now(rt, live, idem, request, respond)

    def sit_out(
        self,
        player: Player,
        table_id: int,
        seat: int,
        sitting_out: bool,
        *,
        idem: Idem = None,
        request: str = "",
        respond: Responder | None = None,
    ) -> dict[str, Any]:
        """Sit out from the next round on, or come back in."""
        with self.turn(table_id, player) as rt:
            self._answered_meanwhile(idem, request)
            self._require_owner(rt, player, seat)
            if sitting_out and self._in_round(rt, seat):
                msg = f"seat {seat} has wagers in this round; finish it"
                raise SeatError(msg, ref=SEATS)
            if sitting_out:
                rt.sitting_out.add(seat)
                rt.ready.discard(seat)
            else:
                rt.sitting_out.discard(seat)
                rt.idle[seat] = 0
            rt.seen[seat] = self.now_ms()
            return self._commit_pacing(
                rt, idem=idem, request=request, respond=respond
            )

    # -- clocks running out -----------------------------------------------

    def expire(self, table_id: int) -> bool:
        """Apply the default of the table's clock if it has run out.

        Run as a job by :func:`run_clocks`; with several processes in a
        turn, so the table (and its deadline) is the stored one. Returns
        whether a default was applied.
        """
        with self.turn(table_id) as rt:
            clock = rt.clock
            live = rt.live
            now = self.now_ms()
            if (
                clock is None
                or live is None
                or live.finished
                or clock["deadline_ms"] > now
            ):
                return False
            if not rt.clock_key or rt.clock_key[0] != live.db_id:
                # a clock of a round that is no longer in play (voided
                # at a restart): it stops
                rt.clock = rt.clock_key = None
                self._commit_pacing(rt, idem=None, request="", respond=None)
                return False
            late = now - int(clock["deadline_ms"])
            if clock["kind"] == "betting":
                if live.dealt or not live.round.ledger.stakes:
                    self._commit_pacing(
                        rt, idem=None, request="", respond=None
                    )
                    return False
                _verify_deal(live)  # refused: nothing queued
                self._left_out(rt, live)
                rt.queued_events.append(
                    (live, self._expired(clock, None, "deal", late))
                )
                self._deal_now(rt, live, None, "", None)
                return True
            pending = live.round.pending()
            action = None if pending is None else default_action(pending.legal)
            if (
                pending is None
                or action is None
                or pending.seat != clock["seat"]
            ):
                rt.clock = rt.clock_key = None
                self._commit_pacing(rt, idem=None, request="", respond=None)
                return False
            rt.queued_events.append(
                (live, self._expired(clock, pending.seat, action, late))
            )
            live.recorder.apply(Action(seat=pending.seat, name=action))
            self._commit(
                rt,
                ("decision", {"seat": pending.seat, "action": action}),
                idem=None,
                request="",
                respond=None,
            )
            return True

    @staticmethod
    def _expired(
        clock: dict[str, Any], seat: int | None, action: str, late: int
    ) -> dict[str, Any]:
        return {
            "type": "clock_expired",
            "clock": clock["kind"],
            "seat": seat,
            "action": action,
            "seconds": clock["seconds"],
            "ref": clock["ref"],
            "decision": DECISION_REF
            if clock["kind"] == "decision"
            else BETTING_REF,
            "late_ms": late,
        }

    # -- seats --------------------------------------------------------------

    def _free(
        self, conn: Connection, rt: TableRuntime, seats: dict[int, str]
    ) -> None:
        """Free ``seats`` (seat to the reason) at ``rt``."""
        if not seats:
            return
        conn.execute(
            delete(db.SeatRow).where(
                (db.SeatRow.table_id == rt.id)
                & (db.SeatRow.seat.in_(sorted(seats)))
            )
        )
        for seat, reason in sorted(seats.items()):
            player_id = rt.seats.pop(seat)
            for state in (rt.idle, rt.seen, rt.stored_seen):
                state.pop(seat, None)
            rt.sitting_out.discard(seat)
            rt.ready.discard(seat)
            if rt.live is not None:
                rt.queued_events.append(
                    (
                        rt.live,
                        {
                            "type": "seat_freed",
                            "ref": IDLE_REF,
                            "seat": seat,
                            "player_id": player_id,
                            "reason": reason,
                        },
                    )
                )

    def _round_over(
        self, conn: Connection, rt: TableRuntime, live: LiveRound
    ) -> None:
        """Between rounds: count idle rounds, free the idle seats."""
        rt.ready.clear()
        now = self.now_ms()
        freeing: dict[int, str] = {}
        for seat in sorted(rt.seats):
            if seat in live.owners:
                rt.idle[seat] = 0
            elif seat not in rt.sitting_out:
                rt.idle[seat] = rt.idle.get(seat, 0) + 1
            limit = rt.settings.idle_rounds
            if rt.idle.get(seat, 0) >= limit:
                freeing[seat] = f"no wager for {limit} rounds in a row"
            elif self._gone(rt, seat, now):
                freeing[seat] = self._gone_reason(rt)
        self._free(conn, rt, freeing)

    @staticmethod
    def _gone_reason(rt: TableRuntime) -> str:
        minutes = _seconds(rt.settings.idle_seat_minutes)
        return f"no connection and no request for {minutes} minutes"

    def free_idle(self, table_id: int) -> list[int]:
        """Free the seats of gone players now (a job of the clocks)."""
        with self.turn(table_id) as rt:
            seats = self.idle_seats(rt, self.now_ms())
            if not seats:
                return []
            reason = self._gone_reason(rt)
            self._commit_pacing(
                rt,
                idem=None,
                request="",
                respond=None,
                change=lambda conn: self._free(
                    conn, rt, dict.fromkeys(seats, reason)
                ),
            )
            return seats

    # -- the operator's void ------------------------------------------------

    def void(
        self,
        operator: Player,
        table_id: int,
        reason: str,
        *,
        round_id: int | None = None,
        respond: Responder | None = None,
    ) -> dict[str, Any]:
        """Void the round in play: every stake goes back (D25, D29).

        ``round_id``, if given, is the round the operator means: another
        one in play is refused, not voided (D137). The answer (``respond``'s)
        gains ``voided``: the round, what went back in all and to whom.
        """
        if not operator.is_operator:
            msg = "only an operator may void a round"
            raise NotOperatorError(msg, ref=VOID)
        with self.turn(table_id, operator) as rt:
            live = rt.live
            in_play = not (live is None or live.finished or live.inputs == 0)
            if round_id is not None and (
                live is None or not in_play or live.db_id != round_id
            ):
                now = (
                    f"round {live.db_id} is"
                    if live is not None and in_play
                    else "no round is"
                )
                msg = (
                    f"{self._not_in_play(round_id, table_id)} ({now} in "
                    "play there); nothing was voided (D137)"
                )
                raise WrongPhaseError(msg, ref=VOID_NAMED)
            if live is None or not in_play:
                msg = "no round is in play at this table"
                raise WrongPhaseError(msg, ref=VOID)
            with self.stored(rt) as conn:
                row = Session(bind=conn).get(db.RoundRow, live.db_id)
                if row is None:  # pragma: no cover - stored at open
                    raise WrongPhaseError("the round is not stored")
                event = void_round(
                    self,
                    rt,
                    row,
                    reason,
                    conn=conn,
                    by_operator=True,
                )
                refunds = [
                    {
                        "player_id": int(pid),
                        "seat": int(seat or 0),
                        "amount": int(amount),
                    }
                    for pid, seat, amount in conn.execute(
                        select(
                            db.TransactionRow.player_id,
                            db.TransactionRow.seat,
                            db.TransactionRow.amount,
                        )
                        .where(db.TransactionRow.round_id == live.db_id)
                        .where(db.TransactionRow.kind == "refund")
                        .order_by(db.TransactionRow.id)
                    )
                ]
                live.voided = reason
                live.finished = True
                live.server_seq = max(live.server_seq, int(event["seq"]))
                live.event_dicts.append(event)
                rt.last = live
                rt.live = None
                rt.ready.clear()
                rt.fresh_table()
                self.open_round(conn, rt)
                rt.version += 1
                self._paced(conn, rt)
                body = respond(rt) if respond is not None else {}
                body = {
                    **body,
                    "voided": {
                        "round_id": live.db_id,
                        "table_id": rt.id,
                        "reason": reason,
                        "returned": sum(r["amount"] for r in refunds),
                        "refunds": refunds,
                    },
                }
        if not self.storage.shared:
            self.storage.on_change(table_id)
        return body

    def _not_in_play(self, round_id: int, table_id: int) -> str:
        """Why the round an operator named is not the one to void (D137).

        A void retried after its answer was lost finds its round voided
        already: said so, lest the operator think it never happened. A
        round withdrawn when the operator ended its shoe is refused here,
        :class:`~croupier.server.errors.RoundWithdrawnError` (D198).
        """
        with self.storage.engine.connect() as conn:
            found = conn.execute(
                select(db.RoundRow.table_id, db.RoundRow.status).where(
                    db.RoundRow.id == round_id
                )
            ).first()
            gone = (
                None if found is not None else withdrawn_round(conn, round_id)
            )
        if gone is not None:
            # withdrawn when the operator ended its shoe: said so (D198)
            raise gone.refusal("nothing was voided")
        if found is None:
            return f"there is no round {round_id}"
        if int(found[0]) != table_id:
            return f"round {round_id} is table {found[0]}'s, not {table_id}'s"
        if found[1] == "voided":
            return f"round {round_id} was voided already"
        if found[1] != "open":
            return f"round {round_id} is over: a finished round stands"
        return f"round {round_id} has no wager yet"

    # -- the operator ends the shoe (D194) ----------------------------------

    def end_shoe(
        self,
        operator: Player,
        table_id: int,
        reason: str,
        *,
        shoe: int | None = None,
        respond: Responder | None = None,
    ) -> dict[str, Any]:
        """Retire the table's shoe now and deal on from a new one (D194).

        Only while no stake is on the layout: a round in play is refused
        (end the shoe after it, or void it: D29). The round open for
        wagers on the old shoe, which took none, is withdrawn (its row and
        events deleted: nothing of it was in play) and one is opened on a
        new shoe, prepared as the game prepares every new shoe; every
        round dealt from the old shoe is disclosed (its stack may be
        exported and recalled). The new round's record holds a
        ``shoe_ended`` step (server scope) with the reason. ``shoe``, if
        given, is the shoe the operator means: another in play is
        refused, nothing ended (a retry after a lost answer ends no
        second shoe). The answer (``respond``'s) gains ``shoe_ended``.
        """
        if not operator.is_operator:
            msg = "only an operator may end a shoe"
            raise NotOperatorError(msg, ref=SHOE_END)
        with self.turn(table_id, operator) as rt:
            old = rt.live
            if old is not None and old.finished:
                old = None
            if old is not None and old.inputs:
                msg = (
                    f"round {old.db_id} is in play at this table: end the "
                    "shoe after it, or void it (D29); the shoe was not "
                    f"ended ({SHOE_REF})"
                )
                raise WrongPhaseError(msg, ref=SHOE_END)
            retired = old.shoe_no if old is not None else rt.shoe_no
            if shoe is not None and shoe != retired:
                msg = (
                    f"shoe {shoe} is no longer in play at this table (shoe "
                    f"{retired} is); nothing was ended ({SHOE_REF})"
                )
                raise WrongPhaseError(msg, ref=SHOE_END)
            with self.stored(rt) as conn:
                body = self._end_shoe(conn, rt, old, retired, reason)
                body = {
                    **(respond(rt) if respond is not None else {}),
                    "shoe_ended": body,
                }
        if not self.storage.shared:
            self.storage.on_change(table_id)
        return body

    def _end_shoe(
        self,
        conn: Connection,
        rt: TableRuntime,
        old: LiveRound | None,
        retired: int,
        reason: str,
    ) -> dict[str, Any]:
        """Inside :meth:`end_shoe`'s transaction: the new shoe, stored."""
        disclosed = list(rt.undisclosed)
        kept: list[dict[str, Any]] = []
        if old is not None:
            # the table's own steps stored with the withdrawn round (a seat
            # freed while it waited) go on with the round that replaces it
            kept = [
                json.loads(text)
                for (text,) in conn.execute(
                    select(db.EventRow.data_json)
                    .where(db.EventRow.round_id == old.db_id)
                    .where(db.EventRow.scope == "server")
                    .order_by(db.EventRow.seq)
                )
            ]
        rt.live = None
        rt.ready.clear()
        rt.fresh_table()
        self.open_round(conn, rt)  # discloses the old shoe's rounds
        live = rt.live
        if live is None:  # pragma: no cover - opened above
            raise WrongPhaseError("no round is open")
        if old is not None:
            # opened after the new one, so SQLite gives no id twice
            conn.execute(
                delete(db.EventRow).where(db.EventRow.round_id == old.db_id)
            )
            conn.execute(
                delete(db.RoundRow).where(db.RoundRow.id == old.db_id)
            )
        rt.queued_events = [
            (live if queued is old else queued, event)
            for queued, event in rt.queued_events
        ]
        for event in kept:
            step = {
                k: v for k, v in event.items() if k not in ("seq", "scope")
            }
            self._store_server_event(conn, live, step)
        step = {
            "type": "shoe_ended",
            "ref": SHOE_REF,
            "by": "operator",
            "reason": reason,
            "shoe": retired,
            "rounds": len(disclosed),
            # the round deleted above, that a client holding its id be
            # told it was withdrawn (D198), by any process, at any time
            "withdrawn": None if old is None else old.db_id,
        }
        self._store_server_event(conn, live, step)
        rt.version += 1
        self._paced(conn, rt)
        withdrawn = "" if old is None else f"; round {old.db_id} withdrawn"
        write_log(
            self.storage.engine,
            "warning",
            f"shoe {retired} at table {rt.id} ended by the operator "
            f"({SHOE_REF}): {reason}; {len(disclosed)} rounds dealt from it "
            f"disclosed{withdrawn} (no wager); shoe {rt.shoe_no} opens "
            f"with round {live.db_id}",
            live.db_id,
            conn=conn,
        )
        return {
            "table_id": rt.id,
            "reason": reason,
            "shoe": retired,
            "new_shoe": rt.shoe_no,
            "round_id": live.db_id,
            "withdrawn": None if old is None else old.db_id,
            "disclosed": disclosed,
        }


def _verify_deal(live: LiveRound) -> None:
    """Raise, the round unchanged, if its engine would refuse the deal."""
    rnd = live.round
    if isinstance(rnd, GameRound):
        rnd.verify_deal()


async def run_clocks(
    pacer: Pacer, *, tick: float = 0.1, sweep: float = 1.0
) -> None:
    """Apply every due default and free gone seats, until cancelled.

    A task of the server's event loop: no client request is needed.
    Each change is a job on the serial thread with the table held, the
    path requests take. After a failure (an outage) the table is left
    alone for a few seconds.
    """
    backoff: dict[int, float] = {}
    last_sweep = 0.0
    while True:
        loop_now = time.monotonic()
        swept = loop_now - last_sweep >= sweep
        if swept:
            last_sweep = loop_now
        try:
            await _tick(pacer, backoff, loop_now, swept=swept)
        except asyncio.CancelledError:
            raise
        except Exception:  # the clocks must never stop
            log.exception("clocks: tick failed")
        await asyncio.sleep(tick)


async def _tick(
    pacer: Pacer, backoff: dict[int, float], loop_now: float, *, swept: bool
) -> None:
    """One pass: due clocks, then (every ``sweep``) gone players' seats."""
    serial = pacer.serial
    due = _due_tables(pacer)
    if pacer.storage.shared and swept:
        try:
            due |= await serial.read(lambda: _stored_due(pacer))
        except Exception:
            log.warning("clocks: stored deadlines not read")
    for table_id in sorted(due):
        if backoff.get(table_id, 0) > loop_now:
            continue
        try:
            await serial.run(
                functools.partial(pacer.expire, table_id), table=table_id
            )
        except Exception as exc:
            _failed(backoff, table_id, exc)
    if not swept:
        return
    now = pacer.now_ms()
    for rt in list(pacer.storage.tables.values()):
        if not rt.seats or backoff.get(rt.id, 0) > loop_now:
            continue
        async with serial.holding(rt.id):  # no job changes it meanwhile
            idle = pacer.idle_seats(rt, now)
        if idle:
            try:
                await serial.run(
                    functools.partial(pacer.free_idle, rt.id), table=rt.id
                )
            except Exception as exc:
                _failed(backoff, rt.id, exc)


def _failed(backoff: dict[int, float], table_id: int, exc: Exception) -> None:
    if isinstance(exc, StorageUnavailableError):
        log.warning("clocks: table %s: %s", table_id, exc)
    else:
        log.exception("clocks: table %s failed", table_id)
    backoff[table_id] = time.monotonic() + 2.0


def _due_tables(pacer: Pacer) -> set[int]:
    now = pacer.now_ms()
    return {
        rt.id
        for rt in list(pacer.storage.tables.values())
        if rt.clock is not None and rt.clock["deadline_ms"] <= now
    }


def _stored_due(pacer: Pacer) -> set[int]:
    """Tables whose stored clock has run out (any process set it)."""
    now = pacer.now_ms()
    out: set[int] = set()
    with pacer.storage.engine.connect() as conn:
        for table_id, text in conn.execute(
            select(db.GameTableRow.id, db.GameTableRow.pacing_json)
        ):
            clock = json.loads(text or "{}").get("clock")
            if clock and int(clock["deadline_ms"]) <= now:
                out.add(int(table_id))
    return out
