r"""Files as labs receive them: plain, or packed with gzip, bzip2 or xz.

Hand histories and shuffle files handed to a lab often come compressed.
A file is read as bytes (its reader checks the UTF-8 itself, so that a
line that is not UTF-8 is a bad line with its number, not a crash) and
unpacked by what its first bytes say it is, whatever its name; a file
is written packed when its name ends in ``.gz``, ``.bz2`` or ``.xz``.
Other packings are named, not guessed at: a file whose first
bytes are zstd's, lz4's, a zip or 7z archive's... is refused as such
(:class:`UnreadPackingError`), and a name croupier would write plain
under another packing's suffix (``day.jsonl.zst``) is refused before
anything is written (:func:`refuse_unwritten`).

>>> import io
>>> packed = io.BufferedReader(io.BytesIO(gzip.compress(b'{"a": 1}\n')))
>>> reading(packed).read()
b'{"a": 1}\n'
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, TextIO, cast

from croupier.errors import CroupierError

__all__ = [
    "BOM",
    "MAX_LINE",
    "READ_ERRORS",
    "WRITTEN",
    "LineTooLongError",
    "UnreadPackingError",
    "UnwrittenPackingError",
    "bounded_lines",
    "checked_lines",
    "ends_mid_line",
    "not_text",
    "open_packed",
    "packing_suffix",
    "read_text",
    "reading",
    "refuse_unwritten",
    "writing",
]

_MAGIC = {"gzip": b"\x1f\x8b", "bzip2": b"BZh", "xz": b"\xfd7zXZ\x00"}
"""Each compression's leading bytes."""

WRITTEN = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz"}
"""The suffixes croupier writes packed, and their compression."""

_UNREAD: tuple[tuple[bytes, str, str], ...] = (
    (b"\x28\xb5\x2f\xfd", "a zstd-compressed file", "zstd -d"),
    (b"\x04\x22\x4d\x18", "an lz4-compressed file", "lz4 -d"),
    (b"\x02\x21\x4c\x18", "an lz4-compressed file", "lz4 -d"),
    (b"PK\x03\x04", "a zip archive", "unzip"),
    (b"PK\x05\x06", "a zip archive", "unzip"),
    (b"PK\x07\x08", "a zip archive", "unzip"),
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive", "7z x"),
    (b"\x1f\x9d", "a compress (.Z) file", "uncompress"),
    (b"LZIP\x01", "an lzip-compressed file", "lzip -d"),
    (b"Rar!\x1a\x07", "a RAR archive", "unrar x"),
)
"""Packings croupier does not read: leading bytes, what they make the
file, and a command that unpacks it."""

_UNWRITTEN = {
    ".zst": "zstd",
    ".zstd": "zstd",
    ".tzst": "zstd",
    ".lz4": "lz4",
    ".zip": "zip",
    ".7z": "7z",
    ".rar": "RAR",
    ".bz": "bzip",
    ".tbz": "bzip2",
    ".tbz2": "bzip2",
    ".tgz": "gzip",
    ".txz": "xz",
    ".z": "compress",
    ".br": "brotli",
    ".lz": "lzip",
    ".lzma": "lzma",
    ".lzo": "lzop",
    ".sz": "snappy",
    ".tar": "tar",
}
"""Suffixes of packings and archives croupier does not write (compared
lower case: ``.Z`` is compress's), with the packing's name. (A
``.tgz`` is a gzipped tar archive: croupier writes no archive.)"""

READ_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    EOFError,
    lzma.LZMAError,
    zlib.error,
)
"""What reading a broken or cut-off file raises (a corrupt or truncated
archive among them): the command line words them as "cannot read"."""


MAX_LINE = 16 * 1024 * 1024
"""Longest line read, in bytes: a CHH round is some 10 KiB, a shuffle
some 1.5 KiB; 16 MiB leaves room for any real one (ASSUMED)."""


