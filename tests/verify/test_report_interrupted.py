"""D63: Ctrl-C never leaves a summary that counts a round not listed.

The report counts a verdict and writes it as one step: a SIGINT that
comes in between (here sent by the writer itself, just before it
writes) takes effect once the verdict is both counted and written, so
the interrupted JSON report lists exactly the rounds its summary
counts. (Seen in CI: an interrupted ``verify --workers 2 --json``
reported 9 rounds and listed 8.)
"""

from __future__ import annotations

import io
import json
import os
import signal
from collections.abc import Iterator

import pytest

from croupier.verify.file import RoundVerdict
from croupier.verify.report import JsonReport, write_report


@pytest.fixture(autouse=True)
def _python_handles_sigint() -> Iterator[None]:
    """Python's own SIGINT handler for each test, as in a terminal.

    A process started in the background by a shell without job control
    inherits SIGINT ignored; then the signal these tests send does
    nothing and the report rightly leaves the handler alone.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


class _InterruptedWhileWriting(JsonReport):
    """A JSON report whose third verdict is interrupted mid-write."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__(out)
        self.given = 0

    def verdict(self, verdict: RoundVerdict) -> None:
        self.given += 1
        if self.given == 3:
            os.kill(os.getpid(), signal.SIGINT)
        super().verdict(verdict)


def test_d63_ctrl_c_between_counting_and_writing_keeps_them_equal() -> None:
    verdicts = [
        RoundVerdict(n, f"r{n}", "midibaccarat", None) for n in range(1, 6)
    ]
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        write_report(iter(verdicts), _InterruptedWhileWriting(out))
    report = json.loads(out.getvalue())
    assert report["interrupted"] is True
    # the third verdict, interrupted in the middle, is counted and listed
    assert [r["line"] for r in report["rounds"]] == [1, 2, 3]
    assert report["summary"]["rounds"] == 3
    # Python's own handler is back
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_d63_ctrl_c_while_waiting_for_a_verdict_goes_off_at_once() -> None:
    def verdicts() -> Iterator[RoundVerdict]:
        yield RoundVerdict(1, "r1", "midibaccarat", None)
        os.kill(os.getpid(), signal.SIGINT)
        yield RoundVerdict(2, "r2", "midibaccarat", None)  # never reached

    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        write_report(verdicts(), JsonReport(out))
    report = json.loads(out.getvalue())
    assert [r["line"] for r in report["rounds"]] == [1]
    assert report["summary"]["rounds"] == 1
