"""Initial schema: players, tables, seats, rounds, events, money.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create every table of the server schema."""
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.Column("is_operator", sa.Boolean(), nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
    )
    op.create_table(
        "game_tables",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rules_json", sa.Text(), nullable=False),
        sa.Column("min_bet", sa.BigInteger(), nullable=False),
        sa.Column("max_bet", sa.BigInteger(), nullable=False),
        sa.Column("wager_limits_json", sa.Text(), nullable=False),
        sa.Column("shoe_no", sa.Integer(), nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("game_tables.id"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id"),
            nullable=False,
        ),
        sa.UniqueConstraint("table_id", "seat"),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("game_tables.id"),
            nullable=False,
            index=True,
        ),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("rules_json", sa.Text(), nullable=False),
        sa.Column("shoe", sa.Text(), nullable=False),
        sa.Column("new_shoe", sa.Boolean(), nullable=False),
        sa.Column("shoe_no", sa.Integer(), nullable=False),
        sa.Column("starting_position", sa.Integer(), nullable=True),
        sa.Column("owners_json", sa.Text(), nullable=False),
        sa.Column("record_json", sa.Text(), nullable=True),
        sa.Column("disclosed", sa.Boolean(), nullable=False),
        sa.Column("started_at", _TZ, nullable=False),
        sa.Column("ended_at", _TZ, nullable=True),
    )
    op.create_table(
        "round_inputs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "round_id",
            sa.Integer(),
            sa.ForeignKey("rounds.id"),
            nullable=False,
        ),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data_json", sa.Text(), nullable=False),
        sa.UniqueConstraint("round_id", "n"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "round_id",
            sa.Integer(),
            sa.ForeignKey("rounds.id"),
            nullable=False,
        ),
        sa.Column("scope", sa.String(8), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("ref", sa.String(32), nullable=True),
        sa.Column("data_json", sa.Text(), nullable=False),
        sa.UniqueConstraint("round_id", "scope", "seq"),
    )
    op.create_table(
        "transactions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id"),
            nullable=False,
            index=True,
        ),
        sa.Column(
            "round_id",
            sa.Integer(),
            sa.ForeignKey("rounds.id"),
            nullable=True,
            index=True,
        ),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("layout", sa.BigInteger(), nullable=False),
        sa.Column("wager", sa.String(64), nullable=True),
    )
    op.create_table(
        "idempotency",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("body_json", sa.Text(), nullable=False),
        sa.UniqueConstraint("player_id", "key"),
    )
    op.create_table(
        "server_log",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", _TZ, nullable=False),
        sa.Column("level", sa.String(8), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("message", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    """Drop every table of the server schema."""
    for name in (
        "server_log",
        "idempotency",
        "transactions",
        "events",
        "round_inputs",
        "rounds",
        "seats",
        "game_tables",
        "players",
    ):
        op.drop_table(name)
