"""Issue 17 points 1-2: CHH files as labs get them (compressed, not text).

A vendor's log often comes gzipped, bzipped or xz'd; ``croupier verify``
must read it by what its bytes are, whatever its name, and give the
report of the plain file. A file that is not UTF-8, or an archive cut
off in transit, is a malformed file (exit 2, one line naming what is
wrong), never an internal error or exit 1. The files here are packed by
the standard library's own functions, not by the code under test.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cards import Card
from croupier.cli import app
from croupier.errors import CroupierError
from croupier.hhf import read_history
from croupier.hhf.sample import sample_histories
from croupier.packed import MAX_LINE, open_packed, reading, writing
from croupier.registry import find_game
from croupier.rngtest import fresh_shoe
from croupier.verify import verify_file

PACKERS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": gzip.compress,
    "bzip2": bz2.compress,
    "xz": lzma.compress,
}


def _day() -> bytes:
    lines = [
        h.dumps()
        for game in ("double-back-jack", "six-card-fortune-pai-gow")
        for h in sample_histories(game, 6, seed=8)
    ]
    return ("\n".join(lines) + "\n").encode()


def _verify(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["verify", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("packing", sorted(PACKERS))
def test_17_2_compressed_logs_give_the_plain_report(
    packing: str, tmp_path: Path
) -> None:
    plain = tmp_path / "day.jsonl"
    plain.write_bytes(_day())
    # named as if plain: the bytes, not the name, say how it is packed
    packed = tmp_path / "day-packed.jsonl"
    packed.write_bytes(PACKERS[packing](_day()))
    want = _verify(str(plain), "--json")
    assert want[0] == 0, want
    assert json.loads(want[1])["summary"]["rounds"] == 12
    assert _verify(str(packed), "--json") == want
    assert _verify(str(packed), "--json", "--workers", "2") == want
    assert _verify("-", "--json", stdin=PACKERS[packing](_day())) == want
    assert verify_file(packed).verdicts == verify_file(plain).verdicts


@pytest.mark.parametrize("packing", sorted(PACKERS))
def test_17_2_a_cut_off_archive_is_a_read_error(
    packing: str, tmp_path: Path
) -> None:
    packed = PACKERS[packing](_day())
    path = tmp_path / "cut.jsonl"
    path.write_bytes(packed[: len(packed) // 2])
    code, out, err = _verify(str(path), "--quiet")
    assert code == 2, (out, err)
    assert f"cannot read {path}" in err
    assert "internal error" not in err


def test_17_2_a_line_not_in_utf_8_is_malformed_at_its_line(
    tmp_path: Path,
) -> None:
    lines = _day().splitlines(keepends=True)
    # a Latin-1 "é" (one byte 0xE9) inside the third record's round id
    lines[2] = lines[2].replace(b'"round_id":"', b'"round_id":"\xe9', 1)
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b"".join(lines))
    code, out, err = _verify(str(path))
    assert code == 2, (out, err)
    assert "line 3: not UTF-8 text" in err
    assert "internal error" not in err
    # the same bytes through a compressed file and stdin
    packed = tmp_path / "latin1.jsonl.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert _verify(str(packed))[0] == 2
    assert "line 3: not UTF-8 text" in _verify("-", stdin=path.read_bytes())[2]


@pytest.mark.parametrize(
    ("suffix", "unpack"),
    [
        (".jsonl", lambda b: b),
        (".jsonl.gz", gzip.decompress),
        (".jsonl.bz2", bz2.decompress),
        (".jsonl.xz", lzma.decompress),
    ],
)
def test_17_1_written_files_are_packed_by_their_suffix(
    suffix: str, unpack: Callable[[bytes], bytes], tmp_path: Path
) -> None:
    histories = list(sample_histories("midibaccarat", 4, seed=3))
    path = tmp_path / f"out{suffix}"
    with writing(path) as out:
        out.write(histories[0].dumps() + "\n")
    # appending adds a member (gzip) or a stream (bzip2, xz)
    for history in histories[1:]:
        with writing(path, append=True) as out:
            out.write(history.dumps() + "\n")
    text = unpack(path.read_bytes()).decode()
    assert text == "".join(h.dumps() + "\n" for h in histories)
    assert [h for _, h in read_history(path)] == histories


def test_17_1_scenario_history_appends_to_a_compressed_file(
    tmp_path: Path,
) -> None:
    scenario = next(
        (Path(__file__).resolve().parents[1] / "scenarios").glob(
            "double-back-jack/*.json"
        )
    )
    out = tmp_path / "scenarios.jsonl.gz"
    for _ in range(2):
        result = CliRunner().invoke(
            app, ["scenario", str(scenario), "--history", str(out)]
        )
        assert result.exit_code == 0, result.output
    lines = gzip.decompress(out.read_bytes()).decode().splitlines()
    assert len(lines) == 2
    assert _verify(str(out), "--quiet")[0] == 0


def test_17_1_streams_that_cannot_look_ahead_are_buffered() -> None:
    assert reading(io.BytesIO(gzip.compress(b"x\n"))).read() == b"x\n"
    assert reading(io.BytesIO(b'{"a": 1}\n')).read() == b'{"a": 1}\n'
    packed = io.BufferedReader(io.BytesIO(bz2.compress(b"y\n")))
    assert reading(packed).read() == b"y\n"


def test_17_2_verify_reads_a_real_pipe(tmp_path: Path) -> None:
    """``zcat``-style use: a compressed log piped into the command."""
    path = tmp_path / "day.jsonl.xz"
    path.write_bytes(lzma.compress(_day()))
    with open_packed(path) as handle:
        assert handle.read() == _day()
    command = Path(sys.executable).with_name("croupier")
    run = subprocess.run(  # noqa: S603 - the project's own command
        [str(command), "verify", "-", "--quiet"],
        input=path.read_bytes(),
        capture_output=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert b"12 rounds, 12 conforming" in run.stdout


def test_17_2_a_line_too_long_is_refused_before_it_is_held(
    tmp_path: Path,
) -> None:
    """An archive that unpacks to one endless line: exit 2, not a crash.

    17 MiB of one byte pack to some 17 KiB; the reader stops at 16 MiB.
    """
    first = _day().splitlines(keepends=True)[0]
    bomb = first + b"x" * (MAX_LINE + 1024 * 1024) + b"\n"
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(gzip.compress(bomb))
    assert path.stat().st_size < 100_000
    code, out, err = _verify(str(path), "--quiet")
    assert code == 2, (out, err)
    assert f"line 2 is longer than {MAX_LINE:,} bytes" in err
    # a device's shuffle file: one good shuffle of the pai gow deck, then
    # a line that never ends
    spec = find_game("six-card-fortune-pai-gow")
    deck = fresh_shoe(spec, spec.rules_type())
    good = " ".join(str(Card.from_code(int(c))) for c in deck).encode()
    shuffles = tmp_path / "bomb.txt.gz"
    shuffles.write_bytes(gzip.compress(good + b"\n" + b"x" * (MAX_LINE + 1)))
    result = CliRunner().invoke(
        app, ["rng-test", "--source", str(shuffles), "--game", spec.name]
    )
    assert result.exit_code == 2, result.output
    assert "line 2 is longer than" in result.stderr


@pytest.mark.parametrize("packing", sorted(PACKERS))
def test_17_2_an_archive_piped_a_byte_at_a_time_is_still_unpacked(
    packing: str,
) -> None:
    """A writer that sends the magic number in pieces (a slow link).

    The first read of a pipe gives only what has been sent: the first
    byte alone must not make the stream plain text.
    """
    packed = PACKERS[packing](_day())
    command = Path(sys.executable).with_name("croupier")
    proc = subprocess.Popen(  # noqa: S603 - the project's own command
        [str(command), "verify", "-", "--quiet"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    for i in range(3):  # the head, one byte a write, the reader waiting
        proc.stdin.write(packed[i : i + 1])
        proc.stdin.flush()
        time.sleep(0.2)
    out, err = proc.communicate(packed[3:], timeout=120)
    assert proc.returncode == 0, err
    assert b"12 rounds, 12 conforming" in out


def test_17_2_a_short_plain_stream_reads_whole() -> None:
    """Fewer bytes than a magic number, then the end: plain, all of it."""
    read, write = os.pipe()
    os.write(write, b"ab")
    os.close(write)
    with open(read, "rb") as pipe:
        assert reading(pipe).read() == b"ab"


def _scenario() -> Path:
    return next(
        (Path(__file__).resolve().parents[1] / "scenarios").glob(
            "midibaccarat/*.json"
        )
    )


@pytest.mark.parametrize("suffix", ["", ".gz", ".xz"])
def test_scenario_history_appends_after_a_last_line_without_newline(
    tmp_path: Path, suffix: str
) -> None:
    """A log whose writer left its last line open: a line of its own.

    The round was glued to that line, two records on one line (an
    audit, 2026-12-05); the missing newline is added first.
    """
    (history,) = sample_histories("midibaccarat", 1, seed=3)
    text = history.dumps().encode()  # no final newline
    log = tmp_path / f"day.jsonl{suffix}"
    packers: dict[str, Callable[[bytes], bytes]] = {
        "": bytes,
        ".gz": gzip.compress,
        ".xz": lzma.compress,
    }
    log.write_bytes(packers[suffix](text))
    result = CliRunner().invoke(
        app, ["scenario", str(_scenario()), "--history", str(log)]
    )
    assert result.exit_code == 0, result.output
    with open_packed(log) as handle:
        lines = handle.read().decode().splitlines()
    assert len(lines) == 2
    assert lines[0] == text.decode()
    assert _verify(str(log), "--rounds-alone", "--quiet")[0] == 0


def test_scenario_history_dash_is_refused_not_a_file_named_dash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--history -`` made a file named ``-``: refused, exit 2."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        app, ["scenario", str(_scenario()), "--history", "-"]
    )
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--history': - is standard output" in (
        result.stderr
    )
    assert list(tmp_path.iterdir()) == []


# Packings croupier does not read, by the leading bytes their formats
# define (zstd: RFC 8878 § 3.1.1, frame magic 0xFD2FB528 little-endian;
# lz4: the frame format's magic 0x184D2204 little-endian; zip: a local
# file header's signature "PK\3\4", APPNOTE § 4.3.7; 7z: its six-byte
# signature), each with what the refusal must call it.
UNREAD: dict[str, tuple[bytes, str]] = {
    "zstd": (
        bytes.fromhex("28b52ffd"),
        "a zstd-compressed file: unpack it first, e.g. with zstd -d",
    ),
    "lz4": (
        bytes.fromhex("04224d18"),
        "an lz4-compressed file: unpack it first, e.g. with lz4 -d",
    ),
    "zip": (b"PK\x03\x04", "a zip archive: unpack it first, e.g. with unzip"),
    "7z": (
        b"7z\xbc\xaf\x27\x1c",
        "a 7z archive: unpack it first, e.g. with 7z x",
    ),
}


def _unread(packing: str, payload: bytes) -> bytes:
    """``payload`` behind ``packing``'s leading bytes (a real zip: zipfile)."""
    if packing == "zip":
        import zipfile

        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("day.jsonl", payload)
        return buffer.getvalue()
    # what follows the magic does not matter: it is never unpacked
    return UNREAD[packing][0] + b"\x00\x01" + payload[:200]


