"""D190 in a real browser: the web table shows a refusal's dollars whole.

The server's refusals now state money in dollars ("Double down must be
$0.01 to $5.00, not $20.00"), a configured bound once more in the cents
an API client sends ("(100 to 100000 in cents)"). The page made the
bare numbers of three digits or more dollars (``Croupier.dollarsIn``):
it now keeps a dollar amount whole ("$10,000,000,000,000.00" became
"$10,$0.00,..."), and leaves the cents for API clients off.
"""

from __future__ import annotations

from typing import Any

from tests.server.conftest import passive_action
from tests.web.live import LiveServer
from tests.web.pages import BROWSER_TEST, HTTP, player_page, sit, token_of

pytestmark = BROWSER_TEST

SAID = [
    (
        "a Banker Wager must be between $1.00 and $1,000.00 (100 to 100000 "
        "in cents) at this table, not $0.01",
        "a Banker Wager must be between $1.00 and $1,000.00 at this table, "
        "not $0.01",
    ),
    (
        "a balance may not exceed $10,000,000,000,000.00 (1000000000000000 "
        "in cents, D31)",
        "a balance may not exceed $10,000,000,000,000.00 (D31)",
    ),
    (
        "a Progressive Payout Wager is exactly $1.00 (100 in cents), not "
        "$1,234,567.89",
        "a Progressive Payout Wager is exactly $1.00, not $1,234,567.89",
    ),
    (
        "a wager cannot be negative, not -$1,500.50",
        "a wager cannot be negative, not -$1,500.50",
    ),
    # a request's field, in the cents it is sent in: made dollars
    (
        "Input should be less than or equal to 1000000000000",
        "Input should be less than or equal to $10,000,000,000.00",
    ),
    # counts stay numbers
    ("seat 1000 has no wager", "seat 1000 has no wager"),
    # and so do a date and a time: "expired at $20.27-01-06" before
    (
        "this token expired at 2027-01-06 00:00 UTC (D32)",
        "this token expired at 2027-01-06 00:00 UTC (D32)",
    ),
    (
        "until (2026-12-08) is before since (2026-12-09)",
        "until (2026-12-08) is before since (2026-12-09)",
    ),
    ("closes at 1230:45", "closes at 1230:45"),
]
"""What the server says, and what the page makes of it."""


def test_d190_the_page_keeps_the_dollars_and_leaves_the_cents_off(
    srv: LiveServer, browser: Any
) -> None:
    page = player_page(browser, srv, "Dina")
    for said, shown in SAID:
        got = page.evaluate("(t) => Croupier.dollarsIn(t)", said)
        assert got == shown, (said, got)
    assert not page.errors, page.errors
    page.close()


def test_d190_a_double_refused_on_the_table_reads_in_dollars(
    srv: LiveServer, browser: Any
) -> None:
    """A double of $20.00 typed on a $5.00 Blackjack Wager: the refusal
    reads as the server wrote it. Before, "Double down must be 1 to
    $5.00, not $20.00" (the server's "1 to 500, not 2000", its 500 and
    2000 made dollars by the page, its 1 not)."""
    table = srv.table_id("double-back-jack")
    page = player_page(browser, srv, "Dora")
    sit(page, srv, table, 1)
    me = token_of(page)
    base = f"{srv.base}/tables/{table}"
    page.goto(f"{srv.base}/")  # the rounds below are played by the API
    for _ in range(60):
        placed = HTTP.post(
            f"{base}/wagers",
            json={"seat": 1, "wager": "blackjack", "amount": 500},
            headers=me,
        )
        assert placed.status_code == 200, placed.text
        state = HTTP.post(f"{base}/deal", headers=me).json()
        pending = state["round"]["pending"]
        if pending is not None and "double" in pending["legal"]:
            break
        while pending is not None:
            state = HTTP.post(
                f"{base}/actions",
                json={"seat": 1, "action": passive_action(pending["legal"])},
                headers=me,
            ).json()
            pending = state["round"]["pending"]
    else:
        raise AssertionError("no double offered in 60 rounds")
    page.goto(f"{srv.base}/play/{table}")
    page.wait_for_selector("#actions button[data-action='double']")
    page.fill("#amount", "20")
    page.click("#actions button[data-action='double']")
    page.wait_for_selector("#error:not(:empty)")
    said = page.inner_text("#error")
    assert said.startswith(
        "Double down must be $0.01 to $5.00, not $20.00."
    ), said
    assert "673a.10(a)" in said, said
    assert not page.errors, page.errors
    page.close()
