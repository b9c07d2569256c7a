"""Issue 17 point 1: ``history export`` reads a server's rounds in batches.

A busy server's database holds millions of rounds: the export reads them
a batch at a time (with their events and transactions), and the
balances come from one pass over the transactions. Rounds of two tables
run side by side here, one player at both, with a deposit among them,
so that movements of one round fall between those of another; every
player's balance before and after each round is then worked out from
the transactions table by this test, not by the export.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.server.conftest import (
    OPERATOR,
    Seat,
    finish_round,
    seat_player,
    table_of,
)
from tests.server.postgres import new_database, postgres_or_skip
from tests.server.test_api import play_round
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf import HandHistory, read_history
from croupier.hhf.export import export_rounds
from croupier.server import db as storage
from croupier.server.app import create_app
from croupier.server.edge import RateLimits


@pytest.fixture(scope="module")
def interleaved(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Double Back Jack and Midibaccarat rounds overlapping, Ann at both."""
    path = tmp_path_factory.mktemp("interleaved") / "croupier.db"
    url = f"sqlite:///{path}"
    _play_overlapping(url)
    return url


def _play_overlapping(url: str) -> None:
    """Six rounds at each table, each Midibaccarat one inside a DBJ one."""
    app_ = create_app(
        url, operator_token=OPERATOR, rate_limits=RateLimits.off()
    )
    with TestClient(app_) as client:
        ann = seat_player(client, "double-back-jack", 1, "ann")
        ann_midi = Seat(
            client,
            table_of(client, "midibaccarat"),
            1,
            ann.token,
            ann.player_id,
        )
        assert ann_midi.post("/seats", {"seat": 1}).status_code == 200
        bob = seat_player(client, "midibaccarat", 2, "bob")
        for k in range(6):
            # Ann's Double Back Jack stake opens a round at one table...
            stake = {"seat": 1, "wager": "blackjack", "amount": 500 + k}
            assert ann.post("/wagers", stake).status_code == 200
            # ...while a whole Midibaccarat round of hers runs at the other
            play_round([ann_midi, bob], "banker")
            if k % 2:
                deposit = client.post(
                    f"/players/{ann.player_id}/deposits",
                    json={"amount": 1000 + k},
                    headers={"Authorization": f"Bearer {OPERATOR}"},
                )
                assert deposit.status_code == 200, deposit.json()
            finish_round(ann)


def _ledger_balances(
    url: str,
) -> dict[tuple[str, str], tuple[int, int, int | None]]:
    """(round, player): balance before its first movement, after its last,
    and the net of the player's other movements in between (D74)."""
    engine = storage.make_engine(url)
    with engine.connect() as conn:
        moves = conn.execute(
            select(
                storage.TransactionRow.id,
                storage.TransactionRow.player_id,
                storage.TransactionRow.round_id,
                storage.TransactionRow.amount,
            )
        ).all()
    of_round: dict[tuple[str, str], list[int]] = defaultdict(list)
    for txn, player, round_id, _ in moves:
        if round_id is not None:
            of_round[(str(round_id), str(player))].append(txn)
    out: dict[tuple[str, str], tuple[int, int, int | None]] = {}
    for (rid, pid), txns in of_round.items():
        mine = [(t, r, a) for t, p, r, a in moves if str(p) == pid]
        before = sum(a for t, _, a in mine if t < min(txns))
        after = sum(a for t, _, a in mine if t <= max(txns))
        others = [
            a
            for t, r, a in mine
            if min(txns) < t < max(txns) and str(r) != rid
        ]
        out[(rid, pid)] = (before, after, sum(others) if others else None)
    return out


def _balances(histories: list[HandHistory]) -> dict[Any, tuple[Any, ...]]:
    return {
        (h.round_id, p.player_id): (
            p.balance_before,
            p.balance_after,
            p.moved_elsewhere,
        )
        for h in histories
        for p in h.players
    }


@pytest.mark.proves("810a.11")
@pytest.mark.parametrize("batch", [1, 2, 5, 256])
def test_810a_11_balances_of_overlapping_rounds_in_any_batch(
    interleaved: str, tmp_path: Path, batch: int
) -> None:
    histories = list(export_rounds(interleaved, batch=batch))
    assert len(histories) == 12
    assert [int(h.round_id) for h in histories] == sorted(
        int(h.round_id) for h in histories
    )
    assert _balances(histories) == _ledger_balances(interleaved)
    # the command's export (the default batch) is the same, line for line
    out = tmp_path / "day.jsonl"
    result = CliRunner().invoke(
        app, ["history", "export", "--db", interleaved, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert [h for _, h in read_history(out)] == histories
    # and the server's own log of them conforms, books included (D74)
    checked = CliRunner().invoke(app, ["verify", str(out)])
    assert checked.exit_code == 0, checked.output


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A new PostgreSQL database (a throwaway server unless one is given)."""
    for server in postgres_or_skip():
        yield new_database(server)


@pytest.mark.proves("810a.11")
def test_810a_11_postgresql_export_in_batches(pg_url: str) -> None:
    """The same on PostgreSQL, where the transactions are streamed by a
    server-side cursor while the batches are queried."""
    _play_overlapping(pg_url)
    whole = list(export_rounds(pg_url))
    assert len(whole) == 12
    assert _balances(whole) == _ledger_balances(pg_url)
    assert list(export_rounds(pg_url, batch=1)) == whole


def test_810a_11_the_rounds_overlap_as_the_fixture_says(
    interleaved: str,
) -> None:
    """Movements of one round fall between another's (what is tested)."""
    engine = storage.make_engine(interleaved)
    with engine.connect() as conn:
        rounds = [
            r
            for (r,) in conn.execute(
                select(storage.TransactionRow.round_id).order_by(
                    storage.TransactionRow.id
                )
            )
        ]
    spans = {
        r: (rounds.index(r), len(rounds) - 1 - rounds[::-1].index(r))
        for r in set(rounds)
        if r is not None
    }
    assert any(
        a[0] < b[0] <= b[1] < a[1]
        for a in spans.values()
        for b in spans.values()
        if a != b
    )
    assert None in rounds  # the deposits


def test_810a_11_export_batch_must_be_positive(interleaved: str) -> None:
    with pytest.raises(ValueError, match="batch"):
        next(export_rounds(interleaved, batch=0))


@pytest.mark.proves("810a.11")
def test_810a_11_export_until_gives_a_window_of_time(
    interleaved: str, tmp_path: Path
) -> None:
    """``--until`` (audit of 2026-12-06): with ``--since``, the rounds
    of one day or hour, not every round since; the end is excluded."""
    whole = list(export_rounds(interleaved))
    start = [str(h.started_at) for h in whole]
    since, until = start[3], start[8]
    window = whole[3:8]
    assert len(set(start)) == len(start) == 12
    out = tmp_path / "window.jsonl"
    result = CliRunner().invoke(
        app,
        [
            "history",
            "export",
            "--db",
            interleaved,
            "--since",
            since,
            "--until",
            until,
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert [h for _, h in read_history(out)] == window
    first = datetime.fromisoformat(start[0])
    assert list(export_rounds(interleaved, until=first)) == []
    # a window that holds no time, and a time that is none, are refused
    for args in (["--since", until, "--until", since], ["--until", "noon"]):
        refused = CliRunner().invoke(
            app, ["history", "export", "--db", interleaved, *args]
        )
        assert refused.exit_code == 2, refused.output
