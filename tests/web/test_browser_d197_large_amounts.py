"""D197: amounts of a billion dollars whole on the table's page.

Since D195 a server opens tables with limits up to $10,000,000,000.00,
and the operator's cashier gives a player any balance. Measured with a
throw-away probe (every game, a player and another at seats 3 and 2,
$1,000,000,000.00 bets, a round played), the page as it was cut:
another player's total in his seat's box ("$1,999,999,999.99" 75 px
wide, cut "$1,999,999,9…" in 60 px upright, 44 px on its side; on a
desktop it ran out of the box's 76 px, over its border), the result's
headline on a phone ("You win $1,000,000,000.00", 180 px, "You win
$1,0…" in 111 px at 740 x 360, 142 at 812 x 375, 156 at 844 x 390;
"Push: your $1,000,000,000.00 is returned", 347 px in 261 at 390 x
844), and at limits of $10,000,000,000.00 commission-free's seven
spots, each 113 px wide, ran past the felt's edges on a phone on its
side (Panda 8's right edge at 777 px of 740). Each test here fails on
the page as it was.

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
    player_page,
    sit,
    sized_page,
    token_of,
)

pytestmark = BROWSER_TEST

CASHIER = {"Authorization": f"Bearer {OPERATOR}"}
BILLION = 100_000_000_000
"""$1,000,000,000.00 in minor units."""
SIZES = {
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
    "844x390": {"width": 844, "height": 390},
    "812x375": {"width": 812, "height": 375},
    "740x360": {"width": 740, "height": 360},
    "1366x768": {"width": 1366, "height": 768},
}
OTHER = "#seats .seat[data-seat='2']"
SPOT = ".seat.mine button.spot"


def dollars(units: int) -> str:
    """``units`` as the page should write them: "$1,234,567,890.12"."""
    return f"${units // 100:,}.{units % 100:02d}"


def _open(srv: LiveServer, game: str, most: int, name: str) -> int:
    """A table of ``game`` opened by the operator at $1.00 to ``most``,
    its first round (the shoe's burn) played through the API."""
    made = HTTP.post(
        srv.base + "/tables",
        json={"game": game, "name": name, "min_bet": 100, "max_bet": most},
        headers=CASHIER,
    )
    assert made.status_code == 200, made.text
    table = int(made.json()["id"])
    if game == "midibaccarat":
        base = f"{srv.base}/tables/{table}"
        them = _player(srv, f"Burner {table}", 10_000)
        HTTP.post(base + "/seats", json={"seat": 9}, headers=them)
        bet = {"seat": 9, "wager": "banker", "amount": 100}
        assert HTTP.post(base + "/wagers", json=bet, headers=them).is_success
        assert HTTP.post(base + "/deal", headers=them).is_success
        HTTP.delete(base + "/seats/9", headers=them)
        assert not srv.new_shoe_due(table)
    return table


def _player(srv: LiveServer, name: str, balance: int) -> dict[str, str]:
    """A player the cashier opens with ``balance``: his headers."""
    made = HTTP.post(
        srv.base + "/players",
        json={"name": name, "balance": balance},
        headers=CASHIER,
    )
    assert made.status_code == 200, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


@pytest.fixture(scope="module")
def billion_table(srv: LiveServer) -> int:
    """A Midibaccarat table whose wagers go to $1,000,000,000.00."""
    return _open(srv, "midibaccarat", BILLION, "Billion")


def _funded(srv: LiveServer, page: Any, amount: int) -> dict[str, str]:
    """The page's player credited ``amount`` by the cashier: his headers."""
    me = token_of(page)
    mine = HTTP.get(srv.base + "/me", headers=me).json()
    HTTP.post(
        f"{srv.base}/players/{mine['id']}/deposits",
        json={"amount": amount},
        headers=CASHIER,
    )
    return me


def _bet_banker(page: Any, base: str, me: dict[str, str], amount: int) -> None:
    """Bet ``amount`` on Banker from seat 3 through the API; the page
    shows its chips, settled, scrolled to its top."""
    bet = {"seat": 3, "wager": "banker", "amount": amount}
    assert HTTP.post(base + "/wagers", json=bet, headers=me).is_success
    page.wait_for_selector(f"{SPOT}[data-wager='banker'] .stack .chip")
    idle(page)
    page.evaluate("scrollTo(0, 0)")


def _page(browser: Any, srv: LiveServer, name: str, size: str) -> Any:
    """A player's page at ``size``: a touch phone's, or a desktop's
    (axe-core's script allowed in both)."""
    view = SIZES[size]
    if view["width"] > 1000 and view["height"] > 500:
        return player_page(browser, srv, name, viewport=view, bypass_csp=True)
    return sized_page(browser, srv, name, view)


_CUT = r"""(roots) => {
  // Each piece of an amount in sight ("$1,", "234,", ".12"): its lines
  // must lie inside every box that clips it, inside the box that draws
  // it (a spot, a seat, the result), inside the screen's width; its
  // type 12 px at least; no ellipsis of a box it is in cuts words.
  const out = [];
  const money = /\$|^[\d,.]+$/;
  for (const root of roots.flatMap((s) => [...document.querySelectorAll(s)])) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const text = n.textContent.trim();
      const e = n.parentElement;
      if (!money.test(text) || e.closest(".sr-only, [hidden]")) continue;
      const cs = getComputedStyle(e);
      if (cs.visibility !== "visible" || !e.getClientRects().length) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const why = [];
      for (const r of range.getClientRects()) {
        if (r.width < 1) continue;
        const inside = (b, what) => {
          if (r.left < b.left - 1 || r.right > b.right + 1 ||
              r.top < b.top - 1 || r.bottom > b.bottom + 1) {
            why.push([what, [r.left, r.top, r.right, r.bottom].map(Math.round),
                      [b.left, b.top, b.right, b.bottom].map(Math.round)]);
          }
        };
        for (let a = e; a && a !== document.body; a = a.parentElement) {
          const s = getComputedStyle(a);
          if (s.overflowX !== "visible" || s.overflowY !== "visible") {
            inside(a.getBoundingClientRect(), "clipped by " + a.className);
          }
          if (s.textOverflow === "ellipsis" && a.scrollWidth > a.clientWidth) {
            why.push(["ellipsis", a.className, a.scrollWidth, a.clientWidth]);
          }
        }
        const box = e.closest(".spot, .result-banner, .seat");
        if (box) {
          inside(box.getBoundingClientRect(), "out of " + box.className);
        }
        inside({left: 0, right: innerWidth, top: -1e6, bottom: 1e6}, "screen");
      }
      if (parseFloat(cs.fontSize) < 12) why.push(["type", cs.fontSize]);
      if (why.length) out.push([text, e.className, why]);
    }
  }
  return out;
}"""
"""What cuts an amount in ``roots``: each piece with the reasons."""
_ROOTS = [".you-line", "#felt", "#rail"]


def _shown(page: Any, selector: str) -> str:
    """The words ``selector`` shows (on as many lines as it takes), as
    one line."""
    return "".join(page.inner_text(selector).split("\n"))


def _in_sight(page: Any, selectors: list[str]) -> list[Any]:
    """The elements of ``selectors`` not wholly inside the screen's
    width and uncovered at their middle."""
    return list(
        page.evaluate(
            """sels => sels
  .flatMap((sel) => [...document.querySelectorAll(sel)])
  .filter((e) => e.getClientRects().length).map((e) => {
    const r = e.getBoundingClientRect();
    const seen = e.contains(document.elementFromPoint(
      Math.min(innerWidth - 1, r.left + r.width / 2), r.top + r.height / 2));
    return [e.id || e.textContent.trim().slice(0, 20),
            [r.left, r.right].map(Math.round), seen,
            r.left >= 0 && r.right <= innerWidth];
  }).filter(([, , seen, inside]) => !(seen && inside))""",
            selectors,
        )
    )


_BALANCES = [
    *(
        pytest.param(size, 123_456_789_012, id=size)
        # 844x390 and 812x375 lay the table out as 740x360 does, a few
        # pixels wider (the spots' case below keeps 812x375)
        for size in ("390x844", "740x360", "1366x768")
    ),
    *(
        pytest.param(size, 12_345_678_901_234, id=f"{size}-header")
        for size in ("390x844", "740x360")
    ),
]
"""Each layout with a balance of $1,234,567,890.12; upright and on its
side, one of $123,456,789,012.34 too, whose header needs D197's
smaller type."""


@pytest.mark.parametrize(("size", "balance"), _BALANCES)
def test_d197_a_billion_shows_whole_in_every_place(
    srv: LiveServer,
    browser: Any,
    billion_table: int,
    size: str,
    balance: int,
) -> None:
    """At a Midibaccarat table whose wagers go to $1,000,000,000.00,
    this player (seat 3, a balance of $1,234,567,890.12, or
    $123,456,789,012.34 upright and on its side) bets
    $1,000,000,000.00 on Player; another at seat 2 bets
    $1,000,000,000.00 on Banker and $234,567,890.12 on Tie; the round is
    dealt (Player 9 over Banker 7). Every amount in the header, on the
    felt and on the rail is whole: another player's total in his box,
    the player's own stake in its spot, the header's balance and
    session, the result's headline ("You win $1,000,000,000.00"); none
    is cut, none runs out of its box or off the screen, none is under
    12 px; the accessible names hold each amount exactly; the player's
    controls and seat, and the other seat, do not move as the amounts
    land and the result comes; Recall and the result's OK are in sight;
    axe-core finds nothing serious.

    Before: another player's total "$1,234,567,890.12" was cut
    "$1,234,567,8…" upright and on its side (75 px in 60 and 44), and ran
    out of its box of 76 px at 1366 x 768; the headline was cut "You win
    $1,0…" on a phone on its side (180 px in 111 to 156). With the
    larger balance, the header's balance and session took Recall past
    the screen's edge upright (measured by the D197 probe).
    """
    table = billion_table
    base = f"{srv.base}/tables/{table}"
    page = _page(browser, srv, f"Tycoon {size} {balance}", size)
    me = token_of(page)
    mine = HTTP.get(srv.base + "/me", headers=me).json()
    due = balance - mine["balance"]
    while due:  # a deposit is $10,000,000,000.00 at most (D31)
        paid = HTTP.post(
            f"{srv.base}/players/{mine['id']}/deposits",
            json={"amount": min(due, 10**12)},
            headers=CASHIER,
        )
        assert paid.status_code == 200, paid.text
        due -= min(due, 10**12)
    assert paid.json()["balance"] == balance, paid.text
    them = _player(srv, f"Magnate {size} {balance}", 10 * BILLION)
    sit(page, srv, table, 3)
    tie = 23_456_789_012
    try:
        r = HTTP.post(base + "/seats", json={"seat": 2}, headers=them)
        assert r.status_code == 200, r.text
        page.wait_for_selector(OTHER + " .others[aria-label$='no bet']")
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        watched = [".seat.mine", OTHER, *CONTROLS]
        before = boxes(page, watched, in_page=True)
        for wager, amount in (("banker", BILLION), ("tie", tie)):
            bet = {"seat": 2, "wager": wager, "amount": amount}
            r = HTTP.post(base + "/wagers", json=bet, headers=them)
            assert r.status_code == 200, r.text
        bet = {"seat": 3, "wager": "player", "amount": BILLION}
        assert HTTP.post(base + "/wagers", json=bet, headers=me).is_success
        page.wait_for_selector(f"{SPOT}[data-wager='player'] .stack .chip")
        page.wait_for_selector(
            OTHER + f" .others[aria-label$='Tie {dollars(tie)}']"
        )
        page.wait_for_function(
            "document.getElementById('balance').textContent === "
            f"{json.dumps(dollars(balance - BILLION))}"
        )
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        betting = {
            "moved": moved_controls(page, before, watched),
            "cut": page.evaluate(_CUT, _ROOTS),
            "box": _shown(page, OTHER + " .others"),
            "box name": page.get_attribute(OTHER + " .others", "aria-label"),
            "spot": _shown(page, f"{SPOT}[data-wager='player'] .amt"),
            "balance": _shown(page, "#balance"),
            "out of sight": _in_sight(page, ["#recall-link"]),
        }
        assert_no_small_text(page, f"bets of a billion at {size}")
        srv.stack_next(table, "4h Kc 5d 7s")  # Player 9, Banker 7
        assert HTTP.post(
            base + "/ready", json={"seat": 2}, headers=them
        ).is_success
        page.click("#deal")
        page.wait_for_selector("#result:not([hidden]) .headline")
        page.wait_for_selector(OTHER + " .others[aria-label$='no bet']")
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        dealt = {
            "moved": moved_controls(page, before, watched),
            "cut": page.evaluate(_CUT, _ROOTS),
            "headline": _shown(page, "#result .headline"),
            "balance": _shown(page, "#balance"),
            "session": _shown(page, "#session-net"),
            "out of sight": _in_sight(page, ["#recall-link", "#result .btn"]),
        }
        assert_no_small_text(page, f"a billion won at {size}")
        axe = Axe(page)
        axe.audit(f"a billion at {size}")
    finally:
        for wager in ("banker", "tie"):
            back = {"seat": 2, "wager": wager, "amount": 0}
            HTTP.post(base + "/wagers/change", json=back, headers=them)
        HTTP.delete(base + "/seats/2", headers=them)
        back = {"seat": 3, "wager": "player", "amount": 0}
        HTTP.post(base + "/wagers/change", json=back, headers=me)
        HTTP.delete(base + "/seats/3", headers=me)
        page.close()
    total = BILLION + tie
    assert betting == {
        "moved": {},
        "cut": [],
        "box": betting["box"],
        "box name": f"Seat 2 Banker {dollars(BILLION)}, Tie {dollars(tie)}",
        "spot": dollars(BILLION),
        "balance": dollars(balance - BILLION),
        "out of sight": [],
    }, json.dumps(betting, indent=1)
    assert dollars(total) in betting["box"], betting["box"]
    assert dealt == {
        "moved": {},
        "cut": [],
        "headline": f"You win {dollars(BILLION)}",
        "balance": dollars(balance + BILLION),
        "session": f"Session +{dollars(BILLION)}",
        "out of sight": [],
    }, json.dumps(dealt, indent=1)
    assert not any(axe.found.values()), json.dumps(axe.found, indent=1)
    assert not page.errors, page.errors


@pytest.mark.parametrize("size", ["812x375", "740x360"])
def test_d197_spots_for_ten_billion_stay_on_the_felt_on_its_side(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """At a commission-free Midibaccarat table whose wagers go to
    $10,000,000,000.00 (D195's most), on a phone on its side, the
    player's seven spots (each as wide as with the most it takes, D179)
    lie inside the felt, each whole in the screen's width, and a bet of
    $10,000,000,000.00 shows whole in its spot without moving a control.

    Before: each spot was 113 px wide and the seven, on one line, ran
    past the felt's edges (Panda 8's right edge at 777 px of 740, the
    Player spot's left edge off the screen at 812 x 375).
    """
    most = 10 * BILLION
    table = _open(srv, "midibaccarat-commission-free", most, f"Ten {size}")
    base = f"{srv.base}/tables/{table}"
    page = _page(browser, srv, f"Whale {size}", size)
    me = _funded(srv, page, most)
    sit(page, srv, table, 3)
    try:
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        before = boxes(page, CONTROLS, in_page=True)
        _bet_banker(page, base, me, most)
        felt = boxes(page, ["#felt"], first=True)["#felt"]
        spots = boxes(page, [SPOT])
        off = {
            k: b
            for k, b in spots.items()
            if b[0] < felt[0] or b[2] > felt[2] or b[2] > SIZES[size]["width"]
        }
        moved = moved_controls(page, before)
        shown = _shown(page, f"{SPOT}[data-wager='banker'] .amt")
        cut = page.evaluate(_CUT, ["#felt"])
    finally:
        back = {"seat": 3, "wager": "banker", "amount": 0}
        HTTP.post(base + "/wagers/change", json=back, headers=me)
        HTTP.delete(base + "/seats/3", headers=me)
        page.close()
    assert len(spots) == 7, spots
    assert not off, (felt, off)
    assert not moved, moved
    assert shown == dollars(most), shown
    assert not cut, cut
    assert not page.errors, page.errors


_COUNT_PROBES = """() => {
  // every unseen box fitTotals draws to measure a total, from now on
  window.probes = 0;
  new MutationObserver((changes) => {
    for (const c of changes) {
      for (const n of c.addedNodes) {
        if (n.classList && n.classList.contains("sum-probe")) window.probes++;
      }
    }
  }).observe(document.getElementById("seats"), {childList: true});
}"""

_WIDTH = "document.querySelector('.seat.one-size').offsetWidth"

_EXTRA = """() => getComputedStyle(document.getElementById("seats"))
  .getPropertyValue("--box-extra").trim()"""


def test_d197_the_box_measure_is_kept_from_render_to_render(
    srv: LiveServer, browser: Any, billion_table: int
) -> None:
    """At the billion table on a desktop, another player sits and bets
    three times: the page draws each message of the table again, and
    the boxes keep the height measured for the table's largest total
    (every wager at its $1,000,000,000.00, more than a line in an 84 px
    box) without drawing the unseen boxes again; a window narrowed to
    700 px, where the boxes are 76 px, measures again (the two boxes,
    the most and a cent less), once.

    Before: every render drew the two unseen boxes and laid the page out
    for each, two for each message of the table here.
    """
    table = billion_table
    base = f"{srv.base}/tables/{table}"
    page = _page(browser, srv, "Measured", "1366x768")
    sit(page, srv, table, 3)
    them = _player(srv, "Measured's neighbour", 10 * BILLION)
    try:
        idle(page)
        extra = page.evaluate(_EXTRA)
        page.evaluate(_COUNT_PROBES)
        r = HTTP.post(base + "/seats", json={"seat": 2}, headers=them)
        assert r.status_code == 200, r.text
        page.wait_for_selector(OTHER + " .others[aria-label$='no bet']")
        for amount in (100, 10_000, BILLION):
            bet = {"seat": 2, "wager": "banker", "amount": amount}
            r = HTTP.post(base + "/wagers/change", json=bet, headers=them)
            assert r.status_code == 200, r.text
            page.wait_for_selector(
                OTHER + f" .others[aria-label$='Banker {dollars(amount)}']"
            )
        idle(page)
        kept = (page.evaluate("window.probes"), page.evaluate(_EXTRA))
        wide = page.evaluate(_WIDTH)
        # the seats' boxes are 84 px wide down to 800 px, 76 px below
        page.set_viewport_size({"width": 700, "height": 768})
        page.wait_for_function("window.probes > 0")
        narrow = page.evaluate(_WIDTH)
        idle(page)
        page.wait_for_timeout(300)  # a second render would come by now
        narrowed = page.evaluate("window.probes")
    finally:
        back = {"seat": 2, "wager": "banker", "amount": 0}
        HTTP.post(base + "/wagers/change", json=back, headers=them)
        HTTP.delete(base + "/seats/2", headers=them)
        HTTP.delete(base + "/seats/3", headers=token_of(page))
        page.close()
    assert extra.endswith("px"), extra
    assert float(extra[:-2]) > 0, extra
    assert kept == (0, extra), kept
    assert narrow < wide, (narrow, wide)
    assert narrowed == 2, narrowed
    assert not page.errors, page.errors


_SEAT_ROWS = """() => {
  // the seats by row, top to bottom: a row is the seats whose margin
  // boxes end within 8 px of one another
  const feet = [...document.querySelectorAll("#seats .seat")].map((e) => [
    Number(e.dataset.seat),
    e.getBoundingClientRect().bottom +
      parseFloat(getComputedStyle(e).marginBottom)]);
  feet.sort((a, b) => a[1] - b[1]);
  const rows = [];
  let last = null;
  for (const [seat, foot] of feet) {
    if (last === null || foot - last > 8) rows.push([]);
    rows[rows.length - 1].push(seat);
    last = foot;
  }
  return rows.map((r) => r.sort((a, b) => a - b));
}"""


def test_d191_a_wide_players_seat_goes_to_the_seats_foot_on_its_side(
    srv: LiveServer, browser: Any
) -> None:
    """At a commission-free Midibaccarat table whose wagers go to
    $1,000,000.00, on a phone on its side (740 x 360), the player at
    seat 3 (his seven spots 83 px wide each, D179: his seat 611 px)
    bets with his seat at the seats' foot and the other eight on one row
    over it, Deal whole on the screen; another player sitting down at
    seat 2 moves none of his controls. At seat 1, where his seat and
    seat 2 share the first row, his seat stays in its place: the foot is
    taken only where it saves a row.

    Before: his seat at 3 did not fit beside seats 1 and 2, went to a
    row with seat 4 and seats 5 to 9 to a third: Deal's top at 362 px,
    under the screen's foot.
    """
    table = _open(
        srv, "midibaccarat-commission-free", BILLION // 1000, "Million side"
    )
    base = f"{srv.base}/tables/{table}"
    page = _page(browser, srv, "Side whale", "740x360")
    others = [s for s in range(1, 10) if s != 3]
    wrong: dict[str, Any] = {}
    them: dict[str, str] = {}
    try:
        sit(page, srv, table, 3)
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        if (rows := page.evaluate(_SEAT_ROWS)) != [others, [3]]:
            wrong["seat 3: rows"] = rows
        deal = boxes(page, ["#deal"], first=True)["#deal"]
        if deal[3] > SIZES["740x360"]["height"]:
            wrong["seat 3: Deal's box"] = deal
        before = boxes(page, CONTROLS, in_page=True)
        them = _player(srv, "Side neighbour", 10_000)
        sat = HTTP.post(base + "/seats", json={"seat": 2}, headers=them)
        assert sat.status_code == 200, sat.text
        page.wait_for_selector(f"{OTHER}:not(.vacant)")
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        if moved := moved_controls(page, before):
            wrong["seat 3: a neighbour sat down"] = moved
        HTTP.delete(base + "/seats/2", headers=them)
        HTTP.delete(base + "/seats/3", headers=token_of(page))
        sit(page, srv, table, 1)
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        if (rows := page.evaluate(_SEAT_ROWS)) != [[1, 2], list(range(3, 10))]:
            wrong["seat 1: rows"] = rows
        deal = boxes(page, ["#deal"], first=True)["#deal"]
        if deal[3] > SIZES["740x360"]["height"]:
            wrong["seat 1: Deal's box"] = deal
    finally:
        HTTP.delete(base + "/seats/1", headers=token_of(page))
        HTTP.delete(base + "/seats/3", headers=token_of(page))
        page.close()
    assert not wrong, json.dumps(wrong, indent=1)
    assert not page.errors, page.errors


_SPOT_LINES = """() => new Set([...document.querySelectorAll(
  ".seat.mine button.spot")].map((e) => Math.round(
    e.getBoundingClientRect().top))).size"""


@pytest.mark.parametrize(
    ("game", "most", "lines"),
    [
        ("midibaccarat-commission-free", BILLION // 1000, 2),
        ("midibaccarat", 10 * BILLION, 1),
    ],
    ids=["commission-free-1m", "midibaccarat-10b"],
)
def test_d191_wide_spots_upright_stand_five_or_four_to_a_line(
    srv: LiveServer, browser: Any, game: str, most: int, lines: int
) -> None:
    """On an upright phone (360 x 740), at a table whose limits make the
    player's spots wide (D179), the spots stand four or five to a line,
    each amount whole on as many lines as it takes: commission-free's
    seven at $1,000,000 on two lines as at the usual limits,
    Midibaccarat's five at $10,000,000,000 on one, its Deal's foot
    within D152's 716 px. A bet of the most moves no control.

    Before: each spot as wide as "$1,000,000.00" (83 px) or
    "$10,000,000,000.00" (113 px) on one line, three or two to a line:
    commission-free's spots on three lines (Deal's foot at 791 px,
    under a 740 px screen's foot), Midibaccarat's on three (791 px).
    """
    table = _open(srv, game, most, f"Upright {game}")
    base = f"{srv.base}/tables/{table}"
    page = _page(browser, srv, f"Upright {most} {lines}", "360x740")
    me = _funded(srv, page, most)
    wrong: dict[str, Any] = {}
    sit(page, srv, table, 3)
    try:
        idle(page)
        page.evaluate("scrollTo(0, 0)")
        if (found := page.evaluate(_SPOT_LINES)) != lines:
            wrong["the spots' lines"] = found
        deal = boxes(page, ["#deal"], first=True)["#deal"]
        if game == "midibaccarat" and deal[3] > 716:
            wrong["Deal's box"] = deal
        before = boxes(page, CONTROLS, in_page=True)
        _bet_banker(page, base, me, most)
        if moved := moved_controls(page, before):
            wrong["a bet of the most"] = moved
        if (shown := _shown(page, f"{SPOT}[data-wager='banker'] .amt")) != (
            dollars(most)
        ):
            wrong["the amount"] = shown
        if cut := page.evaluate(_CUT, ["#felt"]):
            wrong["cut"] = cut
    finally:
        back = {"seat": 3, "wager": "banker", "amount": 0}
        HTTP.post(base + "/wagers/change", json=back, headers=me)
        HTTP.delete(base + "/seats/3", headers=me)
        page.close()
    assert not wrong, json.dumps(wrong, indent=1)
    assert not page.errors, page.errors
