"""``croupier verify FILE.jsonl``: whether every logged round conforms.

Exit 0 when every round conforms, 1 when any does not, 2 when the file
is malformed (the line and the schema error on stderr; the report on
stdout ends with the rounds before it), a Rules Submission is refused
or a round is of a game none holds, 70 when a process checking the file
dies or cannot be started (no verdict: the report ends there too).
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated, BinaryIO

import typer
from rich.progress import (
    BarColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)

from croupier.cli.common import BUG_EXIT, err_console, fail
from croupier.errors import CroupierError
from croupier.packed import (
    READ_ERRORS,
    checked_lines,
    open_packed,
)
from croupier.verify.file import CheckingProcessError, iter_verdicts
from croupier.verify.report import (
    JsonLinesReport,
    JsonReport,
    ReportWriter,
    TextReport,
    write_report,
)
from croupier.verify.submissions import Submissions, submissions_from_args

MAX_WORKERS = 256
"""The most ``--workers`` processes: more only exhausts the machine's
process table (an audit's ``--workers 100000``), never speeds a file."""

__all__ = ["verify"]


def verify(
    file: Annotated[
        Path,
        typer.Argument(
            help="A CHH file (JSON Lines; gzip, bzip2 or xz too), or - "
            "for stdin."
        ),
    ],
    rules_files: Annotated[
        list[str] | None,
        typer.Option(
            "--rules",
            metavar="[GAME=]FILE",
            help="Rules Submission (TOML or JSON) to hold rounds to. "
            "FILE alone holds the game of the first round, whose rounds "
            "must be the only ones; GAME=FILE holds that game's rounds, "
            "repeated for each game of the file (--rules "
            "double-back-jack=dbj.toml --rules 21-baccarat=b21.toml): a "
            "round of a game not named stops the run. GAME counts only "
            "when it is a game's id (croupier games): ./a=b.toml is a "
            "file.",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON report.")
    ] = False,
    as_jsonl: Annotated[
        bool,
        typer.Option(
            "--jsonl",
            help="JSON Lines: a verdict a line as it comes, the summary last.",
        ),
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            help="Report deviations and the summary (in --json and "
            "--jsonl too).",
        ),
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=0,
            max=MAX_WORKERS,
            help="Processes to share the file (0 = all cores); the report "
            "is the same.",
        ),
    ] = 1,
    rounds_alone: Annotated[
        bool,
        typer.Option(
            "--rounds-alone",
            help="Check each round by itself: leave out the checks across "
            "rounds (unique round ids; the shoe one round left is the one "
            "the next round of its table began with).",
        ),
    ] = False,
    allow_empty: Annotated[
        bool,
        typer.Option(
            "--allow-empty",
            help="A log with no round passes (exit 0): a table that dealt "
            "none. Without it, no round is exit 2 (D129).",
        ),
    ] = False,
) -> None:
    """Replay every round of a hand history and report its deviations.

    Each verdict is written as soon as it is known (a live table's log
    can be piped in), and the summary last; a malformed line or Ctrl-C
    still ends the report with the summary of the rounds checked.
    """
    workers = workers if workers > 0 else (os.cpu_count() or 1)
    live = str(file) == "-"
    written = live and _still_written()
    if as_json and as_jsonl:
        raise fail(CroupierError("--json and --jsonl: choose one report"))
    try:
        submissions = submissions_from_args(rules_files or [])
        with _opened(file, written) as (lines, handle, size):
            name = "stdin" if live else file.name
            with _progress(name, size, live=live) as screen:
                kind = _REPORTS[as_json, as_jsonl]
                tally = write_report(
                    iter_verdicts(
                        lines,
                        submissions=submissions,
                        workers=workers,
                        progress=screen.progress(handle),
                        across=not rounds_alone,
                        wait=LIVE_WAIT if written else None,
                    ),
                    kind(screen, submissions),
                    deviations_only=quiet,
                )
    except CroupierError as exc:
        raise fail(exc) from None
    except CheckingProcessError as exc:
        raise fail(exc, BUG_EXIT) from None
    if not tally.rounds:
        # no round, no verdict (D129): a lab that reads the exit status
        # must not take an empty export for a conforming day
        where = "stdin" if live else file
        if not allow_empty:
            sys.stderr.write(
                f"croupier verify: {where} holds no rounds, so nothing was "
                "verified (--allow-empty: a table that dealt none passes)\n"
            )
            raise typer.Exit(2)
        sys.stderr.write(f"croupier verify: {where} holds no rounds\n")
    raise typer.Exit(0 if tally.conforming == tally.rounds else 1)


LIVE_WAIT = 0.5
"""Seconds a chunk of a live stdin waits to fill before its processes
take it (``--workers``): a verdict comes within about that of its line."""


