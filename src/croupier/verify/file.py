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
from typing import Any, NamedTuple

from croupier.errors import CroupierError
from croupier.frozen import frozen_constructor
from croupier.hhf.format import (
    HandHistory,
    HistoryFormatError,
    check_unique_keys,
    loads_deferring_steps,
    read_at_line,
    validate,
)
from croupier.hhf.twice import rest_written_once
from croupier.packed import bounded_lines, open_packed
from croupier.registry import find_game
from croupier.rules import GameRules

from .across import AcrossRounds, RoundEnds
from .chunks import chunks as chunked
from .chunks import timed_chunks
from .replay import Deviation, verify_line_strict, verify_round_strict
from .submissions import Submissions

__all__ = [
    "CHUNK_LINES",
    "CheckingProcessError",
    "FileReport",
    "RoundVerdict",
    "SubmissionError",
    "Tally",
    "iter_verdicts",
    "verify_file",
    "verify_lines",
]


class SubmissionError(CroupierError):
    """A round the Rules Submissions cannot hold, at its line of the file.

    A Rules Submission is one game's: the one it names (D106), else the
    game of the file's first round (D100). A round of a game no
    submission holds, or a first round whose game the submission given
    without its game does not fit (an option the game does not have),
    stops the run, as a malformed line does.
    """

    def __init__(self, message: str, *, line: int) -> None:
        super().__init__(message)
        self.line = line
        """The 1-based line of the file."""


class CheckingProcessError(RuntimeError):
    """A process checking the file died, or could not be started.

    No fault of the file and no verdict on it: the rest of the file is
    not checked. Not a :class:`~croupier.errors.CroupierError`, which is
    bad input.
    """


class Void(NamedTuple):
    """Where and why the server voided a round (``status`` ``voided``)."""

    seq: int | None
    """The ``round_voided`` step's number."""
    after: str | None
    """The last phase the round entered before the void (``None``: none)."""
    reason: str
    """The void's reason, as recorded."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"seq": self.seq, "after": self.after, "reason": self.reason}

    def __str__(self) -> str:
        where = "" if self.seq is None else f" at step {self.seq}"
        after = "" if self.after is None else f", in the {self.after} phase"
        return f"voided{where}{after}: {self.reason}"


def void_of(history: HandHistory) -> Void | None:
    """The server's void of ``history``, when its status says voided.

    A void of the table's own (D29: the operator's, a malfunction) is
    not the procedure's, which the replay checks, and nothing in the
    rules says when one is right: the verdict names it, with the phase
    it came in, so that a void after the outcome was shown (the hole
    card turned, the settlement begun) is seen (D103).
    """
    if history.status != "voided":
        return None
    after: str | None = None
    for step in history.procedure:
        kind = step.get("type")
        if kind == "phase_entered":
            after = str(step.get("phase"))
        elif kind == "round_voided":
            seq = step.get("seq")
            return Void(
                seq if type(seq) is int else None,
                after,
                str(step.get("reason") or history.void_reason or ""),
            )
    return Void(None, after, str(history.void_reason or ""))


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
    voided: Void | None = None
    """Where and why the server voided the round, if it did (D103)."""
    defaulted: tuple[str, ...] = ()
    """The options the record's ``rules.values`` leave out, in the rules'
    order: the replay read them at croupier's defaults (D122)."""

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
        if self.voided is not None:
            out["voided"] = self.voided.to_dict()
        if self.defaulted:
            out["defaulted"] = list(self.defaulted)
        return out


_new_verdict = frozen_constructor(RoundVerdict)
"""``RoundVerdict(...)``, faster: one for every line
(:func:`croupier.frozen.frozen_constructor`)."""


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
    voided: int = 0
    """Rounds the server voided (D103)."""
    games: Counter[str] = field(default_factory=Counter)
    """Rounds by game, each game in the order it first came (what the
    report says each Rules Submission held: D106). Only games that
    exist are counted: a log's made-up game ids, one a line, would
    otherwise grow it without bound."""
    defaulted: Counter[str] = field(default_factory=Counter)
    """Rounds whose record left each option out (read at croupier's
    default, D122), ``game.option`` by ``game.option``."""

    def add(self, verdict: RoundVerdict) -> None:
        """Count one more round."""
        self.rounds += 1
        # a game counted once exists: the registry is asked once a game
        if verdict.game in self.games or _is_game(verdict.game):
            self.games[verdict.game] += 1
        if verdict.deviation is None:
            self.conforming += 1
        else:
            self.refs[verdict.deviation.ref] += 1
        self.irregularity_tests += verdict.irregularity_test
        self.voided += verdict.voided is not None
        for name in verdict.defaulted:
            self.defaulted[f"{verdict.game}.{name}"] += 1

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
        if self.voided:
            out["voided"] = self.voided
        if self.defaulted:
            out["defaulted"] = dict(sorted(self.defaulted.items()))
        return out