@pytest.mark.parametrize("packing", sorted(UNREAD))
def test_verify_names_a_packing_it_does_not_read(
    packing: str, tmp_path: Path
) -> None:
    """A zstd or zip log was "line 1: not UTF-8 text" (or not JSON):
    read as if it were a broken text file. Now named by its leading
    bytes, whatever its name, with a command that unpacks it (exit 2)."""
    path = tmp_path / "day.jsonl"
    path.write_bytes(_unread(packing, _day()))
    said = UNREAD[packing][1]
    for args, stdin, name in (
        ((str(path),), None, str(path)),
        ((str(path), "--workers", "2"), None, str(path)),
        (("-",), path.read_bytes(), "stdin"),
    ):
        code, _, err = _verify(*args, stdin=stdin)
        assert code == 2, err
        assert f"{name} is {said}" in err
        assert "UTF-8" not in err
        assert "line 1" not in err


@pytest.mark.parametrize("packing", sorted(UNREAD))
def test_rng_test_names_a_packing_it_does_not_read(
    packing: str, tmp_path: Path
) -> None:
    spec = find_game("six-card-fortune-pai-gow")
    shoe = fresh_shoe(spec, spec.rules_type())
    line = " ".join(str(Card.from_code(int(c))) for c in shoe) + "\n"
    path = tmp_path / "shuffles.txt"
    path.write_bytes(_unread(packing, (line * 60).encode()))
    said = UNREAD[packing][1]
    args = ["rng-test", "--game", spec.name]
    for source, stdin, name in (
        (str(path), None, str(path)),
        ("-", path.read_bytes(), "stdin"),
    ):
        result = CliRunner().invoke(
            app, [*args, "--source", source], input=stdin
        )
        assert result.exit_code == 2, result.output
        assert f"{name} is {said}" in result.stderr
        assert "UTF-8" not in result.stderr


