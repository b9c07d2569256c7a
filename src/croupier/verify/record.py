"""What a round's record says of itself (§ 810a.11), beside its procedure.

The replay checks the steps and the settlements; here the rest of the
record must agree with them and with itself (D39, D64):

- one player entry for each seat that wagered, and no seat twice;
- each seat's total bet and total won as the settlements give them;
- each account's balances never below 0, the same in each entry of a
  player on several boxes, and the balance after equal to the balance
  before less the total bet plus the total won of all its seats and
  what the account moved elsewhere meanwhile (when both balances are
  recorded; D73, D74);
- the start and end times real instants, the end not before the start;
- the game's section the game's own, and a stacked shoe with its stack;
- no step of the game's procedure among the table's own steps
  (``table_steps``, which are not replayed; D79);
- a round after a shoe the operator ended (a ``shoe_ended`` step,
  D194) begins a new shoe.

>>> from croupier.hhf.sample import sample_histories
>>> history = next(sample_histories("midibaccarat", 1, seed=2))
>>> record_problem(history) is None
True
>>> import dataclasses
>>> late = dataclasses.replace(history, started_at="2026-12-01T10:00:00Z",
...     ended_at="2026-12-01T09:59:59Z")
>>> print(record_problem(late).message)  # doctest: +NORMALIZE_WHITESPACE
the round is recorded as ending at 2026-12-01T09:59:59Z,
before it started at 2026-12-01T10:00:00Z
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from croupier.events import event_type
from croupier.hhf.format import HandHistory, PlayerEntry
from croupier.jsontypes import json_text
from croupier.registry import find_game

from .explain import RECORD_REF, Deviation

__all__ = ["RECORD_REF", "game_step", "instant", "record_problem"]


def record_problem(history: HandHistory) -> Deviation | None:
    """The first fact of the record that its settlements or times belie."""
    return (
        _players(history)
        or _times(history)
        or _itself(history)
        or _table_steps(history)
        or _shoe_ended(history)
    )


def game_step(step: Mapping[str, Any]) -> bool:
    """Whether ``step`` is of a type the games' procedures make (D79).

    Every game is registered (:func:`croupier.registry.find_game` loads
    them all), so a step of any game's type counts, whatever the
    record's game. The table's own steps (a clock run out, a seat freed
    or left out: ``clock_expired``, ``seat_freed``, ``seats_left_out``)
    and any other note are not.

    >>> game_step({"type": "card_dealt"}), game_step({"type": "seat_freed"})
    (True, False)
    """
    return event_type(str(step.get("type"))) is not None


def _table_steps(history: HandHistory) -> Deviation | None:
    """A step of the procedure written among the table's own (D79).

    ``table_steps`` are not replayed: a card dealt, a card exposed or a
    wager settled written there would escape every rule.
    """
    for n, step in enumerate(history.table_steps, start=1):
        if game_step(step):
            ref = step.get("ref")
            cite = f", citing {ref}" if ref else ""
            return Deviation(
                RECORD_REF,
                f"table step {n} (type {step.get('type')}{cite}) is a step "
                f"of the game's procedure: it belongs in the procedure, "
                f"where it is replayed (table_steps hold only the table's "
                f"own steps, which are not)",
            )
    return None


SHOE_ENDED_REF = "D194"
"""The decision by which an operator ends a table's shoe between rounds."""


def _shoe_ended(history: HandHistory) -> Deviation | None:
    """A round recorded after an ended shoe that deals on from it (D194).

    The operator retires a shoe between rounds (a card found marked, a
    dispute): the round that follows, whose record says so in a
    ``shoe_ended`` step (server scope), begins the new shoe.
    """
    if history.shoe.new_shoe:
        return None
    # a table step (a round over), or a step of a voided round's
    # procedure (the server's steps join it there); looked for at every
    # round, so in two plain loops (no list of pairs made)
    for step in history.table_steps:
        if step.get("type") == "shoe_ended":
            return _after_ended(None)
    for step in history.procedure:
        if step.get("type") == "shoe_ended":
            seq = step.get("seq")
            return _after_ended(seq if type(seq) is int else None)
    return None


def _after_ended(seq: int | None) -> Deviation:
    """:func:`_shoe_ended`'s deviation, at the step ``seq`` if known."""
    return Deviation(
        SHOE_ENDED_REF,
        "the record says the operator ended the shoe before this round "
        "(shoe_ended), but the round deals on from that shoe: a round "
        "after an ended shoe begins a new one",
        seq,
    )


def _itself(history: HandHistory) -> Deviation | None:
    """The record's game, shoe and status, against themselves (D65, D67)."""
    section = find_game(history.game).section
    if history.section != section:
        return Deviation(
            RECORD_REF,
            f"the record names section {json_text(history.section)} for "
            f"{history.game}, whose section is {section}",
        )
    if history.shoe.known == "stacked" and history.shoe.stack is None:
        return Deviation(
            RECORD_REF,
            "the shoe is recorded as stacked but its stack is missing",
        )
    if history.status != "voided" and history.void_reason:
        return Deviation(
            RECORD_REF,
            f"the round is recorded as {history.status} with a void "
            f"reason ({json_text(history.void_reason)}); only a voided "
            f"round has one",
        )
    return None


