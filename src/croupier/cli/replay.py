"""``croupier replay ROUND_ID``: recall a stored round and verify it.

Prints the procedure step by step with its § references, then replays
the round's inputs through the engine (:func:`croupier.history.replay`)
and checks that the same events and settlements come out; exits 1 if
they do not (591.7(u), 681a.7(l)).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table as RichTable
from sqlalchemy import select

from croupier.server import db as storage

__all__ = ["replay"]


def replay(
    round_id: Annotated[int, typer.Argument(help="The round's id")],
    db: Annotated[
        str, typer.Option(help="Database URL of the table server")
    ] = storage.default_db_url(),
) -> None:
    """Print a stored round's procedure and verify it by replaying it."""
    from croupier.history import RoundRecord
    from croupier.history import replay as run_replay

    console = Console()
    engine = storage.make_engine(db)
    storage.migrate(engine)
    with engine.connect() as conn:
        row = conn.execute(
            select(
                storage.RoundRow.game,
                storage.RoundRow.status,
                storage.RoundRow.record_json,
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
    if row is None:
        console.print(f"[red]no round {round_id}[/red]")
        raise typer.Exit(2)
    game, status, record_json = row
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
    if status != "over" or not record_json:
        console.print(
            f"round {round_id} is {status}: no settled record to verify"
        )
        raise typer.Exit(0 if status == "voided" else 1)
    record = RoundRecord.loads(record_json)
    for s in record.settlements:
        console.print(
            f"seat {s['seat']} {s['wager']}: {s['outcome']} "
            f"net {s['net']} [§ {s['ref']}]"
        )
    result = run_replay(record)
    if result.ok:
        console.print(
            "[green]replay reproduces the stored events and "
            "settlements[/green]"
        )
        return
    for difference in result.differences:
        console.print(f"[red]{difference}[/red]")
    raise typer.Exit(1)
