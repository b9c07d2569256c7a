"""Files saved with a UTF-8 byte order mark read as the same files without.

Some editors (Windows Notepad among them) start a UTF-8 file with the
bytes EF BB BF. A lab's Rules Submission, scenario, shuffle file, card
map or log saved that way must give what the file gives without them,
never a parse error at line 1, column 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cards import Card
from croupier.cli import app
from croupier.hhf import write_history
from croupier.hhf.sample import sample_histories
from croupier.registry import find_game
from croupier.rngtest import fresh_shoe, live_shuffles
from croupier.rngtest.cardmap import load_card_map
from croupier.rngtest.sources import read_shuffle_file

BOM = b"\xef\xbb\xbf"
SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def _both(path: Path, data: bytes) -> tuple[Path, Path]:
    """``data`` in ``path`` and, with a byte order mark, beside it."""
    path.write_bytes(data)
    marked = path.with_name("bom-" + path.name)
    marked.write_bytes(BOM + data)
    return path, marked


def _run(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), input=stdin)
    return result.exit_code, result.output


def test_a_log_with_a_byte_order_mark(tmp_path: Path) -> None:
    lines = [h.dumps() for h in sample_histories("midibaccarat", 3, seed=2)]
    plain, marked = _both(
        tmp_path / "day.jsonl", ("\r\n".join(lines) + "\r\n").encode()
    )
    want = _run("verify", str(plain))
    assert want[0] == 0, want
    assert _run("verify", str(marked)) == want
    assert _run("verify", "-", stdin=marked.read_bytes()) == want


@pytest.mark.parametrize(
    ("name", "text"),
    [("casino.toml", "decks = 6\n"), ("casino.json", '{"decks": 6}')],
)
def test_a_rules_submission_with_a_byte_order_mark(
    tmp_path: Path, name: str, text: str
) -> None:
    log = tmp_path / "day.jsonl"
    with log.open("w", encoding="utf-8") as handle:
        write_history(sample_histories("midibaccarat", 2, seed=2), handle)
    plain, marked = _both(tmp_path / name, text.encode())
    want = _run("verify", str(log), "--rules", str(plain))
    # held to 6 decks, an 8-deck log deviates: the rules were read
    assert want[0] == 1, want
    # the report names the file each game was held to (D106)
    code, out = _run("verify", str(log), "--rules", str(marked))
    assert (code, out.replace(str(marked), str(plain))) == want


def test_a_scenario_with_a_byte_order_mark(tmp_path: Path) -> None:
    source = SCENARIOS / "midibaccarat" / "629a_10_natural_banker_8.json"
    plain, marked = _both(tmp_path / "s.json", source.read_bytes())
    want = _run("scenario", str(plain))
    assert want[0] == 0, want
    assert _run("scenario", str(marked)) == want
    assert _run("scenario", "-", stdin=marked.read_bytes()) == want


def test_a_shuffle_file_and_card_map_with_a_byte_order_mark(
    tmp_path: Path,
) -> None:
    spec = find_game("six-card-fortune-pai-gow")
    rules = spec.rules_type()
    shuffles = [s.tolist() for s in live_shuffles(spec, rules, 3, seed=1)]
    text = "".join(
        " ".join(str(Card.from_code(c)) for c in s) + "\n" for s in shuffles
    )
    original = fresh_shoe(spec, rules)
    for path in _both(tmp_path / "shoes.txt", text.encode()):
        got = read_shuffle_file(path, original)
        assert [s.tolist() for s in got] == shuffles
    pairs = {f"c{code}": str(Card.from_code(code)) for code in range(53)}
    for name, data in [
        ("map.json", json.dumps(pairs)),
        ("map.toml", "".join(f'{k} = "{v}"\n' for k, v in pairs.items())),
        ("map.txt", "".join(f"{k} {v}\n" for k, v in pairs.items())),
    ]:
        plain, marked = _both(tmp_path / name, data.encode())
        assert load_card_map(marked) == load_card_map(plain)
        assert load_card_map(plain)["c0"] == 0