class LineTooLongError(CroupierError):
    """A line longer than :data:`MAX_LINE`: refused before it is held.

    A hostile or broken file (a gigabyte without a newline, or an
    archive that unpacks to one) would otherwise be read whole.
    """

    def __init__(self, number: int, limit: int) -> None:
        super().__init__(
            f"line {number} is longer than {limit:,} bytes: not a record"
        )
        self.line = number
        """The 1-based line."""


BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte order mark some editors (Windows Notepad among them)
put at the start of a text file: not part of the text."""


def bounded_lines(stream: BinaryIO, limit: int = MAX_LINE) -> Iterator[bytes]:
    r"""Each line of ``stream``, refusing one longer than ``limit`` bytes.

    A byte order mark at the start of the stream is left out (:data:`BOM`).

    >>> import io
    >>> list(bounded_lines(io.BytesIO(b"ab\ncd"), limit=3))
    [b'ab\n', b'cd']
    >>> list(bounded_lines(io.BytesIO(BOM + b"ab\n"), limit=3))
    [b'ab\n']
    >>> list(bounded_lines(io.BytesIO(b"ab\ncdefg\n"), limit=3))
    Traceback (most recent call last):
    croupier.packed.LineTooLongError: line 2 is longer than 3 bytes: ...
    """
    readline = stream.readline
    number = 0
    while line := readline(limit + 1 + (len(BOM) if number == 0 else 0)):
        number += 1
        if number == 1 and line.startswith(BOM):
            line = line[len(BOM) :]
        if len(line) > limit:
            raise LineTooLongError(number, limit)
        yield line


def checked_lines(
    stream: BinaryIO,
    name: str,
    error: type[CroupierError] = CroupierError,
    *,
    unpack: bool = False,
) -> Iterator[bytes]:
    """:func:`bounded_lines` of ``stream``, a failed read raised as ``error``.

    A read that fails on the way (a cut-off archive, a broken pipe's
    reader) is ``error("cannot read NAME: ...")``: bad input, never a
    crash. ``unpack`` reads ``stream`` through :func:`reading` first.
    """
    try:
        yield from bounded_lines(reading(stream) if unpack else stream)
    except READ_ERRORS as exc:
        raise error(f"cannot read {name}: {exc}") from None
    except UnreadPackingError as exc:
        raise exc.named(name) from None


def read_text(path: Path) -> str:
    """The UTF-8 text of a small file a person wrote, byte order mark left out.

    For a Rules Submission, a scenario or a card map: an editor may have
    saved it with a :data:`BOM`, which no parser takes as part of the
    text. Bytes that are not UTF-8 raise :class:`UnicodeDecodeError`.
    """
    return path.read_text(encoding="utf-8-sig")


def not_text(exc: UnicodeDecodeError) -> str:
    r"""How bytes that are not UTF-8 are worded wherever they are met.

    >>> not_text(UnicodeDecodeError("utf-8", b"a\xe9", 1, 2, "invalid"))
    'not UTF-8 text: invalid at byte 1'
    """
    return f"not UTF-8 text: {exc.reason} at byte {exc.start}"


_HEAD = max(
    len(magic)
    for magic in (*_MAGIC.values(), *(magic for magic, _, _ in _UNREAD))
)
"""Bytes enough to tell every packing from plain text (xz's and 7z's six)."""


class UnreadPackingError(CroupierError):
    """A file packed in a way croupier does not unpack (zstd, zip, 7z...).

    Named by its leading bytes, with a command that unpacks it: the
    bytes would otherwise be read as text and refused as "not UTF-8" or
    "not JSON" on line 1, as if the file were broken.
    """

    def __init__(self, what: str, command: str, name: str) -> None:
        super().__init__(
            f"{name} is {what}: unpack it first, e.g. with {command}"
        )
        self.what = what
        """What the file is (``a zstd-compressed file``)."""
        self.command = command
        """A command that unpacks it (``zstd -d``)."""

    def named(self, name: str) -> UnreadPackingError:
        """The same refusal, naming the file or stream ``name``."""
        return UnreadPackingError(self.what, self.command, name)


class UnwrittenPackingError(CroupierError):
    """An output file named for a packing croupier does not write."""


def packing_suffix(path: str | Path) -> tuple[str, str] | None:
    """The suffix of ``path`` that names a packing, and the packing.

    Any packing: those croupier writes (:data:`WRITTEN`) and those it
    does not. ``None`` for any other name.

    >>> packing_suffix("day.jsonl.zst"), packing_suffix("day.jsonl.GZ")
    (('.zst', 'zstd'), ('.GZ', 'gzip'))
    >>> packing_suffix("day.jsonl") is None
    True
    """
    suffix = Path(path).suffix
    packing = WRITTEN.get(suffix.lower()) or _UNWRITTEN.get(suffix.lower())
    return None if packing is None else (suffix, packing)


def refuse_unwritten(path: str | Path, *, packs: bool = True) -> None:
    """Refuse ``path`` as an output name whose packing would be a lie.

    A name ending in a packing's suffix that croupier does not write
    (``.zst``, ``.zip``, ``.7z``, ``.br``...) would get plain text
    under it, which the tools of that packing then refuse; ``packs``
    false (the file is written plain whatever its name: a report, a
    picture, a token) refuses the suffixes croupier packs, too. Raises
    :class:`UnwrittenPackingError` naming what croupier writes (D104).

    >>> refuse_unwritten("day.jsonl.gz")
    >>> refuse_unwritten("day.jsonl.zst")
    Traceback (most recent call last):
    croupier.packed.UnwrittenPackingError: day.jsonl.zst: croupier does \
