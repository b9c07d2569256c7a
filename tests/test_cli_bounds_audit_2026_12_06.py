"""Huge numbers, broken databases, empty files (audit of 2026-12-06).

Each test is a command line that ended in ``internal error`` (exit 70:
a ``MemoryError``, an ``OverflowError``, a driver's error), started
when it should not have, or refused without saying what was wrong.
Each is now one line on stderr naming the option or the problem, exit
2, and nothing runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.refusals import invoke as _invoke
from tests.refusals import refused as _refused

HOLD = ["design", "21-baccarat", "bonus", "--target-hold", "5..8"]
"""A design search the bad option is added to."""


@pytest.mark.parametrize("rounds", ["99999999999999999999999", str(2**63 - 1)])
def test_simulate_refuses_more_rounds_than_it_can_plan(rounds: str) -> None:
    """``--rounds 2^63 - 1`` built a chunk list of 9 * 10^12 entries:
    ``MemoryError``, exit 70."""
    pytest.importorskip("numba")
    _refused(
        ["simulate", "21-baccarat", "--rounds", rounds],
        "'--rounds'",
        "1000000000000",
    )


def test_simulate_refuses_a_plan_of_too_many_chunks() -> None:
    """The rounds within bounds but in chunks of one: a list of 10^12
    chunks, refused naming --chunk."""
    pytest.importorskip("numba")
    _refused(
        [
            "simulate",
            "midibaccarat",
            "--rounds",
            "10000000000",
            "--chunk",
            "1",
        ],
        "more than 1,000,000 chunks",
        "--chunk",
    )


def test_simulate_help_states_the_bound_of_rounds() -> None:
    pytest.importorskip("numba")
    result = _invoke(["simulate", "--help"])
    assert result.exit_code == 0
    assert "1<=x<=1000000000000" in result.output
    assert "10^12" in result.output


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--hours", "1e308"], ("'--hours'", "8760")),
        (["--hours", "inf"], ("'--hours'", "8760")),
        (["--rounds", str(2**63 - 1)], ("'--rounds'", "1000000000000")),
        (["--average-wager", "1e400"], ("--average-wager", "at most $")),
        (["--table-maximum", "1e400"], ("--table-maximum", "at most $")),
    ],
    ids=["hours", "hours-inf", "rounds", "average-wager", "table-maximum"],
)
def test_report_refuses_numbers_past_its_bounds(
    tmp_path: Path, args: list[str], needles: tuple[str, ...]
) -> None:
    """``OverflowError`` (float infinity to int, int too large to
    convert to float) or ``MemoryError``: exit 70 before."""
    pytest.importorskip("numba")
    out = tmp_path / "r.json"
    _refused(["report", "midibaccarat", "--out", str(out), *args], *needles)
    assert not out.exists()


@pytest.mark.parametrize("target", ["nan", "inf"])
def test_design_refuses_a_target_that_is_no_number(target: str) -> None:
    """``Fraction('nan')``: ValueError, exit 70."""
    _refused(
        [*HOLD, "--target", target],
        f"--target {target}",
        "percent",
    )


def test_design_decks_are_bounded_by_the_rules_decks_option() -> None:
    """``--price --decks 100000``: "math domain error", exit 70; the
    rules' ``decks`` option stops at 8."""
    _refused(
        ["design", "21-baccarat", "bonus", "--price", "--decks", "100000"],
        "--decks 100000",
        "above the maximum 8",
    )
    result = _invoke(
        ["design", "21-baccarat", "bonus", "--price", "--decks", "8"]
    )
    assert result.exit_code == 0, result.output
    assert "8 decks: hold" in result.output


@pytest.mark.parametrize("nodes", ["-1", "0"])
def test_design_max_nodes_is_at_least_one(nodes: str) -> None:
    """It said "the search passed -1 nodes ... narrow it"."""
    line = _refused(
        [*HOLD, "--max-nodes", nodes],
        "'--max-nodes'",
        "greater than or equal to 1",
    )
    assert "narrow it" not in line


def test_design_refuses_negative_odds_saying_so() -> None:
    """It said "odds bounds -5..None are empty"."""
    line = _refused(
        [*HOLD, "--min-odds", "-5"],
        "--min-odds -5",
        "never negative",
    )
    assert "are empty" not in line


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--minimum", "-5", "more than $0"),
        ("--balance", "-5", "more than $0"),
        ("--balance", "1e400", "at most $10,000,000,000,000.00"),
    ],
)
def test_play_names_the_amount_it_refuses(
    option: str, value: str, says: str
) -> None:
    """Refusals said "an amount must be more than $0" without naming the
    option, and ``--balance 1e400`` was accepted."""
    _refused(["play", "21-baccarat", option, value], f"{option}:", says)


