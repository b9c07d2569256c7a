"""Nothing on the table moves under the player's finger (2026-12-06, the
thirteenth session), in a real browser.

On a phone held upright the result of the last round, kept while the
next bets are made (D149), took its line (some 60 px) out of the felt
above the seats when it was closed and put it back when the next
round's result came: the player's spots, the chips, Deal and Rebet rose
and fell by as much under a thumb heading for one of them (D165); at
768 x 1024 the whole result took 150 to 170 px with it. A refusal of two
lines on a phone pushed the rail down a line (D166). Choosing another
spot at 1366 x 768 renamed the typed bet's button ("on Banker" for "on
Player") and its limits, whose width took Sit out and Leave seat to
the next line (D167). A first win at 360 x 740 ("$1,005.00", "Session
+$5.00") took the header's Recall to a line of its own, and everything
under it 18 px down (D169). At commission-free Midibaccarat, seat 2 on
an upright phone, the seat 1 alone on a row over the player's took
Deal's foot to 777 px, under D152's 716 (D191). Each test here fails
on the page as it was.

One in-process server and one Debian chromium for the module
(``tests/web/conftest.py``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.web.live import LiveServer
from tests.web.pages import (
    BROWSER_TEST,
    CONTROLS,
    HTTP,
    boxes,
    clear_and_leave,
    idle,
    moved_controls,
    out_of_sight,
    phone_page,
    play_out,
    player_page,
    round_played_at_seat_1,
    seated_player,
    sit,
    token_of,
)

pytestmark = BROWSER_TEST

PHONES = {
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
    "812x375": {"width": 812, "height": 375},
}
DEAL_FOOT = 716
"""The lowest Deal's foot may lie on an upright phone (D152): 24 px
over a 360 x 740 screen's foot."""