not write zstd (.zst) files; it compresses to .gz (gzip), .bz2 (bzip2) \
or .xz (xz), and writes any other name as plain text
    """
    found = packing_suffix(path)
    if found is None:
        return
    suffix, packing = found
    if not packs:
        msg = (
            f"{path}: this file is written uncompressed, not as {packing} "
            f"({suffix}): give a name without {suffix}; croupier "
            f"compresses only hand histories, to {_WRITTEN_WORDS}"
        )
        raise UnwrittenPackingError(msg)
    if suffix.lower() not in WRITTEN:
        msg = (
            f"{path}: croupier does not write {packing} ({suffix}) "
            f"files; it compresses to {_WRITTEN_WORDS}, and writes any "
            f"other name as plain text"
        )
        raise UnwrittenPackingError(msg)


_WRITTEN_WORDS = " or ".join(
    ", ".join(f"{s} ({p})" for s, p in WRITTEN.items()).rsplit(", ", 1)
)
"""What croupier writes packed (:data:`WRITTEN`), in words: ``.gz
(gzip), .bz2 (bzip2) or .xz (xz)``."""


def reading(raw: BinaryIO) -> BinaryIO:
    """``raw`` as it reads unpacked.

    A stream that cannot look ahead (``peek``) is read through a buffer
    that can, so that its first bytes are looked at without taking them.
    A pipe gives what its writer has sent so far: while that is less
    than the longest magic number, the rest of it is waited for (or the
    end of the stream), so that an archive sent a byte at a time is
    still seen as one.
    The unpacking stream is the caller's to close (:func:`open_packed`
    does), hence no ``with`` here. A packing croupier does not unpack
    (zstd, lz4, zip, 7z...: by its leading bytes) is an
    :class:`UnreadPackingError`.
    """
    if getattr(raw, "peek", None) is None:
        raw = cast(BinaryIO, io.BufferedReader(cast(io.RawIOBase, raw)))
    head = cast(io.BufferedReader, raw).peek(_HEAD)[:_HEAD]
    if 0 < len(head) < _HEAD and not raw.seekable():
        # a pipe, not a file shorter than the head: read(n) of a
        # buffered stream waits for n bytes or the end
        head = raw.read(_HEAD)
        raw = cast(BinaryIO, io.BufferedReader(_Replayed(head, raw)))
    if head.startswith(_MAGIC["gzip"]):
        return cast(BinaryIO, gzip.GzipFile(fileobj=raw))
    if head.startswith(_MAGIC["bzip2"]):
        return cast(BinaryIO, bz2.BZ2File(raw))
    if head.startswith(_MAGIC["xz"]):
        return cast(BinaryIO, lzma.LZMAFile(raw))
    for magic, what, command in _UNREAD:
        if head.startswith(magic):
            raise UnreadPackingError(what, command, "the input")
    return raw


class _Replayed(io.RawIOBase):
    """``head`` again, then the rest of ``stream``, as it comes.

    Each read after ``head`` is at most one read of ``stream``
    (``read1``), so a live stream's lines pass on as soon as they come.
    Closing this leaves ``stream`` to its owner.
    """

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        super().__init__()
        self._head = head
        self._stream = stream

    def readable(self) -> bool:
        """Always: this only reads."""
        return True

    def fileno(self) -> int:
        """The stream's file descriptor."""
        return self._stream.fileno()

    def readinto(self, buffer: Any) -> int:
        """Fill ``buffer`` from ``head``, else by one read of the stream."""
        view = memoryview(buffer).cast("B")
        if self._head:
            size = min(len(view), len(self._head))
            view[:size] = self._head[:size]
            self._head = self._head[size:]
            return size
        data = cast(io.BufferedReader, self._stream).read1(len(view))
        view[: len(data)] = data
        return len(data)


