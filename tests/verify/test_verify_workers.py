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
import threading
from pathlib import Path

import pytest
from tests.verify.days import mixed_day as _mixed_day
from tests.verify.terminal import on_a_terminal
from typer.testing import CliRunner

from croupier.cli import app
from croupier.errors import CroupierError
from croupier.hhf import HandHistory, HistoryFormatError
from croupier.hhf.sample import sample_histories
from croupier.registry import all_games
from croupier.verify import file, verify_lines
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
    with pytest.raises(CroupierError, match="a process checking the file"):
        verify_lines(lines, workers=2, chunk_lines=3)


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


def test_17_2_an_empty_file_conforms_and_says_it_holds_no_rounds(
    tmp_path: Path,
) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0
    assert "0 rounds, 0 conforming" in result.stdout
    assert "holds no rounds" in result.stderr
    piped = CliRunner().invoke(app, ["verify", "-"], input="")
    assert piped.exit_code == 0
    assert "croupier verify: stdin holds no rounds" in piped.stderr
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


def test_17_2_a_submission_that_does_not_fit_a_game_names_its_line() -> None:
    """A Tie payout submission on a log with Double Back Jack in it."""
    lines, _ = _mixed_day(6)
    games = [HandHistory.loads(line).game for line in lines if line.strip()]
    numbered = [n for n, line in enumerate(lines, 1) if line.strip()]
    offering = {
        spec.name
        for spec in all_games()
        if "tie_payout" in {o.name for o in spec.rules_type.options()}
    }
    assert "double-back-jack" not in offering
    first = next(
        n
        for n, game in zip(numbered, games, strict=True)
        if game not in offering
    )
    submission = {"tie_payout": "9:1"}
    want = f"line {first}: the Rules Submission does not fit"
    with pytest.raises(CroupierError, match=want) as one:
        verify_lines(lines, submission=submission)
    with pytest.raises(CroupierError, match=want) as many:
        verify_lines(lines, submission=submission, workers=2, chunk_lines=4)
    assert str(many.value) == str(one.value)
