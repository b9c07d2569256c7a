"""A player's page in the browser tests: joined in the lobby, seated,
idle (the fixtures ``srv`` and ``browser`` are in ``conftest.py``)."""

from __future__ import annotations

import os
from typing import Any, Protocol

import httpx
import pytest
from tests.web.live import CHROMIUM, LiveServer

BROWSER_TEST = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM),
        reason="browser test needs Debian's chromium at /usr/bin/chromium "
        "(apt-get install chromium)",
    ),
]
"""A browser test module's marks (``pytestmark = BROWSER_TEST``)."""

HTTP = httpx.Client(timeout=30)
"""One keep-alive connection pool for the tests' API players."""


class Served(Protocol):
    """A running table server: the in-process one or ``croupier serve``."""

    @property
    def base(self) -> str:
        """``http://host:port``."""
        ...


def player_page(browser: Any, srv: Served, name: str, **kw: Any) -> Any:
    """A new page with a fresh player called ``name`` (via the lobby);
    ``page.errors`` collects the page's script errors."""
    page = browser.new_page(
        viewport=kw.pop("viewport", None) or {"width": 1366, "height": 900},
        **kw,
    )
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(srv.base + "/")
    page.fill("#name", name)
    page.click("#join")
    page.wait_for_selector("#balance:has-text('$')")
    return page


def token_of(page: Any) -> dict[str, str]:
    """The headers of the page's player, for the HTTP API."""
    token = page.evaluate("localStorage.getItem('croupier.token')")
    return {"Authorization": f"Bearer {token}"}


def sit(page: Any, srv: LiveServer, table: int, seat: int) -> None:
    """Open ``table``'s page and take ``seat`` there."""
    page.goto(f"{srv.base}/play/{table}")
    page.click(f"[data-sit='{seat}']")
    page.wait_for_selector(f".seat.mine[data-seat='{seat}']")


def table_state(srv: LiveServer, table: int, headers: Any) -> Any:
    """``GET /tables/{table}`` as the player of ``headers`` sees it."""
    return HTTP.get(f"{srv.base}/tables/{table}", headers=headers).json()


def idle(page: Any) -> None:
    """Wait until no request of the page is in flight."""
    page.wait_for_selector("#rail[aria-busy='false']", state="attached")
    page.wait_for_timeout(60)
