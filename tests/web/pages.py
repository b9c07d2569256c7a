"""A player's page in the browser tests: joined in the lobby, seated,
idle, audited by axe-core (the fixtures ``srv`` and ``browser`` are in
``conftest.py``)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest
from tests.server.conftest import passive_action
from tests.web.live import CHROMIUM, OPERATOR, LiveServer

BROWSER_TEST = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM),
        reason="browser test needs Debian's chromium at /usr/bin/chromium "
        "(apt-get install chromium)",
    ),
]
"""A browser test module's marks (``pytestmark = BROWSER_TEST``)."""

HTTP = httpx.Client(timeout=30)
"""One keep-alive connection pool for the tests' API players."""


class Served(Protocol):
    """A running table server: the in-process one or ``croupier serve``."""

    @property
    def base(self) -> str:
        """``http://host:port``."""
        ...


@dataclass(frozen=True)
class ApiPlayer:
    """A player made through the HTTP API, with no page: his id and
    token."""

    id: int
    token: str

    @property
    def headers(self) -> dict[str, str]:
        """The headers that carry his token, for the API."""
        return {"Authorization": f"Bearer {self.token}"}


def api_player(srv: Served, name: str) -> ApiPlayer:
    """A new player called ``name``, made by ``POST /players`` (as the
    lobby's Join makes one, with no page)."""
    made = HTTP.post(srv.base + "/players", json={"name": name})
    assert made.status_code == 200, made.text
    body = made.json()
    return ApiPlayer(int(body["id"]), str(body["token"]))


def seated_player(
    srv: Served, table: int, seat: int, name: str
) -> dict[str, str]:
    """A new player called ``name`` (:func:`api_player`), seated at
    ``seat`` of ``table`` through the API: his headers."""
    them = api_player(srv, name).headers
    r = HTTP.post(
        f"{srv.base}/tables/{table}/seats", json={"seat": seat}, headers=them
    )
    assert r.status_code == 200, r.text
    return them


def player_page(browser: Any, srv: Served, name: str, **kw: Any) -> Any:
    """A new page with a fresh player called ``name`` (via the lobby);
    ``page.errors`` collects the page's script errors."""
    page = browser.new_page(
        viewport=kw.pop("viewport", None) or {"width": 1366, "height": 900},
        **kw,
    )
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(srv.base + "/")
    page.fill("#name", name)
    page.click("#join")
    page.wait_for_selector("#balance:has-text('$')")
    return page


def phone_page(browser: Any, srv: Served, name: str, size: Any) -> Any:
    """:func:`player_page` on a touch phone of ``size`` (axe may run)."""
    return player_page(
        browser,
        srv,
        name,
        viewport=size,
        is_mobile=True,
        has_touch=True,
        bypass_csp=True,  # for axe's script
    )


def sized_page(browser: Any, srv: Served, name: str, view: Any) -> Any:
    """:func:`phone_page` at ``view`` on a phone (700 px wide or less, or
    500 px high or less: on its side), :func:`player_page` elsewhere."""
    if view["width"] <= 700 or view["height"] <= 500:
        return phone_page(browser, srv, name, view)
    return player_page(browser, srv, name, viewport=view)


def deal_pai_gow(
    page: Any, srv: LiveServer, table: int, hands: dict[int, str]
) -> None:
    """Bet $25 on Pai Gow from the page's seat and deal ``hands`` (seat,
    7 the dealer: six cards each), until the Double Down is offered: at
    a table that offers it (the module's ``TABLE_RULES`` of
    :data:`tests.web.live.DOUBLE_DOWN`; off by default, D182)."""
    srv.stack_pai_gow(table, hands)
    page.click("[data-chip='2500']")
    page.click(".seat.mine button.spot[data-wager='pai_gow']")
    idle(page)
    page.click("#deal")
    page.wait_for_selector("#actions button[data-action='no_double_down']")
    idle(page)


def decline_double_down(page: Any) -> None:
    """Decline pai gow's Double Down; wait until the hands are to be set."""
    page.click("#actions button[data-action='no_double_down']")
    page.wait_for_selector("#actions button[data-action='set']")
    idle(page)


