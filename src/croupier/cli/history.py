"""``croupier history export``: a server's rounds as CHH JSON Lines."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from croupier.cli.common import (
    CommandError,
    GuardedGroup,
    JsonFlag,
    check_output,
    console,
    current_schema,
    database_problem,
    existing_database,
    fail,
)
from croupier.errors import CroupierError
from croupier.extras import require
from croupier.scenario import ScenarioResult, run_scenario_text
from croupier.server import DEFAULT_DB_URL

if TYPE_CHECKING:
    from croupier.hhf import HandHistory

__all__ = ["export", "history_app", "scenario_history", "steps"]

history_app = typer.Typer(
    help="The croupier hand history (CHH 1.1): export rounds, list the "
    "steps a game's records hold.",
    no_args_is_help=True,
    cls=GuardedGroup,
)


def _check_out(value: str) -> str:
    """``--out``: standard output, or a file as :func:`check_output` takes."""
    if value != "-":
        check_output(Path(value), packs=True)
    return value


@history_app.command()
def export(
    db: Annotated[
        str, typer.Option(help="Database URL of the table server.")
    ] = DEFAULT_DB_URL,
    since: Annotated[
        str | None,
        typer.Option(
            help="Only rounds started at or after this ISO 8601 time "
            "(UTC if no offset), e.g. 2026-12-01T00:00."
        ),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(
            help="Only rounds started before this ISO 8601 time (UTC if "
            "no offset), e.g. 2026-12-02T00:00: with --since, one day.",
        ),
    ] = None,
    out: Annotated[
        str,
        typer.Option(
            help="Output file (JSON Lines, compressed when it ends in .gz, "
            ".bz2 or .xz), or - for stdout.",
            callback=_check_out,
        ),
    ] = "-",
    stacks_in_play: Annotated[
        bool,
        typer.Option(
            "--stacks-in-play",
            help="Also write the stack of a shoe still in play, which "
            "names the cards still to be dealt at the table: for a copy "
            "that stays with the operator. Without it such a round is "
            "written as dealt (D188).",
        ),
    ] = False,
) -> None:
    """Write every finished or voided round of a server as CHH lines.

    A round dealt from a shoe the table still deals from is written as
    dealt: its cards as they appeared, its stack (the cards still to
    come) withheld, as the server's recall withholds it, unless
    --stacks-in-play. Once the shoe is out of play (reshuffled, or the
    deck removed) its rounds are written with their stacks.
    """
    require("server", "this command")
    require("history", "this command")
    from croupier.hhf.export import export_rounds
    from croupier.hhf.format import write_history
    from croupier.packed import writing
    from croupier.server.db import aware

    start = _moment("--since", since)
    stop = _moment("--until", until)
    if start is not None and stop is not None and aware(stop) <= aware(start):
        raise fail(
            CroupierError(
                f"--until {until} is not after --since {since}: no round "
                "can fall between them"
            )
        )
    from sqlalchemy.exc import SQLAlchemyError

    existing_database(db)
    from croupier.server import db as storage

    engine = storage.make_engine(db)
    try:
        current_schema(engine, db)  # before any file is written
    except SQLAlchemyError as exc:
        msg = f"cannot read rounds: {database_problem(exc, db)}"
        raise CommandError(msg) from None
    finally:
        engine.dispose()
    sealed = 0

    def counted() -> Iterator[HandHistory]:
        nonlocal sealed
        for history in export_rounds(
            db, since=start, until=stop, stacks_in_play=stacks_in_play
        ):
            sealed += history.shoe.stack is None
            yield history

    histories = counted()
    try:
        if out == "-":
            count = write_history(histories, sys.stdout)
        else:
            with writing(out) as handle:
                count = write_history(histories, handle)
    except SQLAlchemyError as exc:
        if out != "-":
            # no partial file a reader could take for the whole export
            Path(out).unlink(missing_ok=True)
        msg = f"cannot read rounds: {database_problem(exc, db)}"
        raise CommandError(msg) from None
    sys.stderr.write(f"{count} rounds written\n")
    if sealed:
        # D188: say so, lest the operator take them for the whole record
        sys.stderr.write(
            f"{sealed} of them dealt from a shoe still in play, written "
            "as dealt (their stacks name the cards still to come); "
            "--stacks-in-play writes them\n"
        )


def _moment(option: str, text: str | None) -> datetime | None:
    """An ISO 8601 time given to ``option``, or ``None``."""
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise fail(
            CroupierError(f"{option} {text!r} is not an ISO 8601 time")
        ) from None


def scenario_history(text: str, path: Path) -> ScenarioResult:
    """Run a scenario and append its round to ``path`` as a CHH line.

    Only a round that ran to the end (exit 0) is written.
    """
    import json
    import uuid

    require("history", "--history")
    from croupier.hhf.format import from_scenario
    from croupier.packed import writing

    started = datetime.now(UTC)
    result = run_scenario_text(text)
    if result.exit_code != 0:
        return result
    history = from_scenario(
        json.loads(text),
        result,
        round_id=f"scenario-{uuid.uuid4().hex}",
        started_at=started,
        ended_at=datetime.now(UTC),
    )
    with writing(path, append=True) as handle:
        handle.write(history.dumps() + "\n")
    return result


@history_app.command()
def steps(
    game: Annotated[str, typer.Argument(help="Game name (croupier games).")],
    rounds: Annotated[
        int,
        typer.Option(min=1, help="Rounds dealt under each rules variant."),
    ] = 400,
    as_markdown: Annotated[
        bool,
        typer.Option("--markdown", help="The docs/chh-steps.md section."),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """List every kind of step a game's CHH record holds.

    As the engine writes it: type, reference, fields and announcement
    texts, gathered from seeded rounds under the default rules and the
    variants that change the deal.
    """
    from rich.table import Table as RichTable

    from croupier.hhf.catalogue import catalogue, catalogue_markdown
    from croupier.registry import find_game

    try:
        find_game(game)
    except CroupierError as exc:
        raise fail(exc) from None
    found = catalogue(game, rounds=rounds)
    if as_json:
        print(json.dumps(found.to_dict(), indent=2))
        return
    if as_markdown:
        print(catalogue_markdown(found), end="")
        return
    table = RichTable(title=f"{game}: the steps of {found.rounds} rounds")
    for column in ("where", "type", "ref", "fields"):
        table.add_column(column, overflow="fold")
    for kind, fields in found.steps.items():
        names = [n for n in fields if n not in ("seq", "ref", "type")]
        table.add_row(kind.place, kind.type, kind.ref, ", ".join(names))
    texts = RichTable(title="announcements (cards as C, numbers as N)")
    texts.add_column("ref")
    texts.add_column("text", overflow="fold")
    for kind, said in found.texts.items():
        for text in sorted(said):
            texts.add_row(kind.ref, text)
    console.print(table)
    console.print(texts)