# --- token lifetimes ---------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["serve", "--operator-token-hours", "1e308"],
        ["serve", "--player-token-days", "1e308"],
        ["serve", "--player-token-days", "inf"],
        ["token", "rotate", "--out", "{tmp}/t", "--hours", "1e308"],
    ],
    ids=["operator-hours", "player-days", "player-days-inf", "rotate"],
)
def test_token_lifetimes_end_by_the_last_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    """An operator lifetime of 1e308 hours: ``OverflowError``, exit 70;
    a player's of 1e308 days started a server whose every ``POST
    /players`` was a 500. Refused while the arguments are parsed."""
    pytest.importorskip("uvicorn")
    started = _no_server(monkeypatch)
    db = f"sqlite:///{tmp_path / 's.db'}"
    words = [a.replace("{tmp}", str(tmp_path)) for a in args]
    _refused([*words, "--db", db], "9999-12-31")
    assert not started
    assert not (tmp_path / "t").exists()


def test_token_lifetimes_refuse_an_expiry_no_date_can_name() -> None:
    pytest.importorskip("fastapi")
    from croupier.server.auth import TokenLifetimes

    with pytest.raises(ValueError, match="player_days"):
        TokenLifetimes(player_days=1e308)
    with pytest.raises(ValueError, match="operator_hours"):
        TokenLifetimes(operator_hours=float("nan"))
    assert TokenLifetimes(player_days=365 * 1000).player_days > 0


# --- serve: the operator token file, the database ---------------------


def _no_server(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """uvicorn.run replaced: a command that gets so far records it."""
    import uvicorn

    started: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.append(a))
    return started


@pytest.mark.parametrize("text", ["", "  \n\t\n"], ids=["empty", "blank"])
def test_serve_refuses_an_empty_operator_token_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """An empty file started the server with a made-up token, silently,
    where a 3-character one is refused."""
    pytest.importorskip("uvicorn")
    started = _no_server(monkeypatch)
    token = tmp_path / "empty.json"
    token.write_text(text)
    db = tmp_path / "s.db"
    _refused(
        [
            "serve",
            "--db",
            f"sqlite:///{db}",
            "--operator-token-file",
            str(token),
        ],
        "empty.json",
        "at least 32",
    )
    assert not started
    assert not (tmp_path / "croupier-operator-token").exists()


def _databases(tmp_path: Path) -> dict[str, tuple[str, str]]:
    (tmp_path / "adir").mkdir()
    (tmp_path / "junk.db").write_text("not a database, only text\n" * 50)
    return {
        "missing-folder": (
            f"sqlite:///{tmp_path / 'nodir' / 'x.db'}",
            "folder",
        ),
        "folder": (f"sqlite:///{tmp_path / 'adir'}", "is a folder"),
        "junk": (
            f"sqlite:///{tmp_path / 'junk.db'}",
            "is not a SQLite database",
        ),
    }


@pytest.mark.parametrize("case", ["missing-folder", "folder", "junk"])
def test_serve_refuses_a_database_it_cannot_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    """``OperationalError`` / ``DatabaseError``: exit 70 at the start.
    The README promises exit 2 for a missing folder."""
    pytest.importorskip("uvicorn")
    started = _no_server(monkeypatch)
    db, says = _databases(tmp_path)[case]
    line = _refused(["serve", "--db", db], says)
    assert "Error" not in line
    assert not started


@pytest.mark.parametrize(
    ("command", "start"),
    [
        (["replay", "1"], "cannot read rounds"),
        (
            ["history", "export", "--out", "{tmp}/o.jsonl"],
            "cannot read rounds",
        ),
        (["token", "rotate", "--out", "{tmp}/t"], "cannot rotate"),
    ],
    ids=["replay", "history export", "token rotate"],
)
def test_database_commands_say_what_is_wrong_with_a_junk_file(
    tmp_path: Path, command: list[str], start: str
) -> None:
    """They said only "DatabaseError"."""
    pytest.importorskip("sqlalchemy")
    db, says = _databases(tmp_path)["junk"]
    words = [a.replace("{tmp}", str(tmp_path)) for a in command]
    line = _refused([*words, "--db", db], start, says)
    assert "DatabaseError" not in line


def test_database_problem_names_an_unreachable_postgresql_server() -> None:
    """An unreachable PostgreSQL server said only "OperationalError";
    the driver's words are given, the password left out."""
    pytest.importorskip("psycopg")
    line = _refused(
        ["replay", "1", "--db", "postgresql+psycopg://u:secret@127.0.0.1:1/x"],
        "cannot read rounds",
        "127.0.0.1",
    )
    assert "OperationalError" not in line
    assert "secret" not in line