@pytest.mark.parametrize("size", list(PHONES))
def test_d165_the_result_comes_and_goes_and_no_control_moves(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """A Midibaccarat round on a phone: its result comes as it is dealt
    (the next bets open at once) and goes with Escape; neither moves a
    spot, a chip or any button of the rail; the spots and the chips
    stay in sight, and Deal (its foot at most 716 px down, upright).

    Before: the result's line (59 px) came above the seats at the deal
    and went at Escape, the seats and the whole rail with it.
    """
    table = srv.table_id("midibaccarat")
    page = phone_page(browser, srv, f"Thumb {size}", PHONES[size])
    sit(page, srv, table, 2)
    idle(page)
    page.click("[data-chip='500']")
    page.click(".seat.mine button.spot[data-wager='player']")
    idle(page)
    page.evaluate("scrollTo(0, 0)")
    before = boxes(page, CONTROLS, in_page=True)
    assert len(before) >= 15, before
    page.click("#deal")
    page.wait_for_selector("#result:not([hidden])")
    idle(page)
    assert page.is_visible("#result .headline")
    wrong: dict[str, Any] = {}
    if moved := moved_controls(page, before):
        wrong["the result came"] = moved
    page.keyboard.press("Escape")
    page.wait_for_selector("#result", state="hidden")
    idle(page)
    if moved := moved_controls(page, before):
        wrong["the result went"] = moved
    page.evaluate("scrollTo(0, 0)")
    if hidden := out_of_sight(
        page, [".seat.mine button.spot", "#chip-pick button"]
    ):
        wrong["out of sight"] = hidden
    view = PHONES[size]
    foot = boxes(page, ["#deal"], first=True)["#deal"][3]
    if foot > (DEAL_FOOT if view["width"] <= 700 else view["height"]):
        wrong["Deal's foot"] = foot
    HTTP.delete(f"{srv.base}/tables/{table}/seats/2", headers=token_of(page))
    page.close()
    assert not wrong, json.dumps(wrong, indent=1)
    assert not page.errors, page.errors


@pytest.mark.parametrize(
    "game", ["double-back-jack", "six-card-fortune-pai-gow", "21-baccarat"]
)
def test_d165_closing_the_whole_result_at_768x1024_moves_nothing(
    srv: LiveServer, browser: Any, game: str
) -> None:
    """On a tablet (768 x 1024) the result is whole in the felt's centre
    (its reasons and each wager's line); closing it (Escape) while the
    next bets are made moves no control, and its OK is then out of the
    keyboard's reach (the focus goes to the player's first spot).

    Before: closing it took 150 to 170 px out of the felt above the
    seats; the spots, the chips and Deal rose by as much.
    """
    page = player_page(
        browser,
        srv,
        f"Tablet {game[:12]}",
        viewport={"width": 768, "height": 1024},
    )
    table, _ = round_played_at_seat_1(page, srv, game, close=False)
    before = boxes(page, CONTROLS, in_page=True)
    page.focus("#result button")
    page.keyboard.press("Escape")
    page.wait_for_selector("#result", state="hidden")
    idle(page)
    moved = moved_controls(page, before)
    assert not moved, json.dumps(moved, indent=1)
    focused = page.evaluate(
        "document.activeElement.matches('.seat.mine button.spot')"
    )
    assert focused, page.evaluate("document.activeElement.outerHTML")
    page.keyboard.press("Shift+Tab")
    assert not page.evaluate(
        "document.getElementById('result').contains(document.activeElement)"
    )
    assert not page.errors, page.errors
    HTTP.delete(f"{srv.base}/tables/{table}/seats/1", headers=token_of(page))
    page.close()


@pytest.mark.parametrize("size", ["390x844", "360x740"])
def test_d166_a_refusal_of_two_lines_moves_nothing_on_a_phone(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """A player with all his balance but $4 on Player taps Banker with a
    $5 chip: "You do not have enough chips: that adds $5.00 and your
    balance is $4.00.", two lines on an upright phone. No control
    moves; the error covers no spot and leaves the countdown in sight;
    the next action ($1 on Banker) takes it away, and again nothing
    moves.

    Before: the error's second line took the rail (the chips, Deal and
    every button) 16 to 20 px down, and back up with the next action.
    """
    table = srv.table_id("midibaccarat-commission-free")
    page = phone_page(browser, srv, f"Broke {size}", PHONES[size])
    sit(page, srv, table, 1)
    idle(page)
    balance = page.inner_text("#balance").replace("$", "").replace(",", "")
    # all but $4 on Player, the first spot
    page.fill("#bet-amount", f"{float(balance) - 4:.2f}")
    page.click("#bet-typed")
    page.wait_for_selector("#clock:not([hidden])")
    idle(page)
    page.evaluate("scrollTo(0, 0)")
    before = boxes(page, CONTROLS, in_page=True)
    page.click(".seat.mine button.spot[data-wager='banker']")
    page.wait_for_selector("#error:has-text('your balance is $4.00')")
    idle(page)
    wrong: dict[str, Any] = {}
    error = boxes(page, ["#error"], first=True)["#error"]
    # the lines the words take: the distinct tops of their boxes (the
    # error's line-height is "normal", no number to divide by)
    lines = page.eval_on_selector(
        "#error",
        "e => { const r = document.createRange(); r.selectNodeContents(e);"
        " return new Set(Array.from(r.getClientRects(),"
        " b => Math.round(b.top))).size; }",
    )
    if lines < 2:
        wrong["not two lines"] = (error, lines)
    if moved := moved_controls(page, before):
        wrong["the error came"] = moved
    spots = boxes(page, [".seat.mine button.spot"])
    if low := [k for k, b in spots.items() if b[3] > error[1]]:
        wrong["spots under the error"] = (low, error)
    page.evaluate("scrollTo(0, 0)")
    if hidden := out_of_sight(page, ["#clock", "#deal"]):
        wrong["out of sight"] = hidden
    page.click("[data-chip='100']")
    page.click(".seat.mine button.spot[data-wager='banker']")  # $1 there
    page.wait_for_selector("#error:empty", state="attached")
    idle(page)
    if moved := moved_controls(page, before):
        wrong["the error went"] = moved
    assert not wrong, json.dumps(wrong, indent=1)
    assert not page.errors, page.errors
    clear_and_leave(page, srv, table, 1)
    page.close()


def test_d167_choosing_another_spot_moves_no_button(
    srv: LiveServer, browser: Any
) -> None:
    """At 1366 x 768, commission-free Midibaccarat: the typed bet's
    button and the limits name the spot last bet on ("on Dragon 7",
    "Dragon 7 limits ..."); a chip on each spot in turn changes those
    words and moves no control.

    Before: "on Banker" was wider than "on Player": Sit out and Leave
    seat went from the end of the tools' line to a line of their own.
    """
    table = srv.table_id("midibaccarat-commission-free")
    page = player_page(
        browser, srv, "Chooser", viewport={"width": 1366, "height": 768}
    )
    sit(page, srv, table, 6)
    idle(page)
    spot = ".seat.mine button.spot"
    wagers = [
        e.get_attribute("data-wager") for e in page.query_selector_all(spot)
    ]
    page.click("[data-chip='500']")
    idle(page)
    before = boxes(page, CONTROLS, in_page=True)
    names, wrong = [], {}
    for wager in wagers:
        page.click(f"{spot}[data-wager='{wager}']")
        page.wait_for_selector(
            f"{spot}[data-wager='{wager}'] .amt:has-text('$')"
        )
        idle(page)
        names.append(page.inner_text("#bet-typed"))
        if moved := moved_controls(page, before):
            wrong[wager] = (names[-1], moved)
    assert len(set(names)) == len(wagers) == 7, names
    assert not wrong, json.dumps(wrong, indent=1)
    assert not page.errors, page.errors
    clear_and_leave(page, srv, table, 6)
    page.close()


def test_d169_a_first_win_does_not_grow_the_header(
    srv: LiveServer, browser: Any
) -> None:
    """At 360 x 740 a player's first round at a Midibaccarat table is a
    win (a natural 9 for Player, stacked): the balance gains a digit and
    the session's net shows, and the header keeps its height: no control
    moves at the deal. The name gives way (an ellipsis, its title
    whole).

    Before: Recall went to a line of its own under the name, the
    balance and "Session +$5.00": the felt and the rail 18 px down.
    """
    table = srv.table_id("midibaccarat")
    name = "Winner 360x740"
    page = phone_page(browser, srv, name, PHONES["360x740"])
    sit(page, srv, table, 7)
    idle(page)
    try:
        if srv.new_shoe_due(table):  # its burn comes first: not stacked
            stake = {"seat": 7, "wager": "banker", "amount": 500}
            HTTP.post(
                f"{srv.base}/tables/{table}/wagers",
                json=stake,
                headers=token_of(page),
            )
            page.click("#deal")
            page.wait_for_selector("#result:not([hidden])")
            page.keyboard.press("Escape")
            idle(page)
            page.reload()
            page.evaluate("sessionStorage.clear()")
            page.reload()
            page.wait_for_selector(".seat.mine button.spot")
        srv.stack_next(table, "9h Th 9d Qd")
        page.click("[data-chip='500']")
        page.click(".seat.mine button.spot[data-wager='player']")
        idle(page)
        assert page.inner_text("#session-net") == ""
        page.evaluate("scrollTo(0, 0)")
        header = boxes(page, ["header"], first=True)["header"]
        before = boxes(page, CONTROLS, in_page=True)
        page.click("#deal")
        page.wait_for_selector("#result:not([hidden])")
        idle(page)
        assert page.inner_text("#result .headline") == "You win $5.00"
        assert page.inner_text("#session-net") == "Session +$5.00"
        assert page.get_attribute("#who", "title") == name
        page.evaluate("scrollTo(0, 0)")
        now = boxes(page, ["header"], first=True)["header"]
        moved = moved_controls(page, before)
        assert now == header, (header, now)
        assert not moved, json.dumps(moved, indent=1)
        assert not page.errors, page.errors
    finally:
        HTTP.delete(
            f"{srv.base}/tables/{table}/seats/7", headers=token_of(page)
        )
        page.close()


GAMES = [
    "double-back-jack",
    "midibaccarat",
    "midibaccarat-commission-free",
    "six-card-fortune-pai-gow",
    "21-baccarat",
]


@pytest.mark.parametrize("size", ["390x844", "360x740"])
def test_d191_a_full_table_keeps_deal_in_reach_upright(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """At each game's table, seat 2, a round played and its result
    kept (D149), then every other seat taken by another player: on an
    upright phone nothing of the player's moves as they sit down, his
    spots and the chips are in sight, and Deal's foot is at most 716 px
    down (D152), the result kept and then closed.

    Before: at seat 2 the player's seat, which no other seat can stand
    beside (commission-free's seven spots take the felt's width), left
    seat 1 alone on a row over it: four rows of seats where three hold
    them, and Deal's foot at 777 px at commission-free Midibaccarat (703
    at Midibaccarat and 21 Baccarat) at both sizes, with or without the
    other players (a taken seat is as big as a vacant one, D186).
    """
    page = phone_page(browser, srv, f"Reach {size}", PHONES[size])
    wrong = {
        game: _full_table_wrong(page, srv, game, f"{size} {n}")
        for n, game in enumerate(GAMES)
    }
    assert not any(wrong.values()), json.dumps(wrong, indent=1)
    assert not page.errors, page.errors
    page.close()


def _full_table_wrong(
    page: Any, srv: LiveServer, game: str, tag: str
) -> dict[str, Any]:
    """What is wrong at ``game``'s table (see the test above): the page's
    player at seat 2, a round played, the others sitting down at every
    other seat, the result kept, then closed."""
    table = srv.table_id(game)
    base = f"{srv.base}/tables/{table}"
    sit(page, srv, table, 2)
    idle(page)
    first = page.get_attribute(".seat.mine button.spot", "data-wager")
    stake = {"seat": 2, "wager": first, "amount": 500}
    HTTP.post(base + "/wagers", json=stake, headers=token_of(page))
    play_out(page, srv, table, 2, deal=True, close=False)
    page.wait_for_selector(".felt.last-round")
    page.evaluate("scrollTo(0, 0)")
    before = boxes(page, CONTROLS, in_page=True)
    count = page.eval_on_selector_all("#seats .seat", "s => s.length")
    them = {}
    wrong: dict[str, Any] = {}
    try:
        for seat in range(1, count + 1):
            if seat != 2:
                name = f"Wilhelmina Quist {tag}{seat}"
                them[seat] = seated_player(srv, table, seat, name)
        page.wait_for_selector(f"#seats .seat[data-seat='{count}'] .others")
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        if moved := moved_controls(page, before):
            wrong["they sat down"] = moved
        for shown in ("result kept", "result closed"):
            if shown == "result closed":
                page.keyboard.press("Escape")
                page.wait_for_selector("#result", state="hidden")
                idle(page)
                page.evaluate("scrollTo(0, 0)")
            foot = boxes(page, ["#deal"], first=True)["#deal"][3]
            if foot > DEAL_FOOT:
                wrong[shown + ": Deal's foot"] = foot
            # (Deal is disabled until a bet: its box is measured above)
            hidden = out_of_sight(
                page, [".seat.mine button.spot", "#chip-pick button"]
            )
            if hidden:
                wrong[shown + ": out of sight"] = hidden
    finally:
        for seat, headers in them.items():
            HTTP.delete(f"{base}/seats/{seat}", headers=headers)
        HTTP.delete(f"{base}/seats/2", headers=token_of(page))
    return wrong
