"""``croupier regs coverage``: the subsection-by-subsection report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table as RichTable

from croupier.cli.common import (
    CommandError,
    GuardedGroup,
    console,
    err_console,
)
from croupier.coverage import CoverageRow, ProofError, coverage_report
from croupier.regs import SEED_SECTIONS

__all__ = ["coverage", "regs_app"]

regs_app = typer.Typer(
    help="Regulation references and coverage.", cls=GuardedGroup
)


@regs_app.command()
def coverage(
    tests: Annotated[
        Path,
        typer.Option(
            help="The tests directory to scan.",
            exists=True,
            file_okay=False,
        ),
    ] = Path("tests"),
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON instead of tables.")
    ] = False,
    fail_under: Annotated[
        float | None,
        typer.Option(
            help="Exit 1 when fewer than this percentage are covered.",
            min=0,
            max=100,
        ),
    ] = None,
) -> None:
    """For each seed subsection: implementing code, proving tests, total.

    A test proves what its @pytest.mark.proves(...) marker names and a
    scenario what its expect.refs lists; names count for nothing.
    """
    try:
        rows = coverage_report(tests)
    except ProofError as exc:
        raise CommandError(f"{tests}: {exc}") from None
    covered = sum(row.covered for row in rows)
    percent = 100 * covered / len(rows)
    _report(rows, covered, percent, as_json=as_json)
    if fail_under is not None and percent < fail_under:
        msg = (
            f"{covered} of {len(rows)} subsections covered "
            f"({percent:.1f} %), under --fail-under {fail_under:g}"
        )
        err_console.print(f"croupier regs coverage: {msg}", markup=False)
        raise typer.Exit(1)


def _report(
    rows: list[CoverageRow], covered: int, percent: float, *, as_json: bool
) -> None:
    if as_json:
        print(
            json.dumps(
                {
                    "covered": covered,
                    "total": len(rows),
                    "percent": round(percent, 1),
                    "subsections": [
                        {
                            "ref": str(row.ref),
                            "summary": row.summary,
                            "code": list(row.code),
                            "tests": list(row.tests),
                            "covered": row.covered,
                        }
                        for row in rows
                    ],
                },
                indent=2,
            )
        )
        return
    for section, title in SEED_SECTIONS.items():
        table = RichTable(title=f"§ {section}  {title}")
        table.add_column("§")
        table.add_column("summary (ours)")
        table.add_column("code", overflow="fold")
        table.add_column("tests", justify="right")
        table.add_column("")
        for row in rows:
            if row.ref.section != section:
                continue
            code = row.code[0].removeprefix("croupier.") if row.code else "-"
            if len(row.code) > 1:
                code += f" (+{len(row.code) - 1})"
            mark = "[green]covered" if row.covered else "[red]uncovered"
            table.add_row(
                str(row.ref), row.summary, code, str(len(row.tests)), mark
            )
        console.print(table)
    console.print(
        f"[bold]{covered} of {len(rows)} subsections covered "
        f"({percent:.1f} %)[/bold]"
    )
