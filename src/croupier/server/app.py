"""The FastAPI application: ``create_app(db_url)``.

JSON endpoints (bearer token in ``Authorization``)::

    GET  /games                       registered games
    POST /players                     open an account -> token
    GET  /players                     accounts, paged, ?name= (operator)
    GET  /me                          your account
    POST /players/{id}/deposits       cashier (operator)
    GET  /tables  POST /tables        list / open a table (operator)
    GET  /tables/{id}                 the table as you may see it
    POST /tables/{id}/seats           take a seat
    DELETE /tables/{id}/seats/{seat}  leave it
    POST /tables/{id}/wagers          place a wager   (Idempotency-Key)
    POST /tables/{id}/deal            deal            (Idempotency-Key)
    POST /tables/{id}/actions         decide          (Idempotency-Key)
    POST /tables/{id}/ready           done betting    (Idempotency-Key)
    POST /tables/{id}/sit-out         sit out / back in
    POST /tables/{id}/void            void the round in play (operator)
    POST /tables/{id}/shoe/end        end the table's shoe (operator)
    GET  /rounds  GET /rounds/{id}    recall
    GET  /ledger                      the books (operator)
    GET  /log                         the server's log, paged, ?level=
                                      &round_id= &since= &until= (operator)
    WS   /ws/tables/{id}?token=...    live view of a table

Pages: ``/`` (lobby), ``/play/{id}`` (the table), ``/recall``.
Every refusal is ``{"error": type, "ref": rule, "message": ...}``: ``ref``
is the subsection of 58 Pa. Code the refusal follows (``"591.7(k)(1)"``),
or the project decision where the regulation leaves the rule to the
casino (``"D137"``, ``docs/decisions.md``; D198), or ``null`` where no
rule applies (a token missing or unknown, a malformed request).
A round withdrawn when the operator ended its shoe (D194) is answered
``410`` ``RoundWithdrawnError`` wherever a route takes its id (D198).

State changes run one at a time on one thread, off the event loop
(:mod:`croupier.server.serial`): a database wait stalls no other
request, and a storage outage answers 503 ``StorageUnavailable``. The
table clocks run as a task of the loop (:mod:`croupier.server.pacing`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from croupier.errors import CroupierError
from croupier.registry import GameSpec
from croupier.server import db, shared
from croupier.server.access import require_round, round_scope
from croupier.server.auth import (
    MIN_TOKEN_LENGTH,
    TokenLifetimes,
    bearer_token,
    hash_token,
    token_expiry,
)
from croupier.server.decisions import OPERATOR_TASKS
from croupier.server.edge import (
    EDGE_ENV,
    BodyLimits,
    RateLimits,
    edge,
    install_edge,
)
from croupier.server.errors import (
    NotFoundError,
    NotOperatorError,
    TableLimitError,
    TableSettingError,
)
from croupier.server.fast_play import FastPlay
from croupier.server.inputs import (
    MAX_AMOUNT,
    Balance,
    DayOrTime,
    IdPath,
    IdQuery,
    PlayerName,
    SearchText,
    SeatNumber,
    TableName,
)
from croupier.server.lifeline import die_with_parent
from croupier.server.pacing import run_clocks
from croupier.server.pacing_api import pacing_router
from croupier.server.play_api import (
    IdempotencyKey,
    PlayApi,
    json_response,
    refusal_response,
    replayed_response,
    validation_response,
)
from croupier.server.recall import (
    log_page,
    player_list,
    round_envelope,
    round_page,
)
from croupier.server.recovery import load
from croupier.server.runtime import Casino, Player
from croupier.server.tables import (
    TABLE_LIMITS_ENV,
    TABLE_SETTINGS_ENV,
    TableSettings,
    checked_limits,
)
from croupier.server.views import (
    game_info,
    round_detail,
    table_snapshot,
    table_summary,
)
from croupier.server.ws import Hub

__all__ = ["WORKER_OF_ENV", "app_from_env", "create_app"]

WORKER_OF_ENV = "CROUPIER_WORKER_OF"
"""The pid of the ``croupier serve --workers`` master, in its workers."""

log = logging.getLogger("croupier.server")

WEB = Path(__file__).resolve().parent.parent / "web"
"""The static web table."""

Authorization = Annotated[str | None, Header()]
Limit = Annotated[int, Query(ge=1, le=500)]
"""A listing's page size (``GET /rounds``, ``GET /players``, ``GET /log``)."""
Offset = Annotated[int, Query(ge=0, le=10**9)]
"""Where a listing's page starts."""


