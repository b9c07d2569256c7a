"""What the table keeps in place, in a real browser (2026-12-07).

On a phone on its side an error pushed the rail down by its height:
at 812 x 375, commission-free Midibaccarat, Deal's foot went from 350
to 388 px, off the screen (D178). A betting spot holding "$1,000.00"
was 10 px wider than one holding "$5.00": its neighbours moved 5 px
sideways when the bet landed (D179). A result the player had closed
showed again after the recall page and Back (D180). At 768 x 1024 the
result that comes at a baccarat deal took its height above the seats
(at a table's first deal with the last round's cards and sayings: the
spots went 214 px down, the rail 205) (D181). Another player's bet
took the row of seats from two rows to one, the player's spots 48 to
96 px sideways (D184). Another player sitting down took the spots and
Deal 47 px down at 390 x 844, and at 812 x 375 the seats from one row
to two (D186). On a phone on its side another player's total of
$1,234.50 was cut "$1,23…" in his seat's box, 44 px wide (D191). Each
test here fails on the page as it was.

One in-process server and one Debian chromium for the module
(``tests/web/conftest.py``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.web.live import OPERATOR, LiveServer
from tests.web.pages import (
    BROWSER_TEST,
    CONTROLS,
    HTTP,
    Axe,
    assert_no_small_text,
    boxes,
    idle,
    moved_controls,
    out_of_sight,
    round_played_at_seat_1,
    seated_player,
    sit,
    sized_page,
    table_state,
    token_of,
)

pytestmark = BROWSER_TEST

SIZES = {
    "812x375": {"width": 812, "height": 375},
    "740x360": {"width": 740, "height": 360},
    "390x844": {"width": 390, "height": 844},
    "768x1024": {"width": 768, "height": 1024},
    "1366x768": {"width": 1366, "height": 768},
}
SPOT = ".seat.mine button.spot"
LONG_REFUSAL = {
    "error": "WagerError",
    "ref": "629a.5(a)",
    "message": "the Player wager at seat 1 cannot be changed now: the "
    "table is being brought back after its storage failed, and the "
    "floorperson must first confirm every wager on the layout",
}
"""A refusal long enough to take two lines on a phone on its side."""


def _page(browser: Any, srv: LiveServer, name: str, size: str) -> Any:
    return sized_page(browser, srv, name, SIZES[size])


_LINES = """(() => {
  const r = document.createRange();
  r.selectNodeContents(document.getElementById("error"));
  return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size;
})()"""
"""How many lines the error's words take."""


def _leave(page: Any, srv: LiveServer, table: int, seat: int) -> None:
    """Take back the page's player's bets at ``seat`` and leave it,
    through the API, whatever the page shows (a failed test leaves the
    seat free for the next)."""
    me = token_of(page)
    base = f"{srv.base}/tables/{table}"
    for stake in table_state(srv, table, me)["round"]["stakes"]:
        if stake["seat"] == seat and not stake.get("hand"):
            change = {"seat": seat, "wager": stake["wager"], "amount": 0}
            HTTP.post(base + "/wagers/change", json=change, headers=me)
    HTTP.delete(f"{base}/seats/{seat}", headers=me)
    page.close()