def _stdin(written: bool) -> BinaryIO:
    """The bytes of stdin; of a pipe or a terminal, by a file of its own.

    With ``--workers`` a live stdin is read by a thread
    (:mod:`croupier.verify.chunks`) that may still be waiting for a line
    when the command ends; a thread waiting in ``sys.stdin`` itself would
    hold the lock the interpreter takes to close it on the way out
    ("could not acquire lock ... at interpreter shutdown", SIGABRT). A
    duplicate of its descriptor is left open instead (``written``: stdin
    is still being written, :func:`_still_written`).
    """
    if written:
        try:
            return os.fdopen(os.dup(sys.stdin.fileno()), "rb")
        except (OSError, ValueError):
            pass  # no descriptor (a test's stdin): read it as it is
    return sys.stdin.buffer


def _still_written() -> bool:
    """Whether stdin is a pipe or a terminal (not a file: may never end)."""
    try:
        return not stat.S_ISREG(os.fstat(sys.stdin.fileno()).st_mode)
    except (OSError, ValueError):
        return True


_REPORTS: dict[
    tuple[bool, bool], Callable[[_Screen, Submissions | None], ReportWriter]
] = {
    (False, False): TextReport,
    (True, False): JsonReport,
    (False, True): JsonLinesReport,
}
"""The report writer for ``(--json, --jsonl)`` (both at once is refused)."""


@contextmanager
def _opened(
    file: Path, written: bool
) -> Iterator[tuple[Iterator[bytes], BinaryIO | None, int | None]]:
    """The lines of ``file`` (or stdin), the file on disk and its size.

    A file that cannot be opened, or a read that fails on the way (a
    cut-off archive), is a :class:`CroupierError` naming the file: the
    report ends there like at a malformed line. Writing the report can
    fail too, but that is no reading error (a closed pipe exits 141).
    """
    if str(file) == "-":
        yield checked_lines(_stdin(written), "stdin", unpack=True), None, None
        return
    with ExitStack() as stack:
        try:
            handle = stack.enter_context(open_packed(file))
            size = file.stat().st_size
        except READ_ERRORS as exc:
            raise CroupierError(f"cannot read {file}: {exc}") from None
        yield checked_lines(handle, str(file)), handle, size


class _Screen:
    """stdout and the progress line on stderr, kept out of each other's way.

    While the progress line is drawn and stdout is a terminal too (the
    same screen, as a rule), the report's text is held and written when
    the bar is next drawn, with the bar's line cleared first; else it
    goes straight to stdout. From stdin (a live log, perhaps) every
    verdict is flushed as it comes.
    """

    def __init__(self, bar: Progress, task: TaskID, *, live: bool) -> None:
        self._bar = bar
        self._live = live
        self._task = task
        self._shared = not bar.disable and sys.stdout.isatty()
        self._held: list[str] = []

    def write(self, text: str, /) -> None:
        """Write ``text`` to stdout now, or when the bar is next drawn."""
        if self._shared:
            self._held.append(text)
            if self._live:
                self.drain()
            return
        sys.stdout.write(text)
        if self._live:
            sys.stdout.flush()

    def drain(self) -> None:
        """Write what is held, the bar's line cleared first."""
        if not self._held:
            return
        err_console.file.write("\r\x1b[2K")
        err_console.file.flush()
        sys.stdout.write("".join(self._held))
        sys.stdout.flush()
        self._held.clear()

    def progress(self, handle: BinaryIO | None) -> Callable[[int], None]:
        """The verifier's callback: draw the rounds checked so far."""

        def update(rounds: int) -> None:
            self.drain()
            done = None
            if handle is not None:
                # the position in the file on disk, under any unpacking
                done = os.lseek(handle.fileno(), 0, os.SEEK_CUR)
            self._bar.update(
                self._task, completed=done, rounds=rounds, refresh=True
            )

        return update


@contextmanager
def _progress(
    name: str, size: int | None, *, live: bool = False
) -> Iterator[_Screen]:
    """A progress line on stderr while a terminal shows it, else nothing.

    The bar is how far into the file on disk the reading is (its bytes,
    compressed or not), with the rounds checked so far; from stdin, the
    rounds alone. It is drawn when the verifier reports, never by a
    thread of its own, so that the checking processes are forked from a
    process of one thread (D58). Neither stream is redirected: the
    report goes to stdout (:class:`_Screen`), whatever shows stderr.
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
        redirect_stdout=False,
        redirect_stderr=False,
        disable=not err_console.is_terminal,
    ) as bar:
        task = bar.add_task(name, total=size, rounds=0)
        screen = _Screen(bar, task, live=live)
        try:
            yield screen
        finally:
            screen.drain()
