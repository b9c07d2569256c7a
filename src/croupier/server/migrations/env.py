"""Alembic environment: runs on the connection handed over by migrate()."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from croupier.server.db import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    """Run the migrations on a live connection."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = engine_from_config(
        config.get_section(config.config_ini_section) or {},
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with engine.connect() as conn:
        context.configure(
            connection=conn,
            target_metadata=target_metadata,
            render_as_batch=True,
        )
        with context.begin_transaction():
            context.run_migrations()


run_migrations_online()