def _is_game(name: str) -> bool:
    """Whether ``name`` is a registered game's id."""
    try:
        find_game(name)
    except CroupierError:
        return False
    return True


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

_ChunkError = tuple[bool, str, int | None]
"""What stopped a chunk: whether the Rules Submission did (else a
malformed line), the error's text and its line."""

_ChunkResult = tuple[list[RoundVerdict], _ChunkError | None]
"""A chunk's verdicts, then what stopped it, if anything."""


@dataclass(slots=True)
class _Held:
    """A Rules Submission and the one game whose rounds it holds.

    The game is the file's first round's (given when it is known before
    the rounds are checked, as the processes that share a file need);
    the rules are the game's defaults overridden by the submission,
    worked out at the first round of the game.
    """

    values: Mapping[str, object]
    """The submission's options."""
    game: str | None = None
    """The game of the file's first round (``None``: not read yet)."""
    line: int = 0
    """That round's line."""
    rules: GameRules | None = None
    """The rules rounds are held to, once worked out."""
    fitted: bool = False
    """Whether :attr:`rules` is worked out."""

    def rules_for(self, number: int, game: str) -> GameRules | None:
        """The rules the round at line ``number`` of ``game`` is held to.

        A round of no game at all reports its unknown game itself and
        does not make the submission its game's: the submission holds
        the first round of a game that exists.
        """
        if game != self.game and not _is_game(game):
            return None
        if self.game is None:
            self.game, self.line = game, number
        if game != self.game:
            msg = (
                f"line {number}: a round of {game}, and the Rules "
                f"Submission is {self.game}'s (the game of line "
                f"{self.line}): a Rules Submission holds one game's "
                "rounds; give each game its own (--rules GAME=FILE)"
            )
            raise SubmissionError(msg, line=number)
        if not self.fitted:
            try:
                self.rules = _submission(game, self.values)
            except CroupierError as exc:
                msg = (
                    f"line {number}: the Rules Submission does not fit "
                    f"{game}: {exc}"
                )
                raise SubmissionError(msg, line=number) from None
            self.fitted = True
        return self.rules


@dataclass(frozen=True, slots=True)
class _HeldByGame:
    """Rules Submissions that name their games: each game's rules (D106).

    A round of a game none of them names stops the run at its line; a
    round of no game at all is left to report its unknown game.
    """

    rules: Mapping[str, GameRules]
    """Each named game's rules, worked out when they were given."""

    def rules_for(self, number: int, game: str) -> GameRules | None:
        """The rules the round at line ``number`` of ``game`` is held to."""
        rules = self.rules.get(game)
        if rules is not None:
            return rules
        try:
            find_game(game)
        except CroupierError:
            return None  # the round itself reports the unknown game
        named = ", ".join(self.rules)
        msg = (
            f"line {number}: a round of {game}, and no Rules Submission "
            f"is given for {game} (only for {named}): add one "
            f"(--rules {game}=FILE), or verify its rounds apart"
        )
        raise SubmissionError(msg, line=number)


_Holder = _Held | _HeldByGame
"""The Rules Submissions of a run, as the lines' checks read them."""


def _holder(
    submission: Mapping[str, object] | None,
    submissions: Submissions | None,
) -> _Holder | None:
    """What holds the rounds: one submission's values, or several's."""
    if submission is not None and submissions is not None:
        msg = "give submission or submissions, not both"
        raise CroupierError(msg)
    if submission is not None:
        return _Held(submission)
    if not submissions:
        return None
    plain = submissions.plain
    if plain is not None:
        return _Held(plain)
    return _HeldByGame(dict(submissions.rules_by_game))


