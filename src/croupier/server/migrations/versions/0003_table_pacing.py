"""Table pacing: clock settings and the clock running at each table.

``game_tables.settings_json`` holds a table's pacing settings (betting
and decision seconds, idle-seat limits; D26-D28) and
``game_tables.pacing_json`` its pacing state: the clock running with
its deadline, the seats ready, sitting out, their idle rounds and last
signs of life. Stored with every change, so that another process, or
this one after a restart, honours a deadline set before.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``game_tables.settings_json`` and ``game_tables.pacing_json``."""
    for name in ("settings_json", "pacing_json"):
        op.add_column(
            "game_tables",
            sa.Column(name, sa.Text(), nullable=False, server_default="{}"),
        )


def downgrade() -> None:
    """Drop the two columns."""
    op.drop_column("game_tables", "pacing_json")
    op.drop_column("game_tables", "settings_json")
