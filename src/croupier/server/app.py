"""The FastAPI application: ``create_app(db_url)``.

JSON endpoints (bearer token in ``Authorization``)::

    GET  /games                       registered games
    POST /players                     open an account -> token
    GET  /me                          your account
    POST /players/{id}/deposits       cashier (operator)
    GET  /tables  POST /tables        list / open a table (operator)
    GET  /tables/{id}                 the table as you may see it
    POST /tables/{id}/seats           take a seat
    DELETE /tables/{id}/seats/{seat}  leave it
    POST /tables/{id}/wagers          place a wager   (Idempotency-Key)
    POST /tables/{id}/deal            deal            (Idempotency-Key)
    POST /tables/{id}/actions         decide          (Idempotency-Key)
    GET  /rounds  GET /rounds/{id}    recall
    GET  /ledger  GET /log            books and recovery log (operator)
    WS   /ws/tables/{id}?token=...    live view of a table

Pages: ``/`` (lobby), ``/play/{id}`` (the table), ``/recall``.
Every refusal is ``{"error": type, "ref": subsection, "message": ...}``.

All handlers are ``async`` and never await while changing state, so the
event loop serialises every change without locks.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.registry import GameSpec
from croupier.server import db, shared
from croupier.server.auth import bearer_token, hash_token
from croupier.server.errors import NotFoundError, NotOperatorError
from croupier.server.play_api import (
    DirectPlay,
    PlayApi,
    json_response,
    refusal_response,
    validation_response,
)
from croupier.server.recovery import load
from croupier.server.runtime import Casino, Player
from croupier.server.views import (
    game_info,
    round_detail,
    round_list,
    table_snapshot,
    table_summary,
)
from croupier.server.ws import Hub

__all__ = ["app_from_env", "create_app"]

log = logging.getLogger("croupier.server")

WEB = Path(__file__).resolve().parent.parent / "web"
"""The static web table."""

Authorization = Annotated[str | None, Header()]


class NewPlayer(BaseModel):
    """Body of ``POST /players``."""

    name: str = Field(min_length=1, max_length=80)
    balance: int | None = Field(default=None, ge=0)
    operator: bool = False


class Deposit(BaseModel):
    """Body of ``POST /players/{id}/deposits``."""

    amount: int


class NewTable(BaseModel):
    """Body of ``POST /tables``."""

    game: str
    name: str | None = Field(default=None, max_length=80)
    rules: dict[str, Any] = Field(default_factory=dict)
    min_bet: int = 100
    max_bet: int = 100_000
    wager_limits: dict[str, tuple[int, int]] = Field(default_factory=dict)


class SeatRequest(BaseModel):
    """Body of ``POST /tables/{id}/seats``."""

    seat: int


def create_app(
    db_url: str | None = None,
    *,
    operator_token: str | None = None,
    games: dict[str, GameSpec] | None = None,
    default_tables: bool = True,
    starting_balance: int = 100_000,
    recovery: str = "resume",
) -> FastAPI:
    """Build the server on ``db_url`` (SQLite file by default).

    The schema is migrated to the newest revision, unfinished rounds are
    resumed or voided, an operator account exists (``operator_token``,
    else ``$CROUPIER_OPERATOR_TOKEN``, else a new token is logged once),
    and with ``default_tables`` every registered game has a table.
    """
    engine = db.make_engine(db_url or db.default_db_url())
    casino = Casino(engine, games=games, starting_balance=starting_balance)
    token = operator_token or os.environ.get("CROUPIER_OPERATOR_TOKEN")
    # several processes may start at once on PostgreSQL: one at a time
    # migrates, takes over unfinished rounds and seeds the tables
    with shared.startup_lock(engine):
        db.migrate(engine)
        load(casino, recovery=recovery)
        generated = _ensure_operator(casino, token)
        if default_tables:
            present = {rt.spec.name for rt in casino.tables.values()}
            for name in sorted(casino.games):
                if name not in present:
                    casino.create_table(None, name)
    hub = Hub(
        lambda table_id: functools.partial(
            table_snapshot, casino, casino.table(table_id)
        )
    )
    casino.on_change = hub.notify

    def remote_change(table_id: int, version: int, origin: str) -> None:
        """Another process changed a table: push it to our clients."""
        if origin == casino.origin or not hub.clients.get(table_id):
            return
        rt = casino.tables.get(table_id)
        if rt is None or rt.stored_version < version:
            hub.notify(table_id)

    def reconnected() -> None:
        for table_id, clients in list(hub.clients.items()):
            if clients:
                hub.notify(table_id)

    listener = (
        shared.Listener(shared.libpq_url(engine), remote_change, reconnected)
        if casino.shared
        else None
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        task = None
        if listener is not None:
            task = asyncio.create_task(listener.run())
            await asyncio.wait_for(listener.listening.wait(), timeout=30)
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            casino.close_writer()

    app = FastAPI(
        title="croupier table server", version="0.1.0", lifespan=lifespan
    )
    app.state.casino = casino
    app.state.hub = hub
    app.state.operator_token = generated

    @app.exception_handler(CroupierError)
    async def refused(_request: Request, exc: CroupierError) -> JSONResponse:
        return refusal_response(exc)

    @app.exception_handler(RequestValidationError)
    async def invalid(
        _request: Request, exc: RequestValidationError
    ) -> JSONResponse:
        return validation_response(exc)

    play = PlayApi(casino)
    app.add_middleware(DirectPlay, play=play)
    app.include_router(play.router())

    def who(authorization: str | None) -> Player:
        return casino.authenticate(bearer_token(authorization))

    def maybe(authorization: str | None) -> Player | None:
        return casino.optional_player(bearer_token(authorization))

    # -- pages ------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/play/{table_id}", include_in_schema=False)
    async def table_page(table_id: int) -> FileResponse:
        del table_id
        return FileResponse(WEB / "table.html")

    @app.get("/recall", include_in_schema=False)
    async def recall_page() -> FileResponse:
        return FileResponse(WEB / "recall.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    # -- accounts ---------------------------------------------------------

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {
            "ok": True,
            "process": os.getpid(),
            "origin": casino.origin,
            "shared": casino.shared,
        }

    @app.get("/games")
    async def games_list() -> list[dict[str, Any]]:
        return [game_info(spec) for _, spec in sorted(casino.games.items())]

    @app.post("/players")
    async def new_player(
        body: NewPlayer, authorization: Authorization = None
    ) -> dict[str, Any]:
        caller = maybe(authorization)
        privileged = caller is not None and caller.is_operator
        if (body.balance is not None or body.operator) and not privileged:
            msg = "only an operator may set a balance or open an operator"
            raise NotOperatorError(msg)
        player, token = casino.register(
            body.name, balance=body.balance, operator=body.operator
        )
        return {
            "id": player.id,
            "name": player.name,
            "token": token,
            "balance": casino.balances[player.id],
            "operator": player.is_operator,
        }

    @app.get("/me")
    async def me(authorization: Authorization = None) -> dict[str, Any]:
        player = who(authorization)
        casino.refresh_balance(player.id)
        seats = [
            {"table_id": rt.id, "seat": rt.seat_of(player.id)}
            for rt in casino.all_tables()
            if rt.seat_of(player.id) is not None
        ]
        return {
            "id": player.id,
            "name": player.name,
            "balance": casino.balances[player.id],
            "operator": player.is_operator,
            "seats": seats,
        }

    @app.post("/players/{player_id}/deposits")
    async def deposit(
        player_id: int, body: Deposit, authorization: Authorization = None
    ) -> dict[str, Any]:
        balance = casino.deposit(who(authorization), player_id, body.amount)
        return {"id": player_id, "balance": balance}

    # -- tables -----------------------------------------------------------

    @app.get("/tables")
    async def tables() -> list[dict[str, Any]]:
        return [table_summary(casino, rt) for rt in casino.all_tables()]

    @app.post("/tables")
    async def new_table(
        body: NewTable, authorization: Authorization = None
    ) -> dict[str, Any]:
        rt = casino.create_table(
            who(authorization),
            body.game,
            name=body.name,
            rules=body.rules,
            min_bet=body.min_bet,
            max_bet=body.max_bet,
            wager_limits=body.wager_limits,
        )
        return table_summary(casino, rt)

    @app.get("/tables/{table_id}")
    async def table_state(
        table_id: int, authorization: Authorization = None
    ) -> JSONResponse:
        return json_response(
            table_snapshot(
                casino, casino.table(table_id), maybe(authorization)
            )
        )

    @app.post("/tables/{table_id}/seats")
    async def sit(
        table_id: int, body: SeatRequest, authorization: Authorization = None
    ) -> dict[str, Any]:
        player = who(authorization)
        casino.sit(player, table_id, body.seat)
        if not casino.shared:  # a shared turn has notified already
            hub.notify(table_id)
        return table_snapshot(casino, casino.table(table_id), player)

    @app.delete("/tables/{table_id}/seats/{seat}")
    async def leave(
        table_id: int, seat: int, authorization: Authorization = None
    ) -> dict[str, Any]:
        player = who(authorization)
        casino.leave(player, table_id, seat)
        if not casino.shared:
            hub.notify(table_id)
        return table_snapshot(casino, casino.table(table_id), player)

    # -- recall and books -------------------------------------------------

    @app.get("/rounds")
    async def rounds(
        table_id: int | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        return round_list(casino, table_id=table_id, limit=limit)

    @app.get("/rounds/{round_id}")
    async def round_get(
        round_id: int, authorization: Authorization = None
    ) -> dict[str, Any]:
        return round_detail(casino, round_id, maybe(authorization))

    @app.get("/ledger")
    async def ledger(authorization: Authorization = None) -> dict[str, Any]:
        casino._require_operator(who(authorization))
        return casino.ledger_check()

    @app.get("/log")
    async def server_log(
        authorization: Authorization = None,
    ) -> list[dict[str, Any]]:
        casino._require_operator(who(authorization))
        with Session(casino.engine) as session:
            rows = session.scalars(
                select(db.ServerLogRow).order_by(db.ServerLogRow.id)
            )
            return [
                {
                    "id": r.id,
                    "at": r.at.isoformat(),
                    "level": r.level,
                    "round_id": r.round_id,
                    "message": r.message,
                }
                for r in rows
            ]

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(
        websocket: WebSocket,
        table_id: int,
        token: Annotated[str | None, Query()] = None,
    ) -> None:
        try:
            casino.table(table_id)
        except NotFoundError:
            await websocket.close(code=4404)
            return
        player = casino.optional_player(token)
        if token and player is None:
            await websocket.close(code=4401)
            return
        await hub.serve(websocket, table_id, player)

    return app


def app_from_env() -> FastAPI:
    """The application of one server worker (``croupier serve --workers``).

    The database is ``$CROUPIER_DB_URL``; the operator token, if any,
    ``$CROUPIER_OPERATOR_TOKEN``.
    """
    return create_app(os.environ.get(db.DB_ENV))


def _ensure_operator(casino: Casino, token: str | None) -> str | None:
    """Make sure an operator can log in; return a token made up here."""
    if token is not None:
        if hash_token(token) not in casino.players:
            casino.register("operator", balance=0, operator=True, token=token)
        return None
    if any(p.is_operator for p in casino.players.values()):
        return None
    _player, made = casino.register("operator", balance=0, operator=True)
    return made