def paged(
    response: Response, page: list[dict[str, Any]], total: int, offset: int
) -> list[dict[str, Any]]:
    """``page`` of a listing, its total and next offset in headers.

    ``X-Total-Count`` and ``X-Next-Offset`` (when a page follows), so
    that the body stays a list (issue 13).
    """
    response.headers["X-Total-Count"] = str(total)
    if offset + len(page) < total:
        response.headers["X-Next-Offset"] = str(offset + len(page))
    return page


class NewPlayer(BaseModel):
    """Body of ``POST /players`` (names cleaned and unique, D31)."""

    model_config = ConfigDict(extra="forbid")

    name: PlayerName
    balance: Balance | None = None
    operator: StrictBool = False


class Deposit(BaseModel):
    """Body of ``POST /players/{id}/deposits``."""

    model_config = ConfigDict(extra="forbid")

    amount: Annotated[StrictInt, Field(ge=1, le=MAX_AMOUNT)]


def _in_range(key: str) -> Callable[[Any], Any]:
    """A table setting's check: in its range, or refused naming it.

    The refusal names the setting, its range, its unit and the decision
    that sets it, the words ``croupier serve`` and the desk give too:
    "body.betting_seconds: must be 5 to 3600 seconds (D170)".
    """
    low, high = TableSettings.LIMITS[key]

    def in_range(value: Any) -> Any:
        if not low <= value <= high:
            raise PydanticCustomError(
                "setting_range",
                "must be {range} ({decision})",
                {
                    "range": TableSettings.range_text(key),
                    "decision": TableSettings.DECIDED[key],
                },
            )
        return value

    return in_range


def _range_schema(key: str, kind: str = "number") -> WithJsonSchema:
    """The setting's range in the OpenAPI schema (minimum, maximum)."""
    low, high = TableSettings.LIMITS[key]
    return WithJsonSchema({"type": kind, "minimum": low, "maximum": high})


BettingSeconds = Annotated[
    StrictFloat,
    AfterValidator(_in_range("betting_seconds")),
    _range_schema("betting_seconds"),
]
"""``betting_seconds`` of ``POST /tables`` (D27, D170)."""
DecisionSeconds = Annotated[
    StrictFloat,
    AfterValidator(_in_range("decision_seconds")),
    _range_schema("decision_seconds"),
]
"""``decision_seconds`` of ``POST /tables`` (D26, D170)."""
IdleSeatMinutes = Annotated[
    StrictFloat,
    AfterValidator(_in_range("idle_seat_minutes")),
    _range_schema("idle_seat_minutes"),
]
"""``idle_seat_minutes`` of ``POST /tables`` (D28, D158)."""
IdleRounds = Annotated[
    StrictInt,
    AfterValidator(_in_range("idle_rounds")),
    _range_schema("idle_rounds", "integer"),
]
"""``idle_rounds`` of ``POST /tables`` (D28)."""


class NewTable(BaseModel):
    """Body of ``POST /tables``."""

    model_config = ConfigDict(extra="forbid")

    game: Annotated[StrictStr, Field(max_length=64)]
    name: TableName | None = None
    rules: Annotated[
        dict[Annotated[str, Field(max_length=64)], Any],
        Field(max_length=64),
    ] = Field(default_factory=dict)
    # the server's default limits where absent (D195)
    min_bet: Annotated[StrictInt, Field(ge=1, le=MAX_AMOUNT)] | None = None
    max_bet: Annotated[StrictInt, Field(ge=1, le=MAX_AMOUNT)] | None = None
    wager_limits: Annotated[
        dict[
            Annotated[str, Field(max_length=64)],
            tuple[
                Annotated[StrictInt, Field(ge=1, le=MAX_AMOUNT)],
                Annotated[StrictInt, Field(ge=1, le=MAX_AMOUNT)],
            ],
        ],
        Field(max_length=64),
    ] = Field(default_factory=dict)
    # strict: "5" or true is no number of seconds (a JSON number only)
    betting_seconds: BettingSeconds | None = None
    """Betting stays open this long after the first wager (D27; 20;
    5 to 3600 seconds, D170)."""
    decision_seconds: DecisionSeconds | None = None
    """Each decision's clock (D26; 30; 5 to 3600 seconds, D170)."""
    idle_seat_minutes: IdleSeatMinutes | None = None
    """No connection and no request this long frees a seat (D28; 5;
    1 to 1440 minutes, D158)."""
    idle_rounds: IdleRounds | None = None
    """Rounds in a row without a wager that free a seat (D28; 3;
    1 to 1000 rounds)."""


