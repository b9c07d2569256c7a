"""Verify a whole CHH file: a verdict per round and a summary."""

from __future__ import annotations

import json
import multiprocessing
import signal
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from itertools import chain, islice
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any

from croupier.errors import CroupierError
from croupier.hhf.format import (
    HistoryFormatError,
    loads_deferring_steps,
    read_at_line,
    validate,
)
from croupier.packed import bounded_lines, open_packed
from croupier.registry import find_game
from croupier.rules import GameRules

from .replay import Deviation, verify_round, verify_round_strict

__all__ = [
    "CHUNK_LINES",
    "FileReport",
    "RoundVerdict",
    "report_json",
    "verify_file",
    "verify_lines",
]


@dataclass(frozen=True, slots=True)
class RoundVerdict:
    """One round's result."""

    line: int
    """Line of the file."""
    round_id: str
    """The round's id."""
    game: str
    """The game."""
    deviation: Deviation | None
    """The first deviation, or ``None`` when the round conforms."""

    @property
    def conforming(self) -> bool:
        """Whether the round follows the rules."""
        return self.deviation is None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "line": self.line,
            "round_id": self.round_id,
            "game": self.game,
            "conforming": self.conforming,
            "deviation": None
            if self.deviation is None
            else self.deviation.to_dict(),
        }


@dataclass(slots=True)
class FileReport:
    """Every round's verdict and the summary over the file."""

    verdicts: list[RoundVerdict] = field(default_factory=list)
    """In file order."""

    @property
    def rounds(self) -> int:
        """Rounds checked."""
        return len(self.verdicts)

    @property
    def conforming(self) -> int:
        """Rounds that follow the rules."""
        return sum(v.conforming for v in self.verdicts)

    def by_ref(self) -> dict[str, int]:
        """Deviations counted by the subsection broken."""
        counts = Counter(
            v.deviation.ref for v in self.verdicts if v.deviation is not None
        )
        return dict(sorted(counts.items()))

    def summary(self) -> dict[str, Any]:
        """Rounds, conforming, deviations by subsection."""
        return {
            "rounds": self.rounds,
            "conforming": self.conforming,
            "deviations": self.rounds - self.conforming,
            "by_ref": self.by_ref(),
        }


Line = str | bytes
"""A line of a CHH file: text, or bytes in UTF-8 (as a file read in
binary gives it; the parser checks the encoding)."""

CHUNK_LINES = 256
"""Lines a process checks at a time (``verify_lines(workers=...)``)."""

_ChunkResult = tuple[list[RoundVerdict], tuple[str, int | None] | None]
"""A chunk's verdicts, then its malformed line's error (text, line)."""


def verify_lines(
    lines: Iterable[str | bytes],
    *,
    submission: Mapping[str, object] | None = None,
    workers: int = 1,
    chunk_lines: int = CHUNK_LINES,
    progress: Callable[[int], None] | None = None,
) -> FileReport:
    """Check every line; a malformed line raises :class:`HistoryFormatError`.

    ``submission`` (a Rules Submission file's values) holds every round
    to those rules: the game's defaults overridden by them. ``workers``
    processes share the work, ``chunk_lines`` lines at a time, with the
    report (and the malformed line named, when there is one) exactly
    the one process's: rounds are independent of one another, so each
    verdict depends on its own line alone (D58). ``progress`` is told
    the rounds checked so far after every chunk.
    """
    report = FileReport()
    if workers < 1:
        msg = f"workers is a number of processes, 1 or more, not {workers}"
        raise CroupierError(msg)
    if chunk_lines < 1:
        msg = f"chunk_lines is 1 or more, not {chunk_lines}"
        raise CroupierError(msg)
    chunks = _chunks(enumerate(lines, start=1), chunk_lines)
    if workers > 1:
        ahead = [c for c in (next(chunks, None), next(chunks, None)) if c]
        if len(ahead) == 2:
            shared = chain(ahead, chunks)
            _verify_shared(report, shared, submission, workers, progress)
            return report
        # one chunk: starting processes would cost more than it saves
        chunks = iter(ahead)
    for chunk in chunks:
        _add(report, _verify_numbered(chunk, submission), progress)
    return report


