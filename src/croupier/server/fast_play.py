"""The play routes answered without FastAPI's per-request machinery.

The play requests (``POST /tables/{id}/wagers``, ``/wagers/change``,
``/deal``, ``/actions``) are most of the traffic and each is small.
Served through FastAPI's router, a round costs the server about a sixth
more CPU (``bench/bench_server_load.py`` prints the server's CPU per
round; 1.56 against 1.90 ms, median of four alternating runs): the scan
of every route, parameter solving, the exception middleware and the
scope bookkeeping, for handlers that need none of it, since they take
the bare request and validate their path parameter and body themselves
(:mod:`croupier.server.play_api`).

:class:`FastPlay` is ASGI middleware built from that same router: it
matches a request against the router's own routes and calls the
matching route's handler directly, answering a refusal as the
application's exception handlers would. There is one declaration of the
routes (paths, handlers, bodies, schema); this module adds no route.
``create_app(fast_play=False)`` serves them through FastAPI alone, and
``tests/server/test_fast_play.py`` checks that both give the same
answers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import APIRouter
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.routing import Match
from starlette.types import ASGIApp, Receive, Scope, Send

from croupier.errors import CroupierError
from croupier.server.play_api import refusal_response, validation_response

__all__ = ["FastPlay"]

Handler = Callable[[Request], Awaitable[JSONResponse]]
"""A play route's handler: the bare request in, a response out."""


class FastPlay:
    """ASGI middleware: the routes of ``router`` served directly.

    Every other request, and a request to one of them with another
    method, goes on to the application. Anything but a refusal that
    goes wrong propagates to the server error middleware (a 500), as
    from any route.
    """

    def __init__(self, app: ASGIApp, *, router: APIRouter) -> None:
        self.app = app
        """The application for every other request."""
        self.routes: list[tuple[APIRoute, Handler]] = [
            (route, route.endpoint)
            for route in router.routes
            if isinstance(route, APIRoute)
        ]
        """The router's routes and their handlers."""

    async def __call__(
        self, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Serve a request of one of the routes, or pass it on."""
        if scope["type"] == "http":
            for route, handler in self.routes:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    http = Request({**scope, **child}, receive)
                    try:
                        response = await handler(http)
                    except CroupierError as exc:
                        response = refusal_response(exc)
                    except RequestValidationError as exc:
                        response = validation_response(exc)
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)
