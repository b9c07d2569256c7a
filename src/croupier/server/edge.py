"""The server's edge: what every request meets before a route sees it.

:class:`Edge` is the outermost ASGI middleware of the application. For
each HTTP request, in this order:

1. **rate limits** (:class:`RateLimits`, the ``limits`` library): opening
   an account and the play requests are counted per client address;
   past the limit the answer is ``429`` with ``Retry-After`` (D32);
2. **authentication before the body**: a request that carries a body
   to a route that needs a token (every body-carrying route but
   ``POST /players``) is refused ``401`` unless its bearer token is
   valid, before a byte of the body is read (issue 12 point 3);
3. **the body limit** (:class:`BodyLimits`): a ``Content-Length`` above
   the route's limit is refused ``413`` at once; a body without one is
   counted chunk by chunk as the application reads it and refused as
   soon as it passes the limit (D30);
4. **security headers** on every response (:data:`SECURITY_HEADERS`,
   with the Content-Security-Policy of :data:`PAGE_CSP` unless the
   route set its own);
5. **no bare 500**: anything a route raises that no handler answered is
   logged with an id and answered ``500`` in the refusal form
   ``{"error", "ref", "message"}``, the id in the message.

Every refusal made here has the same JSON form as the routes' own, its
``ref`` the project decision it follows (``"D30"`` for a body too large,
``"D32"`` for too many requests and an expired token, D198) or ``null``
where no rule applies (a token missing or unknown, an unknown path, an
unexpected error); a route's refusal may also cite a subsection of 58 Pa.
Code (:mod:`croupier.server.errors`).
"""

from __future__ import annotations

import base64
import hashlib
import logging
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.staticfiles import StaticFiles
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from croupier.regs import Citation
from croupier.server.auth import bearer_token, token_refusal
from croupier.server.decisions import BODY_LIMITS, TOKENS
from croupier.server.limits import EDGE_ENV, BodyLimits, RateLimits, edge

__all__ = [
    "EDGE_ENV",
    "PAGE_CSP",
    "SECURITY_HEADERS",
    "BodyLimits",
    "BodyTooLargeError",
    "Edge",
    "RateLimits",
    "csp_with_inline_scripts",
    "edge",
    "edge_refusal",
    "install_edge",
    "unexpected_error",
]

log = logging.getLogger("croupier.server")


PAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The Content-Security-Policy of every response (issue 12 point 9).

The web table loads only its own scripts and styles (no inline code),
talks only to its own origin (HTTP and WebSocket) and may not be framed
by any other page (``frame-ancestors 'none'``, clickjacking).
"""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (
        b"permissions-policy",
        b"camera=(), microphone=(), geolocation=(), payment=()",
    ),
)
"""Headers added to every response besides the CSP."""


_PLAY_ROUTE = re.compile(
    r"/tables/[^/]+/(wagers|deal|actions|ready|sit-out|seats)(/[^/]+)?/?"
)


class BodyTooLargeError(HTTPException):
    """A request body above the route's limit (raised while reading)."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=_too_large(limit))


def _too_large(limit: int) -> str:
    return f"request body larger than this route's limit of {limit} bytes"


def edge_refusal(
    status: int,
    error: str,
    message: str,
    headers: dict[str, str] | None = None,
    *,
    ref: Citation | None = None,
) -> JSONResponse:
    """A refusal made at the edge, in the routes' refusal form.

    ``ref`` is the rule it follows (a body above the limit: D30; too
    many requests, an expired token: D32), ``None`` where none applies.
    """
    return JSONResponse(
        {
            "error": error,
            "ref": None if ref is None else str(ref),
            "message": message,
        },
        status_code=status,
        headers=headers,
    )


def unexpected_error(exc: BaseException) -> JSONResponse:
    """An error no handler answered: log it with an id, answer JSON 500.

    A storage outage met outside the serial thread (reading a token, say)
    is the documented JSON 503 with ``Retry-After`` instead.
    """
    from croupier.server.serial import is_outage, unavailable

    if is_outage(exc):
        refusal = unavailable(exc)
        return edge_refusal(
            refusal.status,
            refusal.error_name,
            refusal.message,
            refusal.headers,
        )
    incident = secrets.token_hex(6)
    log.error(
        "unexpected error %s: %s", incident, type(exc).__name__, exc_info=exc
    )
    return edge_refusal(
        500,
        "InternalServerError",
        f"unexpected server error (incident {incident}, in the log)",
    )


def csp_with_inline_scripts(html: str) -> str:
    """A CSP for a page whose inline scripts are allowed by their hash.

    Swagger UI's page starts the bundle from an inline ``<script>``;
    its SHA-256 is allowed rather than any inline script, and the
    bundle's own inline styles are allowed.
    """
    hashes = []
    for body in re.findall(r"<script>(.*?)</script>", html, re.DOTALL):
        digest = hashlib.sha256(body.encode()).digest()
        hashes.append(f"'sha256-{base64.b64encode(digest).decode()}'")
    scripts = " ".join(["'self'", *hashes])
    return PAGE_CSP.replace(
        "script-src 'self'", f"script-src {scripts}"
    ).replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


