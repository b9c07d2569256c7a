"""Verify a whole CHH file: a verdict per round and a summary."""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from itertools import chain
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

from .across import AcrossRounds, RoundEnds
from .chunks import chunks as chunked
from .chunks import timed_chunks
from .replay import Deviation, verify_round_strict

__all__ = [
    "CHUNK_LINES",
    "FileReport",
    "RoundVerdict",
    "Tally",
    "iter_verdicts",
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
    ends: RoundEnds | None = field(default=None, compare=False, repr=False)
    """The round's shoe at either end and its times, for the checks across
    rounds (not part of the verdict's JSON form)."""
    irregularity_test: bool = False
    """Whether the record marks its shoe a deliberate irregularity test
    (D41): its shoe was not held to the rules' decks (D89 shows it)."""

    @property
    def conforming(self) -> bool:
        """Whether the round follows the rules."""
        return self.deviation is None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``irregularity_test`` only when it is true)."""
        out: dict[str, Any] = {
            "line": self.line,
            "round_id": self.round_id,
            "game": self.game,
            "conforming": self.conforming,
            "deviation": None
            if self.deviation is None
            else self.deviation.to_dict(),
        }
        if self.irregularity_test:
            out["irregularity_test"] = True
        return out


@dataclass(slots=True)
class Tally:
    """The summary of the rounds seen so far, kept as they go by.

    What :class:`FileReport` sums up at the end, for a caller that
    streams the verdicts (:func:`iter_verdicts`) and keeps none.
    """

    rounds: int = 0
    """Rounds checked."""
    conforming: int = 0
    """Rounds that follow the rules."""
    refs: Counter[str] = field(default_factory=Counter)
    """Deviations by the subsection broken."""
    irregularity_tests: int = 0
    """Rounds marked deliberate irregularity tests (D41, D89)."""

    def add(self, verdict: RoundVerdict) -> None:
        """Count one more round."""
        self.rounds += 1
        if verdict.deviation is None:
            self.conforming += 1
        else:
            self.refs[verdict.deviation.ref] += 1
        self.irregularity_tests += verdict.irregularity_test

    def summary(self) -> dict[str, Any]:
        """Rounds, conforming, deviations by subsection.

        Also, when any round was marked a deliberate irregularity test,
        how many (``irregularity_tests``): their shoes were not held to
        the rules' decks, which a reader of the summary must know (D89).
        """
        out: dict[str, Any] = {
            "rounds": self.rounds,
            "conforming": self.conforming,
            "deviations": self.rounds - self.conforming,
            "by_ref": dict(sorted(self.refs.items())),
        }
        if self.irregularity_tests:
            out["irregularity_tests"] = self.irregularity_tests
        return out


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
        return dict(self._tally().summary()["by_ref"])

    def summary(self) -> dict[str, Any]:
        """Rounds, conforming, deviations by subsection."""
        return self._tally().summary()

    def _tally(self) -> Tally:
        tally = Tally()
        for verdict in self.verdicts:
            tally.add(verdict)
        return tally


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
    across: bool = True,
) -> FileReport:
    """Check every line; a malformed line raises :class:`HistoryFormatError`.

    ``submission`` (a Rules Submission file's values) holds every round
    to those rules: the game's defaults overridden by them. ``workers``
    processes share the work, ``chunk_lines`` lines at a time, with the
    report (and the malformed line named, when there is one) exactly
    the one process's: each round is replayed from its own line alone
    (D58), and the checks across rounds (unique round ids, the shoe
    carried from one round to the next: D64, :mod:`croupier.verify.across`)
    run here, on the verdicts in file order; ``across=False`` leaves
    them out. ``progress`` is told the rounds checked so far after every
    ``chunk_lines`` lines.
    Every verdict is kept: for a file of any size, stream them with
    :func:`iter_verdicts`.
    """
    return FileReport(
        list(
            iter_verdicts(
                lines,
                submission=submission,
                workers=workers,
                chunk_lines=chunk_lines,
                progress=progress,
                across=across,
            )
        )
    )


def iter_verdicts(
    lines: Iterable[str | bytes],
    *,
    submission: Mapping[str, object] | None = None,
    workers: int = 1,
    chunk_lines: int = CHUNK_LINES,
    progress: Callable[[int], None] | None = None,
    across: bool = True,
    wait: float | None = None,
) -> Iterator[RoundVerdict]:
    """Each round's verdict in file order, as soon as it is known.

    The arguments are :func:`verify_lines`'s; nothing is kept, so a file
    (or a stream that is still being written) of any length is checked
    in bounded memory. With one process a line's verdict comes as soon
    as the line is read; with more, a chunk's when its process is done,
    and ``wait`` (seconds) hands a chunk out that long after its first
    line even when it has not filled: for a log still being written,
    whose next line may be hours away (:mod:`croupier.verify.chunks`;
    its lines are then read by a thread, so the processes are spawned,
    not forked). A malformed line raises :class:`HistoryFormatError` after the
    verdicts of the lines before it. The arguments are checked here,
    before the first verdict is asked for.
    """
    if workers < 1:
        msg = f"workers is a number of processes, 1 or more, not {workers}"
        raise CroupierError(msg)
    if chunk_lines < 1:
        msg = f"chunk_lines is 1 or more, not {chunk_lines}"
        raise CroupierError(msg)
    if wait is not None and not wait > 0:
        msg = f"wait is a number of seconds above 0, not {wait}"
        raise CroupierError(msg)
    numbered = enumerate(lines, start=1)
    verdicts = (
        _verify_alone(numbered, submission, chunk_lines, progress, across)
        if workers == 1
        else _verify_in_processes(
            numbered, submission, workers, chunk_lines, progress, wait, across
        )
    )
    return _across(verdicts) if across else verdicts


def _across(
    verdicts: Generator[RoundVerdict, None, None],
) -> Iterator[RoundVerdict]:
    """``verdicts`` with the checks across rounds (D64) applied in order.

    Closing this closes ``verdicts`` at once (its processes end with it).
    """
    rounds = AcrossRounds()
    try:
        for verdict in verdicts:
            found = rounds.check(
                verdict.line, verdict.round_id, verdict.deviation, verdict.ends
            )
            yield (
                verdict
                if found is verdict.deviation
                else replace(verdict, deviation=found)
            )
    finally:
        verdicts.close()


def _verify_alone(
    numbered: Iterable[tuple[int, Line]],
    submission: Mapping[str, object] | None,
    chunk_lines: int,
    progress: Callable[[int], None] | None,
    ends: bool,
) -> Generator[RoundVerdict, None, None]:
    """One process: each line's verdict when it is read.

    ``progress`` hears after every ``chunk_lines`` lines and after the
    last, as it would from the processes' chunks; with ``ends`` each
    verdict carries what the checks across rounds read.
    """
    held: dict[str, GameRules | None] = {}
    rounds = last = 0
    for number, line in numbered:
        last = number
        verdict = _verify_line(number, line, submission, held, ends)
        if verdict is not None:
            rounds += 1
            yield verdict
        if progress is not None and number % chunk_lines == 0:
            progress(rounds)
    if progress is not None and last % chunk_lines:
        progress(rounds)


def _verify_in_processes(
    numbered: Iterator[tuple[int, Line]],
    submission: Mapping[str, object] | None,
    workers: int,
    chunk_lines: int,
    progress: Callable[[int], None] | None,
    wait: float | None,
    ends: bool,
) -> Generator[RoundVerdict, None, None]:
    if wait is not None:
        # a log still being written: no look-ahead (its second chunk may
        # be hours away), and the processes spawned, not forked, since a
        # thread reads the lines
        yield from _verify_shared(
            timed_chunks(numbered, chunk_lines, wait=wait),
            submission,
            workers,
            progress,
            multiprocessing.get_context("spawn"),
            ends,
        )
        return
    chunks = chunked(numbered, chunk_lines)
    ahead = [c for c in (next(chunks, None), next(chunks, None)) if c]
    if len(ahead) < 2:
        # one chunk: starting processes would cost more than it saves
        yield from _verify_alone(
            chain.from_iterable(ahead), submission, chunk_lines, progress, ends
        )
        return
    yield from _verify_shared(
        chain(ahead, chunks), submission, workers, progress, _context(), ends
    )


def _verify_shared(
    chunks: Iterable[list[tuple[int, Line]]],
    submission: Mapping[str, object] | None,
    workers: int,
    progress: Callable[[int], None] | None,
    context: BaseContext,
    ends: bool,
) -> Iterator[RoundVerdict]:
    """Check ``chunks`` in ``workers`` processes, verdicts in file order.

    A bounded window of chunks is in flight, so that a file of any size
    (or stdin) is never read whole. The processes ignore Ctrl-C: the
    interrupt reaches this one, which stops handing out chunks, lets
    the running ones finish and raises it; so does a caller that stops
    asking for verdicts.
    """
    rounds = 0
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_ignore_interrupts
    ) as pool:
        try:
            for verdicts, error in _in_order(
                pool, chunks, submission, workers, ends
            ):
                yield from verdicts
                rounds += len(verdicts)
                _raise_or_tell(error, progress, rounds)
        except BrokenProcessPool as exc:
            msg = f"a process checking the file stopped: {exc}"
            raise CroupierError(msg) from exc
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise


def _in_order(
    pool: ProcessPoolExecutor,
    chunks: Iterable[list[tuple[int, Line]]],
    submission: Mapping[str, object] | None,
    workers: int,
    ends: bool,
) -> Iterator[_ChunkResult]:
    """Each chunk's result in file order, ``2 * workers`` chunks in flight.

    A result is also taken as soon as it is done and all before it were
    (an empty chunk, which ``chunks`` gives while a live log is quiet,
    is only a chance to look).
    """
    window: deque[Future[_ChunkResult]] = deque()
    for chunk in chunks:
        if chunk:
            window.append(pool.submit(_verify_chunk, chunk, submission, ends))
        while window and (len(window) >= 2 * workers or window[0].done()):
            yield window.popleft().result()
    while window:
        yield window.popleft().result()


def _raise_or_tell(
    error: tuple[str, int | None] | None,
    progress: Callable[[int], None] | None,
    rounds: int,
) -> None:
    """Raise a chunk's malformed line again, else report the count."""
    if error is not None:
        text, line = error
        raise HistoryFormatError(text, line=line)
    if progress is not None:
        progress(rounds)


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


def _verify_chunk(
    chunk: list[tuple[int, Line]],
    submission: Mapping[str, object] | None,
    ends: bool,
) -> _ChunkResult:
    """One process's share: the verdicts up to a malformed line, if any.

    The error travels back as its text and line (an exception of the
    engine's own need not survive pickling) and is raised again there.
    """
    verdicts: list[RoundVerdict] = []
    try:
        verdicts.extend(
            _verify_alone(chunk, submission, len(chunk), None, ends)
        )
    except HistoryFormatError as exc:
        return verdicts, (str(exc), exc.line)
    return verdicts, None


def _verify_line(
    number: int,
    line: Line,
    submission: Mapping[str, object] | None,
    held: dict[str, GameRules | None],
    ends: bool,
) -> RoundVerdict | None:
    """Line ``number``'s verdict (``None`` for a blank line).

    ``held`` keeps each game's rules under the submission, worked out
    the first time the game appears.
    """
    if not line.strip():
        return None
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
        checked = verify_round_strict(history, submission=rules, ends=ends)
    else:
        # the steps are checked against the schema only when they are
        # not exactly the engine's (whose steps meet it): the line is
        # malformed, with the same error, exactly when
        # HandHistory.loads would have said so
        try:
            checked = verify_round_strict(
                history, submission=rules, ends=ends, text=line
            )
        except Exception:
            read_at_line(number, validate, doc)
            raise
        if not checked.strict:
            read_at_line(number, validate, doc)
    return RoundVerdict(
        number,
        history.round_id,
        history.game,
        checked.deviation,
        checked.ends,
        history.shoe.irregularity_test,
    )


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
    across: bool = True,
) -> FileReport:
    """Check every round of a CHH file (the rest as :func:`verify_lines`).

    The file may be compressed (:func:`croupier.packed.open_packed`).
    """
    with open_packed(path) as handle:
        return verify_lines(
            bounded_lines(handle),
            submission=submission,
            workers=workers,
            across=across,
        )
