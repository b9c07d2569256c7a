"""``croupier serve`` as an operator restarts it (2026-12-06).

A made-up operator token expires (D32: a day by default) and no restart
makes another: the first start says when it expires, and each later
start says how to get a new one, where it said nothing and an operator
whose token had run out was locked out of the desk without a word.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app


def _no_server(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """uvicorn.run replaced: a command that gets so far records it."""
    import uvicorn

    started: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.append(a))
    return started


def test_serve_says_when_the_operator_token_expires_and_how_to_renew_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("uvicorn")
    monkeypatch.delenv("CROUPIER_OPERATOR_TOKEN", raising=False)
    started = _no_server(monkeypatch)
    db = f"sqlite:///{tmp_path / 'desk.db'}"
    token_file = tmp_path / "operator-token"
    args = ["serve", "--db", db, "--token-file", str(token_file)]
    hours = 6.0
    before = time.time()
    first = CliRunner().invoke(
        app, [*args, "--operator-token-hours", str(hours)]
    )
    assert first.exit_code == 0, first.output
    token = token_file.read_text().strip()
    # the expiry the token carries, as the line gives it (to the minute)
    expiry = int(token.rsplit(".", 1)[1])
    assert before + hours * 3600 - 5 <= expiry <= time.time() + hours * 3600
    when = datetime.fromtimestamp(expiry, UTC).strftime("%Y-%m-%d %H:%M")
    assert f"it expires {when} UTC" in first.output, first.output
    assert token not in first.output  # written to the file only

    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    assert f"croupier token rotate --db {db} --out FILE" in again.output
    assert token_file.read_text().strip() == token  # no new token made
    assert not re.search(r"[A-Za-z0-9_-]{43}\.\d+", again.output)
    assert len(started) == 2


def _database_of(tmp_path: Path, revision: str | None) -> tuple[str, int]:
    """A server's database with one finished round, its schema then set
    back to ``revision`` (an older croupier's) or stamped with a newer
    one (``None``: left as this croupier's)."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from sqlalchemy import text
    from tests.server.conftest import OPERATOR, finish_round, seat_player
    from tests.server.schema import downgrade

    from croupier.server import db as storage
    from croupier.server.app import create_app

    url = f"sqlite:///{tmp_path / 'rounds.db'}"
    with TestClient(create_app(url, operator_token=OPERATOR)) as client:
        seat = seat_player(client, "midibaccarat", 1, "ann")
        reply = seat.post(
            "/wagers", {"seat": 1, "wager": "banker", "amount": 500}
        )
        round_id = int(reply.json()["round"]["id"])
        finish_round(seat)
    engine = storage.make_engine(url)
    try:
        if revision == "newer":
            with engine.begin() as conn:
                conn.execute(
                    text("UPDATE alembic_version SET version_num = '0999'")
                )
    finally:
        engine.dispose()
    if revision not in (None, "newer"):
        downgrade(url, revision)
    return url, round_id


@pytest.mark.parametrize(
    ("revision", "said"),
    [
        ("0004", "schema 0004, older than this croupier's 0006"),
        ("newer", "schema 0999, newer than this croupier's 0006"),
    ],
)
def test_a_database_of_another_croupier_version_is_named_as_such(
    tmp_path: Path, revision: str, said: str
) -> None:
    """A server of the version before (schema 0004, no rounds.software)
    has croupier's tables: its export and replay said "lacks croupier's
    tables: is it a croupier server's database?" (exit 2)."""
    url, round_id = _database_of(tmp_path, revision)
    out = tmp_path / "rounds.jsonl"
    for args in (
        ["history", "export", "--db", url, "--out", str(out)],
        ["replay", str(round_id), "--db", url],
    ):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, result.output
        assert said in result.output, result.output
        assert "lacks croupier's tables" not in result.output
        assert "Traceback" not in result.output
    assert not out.exists()  # no file a reader could take for an export


def test_a_database_of_this_croupier_version_is_read(tmp_path: Path) -> None:
    url, round_id = _database_of(tmp_path, None)
    out = tmp_path / "rounds.jsonl"
    export = ["history", "export", "--db", url, "--out", str(out)]
    result = CliRunner().invoke(app, export)
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 1
    replayed = CliRunner().invoke(app, ["replay", str(round_id), "--db", url])
    assert replayed.exit_code == 0, replayed.output


def test_serve_refuses_a_database_of_a_newer_croupier_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An operator going back a version: the server stopped with "internal
    error (CommandError: Can't locate revision ...)", exit 70."""
    pytest.importorskip("uvicorn")
    url, _round = _database_of(tmp_path, "newer")
    started = _no_server(monkeypatch)
    result = CliRunner().invoke(
        app, ["serve", "--db", url, "--token-file", str(tmp_path / "t")]
    )
    assert result.exit_code == 2, result.output
    assert "schema 0999, newer than this croupier's 0006" in result.output
    assert "internal error" not in result.output
    assert not started
