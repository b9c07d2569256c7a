"""A player's whole journey in a real browser, by mouse and by keyboard
(2026-12-06, the thirteenth session): from the lobby to a seat, a
round, its recall and back, and the seat left; Double Back Jack's
decisions and pai gow's hand setting at an upright phone and at two
desktops.

Where the journey went right, its test holds what a regression would
break: every decision's buttons, the dealer's cards and the hand in
sight at once, the focus on the next thing to do after each update,
never on the page's body, and no axe violation. The recall test failed
on the page as it was (D168).

One in-process server and one Debian chromium for the module
(``tests/web/conftest.py``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.web.live import DOUBLE_DOWN, LiveServer
from tests.web.pages import (
    BROWSER_TEST,
    HTTP,
    Axe,
    deal_pai_gow,
    decline_double_down,
    idle,
    phone_page,
    play_out,
    player_page,
    sight,
    sit,
    token_of,
)

pytestmark = BROWSER_TEST

TABLE_RULES = DOUBLE_DOWN
"""The pai gow table offers the Double Down Wager (off by default since
D182): these tests decide on it."""

SIZES = {
    "390x844": {"width": 390, "height": 844},
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
}
DEALER = "#dealer-row .area"
HAND = ".seat.mine .hand.acting"
BUTTONS = "#actions button"
_FOCUSED = """(e => e === document.body ? "body" : e.dataset.action ||
  e.dataset.card || e.dataset.wager || e.dataset.sit && "sit " +
  e.dataset.sit || e.id || e.tagName)(document.activeElement)"""


def _page(browser: Any, srv: LiveServer, name: str, size: str) -> Any:
    view = SIZES[size]
    if view["width"] <= 700:
        return phone_page(browser, srv, name, view)
    return player_page(browser, srv, name, viewport=view, bypass_csp=True)


def _wrong_in_sight(page: Any, what: str, *extra: str) -> list[Any]:
    """What is out of the viewport or covered, as the page left its
    scroll, of the dealer's cards, the hand deciding, every decision
    button (44 x 44 px at least) and ``extra``; the page does not scroll
    sideways."""
    wrong: list[Any] = []
    wide, inner = page.evaluate(
        "[document.scrollingElement.scrollWidth, innerWidth]"
    )
    if wide > inner:
        wrong.append((what, "sideways", wide, inner))
    shown = sight(page, [DEALER, HAND, BUTTONS, *extra])
    wrong += [(what, "none", sel) for sel, found in shown.items() if not found]
    wrong += [
        (what, sel, e["what"], e["box"])
        for sel, found in shown.items()
        for e in found
        if not (e["inside"] and e["seen"])
        or (sel != DEALER and sel != HAND and min(e["w"], e["h"]) < 44)
    ]
    return wrong


def _deal_insured_eights(
    page: Any, srv: LiveServer, table: int, seat: int
) -> None:
    """Bet $5 on Blackjack and deal 8h 8d against the dealer's ace and 6
    (insurance is offered), then 3c Tc 6h Kc 4d 9c 9c: the split hands
    doubled, the second to 24 (Second Chance)."""
    if srv.new_shoe_due(table):
        stake = {"seat": seat, "wager": "blackjack", "amount": 500}
        HTTP.post(
            f"{srv.base}/tables/{table}/wagers",
            json=stake,
            headers=token_of(page),
        )
        play_out(page, srv, table, seat, deal=True)
    srv.stack_next(table, "8h As 8d 6s 3c Tc 6h Kc 4d 9c 9c 5d 5h")
    page.click("[data-chip='500']")
    page.click(".seat.mine button.spot[data-wager='blackjack']")
    idle(page)
    page.click("#deal")
    page.wait_for_selector(f"{BUTTONS}[data-action='insurance']")
    idle(page)


@pytest.mark.parametrize("size", list(SIZES))
def test_dbj_decisions_by_keyboard_in_sight_with_the_focus_kept(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """Double Back Jack at 390 x 844, 1366 x 768 and 1920 x 1080, every
    decision taken with the Enter key: insurance declined; a pair of
    eights against the dealer's ace split; each hand doubled; Second
    Chance on the second's 24. At each decision the dealer's cards, the
    hand deciding and every button are in sight at once with no
    scrolling, the focus is on the decision's first button (after the
    result, on its OK; after Escape, on the player's spot), and axe
    finds nothing serious."""
    table = srv.table_id("double-back-jack")
    page = _page(browser, srv, f"Decider {size}", size)
    axe = Axe(page)
    sit(page, srv, table, 3)
    _deal_insured_eights(page, srv, table, 3)
    wrong = _wrong_in_sight(page, "insurance")
    axe.audit("insurance")
    focus = []
    for action, then in (
        ("no_insurance", "surrender"),
        ("split", "double"),
        ("double", "double"),
        ("double", "second_chance"),
    ):
        page.focus(f"{BUTTONS}[data-action='{action}']")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"{BUTTONS}[data-action='{then}']")
        idle(page)
        focus.append((action, page.evaluate(_FOCUSED)))
        wrong += _wrong_in_sight(page, f"after {action}")
        axe.audit(f"after {action}")
    page.focus(f"{BUTTONS}[data-action='second_chance']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result:not([hidden])")
    idle(page)
    focus.append(("second_chance", page.evaluate(_FOCUSED)))
    page.keyboard.press("Escape")
    page.wait_for_selector("#result", state="hidden")
    idle(page)
    focus.append(("Escape", page.evaluate(_FOCUSED)))
    assert focus == [
        ("no_insurance", "surrender"),
        ("split", "double"),
        ("double", "double"),
        ("double", "second_chance"),
        ("second_chance", "BUTTON"),  # the result's OK
        ("Escape", "blackjack"),
    ], focus
    assert not wrong, json.dumps(wrong, indent=1)
    assert not any(axe.found.values()), json.dumps(axe.found, indent=1)
    assert not page.errors, page.errors
    HTTP.delete(f"{srv.base}/tables/{table}/seats/3", headers=token_of(page))
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_pai_gow_setting_by_keyboard_in_sight_with_the_focus_kept(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """Six-Card Fortune Pai Gow at 390 x 844, 1366 x 768 and 1920 x
    1080: the Double Down declined, the ace chosen for the low hand with
    the Enter key, the hands set. The dealer's cards, the player's six
    (each a 44 px target on a phone) and every button are in sight at
    each step; the focus stays on the card chosen, then goes to the
    result's OK; axe finds nothing serious."""
    table = srv.table_id("six-card-fortune-pai-gow")
    page = _page(browser, srv, f"Setter {size}", size)
    axe = Axe(page)
    sit(page, srv, table, 2)
    hands = {2: "As Kh Kd 9c 7s 4d", 7: "2d 3h 5s 8c Td Qd"}
    deal_pai_gow(page, srv, table, hands)
    wrong = _wrong_in_sight(page, "double down")
    decline_double_down(page)
    cards = ".seat.mine .pickable .card"
    wrong += _wrong_in_sight(page, "setting", cards)
    axe.audit("setting")
    page.focus(".seat.mine .card[data-card='As']")
    page.keyboard.press("Enter")
    page.wait_for_selector(".seat.mine .card.picked[data-card='As']")
    focus = [("As", page.evaluate(_FOCUSED))]
    wrong += _wrong_in_sight(page, "the ace chosen", cards)
    axe.audit("the ace chosen")
    page.focus(f"{BUTTONS}[data-action='set']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result:not([hidden])")
    idle(page)
    focus.append(("set", page.evaluate(_FOCUSED)))
    assert focus == [("As", "As"), ("set", "BUTTON")], focus
    assert not wrong, json.dumps(wrong, indent=1)
    assert not any(axe.found.values()), json.dumps(axe.found, indent=1)
    assert not page.errors, page.errors
    page.keyboard.press("Escape")
    HTTP.delete(f"{srv.base}/tables/{table}/seats/2", headers=token_of(page))
    page.close()


