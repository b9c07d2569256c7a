"""The play requests over HTTP: wager, deal and decide.

``POST /tables/{id}/wagers``, ``/deal`` and ``/actions`` are most of
the traffic, and each is small: FastAPI's generic machinery (parameter
solving, its middleware layers, the router's scan of every route) would
cost more than the step itself. :class:`PlayApi` reads their headers and
bodies with the same pydantic models and refuses exactly as the other
routes do; :class:`DirectPlay` (ASGI middleware) hands these three
requests to it straight away. The same three are also declared as
FastAPI routes (:meth:`PlayApi.router`), for the OpenAPI schema.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
    ValidationError,
)
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.round import Action
from croupier.server.auth import bearer_token
from croupier.server.casino import Casino
from croupier.server.errors import error_body, status_of
from croupier.server.inputs import MAX_ID, Amount, IdPath, SeatNumber
from croupier.server.play import AnsweredMeanwhileError
from croupier.server.tables import Idem, Player, TableRuntime
from croupier.server.views import minimal_result, table_snapshot

__all__ = [
    "ActionRequest",
    "DirectPlay",
    "PlayApi",
    "WagerChangeRequest",
    "WagerRequest",
    "json_response",
    "refusal_response",
    "replayed_response",
    "validation_response",
]

MAX_KEY = 128
"""Longest Idempotency-Key accepted."""

_Body = TypeVar("_Body", bound=BaseModel)


WagerName = Annotated[StrictStr, Field(max_length=64)]
"""A wager's name in a body (the game refuses one it does not have)."""


class WagerRequest(BaseModel):
    """Body of ``POST /tables/{id}/wagers``."""

    model_config = ConfigDict(extra="forbid")

    seat: SeatNumber
    wager: WagerName
    amount: Amount


class WagerChangeRequest(BaseModel):
    """Body of ``POST /tables/{id}/wagers/change`` (0 takes it back)."""

    model_config = ConfigDict(extra="forbid")

    seat: SeatNumber
    wager: WagerName
    amount: Amount


class ActionRequest(BaseModel):
    """Body of ``POST /tables/{id}/actions`` (the scenario form)."""

    model_config = ConfigDict(extra="forbid")

    seat: SeatNumber
    action: Annotated[StrictStr, Field(max_length=64)]
    amount: Amount | None = None
    low: Annotated[StrictStr | None, Field(max_length=8)] = None


def json_response(body: Any) -> JSONResponse:
    """``body`` as a JSON response, without FastAPI's generic encoder.

    Views are built of plain JSON types already; anything else goes
    through :func:`fastapi.encoders.jsonable_encoder` as before.
    """
    try:
        return JSONResponse(body)
    except (TypeError, ValueError):
        return JSONResponse(jsonable_encoder(body))


def refusal_response(exc: CroupierError) -> JSONResponse:
    """A refusal: ``{"error", "ref", "message"}`` with its status.

    A refusal may carry headers (``Retry-After`` of a 503).
    """
    return JSONResponse(
        error_body(exc),
        status_code=status_of(exc),
        headers=getattr(exc, "headers", None),
    )


def validation_response(exc: RequestValidationError) -> JSONResponse:
    """A malformed request (422), in the same form as a refusal."""
    body = {
        "error": "RequestValidationError",
        "ref": None,
        "message": "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
            for e in exc.errors()
        ),
    }
    return JSONResponse(body, status_code=422)


def replayed_response(status: int, body: dict[str, Any]) -> JSONResponse:
    """An answer given before to the same Idempotency-Key, again."""
    return JSONResponse(
        body, status_code=status, headers={"Idempotent-Replayed": "true"}
    )


def _invalid(kind: str, loc: tuple[str, ...], msg: str, value: object) -> Any:
    return RequestValidationError(
        [{"type": kind, "loc": loc, "msg": msg, "input": value}]
    )


def play_headers(http: Request) -> tuple[str | None, str | None, str | None]:
    """``Authorization``, ``Idempotency-Key`` and ``Prefer`` of a request."""
    headers = http.headers
    key = headers.get("idempotency-key")
    if key is not None and len(key) > MAX_KEY:
        msg = f"String should have at most {MAX_KEY} characters"
        raise _invalid(
            "string_too_long", ("header", "Idempotency-Key"), msg, key
        )
    return headers.get("authorization"), key, headers.get("prefer")


async def read_body(http: Request, model: type[_Body]) -> _Body:
    """The JSON body validated as ``model``; refused as FastAPI would."""
    raw = await http.body()
    if not raw:
        raise _invalid("missing", ("body",), "Field required", None)
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        raise RequestValidationError(
            [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]
        ) from None