def token_of(page: Any) -> dict[str, str]:
    """The headers of the page's player, for the HTTP API."""
    token = page.evaluate("localStorage.getItem('croupier.token')")
    return {"Authorization": f"Bearer {token}"}


def sit(page: Any, srv: LiveServer, table: int, seat: int) -> None:
    """Open ``table``'s page and take ``seat`` there."""
    page.goto(f"{srv.base}/play/{table}")
    page.click(f"[data-sit='{seat}']")
    page.wait_for_selector(f".seat.mine[data-seat='{seat}']")


def table_state(srv: LiveServer, table: int, headers: Any) -> Any:
    """``GET /tables/{table}`` as the player of ``headers`` sees it."""
    return HTTP.get(f"{srv.base}/tables/{table}", headers=headers).json()


def play_out(
    page: Any,
    srv: LiveServer,
    table: int,
    seat: int,
    *,
    deal: bool = False,
    close: bool = True,
) -> None:
    """Finish the round through the API (dealt first with ``deal``), each
    decision the quietest; the result shown on the page is closed (left
    shown with ``close`` false)."""
    base = f"{srv.base}/tables/{table}"
    me = token_of(page)
    if deal:
        HTTP.post(base + "/deal", headers=me)
    for _ in range(30):
        state = table_state(srv, table, me)
        pending = state["round"]["pending"]
        if state["round"]["status"] != "playing" or pending is None:
            break
        act = {"seat": seat, "action": passive_action(pending["legal"])}
        HTTP.post(base + "/actions", json=act, headers=me)
    page.wait_for_selector("#result:not([hidden])")
    if close:
        page.keyboard.press("Escape")
    idle(page)


def round_played_at_seat_1(
    page: Any, srv: LiveServer, game: str, *, close: bool
) -> tuple[int, str]:
    """At seat 1 of ``game``'s table, a round of $5.00 on the seat's
    first spot played out, its result closed (left shown with ``close``
    false, as D149 keeps it while the next bets are made), and the page
    at its top, as a player finds it when the round is over. The table's
    id and the selector of the player's spots."""
    table = srv.table_id(game)
    sit(page, srv, table, 1)
    idle(page)
    spot = ".seat.mine button.spot"
    stake = {"seat": 1, "wager": page.get_attribute(spot, "data-wager")}
    HTTP.post(
        f"{srv.base}/tables/{table}/wagers",
        json={**stake, "amount": 500},
        headers=token_of(page),
    )
    play_out(page, srv, table, 1, deal=True, close=close)
    page.wait_for_selector(".felt.last-round")  # the round just played
    page.evaluate("scrollTo(0, 0)")
    return table, spot


def clear_bets(page: Any) -> None:
    """Take the page's player's chips off the layout (Clear) and wait
    for the server's answer."""
    page.click("#clear")
    idle(page)  # Deal is disabled while the request is in flight too
    page.wait_for_selector("#deal:disabled")


def clear_and_leave(page: Any, srv: LiveServer, table: int, seat: int) -> None:
    """Take the page's player's chips off the layout (a seat with a
    stake on it stays) and leave ``seat``."""
    clear_bets(page)
    HTTP.delete(
        f"{srv.base}/tables/{table}/seats/{seat}", headers=token_of(page)
    )


def idle(page: Any) -> None:
    """Wait until no request of the page is in flight."""
    page.wait_for_selector("#rail[aria-busy='false']", state="attached")
    page.wait_for_timeout(60)


_BOXES = """([sels, inPage, first]) => sels.flatMap((sel) => {
  const found = [...document.querySelectorAll(sel)];
  return (first ? found.slice(0, 1) : found).map((e, i) => {
    const r = e.getBoundingClientRect();
    const x = inPage ? scrollX : 0, y = inPage ? scrollY : 0;
    const key = first ? sel
      : sel + " " + (e.dataset.wager || e.dataset.chip || i);
    return [key, [r.left + x, r.top + y, r.right + x, r.bottom + y]
      .map(Math.round)];
  });
})"""


CONTROLS = [
    ".seat.mine button.spot",
    "#chip-pick button",
    "#deal",
    "#undo",
    "#clear",
    "#rebet",
    "#double-bet",
    "#bet-amount",
    "#bet-typed",
    "#sit-out",
    "#leave",
]
"""Every control of a player who bets (each element's box)."""


