"""Several server processes on one database: table versions, shoe racks.

``game_tables.version`` counts the committed changes at a table; a
process compares it with the version it holds in memory and reloads the
table when another process has moved it on. ``rounds.discard`` is the
discard rack when the round began, so that a table can be rebuilt from
storage in the middle of a shoe and go on dealing from that shoe.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``game_tables.version`` and ``rounds.discard``."""
    # plain ALTER TABLE: SQLite adds (and drops) columns in place, and a
    # batch copy of the table would trip its foreign keys
    op.add_column(
        "game_tables",
        sa.Column(
            "version", sa.BigInteger(), nullable=False, server_default="0"
        ),
    )
    op.add_column("rounds", sa.Column("discard", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop the two columns."""
    op.drop_column("rounds", "discard")
    op.drop_column("game_tables", "version")
