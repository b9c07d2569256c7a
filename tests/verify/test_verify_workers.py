"""Issue 17 point 2: `croupier verify --workers N`, the one-process report.

The file is cut into chunks that processes check side by side; the
report must be the one process's verdict for verdict (file order, line
numbers, deviations), and a malformed line must stop the run with the
same error naming the same line. Which lines are broken is decided
here, not read off the verifier.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from tests.verify.days import mixed_day as _mixed_day
from tests.verify.terminal import on_a_terminal
from typer.testing import CliRunner

from croupier.cli import app
from croupier.errors import CroupierError
from croupier.hhf import HandHistory, HistoryFormatError
from croupier.hhf.sample import sample_histories
from croupier.verify import RoundVerdict, file, iter_verdicts, verify_lines
from croupier.verify.report import report_json


def test_17_2_workers_give_the_one_process_report() -> None:
    lines, broken = _mixed_day(12)
    one = verify_lines(lines)
    assert {v.line for v in one.verdicts if not v.conforming} == broken
    for workers, chunk in ((2, 1), (2, 7), (3, 5), (2, 1000)):
        many = verify_lines(lines, workers=workers, chunk_lines=chunk)
        assert report_json(many) == report_json(one), (workers, chunk)


def test_17_2_workers_name_the_first_malformed_line() -> None:
    lines, broken = _mixed_day(8)
    bad = 31
    assert bad not in broken
    lines[bad - 1] = lines[bad - 1][:-40] + "\n"  # cut off: not JSON
    lines[bad + 5] = "{}\n"  # a later malformed line is not reached
    with pytest.raises(HistoryFormatError) as one:
        verify_lines(lines)
    assert one.value.line == bad
    for chunk in (1, 4, 30):
        with pytest.raises(HistoryFormatError) as many:
            verify_lines(lines, workers=2, chunk_lines=chunk)
        assert many.value.line == bad
        assert str(many.value) == str(one.value)


def test_17_2_workers_spawn_processes_while_other_threads_run() -> None:
    """With a second thread alive the processes are spawned, not forked."""
    lines, _ = _mixed_day(4)
    release = threading.Event()
    waiter = threading.Thread(target=release.wait, daemon=True)
    waiter.start()
    try:
        assert file._context().get_start_method() == "spawn"
        many = verify_lines(lines, workers=2, chunk_lines=6)
    finally:
        release.set()
        waiter.join()
    assert report_json(many) == report_json(verify_lines(lines))


@pytest.mark.parametrize(
    ("workers", "chunk"),
    [(0, 10), (-2, 10), (2, 0)],
    ids=["zero", "neg", "chunk"],
)
def test_17_2_workers_out_of_range_are_refused(
    workers: int, chunk: int
) -> None:
    lines, _ = _mixed_day(1)
    with pytest.raises(CroupierError, match="1 or more"):
        verify_lines(lines, workers=workers, chunk_lines=chunk)


def test_17_2_cli_workers(tmp_path: Path) -> None:
    """The CLI's ``--workers`` over more than one chunk, and bad values."""
    lines, broken = _mixed_day(60)
    path = tmp_path / "day.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    runner = CliRunner()
    one = runner.invoke(app, ["verify", str(path), "--json"])
    two = runner.invoke(app, ["verify", str(path), "--json", "--workers", "2"])
    assert one.exit_code == two.exit_code == 1, two.output
    assert two.stdout == one.stdout
    report = json.loads(two.stdout)
    assert report["summary"]["rounds"] == 300
    assert report["summary"]["deviations"] == len(broken)
    every = runner.invoke(
        app, ["verify", str(path), "--json", "--workers", "0"]
    )
    assert every.stdout == one.stdout  # 0: every core
    for value in ("-1", "two"):
        result = runner.invoke(app, ["verify", str(path), "--workers", value])
        assert result.exit_code == 2, value
        assert "--workers" in result.output


