"""Issue 17 point 2: the verifier's report is written as the verdicts come.

A day of an operator's tables is millions of rounds, and a live table's
log can be piped in while it is written: each verdict must be out as
soon as it is known, nothing kept but the summary's counts, and a run
cut short (a malformed line, Ctrl-C) must still end its report. The
expected reports are built here from :func:`verify_round` and
:func:`json.dumps`, not read off the report writers.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import multiprocessing
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.verify.days import mixed_day
from tests.verify.terminal import on_a_terminal
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf import HandHistory, HistoryFormatError
from croupier.verify import RoundVerdict, iter_verdicts, verify_round
from croupier.verify.report import report_json

_COMMAND = Path(sys.executable).with_name("croupier")


def _expected(lines: list[str]) -> list[dict[str, Any]]:
    """Each non-blank line's verdict, worked out round by round."""
    out = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        history = HandHistory.loads(line)
        deviation = verify_round(history)
        out.append(
            {
                "line": number,
                "round_id": history.round_id,
                "game": history.game,
                "conforming": deviation is None,
                "deviation": None
                if deviation is None
                else deviation.to_dict(),
            }
        )
    return out


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    refs = Counter(
        r["deviation"]["ref"] for r in rows if r["deviation"] is not None
    )
    good = sum(r["conforming"] for r in rows)
    return {
        "rounds": len(rows),
        "conforming": good,
        "deviations": len(rows) - good,
        "by_ref": dict(sorted(refs.items())),
    }


def test_17_2_the_json_report_is_one_document_of_every_verdict(
    tmp_path: Path,
) -> None:
    lines, broken = mixed_day(6)
    rows = _expected(lines)
    assert {r["line"] for r in rows if not r["conforming"]} == broken
    path = tmp_path / "day.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path), "--json"])
    assert result.exit_code == 1, result.output
    want = {"rounds": rows, "summary": _summary(rows)}
    assert result.stdout == json.dumps(want) + "\n"
    # --quiet lists the deviations alone; the summary still counts all
    quiet = CliRunner().invoke(app, ["verify", str(path), "--json", "--quiet"])
    assert json.loads(quiet.stdout) == {
        "rounds": [r for r in rows if not r["conforming"]],
        "summary": _summary(rows),
    }


def test_17_2_a_malformed_line_ends_the_report_with_the_rounds_before(
    tmp_path: Path,
) -> None:
    lines, _ = mixed_day(2)
    lines.insert(4, "{not json\n")
    before = _expected(lines[:4])
    path = tmp_path / "day.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path), "--json"])
    assert result.exit_code == 2
    report = json.loads(result.stdout)  # still one valid document
    assert report["rounds"] == before
    assert report["summary"] == _summary(before)
    assert report["error"]["line"] == 5
    assert report["error"]["message"].startswith("line 5: not JSON")
    assert "line 5: not JSON" in result.stderr
    text = CliRunner().invoke(app, ["verify", str(path), "--quiet"])
    assert text.exit_code == 2
    summary = _summary(before)
    assert summary["deviations"] == 1  # the day's fourth line is broken
    assert text.stdout.splitlines() == [
        *(
            f"line {r['line']} round {r['round_id']}: "
            f"{r['deviation']['ref']}: {r['deviation']['message']}"
            for r in before
            if not r["conforming"]
        ),
        f"4 rounds, {summary['conforming']} conforming, 1 with a deviation"
        " (stopped at line 5: the file is malformed)",
        *(f"  {ref}: {n}" for ref, n in summary["by_ref"].items()),
    ]


def test_17_2_report_json_of_no_rounds() -> None:
    from croupier.verify import FileReport

    assert json.loads(report_json(FileReport())) == {
        "rounds": [],
        "summary": {
            "rounds": 0,
            "conforming": 0,
            "deviations": 0,
            "by_ref": {},
        },
    }


