"""``croupier serve``: run the table server under uvicorn."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from croupier.cli.common import (
    CommandError,
    database_problem,
    database_url,
    fail,
    output_file,
)
from croupier.cli.token import days_lifetime, hours_lifetime
from croupier.server import DB_ENV, DEFAULT_DB_URL
from croupier.server.auth import (
    MIN_TOKEN_LENGTH,
    TokenLifetimes,
    token_expiry,
    write_secret,
)
from croupier.server.errors import TableLimitError
from croupier.server.limits import (
    EDGE_ENV,
    MAX_AMOUNT,
    MAX_BALANCE,
    BodyLimits,
    RateLimits,
    edge,
)
from croupier.server.tables import (
    DEFAULT_MAX,
    DEFAULT_MIN,
    TABLE_LIMITS_ENV,
    TABLE_SETTINGS_ENV,
    TableSettings,
    checked_limits,
)

__all__ = ["serve"]


def _setting(key: str) -> Callable[[float], float]:
    """A table setting's option check: in range, or refused naming it.

    The words are ``POST /tables``'s: "Invalid value for
    '--betting-seconds': must be 5 to 3600 seconds (D170)".
    """
    low, high = TableSettings.LIMITS[key]

    def in_range(value: float) -> float:
        if not low <= value <= high:
            msg = (
                f"must be {TableSettings.range_text(key)} "
                f"({TableSettings.DECIDED[key]}), not {value:g}"
            )
            raise typer.BadParameter(msg)
        return value

    return in_range


def serve(
    db: Annotated[
        str,
        typer.Option(
            help="Database URL: sqlite:///path.db or a "
            "postgresql+psycopg:// URL (see above)"
        ),
    ] = DEFAULT_DB_URL,
    host: Annotated[str, typer.Option(help="Address to listen on")] = (
        "127.0.0.1"
    ),
    port: Annotated[
        int, typer.Option(help="Port to listen on", min=1, max=65535)
    ] = 8000,
    operator_token: Annotated[
        str | None,
        typer.Option(
            envvar="CROUPIER_OPERATOR_TOKEN",
            hidden=True,
            help="Read from $CROUPIER_OPERATOR_TOKEN only: a token on the "
            "command line shows in ps",
        ),
    ] = None,
    operator_token_file: Annotated[
        Path | None,
        typer.Option(
            help="File holding the operator's bearer token, at least 32 "
            "characters (see above)",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    token_file: Annotated[
        Path,
        output_file(
            "Where a made-up operator token is written (mode 0600) "
            "when standard output is not a terminal (see above)",
            "--token-file",
            show_default=False,
        ),
    ] = Path("croupier-operator-token"),
    starting_balance: Annotated[
        int,
        typer.Option(
            help="Balance of a self-registered account, minor units "
            "(0 allowed)",
            min=0,
            max=MAX_BALANCE,
        ),
    ] = 100_000,
    register_rate: Annotated[
        str,
        typer.Option(
            help="Accounts one client address may open, e.g. "
            "'5/minute;100/day' ('off' for none; D32)",
        ),
    ] = RateLimits().register or "off",
    play_rate: Annotated[
        str,
        typer.Option(
            help="Play requests per client address, e.g. '20/second' "
            "('off' for none; D32)",
        ),
    ] = RateLimits().play or "off",
    player_token_days: Annotated[
        float,
        typer.Option(
            help="Lifetime of a player's token, ending by 9999-12-31 (D32)",
            min=0.01,
            callback=days_lifetime,
        ),
    ] = TokenLifetimes().player_days,
    operator_token_hours: Annotated[
        float,
        typer.Option(
            help="Lifetime of a made-up operator token, ending by "
            "9999-12-31 (D32)",
            min=0.01,
            callback=hours_lifetime,
        ),
    ] = TokenLifetimes().operator_hours,
    betting_seconds: Annotated[
        float,
        typer.Option(
            help="Betting closes this long after a round's first wager, "
            "for tables opened from now on (D27; 5 to 3600 seconds, D170)",
            callback=_setting("betting_seconds"),
        ),
    ] = 20,
    decision_seconds: Annotated[
        float,
        typer.Option(
            help="A decision's clock; then the default applies (D26; 5 to "
            "3600 seconds, D170)",
            callback=_setting("decision_seconds"),
        ),
    ] = 30,
    idle_seat_minutes: Annotated[
        float,
        typer.Option(
            help="No connection and no request this long frees a seat "
            "(D28; 1 to 1440 minutes, D158)",
            callback=_setting("idle_seat_minutes"),
        ),
    ] = 5,
    idle_rounds: Annotated[
        int,
        typer.Option(
            help="Rounds in a row without a wager that free a seat (D28; 1 "
            "to 1000 rounds)",
            callback=_setting("idle_rounds"),
        ),
    ] = 3,
    min_bet: Annotated[
        int,
        typer.Option(
            help="Smallest wager of a table opened without its own limits "
            "(the server's own tables too), minor units (D195)",
            min=1,
            max=MAX_AMOUNT,
        ),
    ] = DEFAULT_MIN,
    max_bet: Annotated[
        int,
        typer.Option(
            help="Largest wager of a table opened without its own limits, "
            "minor units (D195)",
            min=1,
            max=MAX_AMOUNT,
        ),
    ] = DEFAULT_MAX,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes behind the one address (more than one "
            "needs PostgreSQL)",
            min=1,
        ),
    ] = 1,
    ctx: typer.Context = None,  # type: ignore[assignment]
) -> None:
    """Serve the web table and its API (SQLite file by default).

    --db takes sqlite:///path.db (a relative path from the working
    directory) or postgresql+psycopg://user:password@host/name.

    The operator's token is read from --operator-token-file, else from
    the environment variable CROUPIER_OPERATOR_TOKEN; else one is made
    up on the first start and shown once, or written to --token-file
    (./croupier-operator-token by default) when standard output is not
    a terminal.

    With --workers N uvicorn runs N processes on one socket; they share
    the PostgreSQL database, each table driven by one process at a time.
    """
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from croupier.server.app import create_app

    operator_token = _given_token(ctx, operator_token, operator_token_file)
    try:
        database_url(db)  # refused before the server starts
        limits = checked_limits((min_bet, max_bet))
    except (CommandError, TableLimitError) as exc:
        raise fail(exc) from None
    if workers > 1 and not db.startswith("postgresql"):
        msg = (
            "several server processes need PostgreSQL "
            "(--db postgresql+psycopg://...); SQLite serves one process"
        )
        raise fail(CommandError(msg))
    settings = {
        "starting_balance": starting_balance,
        "register_rate": None if register_rate == "off" else register_rate,
        "play_rate": None if play_rate == "off" else play_rate,
        "player_token_days": player_token_days,
        "operator_token_hours": operator_token_hours,
    }
    pacing = {
        "betting_seconds": betting_seconds,
        "decision_seconds": decision_seconds,
        "idle_seat_minutes": idle_seat_minutes,
        "idle_rounds": idle_rounds,
    }
    try:
        app = create_app(
            db,
            operator_token=operator_token,
            table_settings=pacing,
            table_limits=limits,
            **edge(settings),
        )
    except ValueError as exc:
        raise fail(exc) from None
    except SQLAlchemyError as exc:
        # a folder that does not exist, a file that is no database, a
        # server that does not answer: said in words, exit 2
        raise fail(CommandError(database_problem(exc, db))) from None
    made = app.state.operator_token
    if made:
        _show_token(made, token_file)
    elif operator_token is None:
        # a made-up token expires (D32) and no restart makes another: say
        # how the operator gets one, lest an expired token lock the desk
        typer.echo(
            "operator token: the account's earlier one (a made-up one "
            "expires; a given one works only while given again); "
            f"croupier token rotate --db {db} --out FILE makes a new one"
        )
    where = f"http://{host}:{port}/ (db {db})"
    if workers > 1:
        app.state.casino.dealer.close_writer()
        app.state.casino.engine.dispose()
        typer.echo(f"croupier table server on {where}, {workers} processes")
        # the database is migrated and seeded; each worker builds its own
        # application from the environment
        os.environ[DB_ENV] = db
        # each worker stops if this process dies (croupier.server.lifeline)
        os.environ["CROUPIER_WORKER_OF"] = str(os.getpid())
        os.environ[EDGE_ENV] = json.dumps(settings)
        os.environ[TABLE_SETTINGS_ENV] = json.dumps(pacing)
        os.environ[TABLE_LIMITS_ENV] = json.dumps(limits)
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
            ws_max_size=BodyLimits().play,  # clients send no large frames
        )
        return
    typer.echo(f"croupier table server on {where}")
    # No access log: a line per request costs as much as a small request.
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        ws_max_size=BodyLimits().play,  # D30: no large WebSocket frames
    )


def _given_token(
    ctx: typer.Context | None, token: str | None, path: Path | None
) -> str | None:
    """The operator token from a file or the environment, never argv."""
    if ctx is not None and token is not None:
        source = ctx.get_parameter_source("operator_token")
        if source is not None and source.name == "COMMANDLINE":
            msg = (
                "a token on the command line shows in ps; set "
                "$CROUPIER_OPERATOR_TOKEN or use --operator-token-file"
            )
            raise fail(CommandError(msg))
    if path is not None:
        try:
            text = path.read_text().strip()
        except OSError as exc:
            raise fail(CommandError(f"cannot read {path}: {exc}")) from None
        if len(text) < MIN_TOKEN_LENGTH:
            # an empty file too: never a made-up token in its place
            msg = (
                f"{path} holds {len(text)} characters; the operator token "
                f"must have at least {MIN_TOKEN_LENGTH}"
            )
            raise fail(CommandError(msg))
        return text
    return token


def _show_token(token: str, path: Path) -> None:
    """A made-up token: to the terminal, else to a 0600 file (D32)."""
    expiry = token_expiry(token)
    until = ""
    if expiry is not None:
        when = datetime.fromtimestamp(expiry, UTC)
        until = f"; it expires {when:%Y-%m-%d %H:%M} UTC"
    if sys.stdout.isatty():
        typer.echo(f"operator token (keep it; shown once{until}): {token}")
        return
    write_secret(path, token)
    typer.echo(f"operator token written to {path} (mode 0600{until})")