def moved_controls(
    page: Any, before: dict[str, Any], watched: list[str] = CONTROLS
) -> dict[str, Any]:
    """The :data:`CONTROLS` (or the ``watched`` selectors) whose box in
    the page is not ``before``'s (each with its box now and before)."""
    now = boxes(page, watched, in_page=True)
    return {k: (now.get(k), v) for k, v in before.items() if now.get(k) != v}


def boxes(
    page: Any,
    selectors: list[str],
    *,
    in_page: bool = False,
    first: bool = False,
) -> dict[str, list[int]]:
    """Each selector's elements' boxes, ``[left, top, right, bottom]``
    rounded to the CSS pixel, keyed by the selector and the element's
    wager, chip or index (``first``: the selector's first element only,
    keyed by the selector). The boxes are the viewport's, or with
    ``in_page`` the page's, wherever it is scrolled."""
    found = page.evaluate(_BOXES, [selectors, in_page, first])
    return dict(found)


_SIGHT = """sels => sels.map(sel => [sel, [...document.querySelectorAll(sel)]
  .filter(e => !e.disabled && e.getClientRects().length)
  .map(e => {
    const r = e.getBoundingClientRect();
    // not under the rail (nor any box): the element is what shows at
    // its middle, near its top and near its foot (cards a player may
    // choose overlap their neighbours sideways)
    const seen = [.5, .1, .9].every((y) => e.contains(
      document.elementFromPoint(r.left + r.width / 2, r.top + y * r.height)));
    return {what: e.dataset.action || e.dataset.card || e.className,
            box: [r.left, r.top, r.right, r.bottom].map(Math.round),
            inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth &&
                    r.bottom <= innerHeight,
            seen, w: r.width, h: r.height,
            font: parseFloat(getComputedStyle(e).fontSize)};
  })])"""


def sight(page: Any, selectors: list[str]) -> dict[str, list[Any]]:
    """Each selector's shown, enabled elements: whether each lies inside
    the viewport (``inside``) and is not covered (``seen``), its box,
    its size and its type's size."""
    return dict(page.evaluate(_SIGHT, selectors))


def out_of_sight(page: Any, selectors: list[str]) -> list[Any]:
    """The elements of ``selectors`` that are out of the viewport or
    covered, as the page is scrolled; a selector with no shown, enabled
    element is named too."""
    shown = sight(page, selectors)
    return [sel for sel, found in shown.items() if not found] + [
        (sel, e)
        for sel, found in shown.items()
        for e in found
        if not (e["inside"] and e["seen"])
    ]


def tab_order_wrong(page: Any, selectors: list[str]) -> list[Any]:
    """From the first of ``selectors`` (focused), the Tab key must go to
    each of the others in turn, and each must be drawn after the one
    before it as a line of text is read: on the same line to its right,
    or on a line under it. What is not so, with the boxes."""
    page.focus(selectors[0])
    reached = [selectors[0]]
    for sel in selectors[1:]:
        page.keyboard.press("Tab")
        if not page.evaluate(
            "sel => document.activeElement === document.querySelector(sel)",
            sel,
        ):
            active = page.evaluate(
                "(e => e.id || e.dataset.chip || e.tagName)"
                "(document.activeElement)"
            )
            return [("Tab after", reached[-1], "went to", active, "not", sel)]
        reached.append(sel)
    drawn = list(boxes(page, selectors, first=True).items())
    wrong = []
    for (a, ab), (b, bb) in itertools.pairwise(drawn):
        same_line = bb[1] < ab[3] and ab[1] < bb[3]
        if not ((same_line and bb[0] >= ab[2]) or bb[1] >= ab[3]):
            wrong.append(("drawn before", b, bb, a, ab))
    return wrong


SMALLEST_TEXT_PX = 12
"""The smallest text a page shows, in CSS pixels (no WCAG rule fixes
one; 12 px is the common floor of legible body text, and the table's
seat numbers, captions and bet labels were 9.6 to 11.2 px)."""
_SMALL_TEXT = """(least) => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const text = n.textContent.trim();
    const e = n.parentElement;
    if (!text || e.closest("[hidden]")) continue;
    const cs = getComputedStyle(e);
    const r = e.getBoundingClientRect();
    // text hidden from sight (the screen reader's only) is not read
    if (cs.visibility === "hidden" || r.width <= 1 || r.height <= 1) continue;
    const px = parseFloat(cs.fontSize);
    // a stacked chip's value is drawn at size 0: the stack shows colours
    if (px > 0 && px < least) out.push({text: text.slice(0, 30), px,
                              where: e.outerHTML.slice(0, 80)});
  }
  return out;
}"""


