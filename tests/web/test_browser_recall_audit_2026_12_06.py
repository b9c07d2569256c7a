"""The recall page, audited as a regulator reconstructing a disputed
hand would use it (2026-12-06, the ninth session).

A complaint names a round of "yesterday" at a table: the page's From
and To days are the viewer's own days, as the times it lists are, and
those times say their zone; a voided round says who voided it and why,
and lists each stake returned; a round chosen on a phone (or with the
keyboard) takes the viewer to its page below the list.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import update
from tests.web.live import OPERATOR, LiveServer
from tests.web.pages import BROWSER_TEST, HTTP, Axe, api_player

from croupier.server import db

pytestmark = BROWSER_TEST

OP = {"Authorization": f"Bearer {OPERATOR}"}


def _player(srv: LiveServer, name: str) -> tuple[str, dict[str, str]]:
    made = api_player(srv, name)
    return made.token, made.headers


def _post(srv: LiveServer, path: str, body: Any, headers: Any) -> Any:
    reply = HTTP.post(srv.base + path, json=body, headers=headers)
    assert reply.status_code == 200, (path, reply.text)
    return reply.json()


def _rounds(srv: LiveServer, table: int, headers: Any, count: int) -> None:
    """``count`` Midibaccarat rounds of $1 on the Banker, seat 4."""
    for _ in range(count):
        bet = {"seat": 4, "wager": "banker", "amount": 100}
        _post(srv, f"/tables/{table}/wagers", bet, headers)
        _post(srv, f"/tables/{table}/deal", None, headers)


def _one_round(srv: LiveServer, name: str) -> tuple[int, str, Any]:
    """A new player ``name`` plays one round at Midibaccarat and leaves:
    the table, his token and his headers."""
    table = srv.table_id("midibaccarat")
    token, me = _player(srv, name)
    _post(srv, f"/tables/{table}/seats", {"seat": 4}, me)
    _rounds(srv, table, me, 1)
    HTTP.delete(f"{srv.base}/tables/{table}/seats/4", headers=me)
    return table, token, me


def _recall_page(browser: Any, srv: LiveServer, token: str, **kw: Any) -> Any:
    page = browser.new_page(bypass_csp=True, **kw)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(srv.base + "/")
    page.evaluate(f"localStorage.setItem('croupier.token', '{token}')")
    return page


@pytest.mark.proves("810a.11")
def test_a_voided_round_chosen_on_a_phone_is_brought_into_view_and_says_why(
    srv: LiveServer, browser: Any
) -> None:
    table = srv.table_id("midibaccarat")
    token, me = _player(srv, "Voided Vera")
    _post(srv, f"/tables/{table}/seats", {"seat": 4}, me)
    _rounds(srv, table, me, 12)
    bet = {"seat": 4, "wager": "banker", "amount": 700}
    _post(srv, f"/tables/{table}/wagers", bet, me)
    reason = {"reason": "a card found face up in the shoe"}
    _post(srv, f"/tables/{table}/void", reason, OP)
    HTTP.delete(f"{srv.base}/tables/{table}/seats/4", headers=me)
    rows = HTTP.get(srv.base + "/rounds", headers=me).json()
    voided = next(r["id"] for r in rows if r["status"] == "voided")

    page = _recall_page(
        browser, srv, token, viewport={"width": 375, "height": 812}
    )
    page.goto(srv.base + "/recall")
    link = f"#rounds tr[data-round='{voided}'] a"
    page.wait_for_selector(link)
    page.focus(link)
    page.keyboard.press("Enter")
    page.wait_for_selector("#step-pos")
    page.wait_for_timeout(200)
    # the round's page, below every row on a phone, is where focus went
    # and what the screen shows (before: focus stayed on the link, the
    # page 13 rows further down, out of sight)
    assert page.evaluate("document.activeElement.id") == "detail-title"
    top = page.evaluate(
        "document.getElementById('detail-title').getBoundingClientRect().top"
    )
    assert 0 <= top < 812 / 2, top
    facts = page.inner_text("#detail dl.facts")
    assert (
        "voided by the operator: a card found face up in the shoe "
        "(house rule D25; every stake returned)"
    ) in facts, facts
    results = page.inner_text("#detail table.rows")
    assert "Stakes on the layout" in results
    assert "void: $7.00 returned" in results
    step = page.inner_text("#step-text")
    assert "Round voided by the operator" in step, step
    axe = Axe(page)
    axe.audit("recall of a voided round", phone=True)
    assert not any(axe.found.values()), axe.found
    assert page.errors == []
    page.close()


@pytest.mark.proves("810a.11")
def test_the_recall_days_are_the_viewers_days_and_its_times_name_their_zone(
    srv: LiveServer, browser: Any
) -> None:
    """A round dealt at 10:30 p.m. in Pennsylvania on December 4 is
    03:30 UTC on December 5. The page lists it at 10:30 PM EST, so its
    From and To days must find it on December 4, not 5 (before, they
    were UTC days: "yesterday" left out the evening)."""
    _, token, me = _one_round(srv, "Evening Eve")
    [row] = HTTP.get(srv.base + "/rounds", headers=me).json()
    evening = datetime(2026, 12, 5, 3, 30, tzinfo=UTC)
    with srv.casino.engine.begin() as conn:
        conn.execute(
            update(db.RoundRow)
            .where(db.RoundRow.id == row["id"])
            .values(started_at=evening, ended_at=evening)
        )

    page = _recall_page(
        browser,
        srv,
        token,
        viewport={"width": 1366, "height": 900},
        timezone_id="America/New_York",
    )
    page.goto(srv.base + "/recall")
    mine = f"#rounds tr[data-round='{row['id']}']"
    page.wait_for_selector(mine)
    assert "10:30:00 PM EST" in page.inner_text(mine)

    def listed(day: str) -> bool:
        page.fill("#f-since", day)
        page.fill("#f-until", day)
        # the list as it stands is marked, so that only the one drawn
        # for these days is read (it is drawn whole, in one go)
        page.eval_on_selector_all(
            "#rounds tr", "rows => rows.forEach(r => r.dataset.stale = 1)"
        )
        page.click("#f-go")
        page.wait_for_selector("#rounds tr:not([data-stale])")
        return page.query_selector(mine) is not None

    assert listed("2026-12-04")
    assert not listed("2026-12-05")
    assert page.errors == []
    page.close()


def test_the_recall_list_scrolls_sideways_by_keyboard_on_a_phone(
    srv: LiveServer, browser: Any
) -> None:
    """At 375 x 812 the list's Bet, Won and Net columns lie to the right
    of a box that scrolls sideways. Its links hold no money column, so a
    keyboard alone never brought them into view: the box is now a named
    region that takes focus, and the arrow keys scroll it."""
    _, token, _ = _one_round(srv, "Keyboard Kim")
    page = _recall_page(
        browser, srv, token, viewport={"width": 375, "height": 812}
    )
    page.goto(srv.base + "/recall")
    page.wait_for_selector("#rounds tr[data-round]")
    box = "div.scroll-x:has(> #rounds)"
    wide = page.eval_on_selector(box, "e => e.scrollWidth - e.clientWidth")
    assert wide > 0, "the list fits the phone: nothing to scroll"
    # Tab from the last filter control reaches the region, not past it
    page.focus("#f-go")
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('div.scroll-x')"):
            break
    assert page.eval_on_selector(box, "e => e === document.activeElement")
    assert page.get_attribute(box, "role") == "region"
    assert page.get_attribute(box, "aria-label")
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    # the browser scrolls smoothly: the box moves over some frames
    page.wait_for_function(
        "sel => document.querySelector(sel).scrollLeft > 0", arg=box
    )
    assert page.errors == []
    page.close()


def test_a_rounds_title_and_row_give_its_table_by_number_if_named_as_its_game(
    srv: LiveServer, browser: Any
) -> None:
    """The default tables are named after their games: a round's title
    read "Round 7 · Midibaccarat · Midibaccarat", and the list's Table
    column repeated its Game column. Both now give the table's number,
    which a complaint names ("table 3")."""
    table, token, me = _one_round(srv, "Titled Tia")
    [row] = HTTP.get(srv.base + "/rounds", headers=me).json()
    page = _recall_page(
        browser, srv, token, viewport={"width": 1366, "height": 900}
    )
    page.goto(f"{srv.base}/recall?round={row['id']}")
    page.wait_for_selector("#detail dl.facts")
    title = page.inner_text("#detail-title")
    assert title == f"Round {row['id']} · Midibaccarat · table {table}"
    page.wait_for_selector(f"#rounds tr[data-round='{row['id']}']")
    cells = page.eval_on_selector_all(
        f"#rounds tr[data-round='{row['id']}'] td",
        "tds => tds.map(td => td.innerText)",
    )
    # Round, Time, Table, Game, ...
    assert cells[2:4] == [f"table {table}", "Midibaccarat"], cells
    assert page.errors == []
    page.close()