def verify_lines(
    lines: Iterable[str | bytes],
    *,
    submission: Mapping[str, object] | None = None,
    submissions: Submissions | None = None,
    workers: int = 1,
    chunk_lines: int = CHUNK_LINES,
    progress: Callable[[int], None] | None = None,
    across: bool = True,
) -> FileReport:
    """Check every line; a malformed line raises :class:`HistoryFormatError`.

    ``submission`` (a Rules Submission file's values) holds every round
    to those rules: the game's defaults overridden by them. A Rules
    Submission is one game's, the game of the first round: a round of
    another game raises :class:`SubmissionError` at its line, and so
    does a first round whose game the submission does not fit.
    ``submissions`` (instead of ``submission``: Rules Submissions
    checked when given, :class:`~croupier.verify.submissions.Submissions`)
    may name each one's game (D106): each game's rounds are held to its
    own, and a round of a game none of them names raises
    :class:`SubmissionError` at its line.
    ``workers``
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
                submissions=submissions,
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
    submissions: Submissions | None = None,
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
    not forked). A malformed line raises :class:`HistoryFormatError`,
    a round the Rules Submission cannot hold :class:`SubmissionError`,
    after the verdicts of the lines before it, whatever ``workers`` is.
    A process that dies or cannot be started raises
    :class:`CheckingProcessError`. The arguments are checked here, before the
    first verdict is asked for.
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
    held = _holder(submission, submissions)
    verdicts = (
        _verify_alone(numbered, held, chunk_lines, progress, across)
        if workers == 1
        else _verify_in_processes(
            numbered, held, workers, chunk_lines, progress, wait, across
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
    held: _Holder | None,
    chunk_lines: int,
    progress: Callable[[int], None] | None,
    ends: bool,
) -> Generator[RoundVerdict, None, None]:
    """One process: each line's verdict when it is read.

    ``progress`` hears after every ``chunk_lines`` lines and after the
    last, as it would from the processes' chunks; with ``ends`` each
    verdict carries what the checks across rounds read.
    """
    rounds = last = 0
    for number, line in numbered:
        last = number
        verdict = _verify_line(number, line, held, ends)
        if verdict is not None:
            rounds += 1
            yield verdict
        if progress is not None and number % chunk_lines == 0:
            progress(rounds)
    if progress is not None and last % chunk_lines:
        progress(rounds)


def _verify_in_processes(
    numbered: Iterator[tuple[int, Line]],
    held: _Holder | None,
    workers: int,
    chunk_lines: int,
    progress: Callable[[int], None] | None,
    wait: float | None,
    ends: bool,
) -> Generator[RoundVerdict, None, None]:
    if isinstance(held, _Held):
        # every process must know the submission's game: the first
        # round's, read here before any chunk goes out
        numbered = _first_game(numbered, held)
    if wait is not None:
        # a log still being written: no look-ahead (its second chunk may
        # be hours away), and the processes spawned, not forked, since a
        # thread reads the lines
        yield from _verify_shared(
            timed_chunks(numbered, chunk_lines, wait=wait),
            held,
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
            chain.from_iterable(ahead), held, chunk_lines, progress, ends
        )
        return
    yield from _verify_shared(
        chain(ahead, chunks), held, workers, progress, _context(), ends
    )


def _first_game(
    numbered: Iterator[tuple[int, Line]], held: _Held
) -> Iterator[tuple[int, Line]]:
    """``numbered`` again, once ``held`` knows the first round's game.

    The lines up to the first round's are read here; a first round that
    cannot be read leaves the game to each process (the run stops at
    that line anyway, as with one process).
    """
    taken: list[tuple[int, Line]] = []
    for number, line in numbered:
        taken.append((number, line))
        if line.strip():
            try:
                history, _ = loads_deferring_steps(line)
            except (KeyError, TypeError, ValueError):
                break
            if not _is_game(history.game):
                continue  # it reports its unknown game itself
            held.game, held.line = history.game, number
            break
    return chain(taken, numbered)


def _verify_shared(
    chunks: Iterable[list[tuple[int, Line]]],
    held: _Holder | None,
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
    asking for verdicts. A process killed (``kill -9``, out of memory)
    or one that cannot be started (the system's limit on processes)
    is a :class:`CheckingProcessError`; the processes already started end
    with it, so that nothing waits for them.
    """
    rounds = 0
    others = set(multiprocessing.active_children())
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_ignore_interrupts
    ) as pool:
        try:
            for verdicts, error in _in_order(
                pool, chunks, held, workers, ends
            ):
                yield from verdicts
                rounds += len(verdicts)
                _raise_or_tell(error, progress, rounds)
        except BrokenProcessPool as exc:
            msg = (
                "a process checking the file ended abruptly (killed, or "
                "out of memory): the rest of the file is not checked"
            )
            raise CheckingProcessError(msg) from exc
        except _NotStartedError as exc:
            _end_started(others)
            pool.shutdown(cancel_futures=True)
            cause = exc.__cause__
            reason = getattr(cause, "strerror", None) or cause
            msg = (
                f"cannot start {workers} processes to check the file "
                f"({reason}): try fewer"
            )
            raise CheckingProcessError(msg) from cause
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise


class _NotStartedError(Exception):
    """A checking process could not be started (its ``OSError`` the cause)."""


def _end_started(others: set[multiprocessing.process.BaseProcess]) -> None:
    """End the processes started since ``others`` were the children.

    A pool whose processes could not all be started leaves those that
    were waiting for work; the interpreter would wait for them at exit.
    """
    for process in set(multiprocessing.active_children()) - others:
        process.terminate()
        process.join(timeout=5)


