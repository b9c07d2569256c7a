"""The server's log on the operator desk, driven from the keyboard (D140).

The desk showed no log: an operator looking into a voided round or a
restart had to ask ``GET /log`` by hand. Now the desk lists its newest
page (time, level, round, message), pages on with Previous and Next as
the players' list does, keeps one level or one round, and links a
row's round to its recall page. At desktop and phone size it passes
axe, shows no text under 12 px and never scrolls sideways. What each
page should hold is read from ``GET /log`` (tested in
tests/server/test_operator_log.py), the rows made by the test itself:
a real void and rows written through the server's logging path.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.live import OPERATOR, LiveServer
from tests.web.pages import (
    BROWSER_TEST,
    HTTP,
    Axe,
    assert_no_small_text,
    seated_player,
)

from croupier.server.recovery import write_log

pytestmark = BROWSER_TEST

OP = {"Authorization": f"Bearer {OPERATOR}"}
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 375, "height": 812}
PAGE = 50
"""The desk's log page (``LOG_PAGE`` in operator.js)."""


def logged(srv: LiveServer, query: str = "") -> tuple[list[int], int]:
    """The ids of ``GET /log?query`` (up to 500) and its total."""
    got = HTTP.get(f"{srv.base}/log?limit=500&{query}", headers=OP)
    assert got.status_code == 200, got.text
    return [row["id"] for row in got.json()], int(got.headers["X-Total-Count"])


def voided_round(srv: LiveServer, name: str) -> int:
    """A round wagered on by a new player and voided by the operator
    (a ``warning`` row about it); the round's id."""
    made = HTTP.post(
        srv.base + "/tables",
        json={"game": "midibaccarat", "name": name, "betting_seconds": 3600},
        headers=OP,
    ).json()
    table = int(made["id"])
    who = seated_player(srv, table, 1, name)
    url = f"{srv.base}/tables/{table}"
    bet = {"seat": 1, "wager": "player", "amount": 700}
    got = HTTP.post(url + "/wagers", json=bet, headers=who).json()
    round_id = int(got["round"]["id"])
    reply = HTTP.post(
        url + "/void",
        json={"reason": "a card was flashed", "round_id": round_id},
        headers=OP,
    )
    assert reply.status_code == 200, reply.text
    HTTP.delete(url + "/seats/1", headers=who)
    return round_id


def shown(desk: Any) -> list[int]:
    """The ids of the log rows the desk lists, in its order."""
    ids: list[int] = desk.eval_on_selector_all(
        "#log tr[data-log]", "rows => rows.map(r => +r.dataset.log)"
    )
    return ids


def focused(desk: Any) -> str:
    """What has the focus: its id, else its ``data-page``, else its tag."""
    said: str = desk.evaluate(
        "(e => e.id || e.dataset.page || e.tagName)(document.activeElement)"
    )
    return said


def fits_the_phone(desk: Any) -> None:
    """Nothing scrolls sideways: neither the page nor the log's box."""
    width = desk.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], width
    right = desk.eval_on_selector(
        "#log", "e => e.closest('section').getBoundingClientRect().right"
    )
    assert right <= PHONE["width"], right
    wide = desk.eval_on_selector(
        "div.scroll-x:has(> #log)", "e => e.scrollWidth - e.clientWidth"
    )
    assert wide <= 0, wide


@pytest.fixture(params=["desktop", "phone"])
def desk(
    request: pytest.FixtureRequest, browser: Any, srv: LiveServer
) -> Iterator[Any]:
    """The desk at desktop or phone size, its token typed and sent with
    Enter."""
    phone = request.param == "phone"
    page = browser.new_page(
        viewport=PHONE if phone else DESKTOP,
        is_mobile=phone,
        has_touch=phone,
        bypass_csp=True,  # axe-core is injected as an inline script
    )
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.phone = phone
    page.goto(srv.base + "/operator")
    page.focus("#token")
    page.keyboard.type(OPERATOR)
    page.keyboard.press("Enter")
    page.wait_for_selector("#desk:not([hidden]) #tables tr[data-table]")
    yield page
    assert not page.errors, page.errors
    page.close()


