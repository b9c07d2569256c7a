"""The verifier's report, written while the verdicts come.

A day of an online operator's tables is millions of rounds: the report
is written verdict by verdict (:func:`write_report`) and only the
summary's counts are kept (:class:`~croupier.verify.file.Tally`), so
memory stays bounded and a reader of a pipe (or of a live table's log,
``tail -f day.jsonl | croupier verify -``) sees each verdict when it is
known. Whatever stops the run, a malformed line (exit 2) or Ctrl-C, the
report is closed: the summary of the rounds checked, and what stopped
it; the JSON report stays one valid document (D63).

>>> import io
>>> from croupier.verify.explain import Deviation
>>> from croupier.verify.file import RoundVerdict
>>> ok = RoundVerdict(1, "r1", "midibaccarat", None)
>>> bad = RoundVerdict(2, "r2", "midibaccarat", Deviation("629a.5(f)", "x"))
>>> out = io.StringIO()
>>> write_report([ok, bad], TextReport(out), deviations_only=True).rounds
2
>>> print(out.getvalue(), end="")
line 2 round r2: 629a.5(f): x
2 rounds, 1 conforming, 1 with a deviation
  629a.5(f): 1
"""

from __future__ import annotations

import io
import json
import signal
import threading
from collections.abc import Iterable
from typing import Any, Protocol

from croupier.errors import CroupierError

from .file import (
    CheckingProcessError,
    FileReport,
    RoundVerdict,
    SubmissionError,
    Tally,
)
from .submissions import Submissions

__all__ = [
    "JsonLinesReport",
    "JsonReport",
    "ReportWriter",
    "Sink",
    "Stop",
    "TextReport",
    "report_json",
    "write_report",
]

Stop = dict[str, Any]
"""What ended a run early: ``{"error": {"line": N, "message": ...,
"kind": K}}`` (``K`` ``malformed``: a line that is not a record, or a
file that cannot be read; ``rules``: a round the Rules Submission
cannot hold), ``{"failed": {"message": ...}}`` (a checking process
died or could not start: no fault of the file) or
``{"interrupted": True}``; empty when every line was read."""


class Sink(Protocol):
    """Where a report's text goes: a text file, or anything that writes."""

    def write(self, text: str, /) -> object:
        """Write ``text``."""


class ReportWriter(Protocol):
    """Where :func:`write_report` puts the verdicts and the summary."""

    def verdict(self, verdict: RoundVerdict) -> None:
        """One round's verdict, in file order."""

    def end(self, tally: Tally, stop: Stop) -> None:
        """The summary, and what stopped the run (:data:`Stop`)."""


def write_report(
    verdicts: Iterable[RoundVerdict],
    writer: ReportWriter,
    *,
    deviations_only: bool = False,
) -> Tally:
    """Give ``writer`` every verdict, then the summary; return the counts.

    With ``deviations_only`` (``--quiet``) the writer is given only the
    verdicts with a deviation; the summary counts every round.

    A :class:`~croupier.errors.CroupierError` (a malformed line, a round
    the Rules Submission cannot hold), a
    :class:`~croupier.verify.file.CheckingProcessError` or a
    ``KeyboardInterrupt`` from ``verdicts`` ends the report with what
    stopped it, then goes on up to the caller.
    """
    tally = Tally()
    with _AtomicVerdicts() as atomic:
        try:
            for verdict in verdicts:
                # counted and written together: Ctrl-C between the two
                # would leave a summary that counts a round the report
                # does not list
                atomic.busy = True
                tally.add(verdict)
                if not (deviations_only and verdict.deviation is None):
                    writer.verdict(verdict)
                atomic.done()
        except CroupierError as exc:
            error = {
                "line": getattr(exc, "line", None),
                "message": str(exc),
                "kind": (
                    "rules"
                    if isinstance(exc, SubmissionError)
                    else "malformed"
                ),
            }
            writer.end(tally, {"error": error})
            raise
        except CheckingProcessError as exc:
            writer.end(tally, {"failed": {"message": str(exc)}})
            raise
        except KeyboardInterrupt:
            writer.end(tally, {"interrupted": True})
            raise
    writer.end(tally, {})
    return tally