def _players(history: HandHistory) -> Deviation | None:
    bet: Counter[int] = Counter()
    won: Counter[int] = Counter()
    for s in history.settlements:
        bet[int(s["seat"])] += int(s["amount"])
        won[int(s["seat"])] += max(int(s["amount"]) + int(s["net"]), 0)
    listed: set[int] = set()
    for player in history.players:
        seat = player.seat
        if seat in listed:
            return Deviation(
                RECORD_REF,
                f"seat {seat} has two player entries; the record holds one "
                f"per seat",
            )
        listed.add(seat)
        if player.total_bet != bet[seat] or player.total_won != won[seat]:
            return Deviation(
                RECORD_REF,
                f"seat {seat}: total bet {player.total_bet} and total won "
                f"{player.total_won} recorded; the settlements give "
                f"{bet[seat]} and {won[seat]}",
            )
    unlisted = sorted(bet.keys() - listed)
    if unlisted:
        seat = unlisted[0]
        return Deviation(
            RECORD_REF,
            f"seat {seat} wagered {bet[seat]} but the record has no player "
            f"entry for it (its player's id, balances and totals)",
        )
    return _balances(history)


def _pair(entry: PlayerEntry) -> str:
    """How a message gives an entry's balances before and after."""
    if entry.balance_before is None:
        return "no balances"
    return f"balances {entry.balance_before} and {entry.balance_after}"


def _balances(history: HandHistory) -> Deviation | None:
    """Each account's balances: never below 0, moved by its seats' money.

    A player on several boxes (673a.6(e)) has one balance: each of the
    player's entries records it, and it moves by the totals of all of
    them together (D73).
    """
    accounts: dict[str, list[PlayerEntry]] = {}
    for player in history.players:
        if (player.balance_before is None) != (player.balance_after is None):
            # a writer with accounts records both; one alone leaves the
            # round's money unchecked (D88)
            given, missing = (
                ("before", "after")
                if player.balance_after is None
                else ("after", "before")
            )
            return Deviation(
                RECORD_REF,
                f"seat {player.seat} records its balance {given} the round "
                f"but not {missing} it: a record with accounts carries both, "
                f"so that they can be checked against the totals",
            )
        accounts.setdefault(player.player_id, []).append(player)
    for player_id, entries in accounts.items():
        first = entries[0]
        before, after = first.balance_before, first.balance_after
        for entry in entries:
            for when, value in (
                ("before", entry.balance_before),
                ("after", entry.balance_after),
            ):
                if value is not None and value < 0:
                    return Deviation(
                        RECORD_REF,
                        f"seat {entry.seat}: balance {value} {when} the "
                        f"round; a balance is never below 0",
                    )
            if (entry.balance_before, entry.balance_after) != (before, after):
                return Deviation(
                    RECORD_REF,
                    f"player {player_id}'s seats {first.seat} and "
                    f"{entry.seat} record {_pair(first)} against "
                    f"{_pair(entry)}: one player has one balance",
                )
            if entry.moved_elsewhere != first.moved_elsewhere:
                return Deviation(
                    RECORD_REF,
                    f"player {player_id}'s seats {first.seat} and "
                    f"{entry.seat} record {_elsewhere(first)} and "
                    f"{_elsewhere(entry)} moved elsewhere during the round: "
                    f"one player has one account",
                )
        if before is None or after is None:
            continue
        bet = sum(e.total_bet for e in entries)
        won = sum(e.total_won for e in entries)
        elsewhere = first.moved_elsewhere or 0
        if after != before - bet + won + elsewhere:
            seats = ", ".join(str(e.seat) for e in entries)
            who = (
                f"seat {seats}"
                if len(entries) == 1
                else f"player {player_id} (seats {seats})"
            )
            besides = (
                ""
                if first.moved_elsewhere is None
                else f" and the {elsewhere} moved elsewhere meanwhile"
            )
            return Deviation(
                RECORD_REF,
                f"{who}: balance {before} before and {after} after do not "
                f"differ by the total won less the total bet ({won - bet})"
                f"{besides}",
            )
    return None


def _elsewhere(entry: PlayerEntry) -> str:
    """What ``entry`` says moved elsewhere in the round (D74)."""
    if entry.moved_elsewhere is None:
        return "nothing"
    return str(entry.moved_elsewhere)


def instant(text: str | None) -> datetime | None:
    """The moment ``text`` names; ``None`` when not recorded or none.

    The schema fixes the form (date, time, offset); a form such as
    ``2026-02-30T25:00:00Z`` still names no moment.
    """
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _times(history: HandHistory) -> Deviation | None:
    start, end = instant(history.started_at), instant(history.ended_at)
    for text, moment, what in (
        (history.started_at, start, "start"),
        (history.ended_at, end, "end"),
    ):
        if text is not None and moment is None:
            return Deviation(
                RECORD_REF,
                f"the {what} time {json_text(text)} is not a date and time",
            )
    if start is not None and end is not None and end < start:
        return Deviation(
            RECORD_REF,
            f"the round is recorded as ending at {history.ended_at}, before "
            f"it started at {history.started_at}",
        )
    return None
