"""D195 at the operator's desk: a new table starts at the server's limits.

The desk's "Open a table" form showed $1.00 and $1,000.00 whatever the
server's default limits: on a server started with ``--min-bet 500
--max-bet 50000`` an operator who typed a name and pressed Open made a
$1.00 table. The form now starts at the server's own limits (``GET
/table-settings``' ``limits``, read before the desk shows). The figures
are checked through the API.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.live import OPERATOR, LiveServer
from tests.web.pages import BROWSER_TEST, HTTP, opened_desk

pytestmark = BROWSER_TEST

OP = {"Authorization": f"Bearer {OPERATOR}"}


@pytest.fixture
def limited(srv: LiveServer) -> Iterator[LiveServer]:
    """The server's default limits $5.00 to $500.00 (``croupier serve
    --min-bet 500 --max-bet 50000`` sets the same attribute)."""
    srv.casino.default_limits = (500, 50_000)
    yield srv
    srv.casino.default_limits = (100, 100_000)


def _tables(srv: LiveServer) -> dict[str, Any]:
    return {t["name"]: t for t in HTTP.get(srv.base + "/tables").json()}


def test_d195_the_desk_opens_a_table_at_the_servers_limits(
    limited: LiveServer, browser: Any
) -> None:
    for desk in opened_desk(browser, limited):
        desk.wait_for_function(
            "document.getElementById('nt-min').value === '5.00'"
        )
        assert desk.input_value("#nt-max") == "500.00"
        desk.select_option("#nt-game", "midibaccarat")
        desk.fill("#nt-name", "Five dollar")
        desk.focus("#nt-go")
        desk.keyboard.press("Enter")
        desk.wait_for_selector("#done:has-text('Five dollar')")
        assert "$5.00 to $500.00" in desk.inner_text("#done")
        made = _tables(limited)["Five dollar"]
        assert (made["min_bet"], made["max_bet"]) == (500, 50_000)