@pytest.mark.parametrize(
    "suffix",
    [".zst", ".lz4", ".zip", ".7z", ".bz", ".Z", ".br", ".tgz", ".ZST"],
)
def test_writing_refuses_a_packing_it_would_not_write(
    suffix: str, tmp_path: Path
) -> None:
    """``day.jsonl.zst`` got plain JSON Lines under that name: a file
    zstd itself then refuses. Refused before the file is opened."""
    path = tmp_path / f"day.jsonl{suffix}"
    for append in (False, True):
        with pytest.raises(CroupierError) as refused:
            writing(path, append=append)
        assert all(s in str(refused.value) for s in (".gz", ".bz2", ".xz"))
        assert suffix in str(refused.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("suffix", [".zst", ".zip", ".Z", ".7z"])
def test_scenario_history_refuses_a_packing_and_leaves_no_file(
    suffix: str, tmp_path: Path
) -> None:
    log = tmp_path / f"day.jsonl{suffix}"
    result = CliRunner().invoke(
        app, ["scenario", str(_scenario()), "--history", str(log)]
    )
    assert result.exit_code == 2, result.output
    assert result.stdout == ""  # refused before the round ran
    assert "compresses to .gz (gzip), .bz2 (bzip2) or .xz (xz)" in (
        result.stderr
    )
    assert list(tmp_path.iterdir()) == []
