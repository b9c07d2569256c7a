"""Issue 18, point 4: the dealer is a collaborator of a small protocol.

:class:`~croupier.server.play.Dealer` plays for any
:class:`~croupier.server.play.Storage`, not only for the casino: here a
ledger written for the test (tables and balances in two dicts, no
accounts, no pacing) has a wager placed and dealt, and the books are
checked from the stored rows alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert, select

from croupier.registry import find_game
from croupier.server import db
from croupier.server.play import Dealer, Storage
from croupier.server.tables import Idem, Limits, Player, TableRuntime

START = 10_000


class Book:
    """The least a dealer needs: one process, tables held in memory."""

    def __init__(self, url: str) -> None:
        self.engine = db.make_engine(url)
        self.balances: dict[int, int] = {}
        self.tables: dict[int, TableRuntime] = {}
        self.shared = False
        self.origin = "book"
        self.changed: list[int] = []
        self.on_change = self.changed.append

    def table(self, table_id: int) -> TableRuntime:
        return self.tables[table_id]

    def stored_response(
        self, idem: Idem, request: str
    ) -> tuple[int, dict[str, Any]] | None:
        del idem, request
        return None

    def load_table(self, conn: Any, table_id: int) -> TableRuntime:
        raise AssertionError("one process never reads a table back")

    def rebuild_table(self, rt: TableRuntime) -> None:
        raise AssertionError("no commit failed")


def _open(tmp_path: Path) -> tuple[Book, int]:
    book = Book(f"sqlite:///{tmp_path / 'book.db'}")
    db.migrate(book.engine)
    with book.engine.begin() as conn:
        conn.execute(
            insert(db.PlayerRow).values(
                id=1,
                name="p",
                token_hash="0" * 64,
                balance=START,
                created_at=db.now(),
            )
        )
        key = conn.execute(
            insert(db.GameTableRow).values(
                name="t",
                game="midibaccarat",
                rules_json="{}",
                min_bet=100,
                max_bet=5_000,
                created_at=db.now(),
            )
        ).inserted_primary_key
    assert key is not None
    table_id = key[0]
    spec = find_game("midibaccarat")
    rt = TableRuntime(int(table_id), "t", spec, {}, Limits(100, 5_000, {}))
    rt.seats[1] = 1
    book.tables[rt.id] = rt
    book.balances[1] = START
    return book, rt.id


def test_issue_18_4_dealer_plays_for_any_storage(tmp_path: Path) -> None:
    book, table_id = _open(tmp_path)
    storage: Storage = book  # mypy: the book fulfils the protocol
    dealer = Dealer(storage)
    player = Player(1, "p")
    dealer.place_wager(player, table_id, 1, "player", 500)
    assert book.balances[1] == START - 500
    dealer.deal(player, table_id)
    assert book.changed == [table_id, table_id]
    with book.engine.connect() as conn:
        stored = conn.execute(
            select(db.PlayerRow.balance).where(db.PlayerRow.id == 1)
        ).scalar_one()
        moved = conn.execute(
            select(func.sum(db.TransactionRow.amount)).where(
                db.TransactionRow.player_id == 1
            )
        ).scalar_one()
        status, record = conn.execute(
            select(db.RoundRow.status, db.RoundRow.record_json)
            .where(db.RoundRow.table_id == table_id)
            .order_by(db.RoundRow.id)
        ).first() or (None, None)
    assert status == "over"
    settled = json.loads(record or "{}")["settlements"]
    back = sum(row["amount"] + row["net"] for row in settled)
    # the stored balance is the start, less the stake, plus what came back
    assert stored == START - 500 + back == book.balances[1]
    assert moved == stored - START
