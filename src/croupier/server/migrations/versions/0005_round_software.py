"""The software version that dealt each round.

``rounds.software`` holds the version of croupier that opened the round
(810a.11: a game record holds the game's software version). Before it,
``croupier history export``, recall and ``croupier replay`` gave the
version running when they were asked, which after an upgrade is not
the one that dealt the round (D132). Rounds stored before stay
``NULL``: not recorded.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rounds.software`` (nullable)."""
    op.add_column(
        "rounds", sa.Column("software", sa.String(64), nullable=True)
    )


def downgrade() -> None:
    """Drop the column."""
    op.drop_column("rounds", "software")