def _overlap(a: list[int], b: list[int]) -> bool:
    """Whether boxes ``a`` and ``b`` (left, top, right, bottom) overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("size", ["812x375", "740x360"])
def test_d178_an_error_on_a_phone_on_its_side_moves_nothing(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """Commission-free Midibaccarat at seat 1, the last result shown
    (the tallest felt: D153): an error of one line ($5,000 typed) and
    one of two (a long refusal, answered for the test in the server's
    form) move no control, cover none, and leave the countdown and Deal
    in sight; the next action takes each away, and nothing moves
    either.

    Before: the error took the rail 37 to 38 px down, and Deal's foot
    from 350 to 388 px (off a 375 or 360 px screen).
    """
    page = _page(browser, srv, f"Sideways {size}", size)
    table, _ = round_played_at_seat_1(
        page, srv, "midibaccarat-commission-free", close=False
    )
    try:
        wrong = _errors_sideways(page)
    finally:
        _leave(page, srv, table, 1)
    assert not wrong, json.dumps(wrong, indent=1)
    assert not page.errors, page.errors


def _errors_sideways(page: Any) -> dict[str, Any]:
    """What is wrong as an error of one line, then one of two, comes
    and goes at the page's seat, whose last result is shown."""
    page.click("[data-chip='100']")
    page.click(f"{SPOT}[data-wager='tie']")  # the countdown starts
    page.wait_for_selector("#clock:not([hidden])")
    idle(page)
    page.evaluate("scrollTo(0, 0)")
    before = boxes(page, CONTROLS, in_page=True)
    wrong: dict[str, Any] = {}
    for lines in (1, 2):
        if lines == 1:
            page.fill("#bet-amount", "5000")
            page.click("#bet-typed")
        else:
            page.route(
                "**/wagers/change",
                lambda route: route.fulfill(status=409, json=LONG_REFUSAL),
            )
            page.click(f"{SPOT}[data-wager='player']")
        page.wait_for_selector("#error:not(:empty)")
        idle(page)
        page.unroute("**/wagers/change")
        page.evaluate("scrollTo(0, 0)")
        error = boxes(page, ["#error"], first=True)["#error"]
        if (drawn := page.evaluate(_LINES)) != lines:
            wrong[f"{lines}: lines"] = (drawn, error)
        if moved := moved_controls(page, before):
            wrong[f"{lines}: the error came"] = moved
        now = boxes(page, CONTROLS)
        if covered := [k for k, b in now.items() if _overlap(b, error)]:
            wrong[f"{lines}: under the error"] = (covered, error)
        if hidden := out_of_sight(page, ["#error", "#clock", "#deal"]):
            wrong[f"{lines}: out of sight"] = hidden
        page.fill("#bet-amount", "")
        page.click(f"{SPOT}[data-wager='tie']")  # $1 more there
        page.wait_for_selector("#error:empty", state="attached")
        idle(page)
        if moved := moved_controls(page, before):
            wrong[f"{lines}: the error went"] = moved
    return wrong


