"""The operator's desk refreshes itself, disturbing nothing (D159).

The desk showed what the server had when it was last drawn: a deposit,
a new player, a wager, a log row made elsewhere stayed unseen until the
operator pressed Refresh, and that redraw took the focus and what was
typed in the players' fields. Now it reads the tables, the players'
page and the log's page again every five seconds while it is shown
(the browser's clock is Playwright's, moved on five seconds at once),
and changes only the text that changed. What it should show is what
the test made through the API, computed here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.live import OPERATOR, LiveServer
from tests.web.pages import BROWSER_TEST, HTTP, api_player

from croupier.server.recovery import write_log

pytestmark = BROWSER_TEST

OP = {"Authorization": f"Bearer {OPERATOR}"}
LOG_PAGE = 50
"""The desk's log page (``LOG_PAGE`` in operator.js)."""
REFRESH_MS = 5000
"""The desk's own refresh (``REFRESH_MS`` in operator.js)."""

WATCH_LIVE_REGIONS = """() => {
  // every change under a region a screen reader reads out, counted
  window.liveChanges = [];
  const watch = new MutationObserver((found) => {
    for (const m of found) window.liveChanges.push(m.target.nodeName);
  });
  for (const el of document.querySelectorAll(
      "[aria-live], [role=status], [role=alert], [role=log]")) {
    watch.observe(el, {childList: true, subtree: true,
      characterData: true, attributes: true});
  }
}"""


def money(cents: int) -> str:
    """As the desk writes an amount: $1,234.50."""
    return f"${cents // 100:,}.{cents % 100:02d}"


@pytest.fixture
def desk(browser: Any, srv: LiveServer) -> Iterator[Any]:
    """The desk at desktop size, on Playwright's clock, token sent."""
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.clock.install()
    page.goto(srv.base + "/operator")
    page.fill("#token", OPERATOR)
    page.press("#token", "Enter")
    page.wait_for_selector("#desk:not([hidden]) #tables tr[data-table]")
    yield page
    assert not page.errors, page.errors
    page.close()


def test_the_desk_refreshes_itself_keeping_focus_typing_pages_and_quiet(
    srv: LiveServer, desk: Any
) -> None:
    """While the operator types a deposit (the caret mid-amount), with a
    void's reason and two filters typed but not sent and the log on its
    second page, the server changes: a deposit, a new player, a wager,
    a log row. Five seconds on, the desk shows them all, and the focus,
    the caret, every typed text and the log's page are where they were;
    no live region changed."""
    nell = api_player(srv, "Nell")
    bet_on = int(
        HTTP.post(
            srv.base + "/tables",
            json={"game": "midibaccarat", "name": "Refresh pit"},
            headers=OP,
        ).json()["id"]
    )

    def drill() -> None:
        for k in range(LOG_PAGE + 5):
            write_log(srv.casino.engine, "info", f"drill row {k}")

    srv.between_requests(drill)
    desk.click("#refresh")
    desk.wait_for_selector(f"#players tr[data-player='{nell.id}']")
    desk.click("#log-pager [data-page='next']")
    desk.wait_for_selector(
        f"#log-pager .pos:has-text('Log rows {LOG_PAGE + 1}')"
    )
    first_page_total = HTTP.get(srv.base + "/log?limit=1", headers=OP)
    assert int(first_page_total.headers["X-Total-Count"]) == LOG_PAGE + 5

    row = f"#tables tr[data-table='{bet_on}']"
    desk.fill(f"{row} input", "a card was flashed")
    desk.fill("#fp-name", "ne")
    desk.fill("#fl-round", "7")
    deposit = f"#players tr[data-player='{nell.id}'] input"
    desk.focus(deposit)
    desk.keyboard.type("125")
    desk.keyboard.press("ArrowLeft")  # the caret between 2 and 5
    desk.eval_on_selector(deposit, "e => { e.dataset.typedIn = 'yes'; }")
    desk.evaluate(WATCH_LIVE_REGIONS)
    said = (desk.inner_text("#done"), desk.inner_text("#error"))

    # the server changes meanwhile
    HTTP.post(
        f"{srv.base}/players/{nell.id}/deposits",
        json={"amount": 2_550},
        headers=OP,
    )
    otto = api_player(srv, "Otto")
    who = otto.headers
    HTTP.post(
        f"{srv.base}/tables/{bet_on}/seats", json={"seat": 1}, headers=who
    )
    bet = {"seat": 1, "wager": "player", "amount": 700}
    placed = HTTP.post(
        f"{srv.base}/tables/{bet_on}/wagers", json=bet, headers=who
    )
    assert placed.status_code == 200, placed.text
    round_id = placed.json()["round"]["id"]
    srv.between_requests(
        lambda: write_log(srv.casino.engine, "warning", "one row more")
    )

    desk.clock.fast_forward(REFRESH_MS)
    balance = f"#players tr[data-player='{nell.id}'] .balance-cell"
    desk.wait_for_selector(f"{balance}:has-text('{money(100_000 + 2_550)}')")
    desk.wait_for_selector(f"#players tr[data-player='{otto.id}']")
    desk.wait_for_selector(
        f"{row} .in-play:has-text('round {round_id} \u00b7 betting')"
    )
    assert money(700) in desk.inner_text(f"{row} .in-play")
    desk.wait_for_selector(f"#log-pager .pos:has-text('of {LOG_PAGE + 6}')")

    # newest first: Otto above Nell, who kept her place and her field
    ids = desk.eval_on_selector_all(
        "#players tr[data-player]", "rows => rows.map(r => +r.dataset.player)"
    )
    assert ids.index(otto.id) < ids.index(nell.id)
    focus = desk.evaluate(
        """() => {
          const e = document.activeElement;
          return [e.dataset.typedIn || "", e.value, e.selectionStart,
                  e.selectionEnd];
        }"""
    )
    assert focus == ["yes", "125", 2, 2]
    assert desk.input_value(f"{row} input") == "a card was flashed"
    assert desk.input_value("#fp-name") == "ne"
    assert desk.input_value("#fl-round") == "7"
    # the log stays on its second page (rows 51 on, of one more now)
    assert desk.inner_text("#log-pager .pos").startswith(
        f"Log rows {LOG_PAGE + 1}\u2013"
    )
    assert desk.evaluate("window.liveChanges") == []
    assert (desk.inner_text("#done"), desk.inner_text("#error")) == said
    # the operator goes on typing where he was
    desk.keyboard.type("0")
    assert desk.input_value(deposit) == "1205"


def test_the_desk_says_a_table_name_is_taken_in_the_servers_words(
    srv: LiveServer, desk: Any
) -> None:
    """A table's name in another case is refused (D157): the desk's
    error line gives the server's words, its number not read as cents
    ("Pit 100", not "Pit $1.00"), and no table is opened."""
    made = HTTP.post(
        srv.base + "/tables",
        json={"game": "midibaccarat", "name": "Pit 100"},
        headers=OP,
    ).json()
    before = len(HTTP.get(srv.base + "/tables").json())
    desk.fill("#nt-name", "PIT 100")
    desk.click("#nt-go")
    desk.wait_for_selector("#error:has-text('is taken by table')")
    said = desk.inner_text("#error")
    assert said.startswith(
        f'The table name "PIT 100" is taken by table {made["id"]}:'
    ), said
    assert "case and spaces (D157)" in said
    assert len(HTTP.get(srv.base + "/tables").json()) == before