def _body_doc(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI request body of an endpoint that reads ``model``."""
    schema = model.model_json_schema()
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": schema}},
        }
    }


class PlayApi:
    """Wager, deal and decide, answered from the casino."""

    def __init__(self, casino: Casino) -> None:
        self.casino = casino
        """The casino that plays."""

    def _player(self, authorization: str | None) -> Player:
        return self.casino.authenticate(bearer_token(authorization))

    def _responder(
        self, player: Player, prefer: str | None
    ) -> Callable[[TableRuntime], dict[str, Any]]:
        """The full table, or with ``Prefer: return=minimal`` a summary."""
        casino = self.casino
        if prefer and "return=minimal" in prefer:
            return lambda rt: minimal_result(casino, rt, player)
        return lambda rt: table_snapshot(casino, rt, player)

    @staticmethod
    def _idem(player: Player, key: str | None) -> Idem:
        return None if not key else (player.id, key)

    async def _play(
        self, table_id: int, step: Callable[[], dict[str, Any]]
    ) -> JSONResponse:
        """Run a play step on the serial thread (:mod:`.serial`).

        The step looks its Idempotency-Key up first, inside the job: a
        key answered before (or meanwhile) is replayed, not applied.
        """
        try:
            body = await self.casino.serial.run(step, table=table_id)
        except AnsweredMeanwhileError as done:
            return replayed_response(done.status, done.body)
        return json_response(body)

    async def wager(self, table_id: IdPath, http: Request) -> JSONResponse:
        """``POST /tables/{id}/wagers``: place a wager."""
        authorization, key, prefer = play_headers(http)
        player = self._player(authorization)  # before reading the body
        body = await read_body(http, WagerRequest)
        request = ""
        if key:
            request = f"wager {table_id} {body.model_dump_json()}"
        return await self._play(
            table_id,
            lambda: self.casino.dealer.place_wager(
                player,
                table_id,
                body.seat,
                body.wager,
                body.amount,
                idem=self._idem(player, key),
                request=request,
                respond=self._responder(player, prefer),
            ),
        )

    async def change_wager(
        self, table_id: IdPath, http: Request
    ) -> JSONResponse:
        """``POST /tables/{id}/wagers/change``: set a spot's new total.

        ``amount`` is the wager's new stake (0 takes it back); see
        :meth:`~croupier.server.play.Dealer.change_wager`.
        """
        authorization, key, prefer = play_headers(http)
        player = self._player(authorization)  # before reading the body
        body = await read_body(http, WagerChangeRequest)
        request = ""
        if key:
            request = f"change {table_id} {body.model_dump_json()}"
        return await self._play(
            table_id,
            lambda: self.casino.dealer.change_wager(
                player,
                table_id,
                body.seat,
                body.wager,
                body.amount,
                idem=self._idem(player, key),
                request=request,
                respond=self._responder(player, prefer),
            ),
        )

    async def deal(self, table_id: IdPath, http: Request) -> JSONResponse:
        """``POST /tables/{id}/deal``: close wagering and deal."""
        authorization, key, prefer = play_headers(http)
        player = self._player(authorization)
        request = f"deal {table_id}"
        return await self._play(
            table_id,
            lambda: self.casino.dealer.deal(
                player,
                table_id,
                idem=self._idem(player, key),
                request=request,
                respond=self._responder(player, prefer),
            ),
        )

    async def act(self, table_id: IdPath, http: Request) -> JSONResponse:
        """``POST /tables/{id}/actions``: make a decision."""
        authorization, key, prefer = play_headers(http)
        player = self._player(authorization)  # before reading the body
        body = await read_body(http, ActionRequest)
        request = ""
        if key:
            request = f"action {table_id} {body.model_dump_json()}"
        action = Action(
            seat=body.seat,
            name=body.action,
            amount=body.amount,
            card=None if body.low is None else Card.parse(body.low),
        )
        return await self._play(
            table_id,
            lambda: self.casino.dealer.act(
                player,
                table_id,
                action,
                idem=self._idem(player, key),
                request=request,
                respond=self._responder(player, prefer),
            ),
        )

    def handlers(
        self,
    ) -> dict[str, Callable[[int, Request], Awaitable[JSONResponse]]]:
        """The handler of each play path's last segment."""
        return {"wagers": self.wager, "deal": self.deal, "actions": self.act}

    def router(self) -> APIRouter:
        """The play routes as FastAPI declares them (the OpenAPI schema)."""
        router = APIRouter()
        for path, handler, model in (
            ("wagers", self.wager, WagerRequest),
            ("wagers/change", self.change_wager, WagerChangeRequest),
            ("deal", self.deal, None),
            ("actions", self.act, ActionRequest),
        ):
            router.add_api_route(
                f"/tables/{{table_id}}/{path}",
                handler,
                methods=["POST"],
                response_model=None,
                openapi_extra=None if model is None else _body_doc(model),
            )
        return router


_PLAY_PATH = re.compile(r"/tables/([0-9]{1,10})/(wagers|deal|actions)")


class DirectPlay:
    """ASGI middleware: answers the three play requests itself.

    Refusals are answered as the application's exception handlers would
    answer them; anything else that goes wrong propagates to the server
    error middleware (a 500), as from any route.
    """

    def __init__(self, app: ASGIApp, *, play: PlayApi) -> None:
        self.app = app
        """The application for every other request."""
        self.handlers = play.handlers()
        """The play handlers by path segment."""

    async def __call__(
        self, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Serve a play request, or pass the request on."""
        if scope["type"] == "http" and scope["method"] == "POST":
            match = _PLAY_PATH.fullmatch(scope["path"])
            if match is not None and 1 <= int(match.group(1)) <= MAX_ID:
                handler = self.handlers[match.group(2)]
                http = Request(scope, receive)
                try:
                    response = await handler(int(match.group(1)), http)
                except CroupierError as exc:
                    response = refusal_response(exc)
                except RequestValidationError as exc:
                    response = validation_response(exc)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