class _Source:
    """Lines of a day over and over, counting how many were taken."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self.taken = 0

    def __iter__(self) -> Iterator[str]:
        for line in itertools.cycle(self._lines):
            self.taken += 1
            yield line


@pytest.mark.parametrize(("workers", "chunk"), [(1, 256), (2, 4)])
def test_17_2_verdicts_come_before_the_input_ends(
    workers: int, chunk: int
) -> None:
    """An endless log: the first verdicts come, having read a bounded part.

    A verifier that kept the verdicts (or read the whole input first)
    would never give one.
    """
    lines, _ = mixed_day(3)
    lines = [line for line in lines if line.strip()]
    source = _Source(lines)
    verdicts = iter_verdicts(source, workers=workers, chunk_lines=chunk)
    first = list(itertools.islice(verdicts, 5))
    assert [v.line for v in first] == [1, 2, 3, 4, 5]
    assert [v.round_id for v in first] == [
        HandHistory.loads(line).round_id for line in lines[:5]
    ]
    # one process reads a line for each verdict; processes read at most
    # the window of 2 * workers chunks in flight and the next one
    assert source.taken <= (5 if workers == 1 else chunk * (2 * workers + 2))
    verdicts.close()  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


def test_17_2_the_arguments_are_checked_before_any_verdict() -> None:
    from croupier.errors import CroupierError

    with pytest.raises(CroupierError, match="workers"):
        iter_verdicts([], workers=0)
    with pytest.raises(CroupierError, match="chunk_lines"):
        iter_verdicts([], chunk_lines=0)


def test_17_2_a_malformed_line_comes_after_the_verdicts_before_it() -> None:
    lines, _ = mixed_day(2)
    lines = [line for line in lines if line.strip()]
    lines.insert(3, "[]\n")
    got: list[RoundVerdict] = []
    with pytest.raises(HistoryFormatError) as caught:
        got.extend(iter_verdicts(lines, workers=2, chunk_lines=2))
    assert caught.value.line == 4
    assert [v.line for v in got] == [1, 2, 3]


def _read_lines(stream: Any, count: int, timeout: float) -> list[str]:
    """``count`` lines of a pipe, failing if they take over ``timeout``."""
    got: list[str] = []
    deadline = time.monotonic() + timeout
    buffer = b""
    while len(got) < count:
        left = deadline - time.monotonic()
        assert left > 0, f"only {got} within {timeout} s"
        ready, _, _ = select.select([stream], [], [], left)
        if not ready:
            continue
        data = os.read(stream.fileno(), 65536)
        assert data, f"the pipe closed after {got}"
        buffer += data
        *done, buffer = buffer.split(b"\n")
        got.extend(line.decode() for line in done)
    return got


def _verify_live(*args: str) -> subprocess.Popen[bytes]:
    """``croupier verify - ARGS`` reading a pipe this test writes to.

    stdout is buffered as it is by default (this machine's
    ``PYTHONUNBUFFERED`` left out): the verdicts must be flushed. The
    child gets SIGINT's default action back, as in a terminal: a shell
    that starts the tests in the background (``make test &`` in a
    script) hands them SIGINT ignored, and Python then installs no
    KeyboardInterrupt, so the Ctrl-C these tests send went unheard.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    # a handled signal is reset to its default action in the child
    # (execve), an ignored one stays ignored
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(  # noqa: S603 - the project's own command
            [str(_COMMAND), "verify", "-", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("report", ["text", "--jsonl"])
def test_17_2_a_live_log_on_stdin_is_verified_as_it_is_written(
    report: str,
) -> None:
    """``tail -f day.jsonl | croupier verify -``: each verdict at once.

    Two rounds are written and stdin is left open: their verdicts must
    come without the rest. Then Ctrl-C ends the run with the summary of
    what was checked, and exit 130.
    """
    lines, _ = mixed_day(1)
    lines = [line for line in lines if line.strip()]
    proc = _verify_live(*([] if report == "text" else [report]))
    assert proc.stdin is not None
    assert proc.stdout is not None
    try:
        proc.stdin.write("".join(lines[:2]).encode())
        proc.stdin.flush()
        first = _read_lines(proc.stdout, 2, timeout=60)
        rows = _expected(lines[:2])
        if report == "text":
            assert first == [
                f"line {r['line']} round {r['round_id']}: conforming"
                for r in rows
            ]
        else:
            assert [json.loads(line) for line in first] == rows
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        rest = proc.stdout.read().decode()
        if report == "text":
            assert rest.startswith(
                "2 rounds, 2 conforming, 0 with a deviation (interrupted"
            ), rest
        else:
            assert json.loads(rest) == {
                "interrupted": True,
                "summary": _summary(rows),
            }
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.slow  # several processes
def test_17_2_a_live_log_with_workers_is_verified_as_it_is_written() -> None:
    """``tail -f day.jsonl | croupier verify - --workers 2``.

    Three rounds are written and stdin is left open, far fewer than a
    chunk: their verdicts must still come (a chunk of a live stdin is
    handed out after half a second), then three more. Ctrl-C ends it.
    """
    lines, _ = mixed_day(2)
    lines = [line for line in lines if line.strip()][:6]
    proc = _verify_live("--jsonl", "--workers", "2")
    assert proc.stdin is not None
    assert proc.stdout is not None
    rows = _expected(lines)
    try:
        for start in (0, 3):
            proc.stdin.write("".join(lines[start : start + 3]).encode())
            proc.stdin.flush()
            got = _read_lines(proc.stdout, 3, timeout=60)
            assert [json.loads(line) for line in got] == rows[
                start : start + 3
            ]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
    finally:
        proc.kill()
        proc.wait()


def test_17_2_the_json_lines_report(tmp_path: Path) -> None:
    """A verdict a line, the summary last; cut short, the stop with it."""
    lines, _ = mixed_day(3)
    rows = _expected(lines)
    path = tmp_path / "day.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path), "--jsonl"])
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines() == [
        *(json.dumps(r) for r in rows),
        json.dumps({"summary": _summary(rows)}),
    ]
    quiet = CliRunner().invoke(
        app, ["verify", str(path), "--jsonl", "--quiet"]
    )
    assert [json.loads(x) for x in quiet.stdout.splitlines()] == [
        *(r for r in rows if not r["conforming"]),
        {"summary": _summary(rows)},
    ]
    lines.insert(2, "[]\n")
    path.write_text("".join(lines), encoding="utf-8")
    cut = CliRunner().invoke(app, ["verify", str(path), "--jsonl"])
    assert cut.exit_code == 2
    last = json.loads(cut.stdout.splitlines()[-1])
    assert last["error"]["line"] == 3
    assert last["summary"] == _summary(rows[:2])
    both = CliRunner().invoke(app, ["verify", str(path), "--json", "--jsonl"])
    assert both.exit_code == 2
    assert "choose one report" in both.stderr


_ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def _screen_lines(raw: bytes) -> list[str]:
    """The lines a terminal is left showing, for CR, erase-line and LF.

    Enough of a terminal for the progress line: ``\\r`` goes to the
    start of the line, ``ESC [2K`` erases it, ``ESC [1A`` goes up one;
    other escapes (colours, the cursor hidden) change no text.
    """
    rows: list[list[str]] = [[]]
    row = col = 0
    pos = 0
    while pos < len(raw):
        escape = _ESCAPE.match(raw, pos)
        if escape is not None:
            code = escape.group()
            if code == b"\x1b[2K":
                rows[row] = []
            elif code == b"\x1b[1A":
                row = max(row - 1, 0)
            pos = escape.end()
            continue
        char = raw[pos : pos + 1]
        # one UTF-8 character at a time (the bar's drawing characters)
        width = 1
        while pos + width < len(raw) and raw[pos + width] & 0xC0 == 0x80:
            width += 1
        char = raw[pos : pos + width]
        pos += width
        if char == b"\r":
            col = 0
        elif char == b"\n":
            row += 1
            col = 0
            if row == len(rows):
                rows.append([])
        else:
            line = rows[row]
            line.extend([" "] * (col - len(line)))
            text = char.decode(errors="replace")
            if col < len(line):
                line[col] = text
            else:
                line.append(text)
            col += 1
    return ["".join(r).rstrip() for r in rows]


def test_17_2_verdicts_and_progress_on_one_terminal_stay_apart(
    tmp_path: Path,
) -> None:
    """stdout and stderr on one terminal: every report line reads whole.

    The bar is cleared before the verdicts are written, so none is glued
    to the bar's text, and the bar is gone at the end.
    """
    lines, _ = mixed_day(120)
    path = tmp_path / "day.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    piped = CliRunner().invoke(app, ["verify", str(path), "--quiet"])
    code, _, seen = on_a_terminal(
        "verify", str(path), "--quiet", stdout_too=True
    )
    assert code == 1
    assert b"verifying day.jsonl" in seen  # the bar was drawn
    shown = [line for line in _screen_lines(seen) if line]
    assert shown == piped.stdout.splitlines()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        # the parent is the second field after the command's parentheses
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry.name))
    return out


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie is gone too: it has exited, only its status is left
    return (
        Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        == "Z"
    )


