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
