"""``croupier replay ROUND_ID``: recall a stored round and verify it.

Prints the procedure step by step with its § references, then replays
the round's inputs through the engine (:func:`croupier.history.replay`)
and checks that the same events and settlements come out; exits 1 if
they do not (591.7(u), 681a.7(l)), 0 if they do or the round was voided,
and 3 (:data:`IN_PLAY_EXIT`, as a scenario waiting for a decision) for
a round still in play: nothing is settled to verify yet, and a script
that reads 1 as "the record does not replay" must not read it so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table as RichTable

import croupier
from croupier.cli.common import (
    CommandError,
    console,
    current_schema,
    database_problem,
    existing_database,
)
from croupier.money import dollars
from croupier.server import DEFAULT_DB_URL

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine, Row

# SQLAlchemy and the server's storage are loaded by the command that
# reads a database, not by every ``croupier`` command at start-up

__all__ = [
    "IN_PLAY_EXIT",
    "balance_line",
    "replay",
    "rules_line",
    "settlement_line",
]

IN_PLAY_EXIT = 3
"""The exit status for a round still in play (not a failed replay)."""


def _exit_for(status: str, ok: bool | None) -> int:
    """0 reproduced or voided, 1 not reproduced, 3 still in play."""
    if ok is not None:
        return 0 if ok else 1
    if status == "voided":
        return 0
    return 1 if status == "over" else IN_PLAY_EXIT


def replay(
    round_id: Annotated[
        int,
        typer.Argument(min=1, max=2**63 - 1, help="The round's id"),
    ],
    db: Annotated[
        str, typer.Option(help="Database URL of the table server")
    ] = DEFAULT_DB_URL,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print the record and the verdict."),
    ] = False,
) -> None:
    """Print a stored round's procedure and verify it by replaying it."""
    from sqlalchemy.exc import SQLAlchemyError

    from croupier.history import RoundRecord
    from croupier.history import replay as run_replay
    from croupier.server import db as storage

    existing_database(db)
    engine = storage.make_engine(db)
    try:
        current_schema(engine, db)
        row, events, balances = _read_round(engine, round_id)
    except SQLAlchemyError as exc:
        msg = f"cannot read rounds: {database_problem(exc, db)}"
        raise CommandError(msg) from None
    finally:
        engine.dispose()
    if row is None:
        msg = f"no round {round_id} in {db}"
        raise CommandError(msg)
    game, status, record_json, software = row
    dealt = storage.dealt_by(software)
    if as_json:
        verdict: dict[str, object] = {
            "round": round_id,
            "game": game,
            "status": status,
            # who dealt it and who replays it (810a.11, D132)
            "dealt_by": {"name": "croupier", "version": dealt},
            "replayed_by": {
                "name": "croupier",
                "version": croupier.__version__,
            },
            "events": events,
            "balances": balances,
        }
        if status == "over" and record_json:
            result = run_replay(RoundRecord.loads(record_json))
            verdict["record"] = json.loads(record_json)
            verdict["replay_ok"] = result.ok
            verdict["differences"] = [str(d) for d in result.differences]
        print(json.dumps(verdict, indent=2))
        done = verdict.get("replay_ok")
        raise typer.Exit(
            _exit_for(status, None if done is None else bool(done))
        )
    _print_round(console, round_id, game, status, events)
    if status != "open":
        for entry in balances:
            console.print(balance_line(entry), markup=False)
    if status != "over" or not record_json:
        console.print(
            f"round {round_id} is {status}: no settled record to verify"
        )
        # over without a record is a broken store; in play, nothing yet
        raise typer.Exit(_exit_for(status, None))
    record = RoundRecord.loads(record_json)
    console.print(
        f"dealt by croupier {software}"
        if software is not None
        else "dealt by croupier (version not recorded)",
        markup=False,
    )
    console.print(rules_line(record.game, record.rules), markup=False)
    # a wager split into hands names each of them, its first hand too
    split = {
        (s["seat"], s["wager"]) for s in record.settlements if s.get("hand")
    }
    for s in record.settlements:
        line = settlement_line(s, split=(s["seat"], s["wager"]) in split)
        console.print(line, markup=False)
    result = run_replay(record)
    if result.ok:
        console.print(
            "[green]replay reproduces the stored events and "
            "settlements[/green] "
            f"(replayed by croupier {croupier.__version__})"
        )
        return
    for difference in result.differences:
        console.print(f"[red]{difference}[/red]")
    raise typer.Exit(1)