def _dies(
    chunk: list[tuple[int, str]], submission: object, ends: bool
) -> object:
    """A checking process killed mid-file (out of memory, say)."""
    os._exit(9)


def test_17_2_workers_a_process_that_dies_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines, _ = _mixed_day(2)
    # forked processes see the patched module: the chunk's function is
    # looked up there by name when the pool sends it
    _dies.__module__, _dies.__qualname__ = file.__name__, "_verify_chunk"
    monkeypatch.setattr(file, "_verify_chunk", _dies)
    monkeypatch.setattr(
        file, "_context", lambda: multiprocessing.get_context("fork")
    )
    # no fault of the file: not a CroupierError (bad input, exit 2)
    with pytest.raises(file.CheckingProcessError, match="ended abruptly"):
        verify_lines(lines, workers=2, chunk_lines=3)


def _dies_after_the_first(
    chunk: list[tuple[int, str | bytes]], held: Any, ends: bool
) -> object:
    """The process given the second chunk is killed (``kill -9``)."""
    if chunk[0][0] > 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return _VERIFY_CHUNK(chunk, held, ends)


_VERIFY_CHUNK = file._verify_chunk


def test_17_2_cli_a_killed_process_exits_70_not_malformed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``kill -9`` of a process: internal failure, never "malformed"."""
    (history,) = sample_histories("midibaccarat", 1, seed=3)
    path = tmp_path / "day.jsonl"
    path.write_text((history.dumps() + "\n") * 600, encoding="utf-8")
    _dies_after_the_first.__module__ = file.__name__
    _dies_after_the_first.__qualname__ = "_verify_chunk"
    monkeypatch.setattr(file, "_verify_chunk", _dies_after_the_first)
    monkeypatch.setattr(
        file, "_context", lambda: multiprocessing.get_context("fork")
    )
    result = CliRunner().invoke(
        app, ["verify", str(path), "--quiet", "--workers", "2"]
    )
    assert result.exit_code == 70, result.output
    assert "malformed" not in result.output
    assert (
        "verify: a process checking the file ended abruptly (killed, or "
        "out of memory): the rest of the file is not checked"
    ) in result.stderr
    assert result.stdout.endswith(
        "(stopped: a process checking the file failed; the rest of the "
        "file is not checked)\n"
    )


_NO_SECOND_PROCESS = """
import errno, sys
import multiprocessing.process as mp
start, started = mp.BaseProcess.start, []
def refuse(self):
    # the system's limit on processes (ulimit -u) reached at the second
    if started:
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
    started.append(self)
    start(self)
