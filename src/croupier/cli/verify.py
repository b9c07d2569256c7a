"""``croupier verify FILE.jsonl``: whether every logged round conforms.

Exit 0 when every round conforms, 1 when any does not, 2 when the file
is malformed (the line and the schema error on stderr) or the Rules
Submission is refused.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, BinaryIO

import typer
from rich.progress import (
    BarColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)

from croupier.cli.common import err_console, fail
from croupier.errors import CroupierError
from croupier.hhf.format import HistoryFormatError
from croupier.packed import (
    READ_ERRORS,
    bounded_lines,
    open_packed,
    reading,
)
from croupier.rules import load_rules_file
from croupier.verify.file import report_json, verify_lines

__all__ = ["verify"]


def verify(
    file: Annotated[
        Path,
        typer.Argument(
            help="A CHH file (JSON Lines; gzip, bzip2 or xz too), or - "
            "for stdin."
        ),
    ],
    rules_file: Annotated[
        Path | None,
        typer.Option(
            "--rules",
            help="Rules Submission (TOML or JSON) to hold every round to.",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON report.")
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", help="Print deviations and the summary."),
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=0,
            help="Processes to share the file (0 = all cores); the report "
            "is the same.",
        ),
    ] = 1,
) -> None:
    """Replay every round of a hand history and report its deviations."""
    workers = workers if workers > 0 else (os.cpu_count() or 1)
    try:
        submission = (
            None if rules_file is None else load_rules_file(rules_file)
        )
        if str(file) == "-":
            with _progress("stdin", None) as shown:
                report = verify_lines(
                    bounded_lines(reading(sys.stdin.buffer)),
                    submission=submission,
                    workers=workers,
                    progress=shown(None),
                )
        else:
            with (
                open_packed(file) as handle,
                _progress(file.name, file.stat().st_size) as shown,
            ):
                report = verify_lines(
                    bounded_lines(handle),
                    submission=submission,
                    workers=workers,
                    progress=shown(handle),
                )
    except HistoryFormatError as exc:
        raise fail(exc) from None
    except CroupierError as exc:
        raise fail(exc) from None
    except READ_ERRORS as exc:
        raise fail(CroupierError(f"cannot read {file}: {exc}")) from None
    if as_json:
        print(report_json(report))
    else:
        out = []
        for v in report.verdicts:
            if v.deviation is None:
                if not quiet:
                    out.append(f"line {v.line} round {v.round_id}: conforming")
            else:
                out.append(f"line {v.line} round {v.round_id}: {v.deviation}")
        summary = report.summary()
        out.append(
            f"{summary['rounds']} rounds, {summary['conforming']} "
            f"conforming, {summary['deviations']} with a deviation"
        )
        out.extend(f"  {ref}: {n}" for ref, n in summary["by_ref"].items())
        sys.stdout.write("\n".join(out) + "\n")
    if not report.rounds:
        # every one of no rounds conforms (exit 0), but an empty export
        # is more often a mistake than a quiet day: say so
        where = "stdin" if str(file) == "-" else file
        sys.stderr.write(f"croupier verify: {where} holds no rounds\n")
    raise typer.Exit(0 if report.conforming == report.rounds else 1)


_Shown = Callable[[BinaryIO | None], Callable[[int], None]]
"""Given the file being read (or ``None``), the callback for its rounds."""


@contextmanager
def _progress(name: str, size: int | None) -> Iterator[_Shown]:
    """A progress line on stderr while a terminal shows it, else nothing.

    The bar is how far into the file on disk the reading is (its bytes,
    compressed or not), with the rounds checked so far; from stdin, the
    rounds alone. It is drawn when the verifier reports, never by a
    thread of its own, so that the checking processes are forked from a
    process of one thread (D58).
    """
    with Progress(
        TextColumn("verifying {task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rounds]:,} rounds"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        auto_refresh=False,
        disable=not err_console.is_terminal,
    ) as bar:
        task = bar.add_task(name, total=size, rounds=0)

        def shown(handle: BinaryIO | None) -> Callable[[int], None]:
            def update(rounds: int) -> None:
                done = None
                if handle is not None:
                    # the position in the file on disk, under any unpacking
                    done = os.lseek(handle.fileno(), 0, os.SEEK_CUR)
                bar.update(task, completed=done, rounds=rounds, refresh=True)

            return update

        yield shown