def assert_no_small_text(page: Any, what: str) -> None:
    """No text in sight on the page is smaller than 12 px."""
    small = page.evaluate(_SMALL_TEXT, SMALLEST_TEXT_PX)
    assert not small, (what, small)


AXE = Path(__file__).parent / "vendor" / "axe.min.js"
"""axe-core 4.14 (vendored, MPL-2.0)."""
_AXE_RUN = (
    "axe.run(document, {runOnly: {type: 'tag', values: "
    "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
)
_FLATTEN = r"""() => {
  // Each gradient background becomes the one of its colours that gives
  // the element's text the least contrast (axe cannot judge gradients).
  const lum = (c) => {
    const [r, g, b] = c.map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const rgb = (t) => t.match(/[\d.]+/g).slice(0, 3).map(Number);
  let n = 0;
  for (const el of document.querySelectorAll("*")) {
    const cs = getComputedStyle(el);
    if (!cs.backgroundImage.includes("gradient")) continue;
    const stops = cs.backgroundImage.match(/rgba?\([^)]*\)/g) || [];
    if (!stops.length) continue;
    const ink = lum(rgb(cs.color));
    const worst = stops.reduce((a, b) =>
      Math.abs(lum(rgb(a)) - ink) <= Math.abs(lum(rgb(b)) - ink) ? a : b);
    el.style.setProperty("background-image", "none", "important");
    el.style.setProperty("background-color", worst, "important");
    n += 1;
  }
  return n;
}"""
"""Gradients to solid colours, so that axe judges their contrast."""
_DESKTOP = {"width": 1366, "height": 900}
_PHONE = {"width": 375, "height": 812}


class Axe:
    """axe-core on the page as it stands, at desktop and phone size.

    axe leaves the contrast of text on a gradient undecided, so each
    gradient is first replaced by the one of its colours that gives the
    element's text the least contrast: the text must then pass on the
    worst part of its background.
    """

    def __init__(self, page: Any) -> None:
        self.page = page
        self.script = AXE.read_text(encoding="utf-8")
        self.found: dict[str, list[Any]] = {}

    def audit(self, name: str, *, phone: bool = False) -> None:
        """Audit now; with ``phone`` again at 375 x 812."""
        page = self.page
        if not page.evaluate("typeof window.axe === 'object'"):
            page.add_script_tag(content=self.script)
        self._run(name)
        if phone:
            page.set_viewport_size(_PHONE)
            page.wait_for_timeout(120)
            self._run(f"{name} (phone)")
            page.set_viewport_size(_DESKTOP)
            page.wait_for_timeout(60)

    def _run(self, name: str) -> None:
        self.page.evaluate(_FLATTEN)
        result = self.page.evaluate(_AXE_RUN)
        self.found[name] = [
            (v["id"], v["impact"], [n["html"][:100] for n in v["nodes"][:3]])
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]


def desk_deposit(page: Any, row: str) -> None:
    """Press the desk's Deposit in ``row`` (its amount typed), then the
    Confirm it turns into (D173); the answer is left to the caller."""
    button = f"{row} button[data-deposit]"
    page.click(button)
    page.wait_for_selector(f"{button}[data-confirm]")
    page.click(button)


def opened_desk(browser: Any, srv: LiveServer) -> Iterator[Any]:
    """The desk at 1366 x 900, its token typed in as an operator does.

    For a fixture to ``yield from``: the page's errors fail the test
    after it, and the page is closed. ``bypass_csp``: axe-core is
    injected as an inline script.
    """
    page = browser.new_page(
        viewport={"width": 1366, "height": 900}, bypass_csp=True
    )
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(srv.base + "/operator")
    page.fill("#token", OPERATOR)
    page.click("#login-go")
    page.wait_for_selector("#desk:not([hidden]) #tables tr[data-table]")
    yield page
    assert not page.errors, page.errors
    page.close()