mp.BaseProcess.start = refuse
sys.argv[0] = "croupier"
from croupier.cli import main
main()
"""


def test_17_2_cli_processes_that_cannot_start_exit_at_once(
    tmp_path: Path,
) -> None:
    """``ulimit -u`` reached: a clear error and exit 70, not a hang.

    The process started first waited for work for ever, and the
    interpreter for it at exit.
    """
    (history,) = sample_histories("midibaccarat", 1, seed=3)
    path = tmp_path / "day.jsonl"
    path.write_text((history.dumps() + "\n") * 600, encoding="utf-8")
    done = subprocess.run(  # noqa: S603 - this interpreter, fixed code
        [
            sys.executable,
            "-c",
            _NO_SECOND_PROCESS,
            "verify",
            str(path),
            "--quiet",
            "--workers",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 70, done.stderr
    assert done.stderr == (
        "croupier verify: cannot start 3 processes to check the file "
        "(Resource temporarily unavailable): try fewer\n"
    )
    assert done.stdout == (
        "0 rounds, 0 conforming, 0 with a deviation (stopped: a process "
        "checking the file failed; the rest of the file is not checked)\n"
    )


def test_17_2_cli_a_mixed_log_under_one_submission_same_with_workers(
    tmp_path: Path,
) -> None:
    """The audit's mixed log under ``decks = 6``: one report, any workers.

    One process said 200 rounds, two said 0; the JSON error had no line.
    """
    (dbj,) = sample_histories("double-back-jack", 1, seed=3)
    (midi,) = sample_histories("midibaccarat", 1, seed=3)
    path = tmp_path / "day.jsonl"
    path.write_text(
        (dbj.dumps() + "\n") * 50 + (midi.dumps() + "\n") * 250,
        encoding="utf-8",
    )
    rules = tmp_path / "d6.toml"
    rules.write_text("decks = 6\n", encoding="utf-8")
    args = ["verify", str(path), "--rules", str(rules), "--json"]
    alone = CliRunner().invoke(app, args)
    shared = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert alone.exit_code == shared.exit_code == 2, alone.output
    assert (shared.stdout, shared.stderr) == (alone.stdout, alone.stderr)
    report = json.loads(alone.stdout)
    assert report["summary"]["rounds"] == 50
    assert report["error"]["line"] == 51
    assert report["error"]["message"] == (
        "line 51: a round of midibaccarat, and the Rules Submission is "
        "double-back-jack's (the game of line 1): a Rules Submission "
        "holds one game's rounds; give each game its own (--rules GAME=FILE)"
    )


def _rounds_per_chunk(lines: list[str], size: int) -> list[int]:
    """Rounds (non-blank lines) checked after each chunk of ``size``."""
    done, out = 0, []
    for start in range(0, len(lines), size):
        done += sum(bool(line.strip()) for line in lines[start : start + size])
        out.append(done)
    return out


@pytest.mark.parametrize("workers", [1, 2])
def test_17_2_progress_counts_the_rounds_checked(workers: int) -> None:
    lines, _ = _mixed_day(9)
    calls: list[int] = []
    report = verify_lines(
        lines, workers=workers, chunk_lines=8, progress=calls.append
    )
    assert calls == _rounds_per_chunk(lines, 8)
    assert calls[-1] == report.rounds == 45


def _on_a_terminal(*args: str) -> tuple[int, str, str]:
    """``croupier`` with stderr on a pseudo-terminal: (code, stdout, tty)."""
    code, out, seen = on_a_terminal(*args)
    return code, out, seen.decode(errors="replace")


def test_17_2_a_terminal_shows_progress_and_a_pipe_does_not(
    tmp_path: Path,
) -> None:
    lines, broken = _mixed_day(60)
    path = tmp_path / "day.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    code, out, tty = _on_a_terminal("verify", str(path), "--quiet")
    assert code == 1
    assert "verifying day.jsonl" in tty
    assert "300 rounds" in tty  # the last count, before the bar goes
    assert f"300 rounds, {300 - len(broken)} conforming" in out
    piped = CliRunner().invoke(app, ["verify", str(path), "--quiet"])
    assert piped.stdout == out
    assert "verifying" not in piped.stderr


def test_17_2_the_progress_line_runs_no_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A drawing thread would make the checking processes spawn (D58)."""
    from rich.console import Console

    from croupier.cli import verify as command

    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100)
    monkeypatch.setattr(command, "err_console", terminal)
    before = threading.active_count()
    with command._progress("day.jsonl", None) as shown:
        shown.progress(None)(512)
        assert threading.active_count() == before
    assert "512 rounds" in screen.getvalue()


def test_17_2_an_empty_file_is_no_verdict_unless_allowed(
    tmp_path: Path,
) -> None:
    """D129: no round read is exit 2 (nothing verified), not a pass;
    ``--allow-empty`` takes it for a table that dealt none (exit 0)."""
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "0 rounds, 0 conforming" in result.stdout
    assert "holds no rounds, so nothing was verified" in result.stderr
    allowed = CliRunner().invoke(app, ["verify", str(path), "--allow-empty"])
    assert allowed.exit_code == 0
    assert "holds no rounds" in allowed.stderr
    piped = CliRunner().invoke(app, ["verify", "-"], input="")
    assert piped.exit_code == 2
    assert "croupier verify: stdin holds no rounds" in piped.stderr
    piped = CliRunner().invoke(
        app, ["verify", "-", "--allow-empty", "--json"], input=""
    )
    assert piped.exit_code == 0
    full = CliRunner().invoke(app, ["verify", str(tmp_path / "x.jsonl")])
    assert "holds no rounds" not in full.stderr  # a missing file: exit 2
    assert full.exit_code == 2


