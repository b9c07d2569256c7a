"""``croupier verify FILE.jsonl``: whether every logged round conforms.

Exit 0 when every round conforms, 1 when any does not, 2 when the file
is malformed (the line and the schema error on stderr) or the Rules
Submission is refused.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from croupier.cli.common import fail
from croupier.errors import CroupierError
from croupier.hhf.files import READ_ERRORS, open_history, reading
from croupier.hhf.format import HistoryFormatError
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
            report = verify_lines(
                reading(sys.stdin.buffer),
                submission=submission,
                workers=workers,
            )
        else:
            with open_history(file) as handle:
                report = verify_lines(
                    handle, submission=submission, workers=workers
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
    raise typer.Exit(0 if report.conforming == report.rounds else 1)