def rules_line(game: str, rules: Mapping[str, Any]) -> str:
    """The Rules Submission the round was dealt under, in one line.

    The options that differ from the game's defaults (810a.11).

    >>> rules_line("midibaccarat", {"decks": 6})
    'rules in force: decks=6 (the rest as the defaults)'
    >>> rules_line("midibaccarat", {"decks": 8})
    "rules in force: the game's defaults"
    """
    from croupier.jsontypes import json_text
    from croupier.registry import find_game

    defaults = find_game(game).rules_type().to_dict()
    changed = [
        f"{name}={json_text(value, 40)}"
        for name, value in rules.items()
        if defaults.get(name) != value
    ]
    if not changed:
        return "rules in force: the game's defaults"
    return f"rules in force: {', '.join(changed)} (the rest as the defaults)"


def settlement_line(
    settlement: Mapping[str, Any], *, split: bool = False
) -> str:
    """A stored settlement as a regulator reads it.

    Seat, wager, the hand (every hand of a wager that was ``split``, so
    that they are told apart), outcome and net in dollars, with the
    subsection.

    >>> settlement_line({"seat": 2, "wager": "blackjack", "hand": 1,
    ...     "outcome": "win", "net": 2500, "ref": "591.7(s)(1)(ii)"})
    'seat 2 blackjack, hand 2: win, net +$25.00 [§ 591.7(s)(1)(ii)]'
    >>> settlement_line({"seat": 1, "wager": "tie", "outcome": "lose",
    ...     "net": -500, "ref": "629a.11"})
    'seat 1 tie: lose, net -$5.00 [§ 629a.11]'
    """
    hand = int(settlement.get("hand") or 0)
    which = f", hand {hand + 1}" if hand or split else ""
    net = int(settlement["net"])
    return (
        f"seat {settlement['seat']} {settlement['wager']}{which}: "
        f"{settlement['outcome']}, net {'+' if net > 0 else ''}"
        f"{dollars(net)} [§ {settlement['ref']}]"
    )


def balance_line(entry: Mapping[str, Any]) -> str:
    """A player's balance before and after the round, in dollars.

    ``entry`` is one of :func:`croupier.server.recall.round_balances`'.

    >>> balance_line({"player_id": 3, "name": "Ann", "before": 100000,
    ...     "after": 99500, "net": -500})
    'Ann (player 3): balance $1,000.00 before, $995.00 after, net -$5.00'
    >>> balance_line({"player_id": 3, "name": "Ann", "before": 100000,
    ...     "after": 100500, "net": -500, "moved_elsewhere": 1000})
    ... # doctest: +NORMALIZE_WHITESPACE
    'Ann (player 3): balance $1,000.00 before, $1,005.00 after, net -$5.00;
    +$10.00 moved elsewhere meanwhile (D74)'
    """
    net = int(entry["net"])
    line = (
        f"{entry['name']} (player {entry['player_id']}): balance "
        f"{dollars(int(entry['before']))} before, "
        f"{dollars(int(entry['after']))} after, "
        f"net {'+' if net > 0 else ''}{dollars(net)}"
    )
    if "moved_elsewhere" in entry:
        moved = int(entry["moved_elsewhere"])
        line += (
            f"; {'+' if moved > 0 else ''}{dollars(moved)} "
            "moved elsewhere meanwhile (D74)"
        )
    return line


def _read_round(
    engine: Engine, round_id: int
) -> tuple[
    Row[str, str, str | None, str | None] | None,
    list[dict[str, object]],
    list[dict[str, Any]],
]:
    from sqlalchemy import select

    from croupier.server import db as storage
    from croupier.server.recall import round_balances

    with engine.connect() as conn:
        row = conn.execute(
            select(
                storage.RoundRow.game,
                storage.RoundRow.status,
                storage.RoundRow.record_json,
                storage.RoundRow.software,
            ).where(storage.RoundRow.id == round_id)
        ).first()
        events = [
            json.loads(text)
            for (text,) in conn.execute(
                select(storage.EventRow.data_json)
                .where(storage.EventRow.round_id == round_id)
                .order_by(storage.EventRow.id)
            )
        ]
        balances = round_balances(conn, round_id)
    return row, events, balances


def _print_round(
    console: Console,
    round_id: int,
    game: str,
    status: str,
    events: list[dict[str, object]],
) -> None:
    steps = RichTable(title=f"Round {round_id} · {game} · {status}")
    steps.add_column("#", justify="right")
    steps.add_column("§")
    steps.add_column("step")
    steps.add_column("detail")
    for event in events:
        detail = {
            k: v for k, v in event.items() if k not in ("seq", "ref", "type")
        }
        steps.add_row(
            str(event.get("seq", "")),
            str(event.get("ref") or ""),
            str(event.get("type", "")).replace("_", " "),
            ", ".join(f"{k}={v}" for k, v in detail.items()),
        )
    console.print(steps)
