"""A file's lines in chunks for the checking processes, live logs too.

Processes take lines a chunk at a time (``CHUNK_LINES``). From a file a
chunk fills at once; from a log still being written (``tail -f day.jsonl
| croupier verify - --workers 2``) it may take hours, so there a chunk is
also handed out once ``wait`` seconds have passed since its first line
came: a verdict then comes within about ``wait`` seconds of its line.
The lines are read by a thread of their own, so that waiting for the
next line never stops a chunk that has waited long enough.

>>> list(chunks(enumerate("abcde"), 2))
[[(0, 'a'), (1, 'b')], [(2, 'c'), (3, 'd')], [(4, 'e')]]
>>> list(timed_chunks(enumerate("abcde"), 2, wait=5.0))
[[(0, 'a'), (1, 'b')], [(2, 'c'), (3, 'd')], [(4, 'e')]]
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TypeVar

__all__ = ["chunks", "timed_chunks"]

_T = TypeVar("_T")


def chunks(items: Iterable[_T], size: int) -> Iterator[list[_T]]:
    """``items`` in lists of ``size`` (the last one shorter)."""
    source = iter(items)
    while chunk := list(islice(source, size)):
        yield chunk


@dataclass(frozen=True, slots=True)
class _Failed:
    """Reading stopped with this error (raised again by the consumer)."""

    error: BaseException


_END = object()
"""The reader's last item: the lines have ended."""


def timed_chunks(
    items: Iterable[_T], size: int, *, wait: float
) -> Iterator[list[_T]]:
    """``items`` in lists of ``size``, or fewer after ``wait`` seconds.

    A list is handed out when it holds ``size`` items, when ``wait``
    seconds have passed since its first item came, or at the end; and an
    empty list each time ``wait`` seconds pass with no item at all, so
    that the caller can see to other work meanwhile. An error raised
    while reading is raised here, in order, the items of the unfinished
    list dropped (as :func:`chunks` drops them). Closing
    the generator stops the reader at its next item; a reader blocked
    on its source (a pipe that stays open) is left to end with the
    process (a daemon thread).
    """
    lines: queue.Queue[object] = queue.Queue(maxsize=4 * size)
    stop = threading.Event()

    def put(item: object) -> bool:
        while not stop.is_set():
            try:
                lines.put(item, timeout=0.1)
            except queue.Full:
                continue
            return True
        return False

    def read() -> None:
        try:
            for item in items:
                if not put(item):
                    return
        except BaseException as exc:  # raised again by the consumer
            put(_Failed(exc))
            return
        put(_END)

    reader = threading.Thread(target=read, name="chunk-reader", daemon=True)
    reader.start()
    try:
        while True:
            try:
                first = lines.get(timeout=wait)
            except queue.Empty:
                yield []
                continue
            if first is _END:
                return
            if isinstance(first, _Failed):
                raise first.error
            chunk: list[_T] = [first]  # type: ignore[list-item]
            deadline = time.monotonic() + wait
            while len(chunk) < size:
                try:
                    item = lines.get(
                        timeout=max(0.0, deadline - time.monotonic())
                    )
                except queue.Empty:
                    break
                if item is _END:
                    yield chunk
                    return
                if isinstance(item, _Failed):
                    raise item.error
                chunk.append(item)  # type: ignore[arg-type]
            yield chunk
    finally:
        stop.set()