class _AtomicVerdicts:
    """Ctrl-C held back while a verdict is counted and written.

    Python raises ``KeyboardInterrupt`` between any two bytecodes; while
    :attr:`busy` the SIGINT handler installed here only notes it, and
    :meth:`done` raises it once the verdict is both counted and written.
    At any other moment (waiting for the next verdict, a line from a
    live log, a checking process) it raises at once, as Python's own
    handler does. Installed only in the main thread over Python's own
    handler; elsewhere it changes nothing.
    """

    busy: bool = False
    """Whether a verdict is being counted and written."""
    noted: bool = False
    """Whether a Ctrl-C came while :attr:`busy`."""

    def __init__(self) -> None:
        self._previous: Any = None

    def __enter__(self) -> _AtomicVerdicts:
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    def _handle(self, signum: int, frame: object) -> None:
        if self.busy:
            self.noted = True
            return
        raise KeyboardInterrupt

    def done(self) -> None:
        """The verdict is counted and written: a held Ctrl-C goes off."""
        self.busy = False
        if self.noted:
            self.noted = False
            raise KeyboardInterrupt


IRREGULAR = (
    "a deliberate irregularity test, its shoe not held to the rules' decks"
)
"""What the text report says of a round marked ``irregularity_test``."""


def printable(text: str) -> str:
    r"""``text`` with every character a terminal would act on escaped.

    A round id or a card is the log's own text: a newline in one would
    print a second verdict line, an escape sequence hide the rest of
    the line (an audit's ``"r1: conforming\e[8m"``). They are shown as
    Python writes them in a string (``\n``, ``\x1b``).

    >>> printable("r1: conforming\x1b[8m")
    'r1: conforming\\x1b[8m'
    """
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
        for c in text
    )


_STOPPED = {
    "malformed": "the file is malformed",
    "rules": "the Rules Submission cannot hold this round",
}
"""The text report's words for each kind of error that stopped a run."""


def _held_lines(submissions: Submissions | None, tally: Tally) -> list[str]:
    """The text report's line for each Rules Submission (D106)."""
    if not submissions:
        return []
    lines = []
    for entry in submissions.report(tally.games):
        where = printable(entry["file"] or "(given without a file)")
        game, rounds = entry["game"], entry["rounds"]
        if game is None:
            lines.append(
                f"no round held to the Rules Submission {where} (it holds "
                "the game of the file's first round)"
            )
            continue
        digest = (
            "" if entry["digest"] is None else f" (rules {entry['digest']})"
        )
        lines.append(
            f"{printable(game)}: {rounds} round{'s' if rounds != 1 else ''} "
            f"held to the Rules Submission {where}{digest}"
        )
    return lines


class TextReport:
    """One line a round given, then the summary.

    With ``submissions``, the summary ends with the Rules Submission
    each game was held to (its file and its rules' digest) and the
    rounds it held (D106).
    """

    def __init__(
        self, out: Sink, submissions: Submissions | None = None
    ) -> None:
        self._out = out
        self._submissions = submissions
        self._by_game = (
            submissions is not None
            and len(submissions) > 0
            and submissions.plain is None
        )

    def verdict(self, verdict: RoundVerdict) -> None:
        """``line N round ID: conforming`` or the deviation."""
        said = (
            "conforming"
            if verdict.deviation is None
            else str(verdict.deviation)
        )
        if verdict.irregularity_test:
            said += f" ({IRREGULAR})"
        if verdict.voided is not None:
            said += f" ({verdict.voided})"
        text = f"line {verdict.line} round {verdict.round_id}: {said}"
        self._out.write(f"{printable(text)}\n")

    def end(self, tally: Tally, stop: Stop) -> None:
        """The counts, by subsection; what stopped the run, if anything."""
        summary = tally.summary()
        rounds = summary["rounds"]
        head = (
            f"{rounds} round{'' if rounds == 1 else 's'}, "
            f"{summary['conforming']} conforming, {summary['deviations']} "
            "with a deviation"
        )
        if "error" in stop:
            line = stop["error"]["line"]
            where = "" if line is None else f" at line {line}"
            kind = stop["error"].get("kind", "malformed")
            what = _STOPPED[kind]
            if kind == "rules" and self._by_game:
                what = "no Rules Submission given holds this round's game"
            head += f" (stopped{where}: {what})"
        elif "failed" in stop:
            head += (
                " (stopped: a process checking the file failed; the rest "
                "of the file is not checked)"
            )
        elif stop.get("interrupted"):
            head += " (interrupted: the rest of the file is not checked)"
        lines = [
            head,
            *(f"  {ref}: {n}" for ref, n in summary["by_ref"].items()),
        ]
        voided = summary.get("voided", 0)
        if voided:
            lines.append(
                f"{voided} round{'s' if voided != 1 else ''} voided by the "
                f"table (each one's verdict names the phase it came in)"
            )
        irregular = summary.get("irregularity_tests", 0)
        if irregular:
            lines.append(
                f"{irregular} round{'s' if irregular != 1 else ''} marked "
                f"irregularity_test: {IRREGULAR}"
            )
        defaulted = summary.get("defaulted", {})
        if defaulted:
            lines.append(
                "options the records' rules leave out, replayed at "
                "croupier's defaults (D122):"
            )
            lines.extend(
                f"  {name}: {n} round{'s' if n != 1 else ''}"
                for name, n in defaulted.items()
            )
        lines.extend(_held_lines(self._submissions, tally))
        self._out.write("\n".join(lines) + "\n")