@pytest.mark.parametrize("size", ["390x844", "1366x768"])
def test_d168_from_the_lobby_to_a_round_its_recall_and_back_by_keyboard(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """A player's journey with the keyboard alone: the lobby's name
    field, Enter (the focus on the first table's Play); Enter on the
    Midibaccarat table's; Enter on "Sit here" (the focus on his first
    spot); a chip chosen, Space on Banker, Enter on Deal (the focus on
    the result's OK), Escape (back on his spot); Enter on the round in
    "Your last rounds here": the recall page opens on that round, its
    title focused and in the screen's upper half; back to the table,
    Enter on Leave seat (the focus on a "Sit here"). The focus is never
    lost to the page's body after an update, every focused control has
    its outline, and axe finds nothing serious.

    Before: the recall page opened at its top with the focus on the
    page, the round asked for below the list (its title 630 px down at
    390 x 844, its facts under the screen's foot).
    """
    view = SIZES[size]
    extra = (
        {"is_mobile": True, "has_touch": True} if view["width"] < 700 else {}
    )
    page = browser.new_page(viewport=view, bypass_csp=True, **extra)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    axe = Axe(page)
    table = srv.table_id("midibaccarat")
    page.goto(srv.base + "/")
    page.wait_for_selector(f"#tables a[data-table='{table}']")
    page.focus("#name")
    page.keyboard.type(f"Keys {size}")
    page.keyboard.press("Enter")
    page.wait_for_selector("#balance:has-text('$')")
    first = page.get_attribute("#tables a.btn", "data-table")
    focus: list[tuple[Any, ...]] = [
        ("joined", page.evaluate("document.activeElement.dataset.table"))
    ]
    axe.audit("lobby")
    page.focus(f"#tables a[data-table='{table}']")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-sit='4']")
    page.focus("[data-sit='4']")
    page.keyboard.press("Enter")
    page.wait_for_selector(".seat.mine")
    idle(page)
    settled = "document.activeElement !== document.body"
    # a push of the socket, which the page opened as it was drawn, may
    # redraw after the answer: the focus must land, not stay lost
    page.wait_for_function(settled, timeout=3000)
    outline = "getComputedStyle(document.activeElement).outlineStyle"
    focus.append(("sat", page.evaluate(_FOCUSED), page.evaluate(outline)))
    page.focus("[data-chip='2500']")
    page.keyboard.press("Enter")
    page.focus(".seat.mine button.spot[data-wager='banker']")
    page.keyboard.press(" ")
    page.wait_for_selector(".seat.mine button.spot .amt:has-text('$25.00')")
    idle(page)
    focus.append(("bet", page.evaluate(_FOCUSED)))
    page.focus("#deal")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result:not([hidden])")
    idle(page)
    focus.append(("dealt", page.evaluate(_FOCUSED), page.evaluate(outline)))
    axe.audit("result")
    page.keyboard.press("Escape")
    page.wait_for_selector("#result", state="hidden")
    idle(page)
    focus.append(("closed", page.evaluate(_FOCUSED)))
    played = page.get_attribute("#recent a", "href")
    page.focus("#recent a")
    page.keyboard.press("Enter")
    page.wait_for_selector("#step-pos")
    page.wait_for_timeout(200)
    focus.append(("recall", page.evaluate(_FOCUSED)))
    top = page.evaluate(
        "document.getElementById('detail-title').getBoundingClientRect().top"
    )
    assert played, "no round in 'Your last rounds here'"
    assert played.startswith("/recall?round="), played
    assert page.inner_text("#detail-title").startswith(
        "Round " + played.split("=")[1] + " "
    )
    axe.audit("recall")
    page.go_back()
    page.wait_for_selector("#leave")
    page.focus("#leave")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-sit='4']")
    idle(page)
    page.wait_for_function(settled, timeout=3000)  # opened anew by Back
    focus.append(("left", page.evaluate(_FOCUSED), page.evaluate(outline)))
    assert focus == [
        ("joined", first),
        ("sat", "player", "solid"),
        ("bet", "banker"),
        ("dealt", "BUTTON", "solid"),  # the result's OK
        ("closed", "player"),
        ("recall", "detail-title"),
        ("left", "sit 1", "solid"),
    ], focus
    assert 0 <= top < view["height"] / 2, top
    assert not any(axe.found.values()), json.dumps(axe.found, indent=1)
    assert not errors, errors
    page.close()
