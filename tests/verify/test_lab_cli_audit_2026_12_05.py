"""The lab tools under careless or hostile input (an audit, 2026-12-05).

Each of these ended in ``internal error`` (exit 70), started processes
without bound, or let a log's text act on the terminal. Illegal input
gets a typed error naming it, exit 2, and nothing left behind.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf.sample import sample_histories
from croupier.verify.report import printable


def _log(path: Path) -> Path:
    [history] = sample_histories("21-baccarat", 1, seed=2)
    path.write_text(history.dumps() + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("value", [[1, 2], "decks", 6, None])
def test_a_rules_file_that_is_not_a_table(
    tmp_path: Path, value: object
) -> None:
    rules = tmp_path / "casino.json"
    rules.write_text(json.dumps(value), encoding="utf-8")
    log = _log(tmp_path / "day.jsonl")
    for args in (
        ["verify", str(log), "--rules", str(rules)],
        ["rng-test", "--shuffles", "50", "--seed", "1", "--rules", str(rules)],
    ):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "table of options" in result.output
        assert "internal error" not in result.output


def test_workers_are_bounded(tmp_path: Path) -> None:
    log = _log(tmp_path / "day.jsonl")
    result = CliRunner().invoke(
        app, ["verify", str(log), "--workers", "100000"]
    )
    assert result.exit_code == 2
    assert "--workers" in result.output


def test_rng_test_seed_is_not_negative() -> None:
    result = CliRunner().invoke(app, ["rng-test", "--seed", "-1"])
    assert result.exit_code == 2
    assert "--seed" in result.output


def test_replay_round_id_past_64_bits() -> None:
    result = CliRunner().invoke(app, ["replay", "99999999999999999999"])
    assert result.exit_code == 2
    assert "internal error" not in result.output


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("sqlite:///{tmp}/typo.db", "no database at"),
        ("notaurl", "not a database URL"),
        # refused before anything connects (it was "cannot read rounds")
        ("bogus://x", "stores in SQLite or PostgreSQL, not bogus"),
        ("sqlite:///{tmp}/junk.db", "cannot read rounds"),
    ],
)
def test_history_export_from_no_database(
    tmp_path: Path, url: str, said: str
) -> None:
    (tmp_path / "junk.db").write_text("not a database\n", encoding="utf-8")
    out = tmp_path / "day.jsonl"
    db = url.format(tmp=tmp_path)
    result = CliRunner().invoke(
        app, ["history", "export", "--db", db, "--out", str(out)]
    )
    assert result.exit_code == 2, result.output
    assert said in result.output
    # nothing left behind: no empty database, no partial export
    assert not (tmp_path / "typo.db").exists()
    assert not out.exists()


def test_a_round_id_cannot_forge_a_verdict_line(tmp_path: Path) -> None:
    """A newline or escape sequence in a log's text is shown escaped."""
    [history] = sample_histories("21-baccarat", 1, seed=2)
    doc = json.loads(history.dumps())
    doc["round_id"] = "r1: conforming\nline 2 round r2: conforming\x1b[8m"
    log = tmp_path / "day.jsonl"
    log.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(log)])
    verdicts = [
        line for line in result.output.splitlines() if line.startswith("line ")
    ]
    assert len(verdicts) == 1, result.output
    assert "\x1b" not in result.output
    assert "\\n" in verdicts[0]
    assert "\\x1b[8m" in verdicts[0]


def test_printable_leaves_plain_text_alone() -> None:
    text = "line 3 round café-7: 591.7(o): dealer stood on 16"
    assert printable(text) is text
    assert printable("a\tb") == "a\\tb"