def _held(submissions: Submissions | None, tally: Tally) -> dict[str, Any]:
    """The JSON reports' ``submissions``, when there are any (D106)."""
    if not submissions:
        return {}
    return {"submissions": submissions.report(tally.games)}


class JsonReport:
    """One JSON document: ``{"rounds": [...], [stop,] "summary": {...}}``.

    The text is what :func:`json.dumps` gives for that object, written
    a verdict at a time; ``rounds`` lists the verdicts given. With
    ``submissions``, ``"submissions": [...]`` comes before the summary:
    each Rules Submission's ``game``, ``file``, ``digest`` and
    ``rounds`` (:meth:`Submissions.report
    <croupier.verify.submissions.Submissions.report>`, D106).
    """

    def __init__(
        self, out: Sink, submissions: Submissions | None = None
    ) -> None:
        self._out = out
        self._first = True
        self._submissions = submissions

    def verdict(self, verdict: RoundVerdict) -> None:
        """The verdict's JSON form, the next item of ``rounds``."""
        head = '{"rounds": [' if self._first else ", "
        self._first = False
        self._out.write(head + json.dumps(verdict.to_dict()))

    def end(self, tally: Tally, stop: Stop) -> None:
        """Close ``rounds``, then what stopped the run and the summary."""
        head = '{"rounds": [' if self._first else ""
        self._first = False
        rest = json.dumps(
            {
                **stop,
                **_held(self._submissions, tally),
                "summary": tally.summary(),
            }
        )
        self._out.write(head + "], " + rest[1:] + "\n")


class JsonLinesReport:
    """One JSON object a line: each verdict, then the summary.

    For a reader that takes the report as it comes (``jq`` on a live
    table's log): each round's line is the verdict's JSON form; the last
    line is ``{[stop,] ["submissions": [...],] "summary": {...}}``, the
    only one holding ``summary`` (``submissions`` as :class:`JsonReport`
    writes it).
    """

    def __init__(
        self, out: Sink, submissions: Submissions | None = None
    ) -> None:
        self._out = out
        self._submissions = submissions

    def verdict(self, verdict: RoundVerdict) -> None:
        """The verdict's JSON form, on a line of its own."""
        self._out.write(json.dumps(verdict.to_dict()) + "\n")

    def end(self, tally: Tally, stop: Stop) -> None:
        """What stopped the run, if anything, and the summary."""
        held = _held(self._submissions, tally)
        self._out.write(
            json.dumps({**stop, **held, "summary": tally.summary()}) + "\n"
        )


def report_json(
    report: FileReport, submissions: Submissions | None = None
) -> str:
    """A whole report as the one JSON document :class:`JsonReport` writes."""
    out = io.StringIO()
    write_report(report.verdicts, JsonReport(out, submissions))
    return out.getvalue().removesuffix("\n")
