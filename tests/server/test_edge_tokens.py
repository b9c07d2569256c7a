"""Issue 12 point 7: tokens long, rotatable, revocable and expiring.

The operator token is never taken from the command line, never printed
to a pipe, and a new one makes the old one stop working.
"""

from __future__ import annotations

import contextlib
import io
import stat
import time
import types
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import OPERATOR, operator
from typer.testing import CliRunner

from croupier.cli import app as cli
from croupier.cli.serve import _show_token
from croupier.server import casino as casino_module
from croupier.server.app import create_app
from croupier.server.auth import TokenLifetimes, token_expiry


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_issue12_point7_tokens_are_long_and_expire(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lifetimes = TokenLifetimes(player_days=1, operator_hours=1)
    app = create_app(
        db_url, operator_token=OPERATOR, token_lifetimes=lifetimes
    )
    with TestClient(app) as client:
        made = client.post("/players", json={"name": "ann"}).json()
        token = made["token"]
        secret, _, _ = token.rpartition(".")
        assert len(secret) >= 43  # 32 random bytes, URL-safe base64
        expiry = token_expiry(token)
        assert expiry is not None
        assert abs(expiry - (time.time() + 86400)) < 60
        me = client.get("/me", headers=bearer(token))
        assert me.json()["token_expires_at"] == expiry
        # a day and a minute later the token is refused
        later = time.time() + 86400 + 60
        fake = types.SimpleNamespace(
            time=lambda: later, monotonic=time.monotonic
        )
        monkeypatch.setattr(casino_module, "time", fake)
        assert client.get("/me", headers=bearer(token)).status_code == 401
        # changing the expiry written in the token makes it unknown
        monkeypatch.undo()
        forged = f"{secret}.{expiry + 10**6}"
        assert client.get("/me", headers=bearer(forged)).status_code == 401


def test_issue12_point7_short_operator_token_is_refused(db_url: str) -> None:
    for short in ("", "t", "op", "x" * 31):
        with pytest.raises(ValueError, match="at least 32"):
            create_app(db_url, operator_token=short)


def test_issue12_point7_an_empty_token_variable_is_unset(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``CROUPIER_OPERATOR_TOKEN=`` leaves the token to be made up."""
    monkeypatch.setenv("CROUPIER_OPERATOR_TOKEN", "")
    made = create_app(db_url).state.operator_token
    assert isinstance(made, str)
    assert len(made) >= 32


def test_issue12_point7_new_operator_token_replaces_the_old(
    db_url: str,
) -> None:
    first, second = "a" * 40, "b" * 40
    with TestClient(create_app(db_url, operator_token=first)) as client:
        assert client.get("/ledger", headers=bearer(first)).status_code == 200
    with TestClient(create_app(db_url, operator_token=second)) as client:
        assert client.get("/ledger", headers=bearer(second)).is_success
        old = client.get("/ledger", headers=bearer(first))
        assert old.status_code == 401, old.text
        # one operator account, not one per token ever given
        ops = [
            p
            for p in client.app.state.casino.players.values()  # type: ignore[attr-defined]
            if p.is_operator
        ]
        assert len(ops) == 1


def test_issue12_point7_rotate_and_revoke(client: TestClient) -> None:
    made = client.post("/players", json={"name": "ann"}).json()
    old = made["token"]
    renewed = client.post("/me/token", headers=bearer(old))
    assert renewed.status_code == 200
    new = renewed.json()["token"]
    assert new != old
    assert client.get("/me", headers=bearer(old)).status_code == 401
    assert client.get("/me", headers=bearer(new)).status_code == 200
    # log out
    assert client.delete("/me/token", headers=bearer(new)).is_success
    assert client.get("/me", headers=bearer(new)).status_code == 401
    # the operator issues a new one (a player locked out, say)...
    issued = client.post(
        f"/players/{made['id']}/token", headers=operator(client)
    )
    assert issued.status_code == 200
    third = issued.json()["token"]
    me = client.get("/me", headers=bearer(third))
    assert me.json()["name"] == "ann"
    # ...and revokes it; a player may not do either
    assert client.delete(
        f"/players/{made['id']}/token", headers=operator(client)
    ).is_success
    assert client.get("/me", headers=bearer(third)).status_code == 401
    bob = client.post("/players", json={"name": "bob"}).json()
    refused = client.post(
        f"/players/{made['id']}/token", headers=bearer(bob["token"])
    )
    assert refused.status_code == 403


def test_issue12_point7_token_rotate_cli_writes_0600_file(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(casino_module, "RECHECK_SECONDS", 0.0)
    with TestClient(create_app(db_url, operator_token=OPERATOR)) as client:
        assert client.get("/ledger", headers=operator(client)).is_success
        runner = CliRunner()
        # not a terminal and no --out: the token is not printed
        piped = runner.invoke(cli, ["token", "rotate", "--db", db_url])
        assert piped.exit_code == 2
        out = tmp_path / "op-token"
        done = runner.invoke(
            cli, ["token", "rotate", "--db", db_url, "--out", str(out)]
        )
        assert done.exit_code == 0, done.output
        mode = stat.S_IMODE(out.stat().st_mode)
        assert mode == 0o600
        token = out.read_text().strip()
        assert token not in done.output
        assert token_expiry(token) is not None
        # the running server takes the new token and drops the old one
        ledger = client.get("/ledger", headers=bearer(token))
        assert ledger.status_code == 200, ledger.text
        old = client.get("/ledger", headers=operator(client))
        assert old.status_code == 401


def test_issue12_point7_serve_keeps_tokens_out_of_argv_and_pipes(
    tmp_path: Path,
) -> None:
    runner = CliRunner()
    # refused before anything starts (--workers 2 on SQLite would stop
    # it anyway, with another message)
    given = runner.invoke(
        cli,
        [
            "serve",
            "--db",
            f"sqlite:///{tmp_path / 'x.db'}",
            "--workers",
            "2",
            "--operator-token",
            "z" * 40,
        ],
    )
    assert given.exit_code == 2
    assert "shows in ps" in given.output
    # a made-up token, standard output a pipe: to a 0600 file only
    path = tmp_path / "token"
    made = "m" * 43 + ".2000000000"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        _show_token(made, path)
    assert made not in printed.getvalue()
    assert str(path) in printed.getvalue()
    assert path.read_text().strip() == made
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
