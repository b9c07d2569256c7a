"""``croupier serve``: run the table server under uvicorn."""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.server.db import default_db_url

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
) -> None:
    """Serve the web table and its API (SQLite file by default)."""
    import uvicorn

    from croupier.server.app import create_app

    app = create_app(db, operator_token=operator_token)
    made = app.state.operator_token
    if made:
        typer.echo(f"operator token (keep it; shown once): {made}")
    typer.echo(f"croupier table server on http://{host}:{port}/ (db {db})")
    # No access log: a line per request costs as much as a small request.
    uvicorn.run(
        app, host=host, port=port, log_level="warning", access_log=False
    )
