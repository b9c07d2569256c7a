"""810a.11: a round's record names the software version that dealt it.

The server stores, when a round opens, the croupier version dealing it
(``rounds.software``, migration 0005, D132). After an upgrade, the hand
history export, recall and ``croupier replay`` must still give that
version, not the one running when they are asked; a round stored before
0005 says that its version was not recorded. The "upgrade" here is the
package's version string changed after the round was dealt.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.server.conftest import OPERATOR, operator
from tests.server.schema import downgrade
from tests.server.test_replay_cli import _cli, _played
from typer.testing import CliRunner

import croupier
from croupier.hhf.export import export_rounds
from croupier.server.app import create_app
from croupier.server.edge import RateLimits

UPGRADED = "99.0.0"


def _exported(url: str, round_id: int) -> dict[str, str]:
    [history] = [h for h in export_rounds(url) if h.round_id == str(round_id)]
    return dict(history.to_dict()["software"])


@pytest.mark.proves("810a.11")
def test_810a_11_a_round_keeps_the_version_that_dealt_it(
    client: TestClient, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    dealing = croupier.__version__
    round_id = _played(client)
    monkeypatch.setattr(croupier, "__version__", UPGRADED)
    assert _exported(db_url, round_id) == {
        "name": "croupier",
        "version": dealing,
    }
    detail = client.get(f"/rounds/{round_id}", headers=operator(client))
    assert detail.json()["software"] == {
        "name": "croupier",
        "version": dealing,
    }
    assert detail.json()["game_version"].endswith(f"(croupier {dealing})")
    runner = CliRunner()
    verdict = json.loads(
        runner.invoke(_cli(), [str(round_id), "--db", db_url, "--json"]).output
    )
    assert verdict["dealt_by"] == {"name": "croupier", "version": dealing}
    assert verdict["replayed_by"] == {"name": "croupier", "version": UPGRADED}
    printed = runner.invoke(_cli(), [str(round_id), "--db", db_url]).output
    assert f"dealt by croupier {dealing}\n" in printed
    # rich folds the last line at the terminal's width
    assert f"(replayed by croupier {UPGRADED})" in " ".join(printed.split())


def _app(url: str) -> FastAPI:
    # two players sign up from one address within the minute
    return create_app(
        url, operator_token=OPERATOR, rate_limits=RateLimits.off()
    )


@pytest.mark.proves("810a.11")
def test_810a_11_a_round_stored_before_0005_says_its_version_is_unrecorded(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with TestClient(_app(url)) as client:
        old = _played(client)
    assert "software" not in downgrade(url, "0004")
    # the server upgrades the database in place as it starts
    with TestClient(_app(url)) as client:
        # the round the table opened for wagers before the upgrade...
        waiting = _played(client, "then", 2)
        # ...and one it opened after it
        new = _played(client, "after the upgrade", 3)
        old_detail = client.get(f"/rounds/{old}", headers=operator(client))
        new_detail = client.get(f"/rounds/{new}", headers=operator(client))
    for before in (old, waiting):
        assert _exported(url, before) == {
            "name": "croupier",
            "version": "unrecorded",
        }
    assert old_detail.json()["game_version"].endswith(
        "(croupier, version not recorded)"
    )
    assert _exported(url, new)["version"] == croupier.__version__
    assert new_detail.json()["software"]["version"] == croupier.__version__
    printed = CliRunner().invoke(_cli(), [str(old), "--db", url]).output
    assert "dealt by croupier (version not recorded)" in printed
