"""A database taken back to an older revision of croupier's schema."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect

from croupier.server import db


def downgrade(url: str, revision: str) -> set[str]:
    """Take the database at ``url`` back to ``revision`` (alembic's own
    downgrade, as an operator would); the columns ``rounds`` has then."""
    engine = db.make_engine(url)
    try:
        config = db.alembic_config(engine)
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, revision)
        return {c["name"] for c in inspect(engine).get_columns("rounds")}
    finally:
        engine.dispose()
