"""``croupier token rotate``: a new operator token for a database (D32).

The server's operator account gets a new expiring token and the one it
had stops working (a running server notices within a few seconds). The
token is written to ``--out`` (mode 0600) or shown on the terminal; it
is never printed to a pipe or a log.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from croupier.cli.common import (
    CommandError,
    GuardedGroup,
    database_problem,
    existing_database,
    output_file,
)
from croupier.extras import require
from croupier.server import DEFAULT_DB_URL
from croupier.server.auth import (
    TokenLifetimes,
    hash_token,
    lifetime_problem,
    new_token,
    write_secret,
)

__all__ = ["days_lifetime", "hours_lifetime", "token_app"]


def _lifetime(value: float, unit: str, seconds: int) -> float:
    problem = lifetime_problem(value * seconds)
    if problem is not None:
        msg = f"{value:g} {unit}: {problem}"
        raise typer.BadParameter(msg)
    return value


def hours_lifetime(value: float) -> float:
    """A token lifetime in hours, refused past 9999-12-31 (D32)."""
    return _lifetime(value, "hours", 3600)


def days_lifetime(value: float) -> float:
    """A token lifetime in days, refused past 9999-12-31 (D32)."""
    return _lifetime(value, "days", 86400)


token_app = typer.Typer(
    help="Operator tokens of a table server's database.",
    no_args_is_help=True,
    cls=GuardedGroup,
)


@token_app.command("rotate")
def rotate(
    db_url: Annotated[
        str,
        typer.Option(
            "--db",
            help="Database URL of the server (as for croupier serve)",
        ),
    ] = DEFAULT_DB_URL,
    out: Annotated[
        Path | None,
        output_file(
            "Write the new token to this file (mode 0600); without "
            "it the token is shown only if standard output is a terminal",
            "--out",
        ),
    ] = None,
    hours: Annotated[
        float,
        typer.Option(
            help="Lifetime of the new token, ending by 9999-12-31 (D32)",
            min=0.01,
            callback=hours_lifetime,
        ),
    ] = TokenLifetimes().operator_hours,
) -> None:
    """Give the operator account a new token; the old one stops working."""
    if out is None and not sys.stdout.isatty():
        msg = (
            "standard output is not a terminal; give --out FILE (the "
            "token is not printed to a pipe)"
        )
        raise CommandError(msg)
    require("server", "this command")
    from sqlalchemy import select, update
    from sqlalchemy.exc import SQLAlchemyError

    from croupier.server import db

    # a missing SQLite file is refused, never created empty (the rotate
    # then failed on the empty file's missing tables, exit 70)
    existing_database(db_url)
    engine = db.make_engine(db_url)
    try:
        with engine.begin() as conn:
            operator_id = conn.execute(
                select(db.PlayerRow.id)
                .where(db.PlayerRow.is_operator.is_(True))
                .order_by(db.PlayerRow.id)
                .limit(1)
            ).scalar()
            if operator_id is None:
                msg = (
                    "no operator account (start croupier serve once on "
                    "this database)"
                )
                raise CommandError(msg)
            lifetimes = TokenLifetimes(operator_hours=hours)
            token = new_token(lifetimes.expiry(operator=True))
            conn.execute(
                update(db.PlayerRow)
                .where(db.PlayerRow.id == operator_id)
                .values(token_hash=hash_token(token))
            )
    except SQLAlchemyError as exc:
        msg = (
            f"cannot rotate the operator token: "
            f"{database_problem(exc, db_url)}"
        )
        raise CommandError(msg) from None
    finally:
        engine.dispose()
    if out is not None:
        write_secret(out, token)
        typer.echo(f"new operator token written to {out} (mode 0600)")
    else:
        typer.echo(f"new operator token (shown once): {token}")
