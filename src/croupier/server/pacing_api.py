"""The pacing requests over HTTP: ready, sit-out, void, end of a shoe.

``POST /tables/{id}/ready {"seat": n}`` (Idempotency-Key): the seat is
done betting; the deal starts once every seat with a wager is.
``POST /tables/{id}/sit-out {"seat": n, "sitting_out": bool}``.
``POST /tables/{id}/void {"reason": "..."}``: the operator voids the
round in play, every stake going back (D25).
``POST /tables/{id}/shoe/end {"reason": "..."}``: the operator retires
the table's shoe while no stake is on the layout; it deals on from a new
one (D194). Each is a job on the serial thread
(:mod:`croupier.server.serial`); see :mod:`croupier.server.pacing`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Header
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from croupier.server.auth import bearer_token
from croupier.server.casino import Casino
from croupier.server.inputs import MAX_ID, IdPath, Reason
from croupier.server.play import AnsweredMeanwhileError, Responder
from croupier.server.play_api import (
    IdempotencyKey,
    json_response,
    replayed_response,
)
from croupier.server.tables import Idem, Player
from croupier.server.views import table_snapshot

__all__ = [
    "EndShoeRequest",
    "ReadyRequest",
    "SitOutRequest",
    "VoidRequest",
    "pacing_router",
]

Seat = Annotated[StrictInt, Field(ge=1, le=64)]


class ReadyRequest(BaseModel):
    """Body of ``POST /tables/{id}/ready``."""

    model_config = ConfigDict(extra="forbid")

    seat: Seat


class SitOutRequest(BaseModel):
    """Body of ``POST /tables/{id}/sit-out``."""

    model_config = ConfigDict(extra="forbid")

    seat: Seat
    sitting_out: StrictBool = True


class VoidRequest(BaseModel):
    """Body of ``POST /tables/{id}/void`` (stored in the round record)."""

    model_config = ConfigDict(extra="forbid")

    reason: Reason  # printable: stored and logged (D31)
    round_id: Annotated[StrictInt, Field(ge=1, le=MAX_ID)] | None = None
    """The round the operator means to void: another in play is refused
    (D137). Without it, whichever round is in play."""


class EndShoeRequest(BaseModel):
    """Body of ``POST /tables/{id}/shoe/end`` (stored in the record)."""

    model_config = ConfigDict(extra="forbid")

    reason: Reason  # printable: stored and logged (D31)
    shoe: Annotated[StrictInt, Field(ge=1, le=MAX_ID)] | None = None
    """The shoe the operator means to end (the table's ``shoe.number``):
    once it is out of play the request is refused, nothing ended (a
    retry after a lost answer ends no second shoe, D194). Without it,
    whichever shoe is in play."""


def pacing_router(casino: Casino) -> APIRouter:
    """The pacing routes of ``casino``."""
    router = APIRouter()
    serial = casino.serial

    async def keyed(
        table_id: int,
        authorization: str | None,
        key: str | None,
        request: str,
        call: Callable[[Player, Idem, Responder], dict[str, Any]],
    ) -> JSONResponse:
        """Run one keyed request on the serial thread, or replay it."""
        player = casino.authenticate(bearer_token(authorization))
        idem = None if not key else (player.id, key)
        try:
            out = await serial.run(
                lambda: call(
                    player,
                    idem,
                    lambda rt: table_snapshot(casino, rt, player),
                ),
                table=table_id,
            )
        except AnsweredMeanwhileError as done:
            return replayed_response(done.status, done.body)
        return json_response(out)

    @router.post("/tables/{table_id}/ready")
    async def ready(
        table_id: IdPath,
        body: ReadyRequest,
        authorization: Annotated[str | None, Header()] = None,
        idempotency_key: IdempotencyKey = None,
    ) -> JSONResponse:
        """The seat is done betting (the deal starts when all are)."""
        request = f"ready {table_id} {body.model_dump_json()}"
        return await keyed(
            table_id,
            authorization,
            idempotency_key,
            request,
            lambda player, idem, respond: casino.dealer.ready(
                player,
                table_id,
                body.seat,
                idem=idem,
                request=request,
                respond=respond,
            ),
        )

    @router.post("/tables/{table_id}/sit-out")
    async def sit_out(
        table_id: IdPath,
        body: SitOutRequest,
        authorization: Annotated[str | None, Header()] = None,
        idempotency_key: IdempotencyKey = None,
    ) -> JSONResponse:
        """Sit out from the next round on, or come back in."""
        request = f"sit-out {table_id} {body.model_dump_json()}"
        return await keyed(
            table_id,
            authorization,
            idempotency_key,
            request,
            lambda player, idem, respond: casino.dealer.sit_out(
                player,
                table_id,
                body.seat,
                body.sitting_out,
                idem=idem,
                request=request,
                respond=respond,
            ),
        )

    @router.post("/tables/{table_id}/void")
    async def void(
        table_id: IdPath,
        body: VoidRequest,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """The operator voids the round in play (every stake returned).

        The answer is the table and ``voided``: the round, the total
        returned and each refund (player, name, seat, amount).
        """
        player = casino.authenticate(bearer_token(authorization))

        def run() -> dict[str, Any]:
            out = casino.dealer.void(
                player,
                table_id,
                body.reason,
                round_id=body.round_id,
                respond=lambda rt: table_snapshot(casino, rt, player),
            )
            for refund in out["voided"]["refunds"]:
                refund["name"] = casino.player_name(refund["player_id"])
            return out

        return await serial.run(run, table=table_id)

    @router.post("/tables/{table_id}/shoe/end")
    async def end_shoe(
        table_id: IdPath,
        body: EndShoeRequest,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """The operator retires the table's shoe (no stake on the layout).

        The answer is the table (on its new shoe) and ``shoe_ended``: the
        shoe retired and the new one's number, the round opened on it,
        the round withdrawn (the one that waited for wagers on the old
        shoe, none taken) and the rounds whose stacks were disclosed
        (D194).
        """
        player = casino.authenticate(bearer_token(authorization))
        return await serial.run(
            lambda: casino.dealer.end_shoe(
                player,
                table_id,
                body.reason,
                shoe=body.shoe,
                respond=lambda rt: table_snapshot(casino, rt, player),
            ),
            table=table_id,
        )

    return router