def test_the_desk_pages_filters_and_follows_the_server_log_by_keyboard(
    srv: LiveServer, desk: Any
) -> None:
    """Sixty rows and a void: the desk lists the newest 50 with the
    total, Next and Previous (Enter on the focused button, which keeps
    the focus) page through them, the level and round filters keep what
    ``GET /log`` keeps, and Enter on a row's round opens its record."""
    voided = voided_round(srv, "Log " + ("phone" if desk.phone else "desk"))

    def drill() -> None:
        for k in range(60):
            write_log(srv.casino.engine, "info", f"drill row {k}")

    srv.between_requests(drill)
    everything, total = logged(srv)
    assert total > PAGE + 10
    desk.focus("#refresh")
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#done:has-text('as they are now')")
    assert shown(desk) == everything[:PAGE]
    pos = "#log-pager .pos"
    assert desk.inner_text(pos) == f"Log rows 1\u2013{PAGE} of {total}"
    assert (
        desk.get_attribute("#log-pager [data-page='prev']", "disabled") == ""
    )

    desk.focus("#log-pager [data-page='next']")
    desk.keyboard.press("Enter")
    desk.wait_for_selector(f"{pos}:has-text('Log rows {PAGE + 1}\u2013')")
    assert shown(desk) == everything[PAGE : 2 * PAGE]
    assert focused(desk) in ("next", "prev")  # not lost to the page
    if focused(desk) == "next":  # more than two pages: to the start
        desk.focus("#log-pager [data-page='prev']")
    desk.keyboard.press("Enter")
    desk.wait_for_selector(f"{pos}:has-text('Log rows 1\u2013')")
    assert shown(desk) == everything[:PAGE]
    assert focused(desk) == "next"  # Previous is off on the first page

    # the level, chosen with the arrow keys, then Enter in the round field
    warnings, count = logged(srv, "level=warning")
    assert count >= 1
    desk.focus("#fl-level")
    desk.keyboard.press("ArrowDown")
    desk.keyboard.press("ArrowDown")
    assert desk.eval_on_selector("#fl-level", "e => e.value") == "warning"
    desk.focus("#fl-round")
    desk.keyboard.press("Enter")
    desk.wait_for_selector(f"{pos}:has-text('warning rows')")
    assert shown(desk) == warnings[:PAGE]
    assert desk.eval_on_selector_all(
        "#log tr[data-log]", "rows => rows.map(r => r.dataset.level)"
    ) == ["warning"] * len(warnings[:PAGE])
    assert desk.inner_text("#done") == (
        f"{count} log row{'s' if count != 1 else ''}, warning rows."
    )

    # a round typed as no number is refused before it is asked
    desk.keyboard.type("12a")
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#error:has-text('Type a round')")
    assert shown(desk) == warnings[:PAGE]

    # one round's rows: its void
    about, _ = logged(srv, f"round_id={voided}&level=warning")
    assert len(about) == 1
    desk.fill("#fl-round", "")
    desk.keyboard.type(str(voided))
    desk.keyboard.press("Enter")
    desk.wait_for_selector(f"{pos}:has-text('about round {voided}')")
    assert shown(desk) == about
    assert f"of 1, warning rows, about round {voided}" in desk.inner_text(pos)
    row = f"#log tr[data-log='{about[0]}']"
    assert "a card was flashed" in desk.inner_text(f"{row} td.log-message")
    assert desk.get_attribute(f"{row} time", "datetime")
    caption = desk.inner_text("#log caption")
    assert caption.startswith("The server's log, newest first")

    # the whole desk, the log filled, as axe judges it, on this screen
    axe = Axe(desk)
    axe.audit("operator desk, the log about one round")
    assert not any(axe.found.values()), axe.found
    assert_no_small_text(desk, "operator desk with its log")
    if desk.phone:
        fits_the_phone(desk)
        desk.focus("#fl-round")  # the whole log again, on the phone
        desk.fill("#fl-round", "")
        desk.select_option("#fl-level", "")
        desk.keyboard.press("Enter")
        desk.wait_for_selector(f"{pos}:has-text('of {total}')")
        fits_the_phone(desk)
        assert_no_small_text(desk, "operator desk with its log, phone")
        desk.focus("#fl-round")
        desk.keyboard.type(str(voided))
        desk.keyboard.press("Enter")
        desk.wait_for_selector(f"{pos}:has-text('about round {voided}')")

    # Enter on the row's round opens its record on the recall page
    link = f"{row} a"
    assert desk.inner_text(link) == f"round {voided}"
    desk.focus(link)
    desk.keyboard.press("Enter")
    desk.wait_for_url(f"**/recall?round={voided}")
    desk.wait_for_selector(f"#detail-title:has-text('Round {voided}')")
    assert "voided by the operator" in desk.inner_text("#detail")