@contextmanager
def open_packed(path: str | Path) -> Iterator[BinaryIO]:
    """The file at ``path``, unpacked, as bytes lines.

    A packing croupier does not unpack is an :class:`UnreadPackingError`
    naming the file.
    """
    with Path(path).open("rb") as raw:
        try:
            unpacked = reading(raw)
        except UnreadPackingError as exc:
            raise exc.named(str(path)) from None
        try:
            yield unpacked
        finally:
            if unpacked is not raw:
                unpacked.close()


def writing(path: str | Path, *, append: bool = False) -> TextIO:
    """``path`` opened to write text lines, compressed by its suffix.

    ``append`` adds to what is there (a compressed file gets one more
    member or stream, which :func:`open_packed` reads on from the
    last); text whose last line has no newline gets one first, so that
    the first line added is a line of its own, not the end of that one
    (:func:`ends_mid_line`). A name for a packing croupier does not
    write is refused before anything is opened (:func:`refuse_unwritten`).
    The caller closes it (``with writing(path) as out:``).
    """
    target = Path(path)
    refuse_unwritten(target)
    mid_line = append and ends_mid_line(target)
    out = _opened(target, "at" if append else "wt")
    if mid_line:
        out.write("\n")
    return out


def _opened(target: Path, mode: str) -> TextIO:
    """``target`` opened in ``mode``, compressed by its suffix."""
    suffix = target.suffix.lower()
    if suffix == ".gz":
        return cast(TextIO, gzip.open(target, mode, encoding="utf-8"))
    if suffix == ".bz2":
        return cast(TextIO, bz2.open(target, mode, encoding="utf-8"))
    if suffix == ".xz":
        return cast(TextIO, lzma.open(target, mode, encoding="utf-8"))
    return cast(TextIO, target.open(mode[0], encoding="utf-8"))


def ends_mid_line(path: str | Path) -> bool:
    """Whether the file at ``path`` ends in a line that has no newline.

    Read unpacked, as :func:`open_packed` reads it: a plain file's last
    byte, a packed one's last byte once unpacked (read through). No
    file, an empty one, or one that is not a regular file (a pipe):
    ``False``. A packed file that cannot be read is a
    :class:`~croupier.errors.CroupierError` naming it.
    """
    target = Path(path)
    if not target.is_file():
        return False
    try:
        with target.open("rb") as raw:
            unpacked = reading(raw)
            try:
                if unpacked is raw:
                    size = raw.seek(0, io.SEEK_END)
                    if size == 0:
                        return False
                    raw.seek(size - 1)
                    return raw.read(1) != b"\n"
                last = b"\n"
                while chunk := unpacked.read(1 << 16):
                    last = chunk[-1:]
                return last != b"\n"
            finally:
                if unpacked is not raw:
                    unpacked.close()
    except READ_ERRORS as exc:
        msg = f"cannot read {target}: {exc}"
        raise CroupierError(msg) from None
    except UnreadPackingError as exc:
        raise exc.named(str(target)) from None