@pytest.mark.slow  # several processes
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_17_2_ctrl_c_with_workers_closes_the_report_and_the_processes() -> (
    None
):
    """``--workers 2 --json`` on a live stdin, stopped by Ctrl-C: exit 130,
    the JSON report one document that says it was interrupted, and no
    checking process left behind."""
    lines, _ = mixed_day(300)
    lines = [line for line in lines if line.strip()]
    # SIGINT's default action, as in a terminal: started by a plain
    # Popen from a test run a script put in the background, the command
    # inherited SIGINT ignored and this test waited for it for ever
    proc = _verify_live("--workers", "2", "--json")
    assert proc.stdin is not None
    assert proc.stdout is not None
    data = "".join(lines).encode()

    def feed() -> None:
        # stdin stays open; the write ends when the command has gone
        assert proc.stdin is not None
        with contextlib.suppress(BrokenPipeError, ValueError):
            proc.stdin.write(data)
            proc.stdin.flush()

    # more than the chunks in flight, so that verdicts come back, written
    # by a thread while this one reads (the report fills a pipe too)
    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        deadline = time.monotonic() + 60
        while not (workers := _children(proc.pid)):
            assert time.monotonic() < deadline, "no checking process"
            time.sleep(0.05)
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "no verdict came"
        proc.send_signal(signal.SIGINT)
        # a command that does not end is killed: a failure, not a hang
        stop = threading.Timer(60, proc.kill)
        stop.start()
        try:
            out = proc.stdout.read()
            proc.wait(timeout=60)
        finally:
            stop.cancel()
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130
    report = json.loads(out)
    assert report["interrupted"] is True
    assert report["summary"]["rounds"] == len(report["rounds"]) > 0
    assert [r["line"] for r in report["rounds"]] == list(
        range(1, len(report["rounds"]) + 1)
    )
    deadline = time.monotonic() + 30
    while not all(_gone(pid) for pid in workers):
        assert time.monotonic() < deadline, "a checking process was left"
        time.sleep(0.05)
