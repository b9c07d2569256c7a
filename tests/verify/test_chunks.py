"""Chunks of a log still being written: handed out before they fill.

The sources here hold back their next line until the test lets them go,
as a live table's log does; what must come before that is decided by
the test, not read off the code.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from croupier.errors import CroupierError
from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.verify import iter_verdicts, verify_round
from croupier.verify.chunks import timed_chunks


def _held_back(
    first: list[str], rest: list[str], go: threading.Event
) -> Iterator[str]:
    yield from first
    assert go.wait(60), "the test never let the source go on"
    yield from rest


def test_a_chunk_is_handed_out_before_it_fills() -> None:
    go = threading.Event()
    chunks = timed_chunks(
        _held_back(["a", "b", "c"], ["d"], go), 256, wait=0.1
    )
    assert next(chunks) == ["a", "b", "c"]
    # nothing comes for a while: an empty chunk, more than once
    assert next(chunks) == []
    assert next(chunks) == []
    go.set()
    rest = [c for c in chunks if c]
    assert rest == [["d"]]


def test_a_full_chunk_does_not_wait() -> None:
    go = threading.Event()
    chunks = timed_chunks(_held_back(list("abcde"), [], go), 2, wait=60.0)
    assert next(chunks) == ["a", "b"]
    assert next(chunks) == ["c", "d"]
    go.set()
    assert list(chunks) == [["e"]]


def test_a_read_error_is_raised_in_order() -> None:
    def broken() -> Iterator[str]:
        yield "a"
        msg = "cannot read stdin: the link broke"
        raise OSError(msg)

    chunks = timed_chunks(broken(), 256, wait=30.0)
    with pytest.raises(OSError, match="the link broke"):
        next(chunks)


@pytest.mark.slow  # several processes
def test_verdicts_of_a_live_log_with_processes_come_as_it_is_written() -> None:
    rounds = [
        h.dumps() for h in sample_histories("double-back-jack", 5, seed=2)
    ]
    go = threading.Event()
    verdicts = iter_verdicts(
        _held_back(rounds[:3], rounds[3:], go), workers=2, wait=0.2
    )
    got = [next(verdicts) for _ in range(3)]
    assert [v.line for v in got] == [1, 2, 3]
    assert all(v.conforming for v in got)
    go.set()
    rest = list(verdicts)
    assert [v.line for v in rest] == [4, 5]
    assert all(
        (v.deviation is None) == (verify_round(HandHistory.loads(r)) is None)
        for v, r in zip([*got, *rest], rounds, strict=True)
    )


def test_wait_is_a_positive_number_of_seconds() -> None:
    with pytest.raises(CroupierError, match="wait is a number of seconds"):
        iter_verdicts([], workers=2, wait=0)