class Edge:
    """ASGI middleware in front of the whole application.

    Rate limits, the token before the body, body limits, security
    headers and the JSON 500, as the module docstring lists them.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        known_token: Callable[[str | None], Any],
        bodies: BodyLimits,
        rates: RateLimits,
    ) -> None:
        self.app = app
        """The application behind the edge."""
        self.known_token = known_token
        """The account of a token (``None`` if unknown or expired)."""
        self.bodies = bodies
        """Body size limits."""
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        """The rate limiter (moving windows, kept in this process)."""
        self.register_limits = _items(rates.register)
        """Limits of ``POST /players`` per address."""
        self.play_limits = _items(rates.play)
        """Limits of the play requests per address."""

    async def __call__(
        self, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Serve one request through the edge."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = _secured(message.get("headers", []))
            await send(message)

        try:
            refusal = self._refuse_early(scope)
        except Exception as exc:  # reading a token: storage may be down
            refusal = unexpected_error(exc)
        if refusal is not None:
            await refusal(scope, receive, send_secured)
            return
        limit = self.bodies.for_path(scope["method"], scope["path"])
        received = 0

        async def receive_limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLargeError(limit)
            return message

        try:
            await self.app(scope, receive_limited, send_secured)
        except BodyTooLargeError as exc:
            if started:
                raise
            response = edge_refusal(
                413, "BodyTooLargeError", str(exc.detail), ref=BODY_LIMITS
            )
            await response(scope, receive, send_secured)
        except Exception as exc:
            if started:
                raise
            await unexpected_error(exc)(scope, receive, send_secured)

    def _refuse_early(self, scope: Scope) -> JSONResponse | None:
        """A refusal decided from the request line and headers alone."""
        method = scope["method"]
        path = scope["path"]
        headers = Headers(scope=scope)
        address = (scope.get("client") or ("unknown", 0))[0]
        token = bearer_token(headers.get("authorization"))
        registering = method == "POST" and path.rstrip("/") == "/players"
        if registering and self.register_limits:
            caller = self.known_token(token)
            if not getattr(caller, "is_operator", False):
                wait = self._hit(self.register_limits, "register", address)
                if wait is not None:
                    return _too_many("accounts opened", wait)
        if (
            method in ("POST", "DELETE")
            and self.play_limits
            and _PLAY_ROUTE.fullmatch(path)
        ):
            wait = self._hit(self.play_limits, "play", address)
            if wait is not None:
                return _too_many("play requests", wait)
        length = _content_length(headers)
        has_body = (length is not None and length > 0) or (
            "transfer-encoding" in headers
        )
        if has_body and not registering and self.known_token(token) is None:
            refusal = token_refusal(token)
            return edge_refusal(
                401, "NotAuthenticatedError", refusal.message, ref=refusal.ref
            )
        limit = self.bodies.for_path(method, path)
        if length is not None and length > limit:
            return edge_refusal(
                413, "BodyTooLargeError", _too_large(limit), ref=BODY_LIMITS
            )
        return None

    def _hit(
        self, items: list[RateLimitItem], kind: str, address: str
    ) -> int | None:
        """Count a request; the seconds to wait if it is over a limit."""
        for item in items:
            if not self.limiter.hit(item, kind, address):
                stats = self.limiter.get_window_stats(item, kind, address)
                return max(1, int(stats.reset_time - time.time()) + 1)
        return None


def _items(spec: str | None) -> list[RateLimitItem]:
    return [] if not spec else list(parse_many(spec))


def _too_many(what: str, wait: int) -> JSONResponse:
    return edge_refusal(
        429,
        "RateLimitedError",
        f"too many {what} from this address; retry in {wait} s",
        headers={"Retry-After": str(wait)},
        ref=TOKENS,
    )


def _content_length(headers: Headers) -> int | None:
    value = headers.get("content-length")
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None


def _secured(headers: Any) -> list[tuple[bytes, bytes]]:
    """Response headers with the security headers (and a CSP) added."""
    out = list(headers)
    names = {name.lower() for name, _ in out}
    out.extend(h for h in SECURITY_HEADERS if h[0] not in names)
    if b"content-security-policy" not in names:
        out.append((b"content-security-policy", PAGE_CSP.encode()))
    return out


DOCS_ASSETS = "/docs-assets"
"""Where Swagger UI's own files are served (no CDN, issue 12 point 9)."""


def _docs_assets() -> Path:
    """Swagger UI's files, as the ``fastapi-offline`` package ships them."""
    import fastapi_offline

    return Path(fastapi_offline.__file__).resolve().parent / "static"


def install_edge(
    app: FastAPI,
    *,
    known_token: Callable[[str | None], Any],
    bodies: BodyLimits,
    rates: RateLimits,
) -> None:
    """Put :class:`Edge` in front of ``app``, with ``/docs`` served locally.

    Call it after every other middleware is added (the edge must be the
    outermost). ``app`` must have been made with ``docs_url=None``.
    HTTP errors (an unknown path, a wrong method) answer in the refusal
    form as well.
    """

    async def http_error(_request: Request, exc: Exception) -> Response:
        if not isinstance(exc, HTTPException):  # pragma: no cover
            return unexpected_error(exc)
        ref = None
        if exc.status_code == 413:
            error, ref = "BodyTooLargeError", BODY_LIMITS
        elif exc.status_code == 404:
            error = "NotFoundError"
        else:
            error = "HTTPError"
        return edge_refusal(
            exc.status_code,
            error,
            str(exc.detail),
            dict(exc.headers or {}),
            ref=ref,
        )

    app.add_exception_handler(HTTPException, http_error)
    app.mount(
        DOCS_ASSETS, StaticFiles(directory=_docs_assets()), name="docs-assets"
    )

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        page = get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} - API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon.png",
        )
        html = bytes(page.body).decode()
        page.headers["content-security-policy"] = csp_with_inline_scripts(html)
        return page

    app.add_middleware(
        Edge, known_token=known_token, bodies=bodies, rates=rates
    )
