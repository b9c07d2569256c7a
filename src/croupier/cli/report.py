"""``croupier report GAME``: the game's math report (issue 15 point 2).

HTML, PDF or JSON; the JSON carries every figure that the documents
print. See :mod:`croupier.report`.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import MofNCompleteColumn, Progress, TextColumn

from croupier.cli.basic import RulesFile, Settings
from croupier.cli.common import (
    CommandError,
    err_console,
    load_game_rules,
    output_file,
)
from croupier.cli.play import parse_dollars
from croupier.errors import WagerError
from croupier.odds.chunks import MAX_ROUNDS
from croupier.report.build import MAX_SESSION_HOURS

__all__ = ["ReportFormat", "report"]


class ReportFormat(StrEnum):
    """The document to write."""

    HTML = "html"
    PDF = "pdf"
    JSON = "json"


def _cents(text: str, option: str) -> int:
    try:
        return parse_dollars(text)
    except WagerError as exc:
        msg = f"{option}: {exc}"
        raise CommandError(msg) from None


_SUFFIXES = {
    ".html": ReportFormat.HTML,
    ".htm": ReportFormat.HTML,
    ".pdf": ReportFormat.PDF,
    ".json": ReportFormat.JSON,
}
"""The document each name of ``--out`` is taken for."""


def _format(
    chosen: ReportFormat | None, out: Path | None, given: str = "--format"
) -> ReportFormat:
    """The document to write: ``--format``, else the name of ``--out``.

    A name whose suffix says another document than ``--format``, or
    (without ``--format``) says none of the three, is refused: the
    file would hold something else than its name promises. ``given``
    names the option that chose the document, for the message.
    """
    if out is None:
        return chosen or ReportFormat.HTML
    named = _SUFFIXES.get(out.suffix.lower())
    if chosen is None and named is None:
        msg = (
            f"--out {out}: a report is written as .html, .pdf or .json "
            "(or give --format)"
        )
        raise CommandError(msg)
    if chosen is not None and named is not None and named is not chosen:
        option = given if given == "--json" else f"{given} {chosen}"
        msg = f"{option} and --out {out} contradict each other"
        raise CommandError(msg)
    return chosen or named or ReportFormat.HTML


def report(
    game: Annotated[str, typer.Argument(help="Game name (croupier games).")],
    rules_file: RulesFile = None,
    settings: Settings = None,
    fmt: Annotated[
        ReportFormat | None,
        typer.Option(
            "--format", help="html, pdf or json (default: from --out)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        output_file("File to write (default: standard output).", "--out"),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="The same as --format json.")
    ] = False,
    rounds: Annotated[
        int,
        typer.Option(
            help="Rounds of the statistical evaluation (at most 10^12).",
            min=1,
            max=MAX_ROUNDS,
        ),
    ] = 1_000_000,
    seed: Annotated[
        int, typer.Option(help="Seed of the simulation.", min=0)
    ] = 1,
    workers: Annotated[
        int, typer.Option(help="Simulation processes (0 = all).", min=0)
    ] = 1,
    average_wager: Annotated[
        str,
        typer.Option(
            "--average-wager", help="Average wager, dollars (win per hour)."
        ),
    ] = "25",
    table_maximum: Annotated[
        str,
        typer.Option(
            "--table-maximum",
            help="Table maximum, dollars, where the rules set none.",
        ),
    ] = "5000",
    hours: Annotated[
        float,
        typer.Option(
            help="Session hours for the risk of ruin (at most a year).",
            min=0.01,
            max=MAX_SESSION_HOURS,
        ),
    ] = 4.0,
    date: Annotated[
        str | None,
        typer.Option(help="Report date, YYYY-MM-DD (default: today, UTC)."),
    ] = None,
) -> None:
    """Write the game's math report: HTML, PDF or JSON."""
    import os
    from datetime import date as calendar

    from croupier.report import ReportSettings, build_report
    from croupier.report.render import render_html, render_pdf

    if as_json and fmt not in (None, ReportFormat.JSON):
        msg = f"--json and --format {fmt} contradict each other"
        raise CommandError(msg)
    chosen = (
        _format(ReportFormat.JSON, out, "--json")
        if as_json
        else _format(fmt, out)
    )
    if chosen is ReportFormat.PDF and out is None and sys.stdout.isatty():
        msg = "a PDF goes to a file: give --out FILE.pdf"
        raise CommandError(msg)
    if date is not None:
        try:
            calendar.fromisoformat(date)
        except ValueError:
            msg = f"--date: {date!r} is not a date like 2026-12-01"
            raise CommandError(msg) from None
    spec, rules = load_game_rules(game, rules_file, settings)
    report_settings = ReportSettings(
        rounds=rounds,
        seed=seed,
        workers=workers if workers > 0 else (os.cpu_count() or 1),
        average_wager=_cents(average_wager, "--average-wager"),
        table_maximum=_cents(table_maximum, "--table-maximum"),
        session_hours=hours,
        date=date,
    )
    columns = (*Progress.get_default_columns(), MofNCompleteColumn())
    with Progress(
        *columns,
        TextColumn("chunks"),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    ) as bar:
        task = bar.add_task(f"simulating {spec.name}", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        data = build_report(spec, rules, report_settings, progress=progress)
    if chosen is ReportFormat.JSON:
        payload = (json.dumps(data, indent=2) + "\n").encode("utf-8")
    else:
        html = render_html(data)
        payload = (
            render_pdf(html)
            if chosen is ReportFormat.PDF
            else html.encode("utf-8")
        )
    if out is None:
        sys.stdout.buffer.write(payload)
        sys.stdout.flush()
    else:
        out.write_bytes(payload)
        err_console.print(f"wrote {out} ({len(payload):,} bytes)")
