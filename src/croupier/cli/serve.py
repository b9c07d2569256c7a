"""``croupier serve``: run the table server under uvicorn."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from croupier.server.db import DB_ENV, default_db_url

__all__ = ["serve"]


def serve(
    db: Annotated[
        str,
        typer.Option(
            help="Database URL: sqlite:///path.db or "
            "postgresql+psycopg://user:pw@host/name"
        ),
    ] = default_db_url(),
    host: Annotated[str, typer.Option(help="Address to listen on")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="Port to listen on")] = 8000,
    operator_token: Annotated[
        str | None,
        typer.Option(
            envvar="CROUPIER_OPERATOR_TOKEN",
            help="Bearer token of the operator account (made up and "
            "printed once if absent)",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes behind the one address (more than one "
            "needs PostgreSQL)",
            min=1,
        ),
    ] = 1,
) -> None:
    """Serve the web table and its API (SQLite file by default).

    With ``--workers N`` uvicorn runs N processes on one socket; they
    share the PostgreSQL database, each table driven by one process at a
    time (see ``croupier.server.shared``).
    """
    import uvicorn

    from croupier.server.app import create_app

    if workers > 1 and not db.startswith("postgresql"):
        typer.echo(
            "error: several server processes need PostgreSQL "
            "(--db postgresql+psycopg://...); SQLite serves one process",
            err=True,
        )
        raise typer.Exit(2)
    app = create_app(db, operator_token=operator_token)
    made = app.state.operator_token
    if made:
        typer.echo(f"operator token (keep it; shown once): {made}")
    where = f"http://{host}:{port}/ (db {db})"
    if workers > 1:
        app.state.casino.close_writer()
        app.state.casino.engine.dispose()
        typer.echo(f"croupier table server on {where}, {workers} processes")
        # the database is migrated and seeded; each worker builds its own
        # application from the environment
        os.environ[DB_ENV] = db
        if operator_token:
            os.environ["CROUPIER_OPERATOR_TOKEN"] = operator_token
        uvicorn.run(
            "croupier.server.app:app_from_env",
            factory=True,
            workers=workers,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
        )
        return
    typer.echo(f"croupier table server on {where}")
    # No access log: a line per request costs as much as a small request.
    uvicorn.run(
        app, host=host, port=port, log_level="warning", access_log=False
    )