def test_17_2_workers_hold_every_round_to_the_rules_submission(
    tmp_path: Path,
) -> None:
    """The Rules Submission reaches every process: the same deviations."""
    rounds = list(sample_histories("midibaccarat", 40, seed=4))
    path = tmp_path / "day.jsonl"
    path.write_text("".join(h.dumps() + "\n" for h in rounds), "utf-8")
    other = tmp_path / "other.toml"
    other.write_text('tie_payout = "9:1"\n', encoding="utf-8")
    submission = {"tie_payout": "9:1"}
    one = verify_lines(
        path.read_text("utf-8").splitlines(), submission=submission
    )
    assert one.conforming == 0
    many = verify_lines(
        path.read_text("utf-8").splitlines(),
        submission=submission,
        workers=2,
        chunk_lines=7,
    )
    assert report_json(many) == report_json(one)
    args = ["verify", str(path), "--rules", str(other), "--json"]
    alone = CliRunner().invoke(app, args)
    shared = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert alone.exit_code == shared.exit_code == 1
    assert shared.stdout == alone.stdout
    assert json.loads(alone.stdout)["summary"]["by_ref"] == one.by_ref()


def test_17_2_a_submission_holds_the_first_rounds_game_alone() -> None:
    """A mixed log: the first round of another game stops the run there.

    A Rules Submission is one game's: one process or several, the same
    rounds before it and the same error, naming line and game.
    """
    lines, _ = _mixed_day(6)
    games = [HandHistory.loads(line).game for line in lines if line.strip()]
    numbered = [n for n, line in enumerate(lines, 1) if line.strip()]
    first = next(
        n for n, game in zip(numbered, games, strict=True) if game != games[0]
    )
    other = games[numbered.index(first)]
    submission = {"decks": 6}
    want = (
        f"line {first}: a round of {other}, and the Rules Submission is "
        f"{games[0]}'s (the game of line 1)"
    )
    seen: list[list[RoundVerdict]] = []
    for workers, chunk in ((1, 256), (2, 1), (2, 4)):
        got: list[RoundVerdict] = []
        with pytest.raises(CroupierError, match=re.escape(want)) as error:
            got.extend(
                iter_verdicts(
                    lines,
                    submission=submission,
                    workers=workers,
                    chunk_lines=chunk,
                )
            )
        assert getattr(error.value, "line", None) == first
        seen.append(got)
    assert seen[0] == seen[1] == seen[2]
    assert [v.line for v in seen[0]] == numbered[: numbered.index(first)]


def test_17_2_a_submission_that_does_not_fit_the_game_names_its_line(
    tmp_path: Path,
) -> None:
    """Double Back Jack held to a Tie payout: exit 2 at its first round."""
    path = tmp_path / "day.jsonl"
    (line,) = sample_histories("double-back-jack", 1, seed=3)
    # more lines than a process's chunk, so that --workers 2 shares them
    path.write_text((line.dumps() + "\n") * 300, encoding="utf-8")
    rules = tmp_path / "tie.toml"
    rules.write_text('tie_payout = "9:1"\n', encoding="utf-8")
    args = ["verify", str(path), "--rules", str(rules), "--json"]
    alone = CliRunner().invoke(app, args)
    shared = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert alone.exit_code == shared.exit_code == 2, alone.output
    assert shared.stdout == alone.stdout
    assert shared.stderr == alone.stderr
    assert (
        "verify: line 1: the Rules Submission does not fit "
        'double-back-jack: rules option "tie_payout": unknown option'
    ) in alone.stderr
    report = json.loads(alone.stdout)
    assert report["error"]["line"] == 1
    assert report["error"]["kind"] == "rules"
