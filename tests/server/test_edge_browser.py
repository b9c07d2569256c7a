"""Issue 12 point 9 in a real browser: the CSP holds, the pages work.

Chromium loads the lobby, a table and ``/docs`` from ``croupier serve``
with the Content-Security-Policy enforced (no ``bypass_csp``) and every
request to another host aborted (offline): no page may be refused a
resource by its policy, and Swagger UI must render the API from its
local assets.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
from tests.server.procs import Server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason="browser test needs Debian's chromium at /usr/bin/chromium "
    "(apt-get install chromium)",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("edge") / "edge.db"
    srv = Server(f"sqlite:///{db}")
    srv.start()
    yield srv
    srv.kill()


def test_issue12_point9_pages_work_under_the_csp_offline(
    site: Server,
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        refused: list[str] = []
        foreign: list[str] = []
        page.on(
            "console",
            lambda msg: (
                refused.append(msg.text)
                if "Content Security Policy" in msg.text
                else None
            ),
        )
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        def offline(route: Any) -> None:
            host = urlparse(route.request.url).hostname
            if host != "127.0.0.1":
                foreign.append(route.request.url)
                route.abort()
            else:
                route.continue_()

        page.route("**/*", offline)
        page.goto(site.base + "/")
        page.fill("#name", "Csp Tester")
        page.click("#join")
        page.wait_for_selector("#balance:has-text('$')")
        page.click(".table-card a >> nth=0")
        page.wait_for_selector(".felt")
        page.click("[data-sit='1']")
        page.wait_for_selector(".seat.mine")
        # the control: an injected inline script is refused, and said so
        page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.injected = 1';"
            " document.body.appendChild(s); }"
        )
        page.wait_for_timeout(200)
        assert page.evaluate("() => window.injected") is None
        assert refused, "the CSP refusal was not reported"
        refused.clear()
        page.goto(site.base + "/docs")
        page.wait_for_selector(".swagger-ui .opblock", timeout=15_000)
        operations = page.query_selector_all(".opblock")
        assert len(operations) >= 15
        browser.close()
    assert not refused, refused
    assert not foreign, foreign
    assert not errors, errors