def _in_order(
    pool: ProcessPoolExecutor,
    chunks: Iterable[list[tuple[int, Line]]],
    held: _Holder | None,
    workers: int,
    ends: bool,
) -> Iterator[_ChunkResult]:
    """Each chunk's result in file order, ``2 * workers`` chunks in flight.

    A result is also taken as soon as it is done and all before it were
    (an empty chunk, which ``chunks`` gives while a live log is quiet,
    is only a chance to look). Handing a chunk out starts processes:
    one that cannot be started is a :class:`_NotStartedError`.
    """
    window: deque[Future[_ChunkResult]] = deque()
    for chunk in chunks:
        if chunk:
            try:
                sent = pool.submit(_verify_chunk, chunk, held, ends)
            except OSError as exc:
                raise _NotStartedError from exc
            window.append(sent)
        while window and (len(window) >= 2 * workers or window[0].done()):
            yield window.popleft().result()
    while window:
        yield window.popleft().result()


def _raise_or_tell(
    error: _ChunkError | None,
    progress: Callable[[int], None] | None,
    rounds: int,
) -> None:
    """Raise what stopped a chunk again, else report the count."""
    if error is not None:
        rules, text, line = error
        if rules and line is not None:
            raise SubmissionError(text, line=line)
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
    held: _Holder | None,
    ends: bool,
) -> _ChunkResult:
    """One process's share: the verdicts up to what stopped it, if any.

    A malformed line or a round the Rules Submission cannot hold
    travels back as its text and line (an exception of the engine's own
    need not survive pickling) and is raised again there.
    """
    verdicts: list[RoundVerdict] = []
    try:
        verdicts.extend(_verify_alone(chunk, held, len(chunk), None, ends))
    except HistoryFormatError as exc:
        return verdicts, (False, str(exc), exc.line)
    except SubmissionError as exc:
        return verdicts, (True, str(exc), exc.line)
    return verdicts, None


def _verify_line(
    number: int,
    line: Line,
    held: _Holder | None,
    ends: bool,
) -> RoundVerdict | None:
    """Line ``number``'s verdict (``None`` for a blank line).

    ``held``: the Rules Submissions, if any, and the games they hold.
    """
    if not line.strip():
        return None
    history, doc = read_at_line(number, loads_deferring_steps, line)
    rules = None if held is None else held.rules_for(number, history.game)
    if doc is None:
        checked = verify_round_strict(history, submission=rules, ends=ends)
    else:
        # the steps are checked against the schema only when they are
        # not exactly the engine's (whose steps meet it): the line is
        # malformed, with the same error, exactly when
        # HandHistory.loads would have said so; a line that writes the
        # engine's steps as they are written needs only the rest of it
        # checked for a key written twice
        try:
            checked, steps = verify_line_strict(
                history, submission=rules, ends=ends, text=line
            )
        except Exception:
            _check_whole(number, line, doc, strict=False)
            raise
        if steps is None or not rest_written_once(line, doc, steps):
            _check_whole(number, line, doc, strict=checked.strict)
    return _new_verdict(
        number,
        history.round_id,
        history.game,
        checked.deviation,
        checked.ends,
        history.shoe.irregularity_test,
        void_of(history),
        _left_out(history.game, history.rules),
    )


_OPTIONS: dict[str, tuple[str, ...]] = {}
"""Each game's option names, in its rules' order."""


def _left_out(game: str, given: Mapping[str, Any]) -> tuple[str, ...]:
    """The options of ``game`` that the record's rules ``given`` leave out.

    A record is to name every option in force (the format's
    ``rules.values``); one that leaves some out, as a record written
    before an option existed does, is replayed with croupier's default
    there (D122), and the verdict says which. An unknown game gives
    none (its round has its own deviation), and so do rules as many as
    the game's options: all of them, or an unknown one among them,
    which the replay reports as rules that are not valid.
    """
    options = _OPTIONS.get(game)
    if options is None:
        try:
            spec = find_game(game)
        except CroupierError:
            return ()
        options = _OPTIONS[game] = tuple(
            o.name for o in spec.rules_type.options()
        )
    if len(given) >= len(options):
        return ()
    return tuple(n for n in options if n not in given)


def _check_whole(
    number: int, line: Line, doc: object, *, strict: bool
) -> None:
    """What :meth:`HandHistory.loads` checks that the replay has not.

    No key written twice, then, unless the steps were the engine's, the
    schema. (A line whose text writes the engine's steps, and the rest
    as :mod:`orjson` writes it, writes no key twice:
    :func:`~croupier.hhf.twice.rest_written_once`, the check of
    croupier's own lines, which costs a re-encoding of all but the
    steps.)
    """

    def check(parsed: object) -> None:
        check_unique_keys(line, parsed)
        if not strict:
            validate(parsed)

    read_at_line(number, check, doc)


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
    submissions: Submissions | None = None,
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
            submissions=submissions,
            workers=workers,
            across=across,
        )