class SeatRequest(BaseModel):
    """Body of ``POST /tables/{id}/seats``."""

    model_config = ConfigDict(extra="forbid")

    seat: SeatNumber


def create_app(
    db_url: str | None = None,
    *,
    operator_token: str | None = None,
    games: dict[str, GameSpec] | None = None,
    default_tables: bool = True,
    starting_balance: int = 100_000,
    recovery: str = "resume",
    body_limits: BodyLimits | None = None,
    rate_limits: RateLimits | None = None,
    token_lifetimes: TokenLifetimes | None = None,
    lock_wait_ms: int = db.LOCK_WAIT_MS,
    pacing: bool = True,
    table_settings: Mapping[str, Any] | None = None,
    table_limits: tuple[int, int] | None = None,
    fast_play: bool = True,
) -> FastAPI:
    """Build the server on ``db_url`` (SQLite file by default).

    The schema is migrated to the newest revision, unfinished rounds are
    resumed or voided, an operator account exists (``operator_token``,
    else ``$CROUPIER_OPERATOR_TOKEN``, else a new token is logged once),
    and with ``default_tables`` every registered game has a table.
    ``lock_wait_ms`` bounds a wait for the SQLite file's lock (then
    503); ``pacing`` runs the table clocks (a task of the event loop);
    ``table_settings`` are the clocks of tables opened from now on
    (:class:`~croupier.server.tables.TableSettings`, D26-D28), and
    ``table_limits`` their (minimum, maximum) wager in minor units
    where the operator gives none (D195; the server's own tables too).
    ``fast_play`` answers the play routes without FastAPI's per-request
    machinery (:mod:`croupier.server.fast_play`; the same answers).
    """
    engine = db.make_engine(
        db_url or db.default_db_url(), lock_wait_ms=lock_wait_ms
    )
    casino = Casino(engine, games=games, starting_balance=starting_balance)
    casino.default_settings = TableSettings.from_mapping(table_settings or {})
    if table_limits is not None:
        casino.default_limits = checked_limits(table_limits)
    casino.token_lifetimes = token_lifetimes or TokenLifetimes()
    # a token given empty is a short token (refused below), never "none
    # given": only an unset or empty variable leaves the token to be made
    token = operator_token
    if token is None:
        token = os.environ.get("CROUPIER_OPERATOR_TOKEN") or None
    # several processes may start at once on PostgreSQL: one at a time
    # migrates, takes over unfinished rounds and seeds the tables
    with shared.startup_lock(engine):
        db.migrate(engine)
        load(casino, recovery=recovery)
        generated = _ensure_operator(casino, token)
        if default_tables:
            casino.open_game_tables()
    serial = casino.serial
    # pushes are built on the loop from memory, while the table is held
    # (croupier.server.serial): a change's job has brought it up to date,
    # a remote change is read in first (fresh_push)
    hub = Hub(
        lambda table_id: functools.partial(
            table_snapshot, casino, casino.dealer.cached(table_id)
        ),
        hold=serial.holding,  # a later spectator push holds its table too
    )
    serial.notify = hub.notify
    pushes: set[asyncio.Task[None]] = set()

    async def fresh_push(table_id: int) -> None:
        try:
            await serial.read(lambda: casino.table(table_id), table=table_id)
            async with serial.holding(table_id):
                hub.notify(table_id)
        except Exception:
            log.exception("table %s: remote change not pushed", table_id)

    def push_later(table_id: int) -> None:
        task = asyncio.get_running_loop().create_task(fresh_push(table_id))
        pushes.add(task)
        task.add_done_callback(pushes.discard)

    def remote_change(table_id: int, version: int, origin: str) -> None:
        """Another process changed a table: push it to our clients."""
        if origin == casino.origin or not hub.clients.get(table_id):
            return
        rt = casino.tables.get(table_id)
        if rt is None or rt.stored_version < version:
            push_later(table_id)

    def reconnected() -> None:
        for table_id, clients in list(hub.clients.items()):
            if clients:
                push_later(table_id)

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
        # the table clocks run without any request (croupier.server.pacing)
        clocks = (
            asyncio.create_task(run_clocks(casino.dealer)) if pacing else None
        )
        try:
            yield
        finally:
            for running in (clocks, task):
                if running is not None:
                    running.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await running
            await serial.run(casino.dealer.close_writer)

    app = FastAPI(
        title="croupier table server",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # served from local files by install_edge
        redoc_url=None,
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

    play_routes = PlayApi(casino).router()
    if fast_play:
        app.add_middleware(FastPlay, router=play_routes)
    app.include_router(play_routes)
    app.include_router(pacing_router(casino))
    install_edge(  # the outermost middleware: add no other after it
        app,
        known_token=casino.optional_player,
        bodies=body_limits or BodyLimits(),
        rates=rate_limits or RateLimits.off(),
    )

    def who(authorization: str | None) -> Player:
        return casino.authenticate(bearer_token(authorization))

    def maybe(authorization: str | None) -> Player | None:
        return casino.optional_player(bearer_token(authorization))

    # -- pages ------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/play/{table_id}", include_in_schema=False)
    async def table_page(table_id: IdPath) -> FileResponse:
        del table_id
        return FileResponse(WEB / "table.html")

    @app.get("/recall", include_in_schema=False)
    async def recall_page() -> FileResponse:
        return FileResponse(WEB / "recall.html")

    @app.get("/operator", include_in_schema=False)
    async def operator_page() -> FileResponse:
        return FileResponse(WEB / "operator.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")

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
            raise NotOperatorError(msg, ref=OPERATOR_TASKS)
        player, token = await serial.run(
            lambda: casino.register(
                body.name, balance=body.balance, operator=body.operator
            )
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

        def read() -> list[dict[str, Any]]:
            casino.refresh_balance(player.id)
            return [
                {"table_id": rt.id, "seat": rt.seat_of(player.id)}
                for rt in casino.all_tables()
                if rt.seat_of(player.id) is not None
            ]

        seats = await serial.read(read, blocking=casino.shared)
        return {
            "id": player.id,
            "name": player.name,
            "balance": casino.balances[player.id],
            "operator": player.is_operator,
            "seats": seats,
            # when to renew it (POST /me/token); null: given by the operator
            "token_expires_at": token_expiry(
                bearer_token(authorization) or ""
            ),
        }

    @app.post("/players/{player_id}/deposits")
    async def deposit(
        player_id: IdPath,
        body: Deposit,
        authorization: Authorization = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Any:
        """The cashier: credit an account (the operator only).

        A retry with the same Idempotency-Key is answered again, never
        credited twice (D138).
        """
        caller = who(authorization)
        casino.require_operator(caller, "make a deposit")
        idem = None if not idempotency_key else (caller.id, idempotency_key)
        request = f"deposit {player_id} {body.amount}"

        def credit() -> int:
            return casino.deposit(
                caller, player_id, body.amount, idem=idem, request=request
            )

        done = await serial.run(
            functools.partial(casino.once, idem, request, credit)
        )
        if isinstance(done, tuple):
            return replayed_response(*done)
        balance = done
        # the tables the player sits at show the new balance at once (in
        # every process's clients: Casino.announce)
        seated = await serial.read(
            lambda: [
                rt.id
                for rt in casino.all_tables()
                if rt.seat_of(player_id) is not None
            ],
            blocking=casino.shared,
        )
        for table_id in seated:
            await serial.run(
                functools.partial(casino.announce, table_id), table=table_id
            )
        return {"id": player_id, "balance": balance}

    # -- tokens (D32) -----------------------------------------------------

    @app.post("/me/token")
    async def renew_token(
        authorization: Authorization = None,
    ) -> dict[str, Any]:
        """A new token for the caller; the one used here stops working."""
        caller = who(authorization)
        token, expires = await serial.run(
            lambda: casino.issue_token(caller.id)
        )
        return {"id": caller.id, "token": token, "expires_at": expires}

    @app.delete("/me/token")
    async def drop_token(
        authorization: Authorization = None,
    ) -> dict[str, Any]:
        """Log out: the caller's token stops working."""
        caller = who(authorization)
        await serial.run(lambda: casino.revoke_token(caller.id))
        return {"id": caller.id, "revoked": True}

    @app.post("/players/{player_id}/token")
    async def player_token(
        player_id: IdPath, authorization: Authorization = None
    ) -> dict[str, Any]:
        """The operator issues an account a new token (the old is void)."""
        casino.require_operator(who(authorization), "issue a player's token")
        token, expires = await serial.run(
            lambda: casino.issue_token(player_id)
        )
        return {"id": player_id, "token": token, "expires_at": expires}

    @app.delete("/players/{player_id}/token")
    async def revoke_player_token(
        player_id: IdPath, authorization: Authorization = None
    ) -> dict[str, Any]:
        """The operator revokes an account's token."""
        casino.require_operator(who(authorization), "revoke a player's token")
        await serial.run(lambda: casino.revoke_token(player_id))
        return {"id": player_id, "revoked": True}

    # -- tables -----------------------------------------------------------

    @app.get("/table-settings")
    async def table_settings_of_server() -> dict[str, Any]:
        """The settings a table opened without them takes (D183).

        ``defaults``: this server's (``croupier serve``'s options,
        ``CROUPIER_TABLE_SETTINGS``, else D26-D28's); ``ranges``: each
        setting's accepted range, unit and deciding decision, the ones
        ``POST /tables`` holds a body to; ``limits``: the table limits
        a table opened without its own takes (D195).
        """
        least, most = casino.default_limits
        return {
            "defaults": casino.default_settings.to_dict(),
            "limits": {"min_bet": least, "max_bet": most, "decision": "D195"},
            "ranges": {
                key: {
                    "minimum": low,
                    "maximum": high,
                    "unit": TableSettings.UNITS[key],
                    "decision": TableSettings.DECIDED[key],
                }
                for key, (low, high) in TableSettings.LIMITS.items()
            },
        }

    @app.get("/tables")
    async def tables() -> list[dict[str, Any]]:
        return await serial.read(
            lambda: [table_summary(casino, rt) for rt in casino.all_tables()],
            blocking=casino.shared,
        )

    @app.post("/tables")
    async def new_table(
        body: NewTable,
        authorization: Authorization = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Any:
        """Open a table (the operator only).

        A retry with the same Idempotency-Key is answered again, never
        opening a second table (D138).
        """
        caller = who(authorization)
        casino.require_operator(caller, "open a table")
        idem = None if not idempotency_key else (caller.id, idempotency_key)
        request = f"table {body.model_dump_json()}"

        def open_table() -> dict[str, Any]:
            rt = casino.create_table(
                caller,
                body.game,
                name=body.name,
                rules=body.rules,
                min_bet=body.min_bet,
                max_bet=body.max_bet,
                wager_limits=body.wager_limits,
                settings={
                    key: getattr(body, key)
                    for key in TableSettings.LIMITS
                    if getattr(body, key) is not None
                },
                idem=idem,
                request=request,
                respond=lambda made: table_summary(casino, made),
            )
            return table_summary(casino, rt)

        done = await serial.run(
            functools.partial(casino.once, idem, request, open_table)
        )
        if isinstance(done, tuple):
            return replayed_response(*done)
        return done

    @app.get("/tables/{table_id}")
    async def table_state(
        table_id: IdPath, authorization: Authorization = None
    ) -> JSONResponse:
        viewer = maybe(authorization)

        def view() -> dict[str, Any]:
            rt = casino.table(table_id)
            if viewer is not None:
                casino.dealer.seen(rt, viewer.id)
            return table_snapshot(casino, rt, viewer)

        return json_response(
            await serial.read(view, table=table_id, blocking=casino.shared)
        )

    @app.post("/tables/{table_id}/seats")
    async def sit(
        table_id: IdPath,
        body: SeatRequest,
        authorization: Authorization = None,
    ) -> dict[str, Any]:
        player = who(authorization)

        def take() -> dict[str, Any]:
            casino.sit(player, table_id, body.seat)
            if not casino.shared:  # a shared turn has notified already
                casino.on_change(table_id)
            return table_snapshot(casino, casino.table(table_id), player)

        return await serial.run(take, table=table_id)

    @app.delete("/tables/{table_id}/seats/{seat}")
    async def leave(
        table_id: IdPath, seat: IdPath, authorization: Authorization = None
    ) -> dict[str, Any]:
        player = who(authorization)

        def free() -> dict[str, Any]:
            casino.leave(player, table_id, seat)
            if not casino.shared:
                casino.on_change(table_id)
            return table_snapshot(casino, casino.table(table_id), player)

        return await serial.run(free, table=table_id)

    # -- recall and books -------------------------------------------------

    @app.get("/rounds")
    async def rounds(
        response: Response,
        table_id: IdQuery = None,
        limit: Limit = 50,
        offset: Offset = 0,
        game: Annotated[SearchText | None, Query(max_length=64)] = None,
        player: Annotated[SearchText | None, Query(max_length=80)] = None,
        since: Annotated[DayOrTime | None, Query()] = None,
        until: Annotated[DayOrTime | None, Query()] = None,
        authorization: Authorization = None,
    ) -> list[dict[str, Any]]:
        viewer = maybe(authorization)
        scope = round_scope(viewer)  # D33: whose rounds
        page, total = await serial.read(
            lambda: round_page(
                casino,
                scope=scope,
                viewer=viewer,
                table_id=table_id,
                game=game,
                player=player,
                since=since,
                until=until,
                offset=offset,
                limit=limit,
            )
        )
        return paged(response, page, total, offset)

    @app.get("/rounds/{round_id}")
    async def round_get(
        round_id: IdPath, authorization: Authorization = None
    ) -> dict[str, Any]:
        viewer = maybe(authorization)

        def recall() -> dict[str, Any]:
            require_round(casino.engine, round_id, viewer)  # D33
            detail = round_detail(casino, round_id, viewer)
            return {**round_envelope(casino, round_id, viewer), **detail}

        return await serial.read(recall)

    @app.get("/players")
    async def players(
        response: Response,
        name: Annotated[SearchText | None, Query(max_length=80)] = None,
        operators: bool = True,
        limit: Limit = 100,
        offset: Offset = 0,
        authorization: Authorization = None,
    ) -> list[dict[str, Any]]:
        """The accounts, newest first, a page at a time (the operator).

        ``name`` finds the accounts whose name holds it (any case);
        ``operators=false`` lists the players alone. The total and the
        next page's offset are in headers, as ``GET /rounds`` gives them.
        """
        # the operator page
        casino.require_operator(who(authorization), "list the accounts")
        page, total = await serial.read(
            lambda: player_list(
                casino,
                name=name,
                operators=operators,
                offset=offset,
                limit=limit,
            )
        )
        return paged(response, page, total, offset)

    @app.get("/ledger")
    async def ledger(authorization: Authorization = None) -> dict[str, Any]:
        casino.require_operator(who(authorization), "check the books")
        # a job of its own: the books between two changes, never inside
        return await serial.run(casino.ledger_check)

    @app.get("/log")
    async def server_log(
        response: Response,
        level: db.LogLevel | None = None,
        round_id: IdQuery = None,
        since: Annotated[DayOrTime | None, Query()] = None,
        until: Annotated[DayOrTime | None, Query()] = None,
        limit: Limit = 100,
        offset: Offset = 0,
        authorization: Authorization = None,
    ) -> list[dict[str, Any]]:
        """The server's own log, newest first, a page at a time (D140).

        The operator's alone. ``level`` (``info`` or ``warning``; another
        name is refused, 422) and ``round_id`` keep the rows of that
        level or about that round; ``since`` and ``until`` bound their
        times as they bound ``GET /rounds``'s. The total and the next
        page's offset are in headers; the body is the page's rows, each
        ``id``, ``at``, ``level``, ``round_id`` and ``message``.
        """
        casino.require_operator(who(authorization), "read the server's log")
        page, total = await serial.read(
            lambda: log_page(
                casino,
                level=level,
                round_id=round_id,
                since=since,
                until=until,
                offset=offset,
                limit=limit,
            )
        )
        return paged(response, page, total, offset)

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(
        websocket: WebSocket,
        table_id: IdPath,
        token: Annotated[str | None, Query(max_length=256)] = None,
    ) -> None:
        try:
            await serial.read(
                lambda: casino.table(table_id),
                table=table_id,
                blocking=casino.shared,
            )
        except NotFoundError:
            await websocket.close(code=4404)
            return
        player = casino.optional_player(token)
        if token and player is None:
            await websocket.close(code=4401)
            return
        casino.dealer.connected(table_id, player, +1)
        try:
            await hub.serve(websocket, table_id, player)
        finally:
            casino.dealer.connected(table_id, player, -1)

    return app


def app_from_env() -> FastAPI:
    """The application of one server worker (``croupier serve --workers``).

    The database is ``$CROUPIER_DB_URL``; the operator token, if any,
    ``$CROUPIER_OPERATOR_TOKEN``. A worker stops when the master process
    (``$CROUPIER_WORKER_OF``) dies (:mod:`croupier.server.lifeline`).
    """
    master = os.environ.get(WORKER_OF_ENV)
    if master and int(master) != os.getpid():
        # a worker of `croupier serve --workers`: never outlive the master
        die_with_parent(int(master))
    settings = os.environ.get(EDGE_ENV)
    extra = edge(json.loads(settings)) if settings else {}
    return create_app(
        os.environ.get(db.DB_ENV),
        table_settings=_settings_from_env(os.environ.get(TABLE_SETTINGS_ENV)),
        table_limits=_limits_from_env(os.environ.get(TABLE_LIMITS_ENV)),
        **extra,
    )


def _env_json(name: str, text: str, error: type[CroupierError]) -> Any:
    """``text``, the environment variable ``name``'s value, as JSON.

    Text that is not JSON raises ``error``, naming the variable and the
    start of its value.
    """
    try:
        return json.loads(text)
    except ValueError as exc:
        msg = f"{name} is not JSON ({exc}): {text[:80]!r}"
        raise error(msg) from None


def _settings_from_env(text: str | None) -> dict[str, Any] | None:
    """``$CROUPIER_TABLE_SETTINGS``'s table settings, checked (D183).

    A worker refuses to start on a value that is not a JSON object of
    table settings in range, naming the variable, the setting, its
    range and the decision that sets it, rather than a traceback of
    the JSON parser or a refusal that does not say where it came from.

    >>> _settings_from_env('{"betting_seconds": 12}')
    {'betting_seconds': 12}
    >>> _settings_from_env('{"betting_seconds": 0.1}')
    Traceback (most recent call last):
    ...
    croupier.server.errors.TableSettingError: CROUPIER_TABLE_SETTINGS: \
table setting betting_seconds must be 5 to 3600 seconds (D170), not 0.1
    """
    if not text:
        return None
    given = _env_json(TABLE_SETTINGS_ENV, text, TableSettingError)
    if not isinstance(given, dict):
        msg = (
            f"{TABLE_SETTINGS_ENV} must be a JSON object of table "
            f"settings, not {text[:80]!r}"
        )
        raise TableSettingError(msg)
    try:
        TableSettings.from_mapping(given)
    except TableSettingError as exc:
        msg = f"{TABLE_SETTINGS_ENV}: {exc.message}"
        raise TableSettingError(msg, ref=exc.ref) from None
    return given


def _limits_from_env(text: str | None) -> tuple[int, int] | None:
    """``$CROUPIER_TABLE_LIMITS``'s default table limits, checked (D195).

    >>> _limits_from_env("[500, 50000]")
    (500, 50000)
    >>> _limits_from_env("[500, 50]")
    Traceback (most recent call last):
    ...
    croupier.server.errors.TableLimitError: CROUPIER_TABLE_LIMITS: the \
table minimum ($5.00) is above the maximum ($0.50) (D195)
    """
    if not text:
        return None
    given = _env_json(TABLE_LIMITS_ENV, text, TableLimitError)
    try:
        return checked_limits(given)
    except TableLimitError as exc:
        msg = f"{TABLE_LIMITS_ENV}: {exc.message}"
        raise TableLimitError(msg, ref=exc.ref) from None


def _ensure_operator(casino: Casino, token: str | None) -> str | None:
    """Make sure an operator can log in; return a token made up here.

    A given token must have :data:`~croupier.server.auth.MIN_TOKEN_LENGTH`
    characters; it becomes the token of the server's operator account
    (the oldest one), so that the token it had before stops working
    (D32). Without one, an operator account is opened with a made-up
    expiring token if there is none yet (``croupier token rotate`` makes
    a new one later).
    """
    operators = sorted(
        (p for p in casino.players.values() if p.is_operator),
        key=lambda p: p.id,
    )
    if token is not None:
        if len(token) < MIN_TOKEN_LENGTH:
            msg = (
                f"the operator token must have at least {MIN_TOKEN_LENGTH} "
                "characters (try: python -c 'import secrets; "
                "print(secrets.token_urlsafe(32))')"
            )
            raise ValueError(msg)
        digest = hash_token(token)
        casino.supplied_operator = digest
        if digest in casino.players:
            return None
        if operators:
            casino._set_token(operators[0].id, digest)
        else:
            casino.register("operator", balance=0, operator=True, token=token)
        return None
    if operators:
        return None
    _player, made = casino.register("operator", balance=0, operator=True)
    return made
