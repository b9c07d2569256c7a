"""The browser tests' fixtures: one served casino per test module
(module scope), and one chromium for them all (each test opens its own
context or page, so nothing of a page is shared; launching chromium
and Playwright's driver takes about a second, once a module it was
some 24 launches a run).

A module whose tests need tables under other rules than the defaults
names them in ``TABLE_RULES`` (:data:`tests.web.live.DOUBLE_DOWN`: a
pai gow table that offers the Double Down Wager, off by default since
D182)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.live import CHROMIUM, CHROMIUM_ARGS, LiveServer


@pytest.fixture(scope="module")
def srv(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """One in-process table server on a fresh SQLite file, its tables
    under the module's ``TABLE_RULES`` (the defaults without)."""
    server = LiveServer(
        tmp_path_factory.mktemp("web") / "web.db",
        rules=getattr(request.module, "TABLE_RULES", None),
    )
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, through Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
