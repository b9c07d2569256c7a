"""The play requests over HTTP: wager, deal and decide.

``POST /tables/{id}/wagers``, ``/wagers/change``, ``/deal`` and
``/actions`` are the routes of one FastAPI router
(:meth:`PlayApi.router`), which both serves them and declares them in
the OpenAPI schema. They are most of the traffic and each is small, so
a handler takes the bare request: it reads the headers itself and
validates the body with the route's pydantic model
(:func:`read_body`), refusing exactly as FastAPI would, and answers
with a prepared :class:`~fastapi.responses.JSONResponse`; so the
server may call it directly (:mod:`croupier.server.fast_play`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Header
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
    TypeAdapter,
    ValidationError,
)
from starlette.requests import Request

from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.round import Action
from croupier.server.auth import bearer_token
from croupier.server.casino import Casino
from croupier.server.errors import error_body, status_of
from croupier.server.inputs import MAX_ID, Amount, SeatNumber
from croupier.server.play import AnsweredMeanwhileError
from croupier.server.tables import Idem, Player, TableRuntime
from croupier.server.views import minimal_result, table_snapshot

__all__ = [
    "ActionRequest",
    "IdempotencyKey",
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

IdempotencyKey = Annotated[str | None, Header(max_length=MAX_KEY)]
"""A route's ``Idempotency-Key`` header (FastAPI parameter type)."""

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


_TABLE_ID = TypeAdapter(Annotated[int, Field(ge=1, le=MAX_ID)])
"""A table id in a path (as :data:`~croupier.server.inputs.IdPath`)."""


def table_of(http: Request) -> int:
    """The request's ``{table_id}``; refused as FastAPI would refuse it.

    The play routes validate their one path parameter themselves, as
    they do their body: FastAPI's generic parameter solving costs about
    a tenth of a play request.
    """
    raw = http.path_params["table_id"]
    try:
        return int(_TABLE_ID.validate_python(raw))
    except ValidationError as exc:
        raise RequestValidationError(
            [{**e, "loc": ("path", "table_id")} for e in exc.errors()]
        ) from None


def _doc(model: type[BaseModel] | None) -> dict[str, Any]:
    """The OpenAPI path parameter and body of a play route."""
    doc: dict[str, Any] = {
        "parameters": [
            {
                "name": "table_id",
                "in": "path",
                "required": True,
                "schema": {**_TABLE_ID.json_schema(), "title": "Table Id"},
            }
        ],
        "responses": {  # as FastAPI documents a route with parameters
            "422": {
                "description": "Validation Error",
                "content": {
                    "application/json": {
                        "schema": {
                            "$ref": "#/components/schemas/HTTPValidationError"
                        }
                    }
                },
            }
        },
    }
    if model is not None:
        schema = model.model_json_schema()
        doc["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": schema}},
        }
    return doc


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

    async def wager(self, http: Request) -> JSONResponse:
        """``POST /tables/{id}/wagers``: place a wager."""
        table_id = table_of(http)
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

    async def change_wager(self, http: Request) -> JSONResponse:
        """``POST /tables/{id}/wagers/change``: set a spot's new total.

        ``amount`` is the wager's new stake (0 takes it back); see
        :meth:`~croupier.server.play.Dealer.change_wager`.
        """
        table_id = table_of(http)
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

    async def deal(self, http: Request) -> JSONResponse:
        """``POST /tables/{id}/deal``: close wagering and deal."""
        table_id = table_of(http)
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

    async def act(self, http: Request) -> JSONResponse:
        """``POST /tables/{id}/actions``: make a decision."""
        table_id = table_of(http)
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

    def router(self) -> APIRouter:
        """The play routes: served, and declared in the OpenAPI schema."""
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
                openapi_extra=_doc(model),
            )
        return router