@pytest.mark.parametrize("size", ["740x360", "390x844", "1366x768"])
def test_d179_a_spot_keeps_its_width_whatever_its_amount(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """Commission-free Midibaccarat's seven spots, empty, then $5.00 on
    Player, then the table's most ($1,000.00), typed: no control moves.

    Before: with $1,000.00 the spot was 10 px wider (16 on a phone on
    its side), and the other six moved 5 (8) px sideways.
    """
    table = srv.table_id("midibaccarat-commission-free")
    page = _page(browser, srv, f"Widths {size}", size)
    sit(page, srv, table, 2)
    wrong: dict[str, Any] = {}
    try:
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        before = boxes(page, CONTROLS, in_page=True)
        for typed, shown in (("5", "$5.00"), ("1000", "$1,000.00")):
            page.fill("#bet-amount", typed)
            page.click("#bet-typed")
            page.wait_for_function(
                "([sel, text]) => document.querySelector(sel).innerText "
                "=== text",
                arg=[f"{SPOT}[data-wager='player'] .amt", shown],
            )
            idle(page)
            if moved := moved_controls(page, before):
                wrong[shown] = moved
    finally:
        _leave(page, srv, table, 2)
    assert not wrong, json.dumps(wrong, indent=1)
    assert not page.errors, page.errors


def test_d180_a_closed_result_stays_closed_after_recall_and_back(
    srv: LiveServer, browser: Any
) -> None:
    """At 390 x 844, a Midibaccarat round played and its result closed
    (Escape); Recall, then Back: the result stays closed (its place
    kept, D165) and no control moves; the next round's result shows.

    Before: the closed state lived in the page's memory; the page opened
    anew by Back showed the result again.
    """
    page = _page(browser, srv, "Round trip", "390x844")
    table, _ = round_played_at_seat_1(page, srv, "midibaccarat", close=True)
    try:
        closed = page.get_attribute("#result", "data-round")
        before = boxes(page, CONTROLS, in_page=True)
        page.click("#recall-link")
        page.wait_for_selector("#rounds tr[data-round]")
        page.go_back()
        page.wait_for_selector(f"{SPOT}[data-wager='player']")
        page.wait_for_timeout(200)  # the socket's first push drawn too
        page.evaluate("scrollTo(0, 0)")
        back = page.get_attribute("#result", "data-round")
        shown_again = page.is_visible("#result")
        moved = moved_controls(page, before)
        page.click("[data-chip='500']")
        page.click(f"{SPOT}[data-wager='player']")
        idle(page)
        page.click("#deal")
        page.wait_for_selector("#result:not(.closed) .headline")
        dealt = page.get_attribute("#result", "data-round")
    finally:
        _leave(page, srv, table, 1)
    assert (back, shown_again) == (closed, False), (closed, back)
    assert not moved, json.dumps(moved, indent=1)
    assert dealt != closed, dealt
    assert not page.errors, page.errors


def test_d181_the_result_at_a_deal_on_a_tablet_moves_nothing(
    srv: LiveServer, browser: Any
) -> None:
    """At 768 x 1024, the first round of a 21 Baccarat table (no other
    test here plays there), one wager, then a second, two wagers: each
    deal brings the result (a wager's line longer the second time), the
    last round's cards and sayings as the next bets open, and no control
    moves.

    Before: the first deal took the spots 214 px down, the rail and
    Deal 205 (the result 147 px, the cards' row 27 px taller, "Last
    round" and a saying 44 px); the second, a line longer, 19 px.
    """
    table = srv.table_id("21-baccarat")
    page = _page(browser, srv, "Tablet deal", "768x1024")
    sit(page, srv, table, 3)
    wrong: dict[str, Any] = {}
    try:
        idle(page)
        for wagers in (["player"], ["player", "tie"]):
            page.click("[data-chip='500']")
            for wager in wagers:
                page.click(f"{SPOT}[data-wager='{wager}']")
                idle(page)
            page.evaluate("scrollTo(0, 0)")
            before = boxes(page, CONTROLS, in_page=True)
            page.click("#deal")
            page.wait_for_selector("#result:not([hidden]):not(.closed)")
            idle(page)
            lines = page.eval_on_selector_all("#result li", "e => e.length")
            if lines != len(wagers):
                wrong[f"{wagers}: lines"] = lines
            if moved := moved_controls(page, before):
                wrong[f"{wagers}: the result came"] = moved
            page.keyboard.press("Escape")
            idle(page)
    finally:
        _leave(page, srv, table, 3)
    assert not wrong, json.dumps(wrong, indent=1)
    assert not page.errors, page.errors


_ROWS = """(() => {
  const feet = [...document.querySelectorAll("#seats .seat")].map((b) => {
    const r = b.getBoundingClientRect();
    return r.bottom + parseFloat(getComputedStyle(b).marginBottom);
  }).sort((a, b) => a - b);
  return feet.filter((f, i) => i === 0 || f - feet[i - 1] > 8).length;
})()"""
"""How many rows the seats stand on (a row's feet lie within 8 px)."""

_SIZE = """(() => {
  const b = document.querySelector("#seats .seat[data-seat='2']");
  return [b.offsetWidth, b.offsetHeight];
})()"""
"""The width and height of seat 2's box."""


@pytest.mark.parametrize("size", ["812x375", "740x360", "1366x768"])
def test_d184_d185_another_players_bets_move_nothing(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """Another player's bets at Midibaccarat, one to five wagers and a
    raise, move none of this player's controls, and his seat keeps its
    size: the seats stay on as many rows.

    Before: the row's feet were counted to the pixel, and at 812 x 375
    a seat 86.4 px high ended 1 px above its neighbours once its top
    was rounded, so one row of seats was counted as two and set on two;
    the other player's first bet changed a seat's height, the rounding
    agreed, and the seats went back to one row: the player's spots
    moved 96 px sideways and 19 px down (48 px sideways at 740 x 360;
    90 px sideways and 37 px down at 1366 x 768 at his fourth wager)
    (D184). Then each of his wagers was a spot, two to a row: his seat
    grew from 48 x 85 px to 101 x 206 and took this player's spots and
    Deal 91 to 121 px down, and half its width sideways (D185).
    """
    table = srv.table_id("midibaccarat")
    page = _page(browser, srv, f"Neighbour {size}", size)
    sit(page, srv, table, 3)
    them = seated_player(srv, table, 2, f"Next to {size}")
    page.wait_for_selector("#seats .seat[data-seat='2']:not(.vacant)")
    idle(page)
    page.evaluate("scrollTo(0, 0)")
    rows = page.evaluate(_ROWS)
    before = boxes(page, CONTROLS, in_page=True)
    try:
        wrong = _neighbour_bets(page, srv, table, them, before, rows)
    finally:
        for wager in {w for w, _, _ in _NEIGHBOUR_BETS}:
            back = {"seat": 2, "wager": wager, "amount": 0}
            HTTP.post(
                f"{srv.base}/tables/{table}/wagers/change",
                json=back,
                headers=them,
            )
        HTTP.delete(f"{srv.base}/tables/{table}/seats/2", headers=them)
        _leave(page, srv, table, 3)
    assert not wrong, json.dumps(wrong, indent=1)
    assert not page.errors, page.errors


def _neighbour_bets(
    page: Any,
    srv: LiveServer,
    table: int,
    them: dict[str, str],
    before: dict[str, Any],
    rows: int,
) -> list[Any]:
    """Seat 2's player (``them``) bets, raises and adds wagers: what of
    this player's moved, and whether seat 2 changed its size or the
    seats their rows."""
    size0 = page.evaluate(_SIZE)
    wrong: list[Any] = []
    for wager, amount, words in _NEIGHBOUR_BETS:
        bet = {"seat": 2, "wager": wager, "amount": amount}
        path = "/wagers/change" if amount == 50000 else "/wagers"
        r = HTTP.post(
            f"{srv.base}/tables/{table}{path}", json=bet, headers=them
        )
        assert r.status_code == 200, r.text
        seat = "#seats .seat[data-seat='2'] .spot"
        # the bet drawn (the raise too); a spot for each wager, as the
        # page drew them before D185, with its amount
        page.wait_for_selector(
            f"{seat}[aria-label*='{words}'], "
            f"{seat}[data-wager='{wager}'][aria-label*='{words[-6:]}']"
        )
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        moved = moved_controls(page, before)
        if moved:
            wrong.append((wager, amount, moved))
        if page.evaluate(_SIZE) != size0:
            wrong.append(
                (wager, amount, "seat 2", size0, page.evaluate(_SIZE))
            )
        if page.evaluate(_ROWS) != rows:
            wrong.append((wager, amount, "rows", rows, page.evaluate(_ROWS)))
    return wrong


_NEIGHBOUR_BETS = [
    ("banker", 500, "Banker $5.00"),
    ("banker", 50000, "Banker $500.00"),
    ("tie", 2500, "Tie $25.00"),
    ("perfect_pairs_player", 500, "Perfect Pair (Player) $5.00"),
    ("perfect_pairs_banker", 500, "Perfect Pair (Banker) $5.00"),
    ("player", 500, "Player $5.00"),
]
"""What seat 2 bets, in order, and how his box then names it: a raise
(50000, through ``/wagers/change``) and all five wagers."""


_OTHER = "#seats .seat[data-seat='{}']"
_COMINGS_AND_GOINGS = [
    (2, "sits down", ":not(.vacant)"),
    (2, "sits out", " :is(.away, [aria-label$='sitting out'])"),
    (2, "comes back", " [aria-label$='no bet']"),
    (2, "leaves", ".vacant"),
    (9, "sits down", ":not(.vacant)"),
    (9, "leaves", ".vacant"),
]
"""What another player does at which seat, and what the page then shows
of that seat (the page before D186 too)."""


def _seat_size(page: Any, seat: int) -> list[int]:
    """The width and height of ``seat``'s box."""
    return list(
        page.eval_on_selector(
            _OTHER.format(seat), "b => [b.offsetWidth, b.offsetHeight]"
        )
    )


@pytest.mark.parametrize("size", ["812x375", "390x844", "1366x768"])
def test_d186_another_player_sitting_or_leaving_moves_nothing(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """At Midibaccarat, seat 3, another player with a long name sits
    down next to this player (seat 2), sits out, comes back and leaves;
    then one sits down at seat 9 and leaves: none of this player's
    controls moves, nor his seat, the seats stay on as many rows, and a
    taken seat is as big as a vacant one.

    Before: a vacant seat was its number over a ring (44 x 54 px on a
    phone on its side, 76 x 54 upright, 84 x 93 on a wide screen), a
    taken one as wide as the player's name (71 to 121 px) and 101 px
    high, and Deal turned into Ready, 13 px wider. At 812 x 375 the
    player at seat 2 took the seats from one row to two, this player's
    spots 134 px sideways and Deal 73 px down; at 390 x 844 any player
    took the spots and Deal 47 px down; at 1366 x 768 the one at seat
    2 took the spots 15 px sideways, the one at seat 9 Deal 8 px down.
    """
    table = srv.table_id("midibaccarat")
    page = _page(browser, srv, f"Host {size}", size)
    sit(page, srv, table, 3)
    idle(page)
    page.evaluate("scrollTo(0, 0)")
    watched = [".seat.mine", *CONTROLS]
    before = boxes(page, watched, in_page=True)
    rows = page.evaluate(_ROWS)
    vacant = {seat: _seat_size(page, seat) for seat in (2, 9)}
    base = f"{srv.base}/tables/{table}"
    them: dict[int, dict[str, str]] = {}
    wrong: list[Any] = []
    try:
        for seat, does, shows in _COMINGS_AND_GOINGS:
            if does == "sits down":
                name = f"Wilhelmina Quist {size} {seat}"
                them[seat] = seated_player(srv, table, seat, name)
            elif does == "leaves":
                HTTP.delete(f"{base}/seats/{seat}", headers=them.pop(seat))
            else:
                out = {"seat": seat, "sitting_out": does == "sits out"}
                r = HTTP.post(base + "/sit-out", json=out, headers=them[seat])
                assert r.status_code == 200, r.text
            page.wait_for_selector(_OTHER.format(seat) + shows)
            idle(page)
            page.evaluate("scrollTo(0, 0)")
            if moved := moved_controls(page, before, watched):
                wrong.append((seat, does, moved))
            if (now := page.evaluate(_ROWS)) != rows:
                wrong.append((seat, does, "rows", rows, now))
            if (got := _seat_size(page, seat)) != vacant[seat]:
                wrong.append((seat, does, "vacant", vacant[seat], got))
    finally:
        for seat, headers in them.items():
            HTTP.delete(f"{base}/seats/{seat}", headers=headers)
        _leave(page, srv, table, 3)
    assert not wrong, json.dumps(wrong, indent=1)
    assert not page.errors, page.errors


_SHOWN = """box => [...box.children]
  .filter((e) => e.getClientRects().length &&
    getComputedStyle(e).visibility === "visible")
  .map((e) => [e.innerText, e.scrollWidth <= e.clientWidth])"""
"""The words each line of a box shows, and whether they fit in it."""


@pytest.mark.parametrize("size", ["812x375", "740x360"])
def test_d191_a_total_over_1000_shows_whole_on_its_side(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """At Midibaccarat on a phone on its side, this player (seat 3, a
    balance of $1,234.50) and another at seat 2 who bets $1,000.00 on
    Banker and $234.50 on Tie: his seat's box shows his total,
    "$1,234.50", whole (on its two lines, none cut), and keeps its size;
    his name and wagers are whole in the seat's and the box's accessible
    names; the header shows this player's balance whole; no text under
    12 px, and axe-core finds nothing serious.

    Before: the box's 44 px held "$1,23…" (the total was 48 px wide).
    """
    table = srv.table_id("midibaccarat")
    base = f"{srv.base}/tables/{table}"
    page = _page(browser, srv, f"Payroll {size}", size)
    me = token_of(page)
    mine = HTTP.get(srv.base + "/me", headers=me).json()["id"]
    cashier = {"Authorization": f"Bearer {OPERATOR}"}
    paid = HTTP.post(
        f"{srv.base}/players/{mine}/deposits",
        json={"amount": 23450},
        headers=cashier,
    )
    assert paid.json()["balance"] == 123450, paid.text
    name = f"High Roller {size}"
    made = HTTP.post(
        srv.base + "/players",
        json={"name": name, "balance": 500000},
        headers=cashier,
    ).json()
    them = {"Authorization": f"Bearer {made['token']}"}
    sit(page, srv, table, 3)
    seat = _OTHER.format(2)
    try:
        r = HTTP.post(base + "/seats", json={"seat": 2}, headers=them)
        assert r.status_code == 200, r.text
        page.wait_for_selector(seat + " .others")
        idle(page)
        size0 = _seat_size(page, 2)
        for wager, amount in (("banker", 100000), ("tie", 23450)):
            bet = {"seat": 2, "wager": wager, "amount": amount}
            r = HTTP.post(base + "/wagers", json=bet, headers=them)
            assert r.status_code == 200, r.text
        page.wait_for_selector(seat + " .others[aria-label$='Tie $234.50']")
        idle(page)
        shown = page.eval_on_selector(seat + " .others", _SHOWN)
        balance = page.eval_on_selector(
            "#balance", _SHOWN.replace("box.children", "[box]")
        )
        labels = [
            page.get_attribute(seat, "aria-label"),
            page.get_attribute(seat + " .others", "aria-label"),
        ]
        size1 = _seat_size(page, 2)
        right = boxes(page, ["#balance"], first=True)["#balance"][2]
        assert_no_small_text(page, f"a total of $1,234.50 at {size}")
        axe = Axe(page)
        axe.audit(f"a total of $1,234.50 at {size}")
    finally:
        for wager in ("banker", "tie"):
            back = {"seat": 2, "wager": wager, "amount": 0}
            HTTP.post(base + "/wagers/change", json=back, headers=them)
        HTTP.delete(base + "/seats/2", headers=them)
        _leave(page, srv, table, 3)
    money = [
        (text.replace("\n", ""), fits)
        for text, fits in shown
        if "$" in text or text.startswith(".")
    ]
    assert money == [("$1,234.50", True)], shown
    assert size1 == size0, (size0, size1)
    assert labels == [
        f"Seat 2, {name}",
        "Seat 2 Banker $1,000.00, Tie $234.50",
    ], labels
    assert balance == [["$1,234.50", True]], balance
    assert right <= SIZES[size]["width"], right
    assert not any(axe.found.values()), json.dumps(axe.found, indent=1)
    assert not page.errors, page.errors