def _verify_shared(
    report: FileReport,
    chunks: Iterable[list[tuple[int, Line]]],
    submission: Mapping[str, object] | None,
    workers: int,
    progress: Callable[[int], None] | None,
) -> None:
    """Check ``chunks`` in ``workers`` processes, verdicts in file order.

    A bounded window of chunks is in flight, so that a file of any size
    (or stdin) is never read whole. The processes ignore Ctrl-C: the
    interrupt reaches this one, which stops handing out chunks, lets
    the running ones finish and raises it.
    """
    context = _context()
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_ignore_interrupts
    ) as pool:
        window: deque[Future[_ChunkResult]] = deque()
        try:
            for chunk in chunks:
                window.append(pool.submit(_verify_chunk, chunk, submission))
                if len(window) >= 2 * workers:
                    _collect(report, window.popleft().result(), progress)
            while window:
                _collect(report, window.popleft().result(), progress)
        except BrokenProcessPool as exc:
            msg = f"a process checking the file stopped: {exc}"
            raise CroupierError(msg) from exc
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise


def _add(
    report: FileReport,
    verdicts: Iterable[RoundVerdict],
    progress: Callable[[int], None] | None,
) -> None:
    """Append a chunk's verdicts and tell ``progress`` the count."""
    report.verdicts.extend(verdicts)
    if progress is not None:
        progress(len(report.verdicts))


def _ignore_interrupts() -> None:
    """A checking process leaves Ctrl-C to the one that started it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _context() -> BaseContext:
    """How the processes start: forked while this one runs one thread.

    A fork copies the loaded engine (no import per process, and no
    ``if __name__ == "__main__"`` needed in the caller's script), but
    forking while other threads run can copy a lock one of them holds;
    then, and where there is no fork, they are spawned afresh.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _chunks(
    numbered: Iterable[tuple[int, Line]], size: int
) -> Iterator[list[tuple[int, Line]]]:
    """``numbered`` in lists of ``size`` (the last one shorter)."""
    items = iter(numbered)
    while chunk := list(islice(items, size)):
        yield chunk


def _verify_chunk(
    chunk: list[tuple[int, Line]], submission: Mapping[str, object] | None
) -> _ChunkResult:
    """One process's share: the verdicts up to a malformed line, if any.

    The error travels back as its text and line (an exception of the
    engine's own need not survive pickling) and is raised again there.
    """
    verdicts: list[RoundVerdict] = []
    try:
        verdicts.extend(_verify_numbered(chunk, submission))
    except HistoryFormatError as exc:
        return verdicts, (str(exc), exc.line)
    return verdicts, None


def _collect(
    report: FileReport,
    result: _ChunkResult,
    progress: Callable[[int], None] | None,
) -> None:
    verdicts, error = result
    if error is not None:
        report.verdicts.extend(verdicts)
        text, line = error
        raise HistoryFormatError(text, line=line)
    _add(report, verdicts, progress)


def _verify_numbered(
    numbered: Iterable[tuple[int, Line]],
    submission: Mapping[str, object] | None,
) -> Iterator[RoundVerdict]:
    """Each non-blank line's verdict, in order (see :func:`verify_lines`)."""
    held: dict[str, GameRules | None] = {}
    for number, line in numbered:
        if not line.strip():
            continue
        history, doc = read_at_line(number, loads_deferring_steps, line)
        if history.game not in held:
            try:
                held[history.game] = _submission(history.game, submission)
            except CroupierError as exc:
                msg = (
                    f"line {number}: the Rules Submission does not fit "
                    f"{history.game}: {exc}"
                )
                raise CroupierError(msg) from None
        rules = held[history.game]
        if doc is None:
            deviation = verify_round(history, submission=rules)
        else:
            # the steps are checked against the schema only when they
            # are not exactly the engine's (whose steps meet it): the
            # line is malformed, with the same error, exactly when
            # HandHistory.loads would have said so
            try:
                deviation, strict = verify_round_strict(
                    history, submission=rules
                )
            except Exception:
                read_at_line(number, validate, doc)
                raise
            if not strict:
                read_at_line(number, validate, doc)
        yield RoundVerdict(number, history.round_id, history.game, deviation)


def _submission(
    game: str, values: Mapping[str, object] | None
) -> GameRules | None:
    if values is None:
        return None
    try:
        spec = find_game(game)
    except CroupierError:
        return None  # the round itself reports the unknown game
    return spec.rules_type().with_overrides(values)


def verify_file(
    path: str | Path,
    *,
    submission: Mapping[str, object] | None = None,
    workers: int = 1,
) -> FileReport:
    """Check every round of a CHH file (``workers`` as :func:`verify_lines`).

    The file may be compressed (:func:`croupier.packed.open_packed`).
    """
    with open_packed(path) as handle:
        return verify_lines(
            bounded_lines(handle), submission=submission, workers=workers
        )


def report_json(report: FileReport) -> str:
    """The report as one JSON document."""
    return json.dumps(
        {
            "summary": report.summary(),
            "rounds": [v.to_dict() for v in report.verdicts],
        }
    )
