"""The seats occupied when a round's shoe was offered for the cut.

``rounds.seated_at_cut`` holds them as a JSON list for a round whose
shoe preparation offered the stack for the cut (a Midibaccarat shoe,
629a.5(b)); ``croupier history export`` writes them as the record's
``shoe.seated_at_cut``, so that ``croupier verify`` sees a seat passed
over in the offer (D78). Rounds stored before stay ``NULL``: not
recorded.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rounds.seated_at_cut`` (nullable)."""
    op.add_column(
        "rounds", sa.Column("seated_at_cut", sa.Text(), nullable=True)
    )


def downgrade() -> None:
    """Drop the column."""
    op.drop_column("rounds", "seated_at_cut")
