"""Indexes on ``server_log.round_id`` and ``server_log.at``.

``GET /log`` pages the server's log newest first and finds the rows
about one round (``round_id``) or a span of days (``since``/``until``).
A server that runs for months keeps every row; without these indexes
each such page, and its total, read the whole table (D142). The rows
are not changed: the downgrade drops the two indexes alone.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

INDEXES = {
    "ix_server_log_round_id": "round_id",
    "ix_server_log_at": "at",
}
"""Each index's name (SQLAlchemy's for ``index=True``) and column."""


def upgrade() -> None:
    """Index the log's round and time."""
    for name, column in INDEXES.items():
        op.create_index(name, "server_log", [column])


def downgrade() -> None:
    """Drop the two indexes."""
    for name in INDEXES:
        op.drop_index(name, table_name="server_log")
