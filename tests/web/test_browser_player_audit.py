"""A new player's audit of the web table, in a real browser (2026-12-06,
the eleventh session): desktop (1366 x 768, 1920 x 1080), tablet
(768 x 1024) and phone portrait (390 x 844, 360 x 740); a phone on
its side (812 x 375) for a stack of chips.

Each test here failed on the page as it was. One in-process server and
one Debian chromium for the module (``tests/web/conftest.py``).
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
    Axe,
    assert_no_small_text,
    boxes,
    clear_and_leave,
    idle,
    out_of_sight,
    player_page,
    round_played_at_seat_1,
    sit,
    sized_page,
    tab_order_wrong,
    token_of,
)

pytestmark = BROWSER_TEST

SIZES = {
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
    "768x1024": {"width": 768, "height": 1024},
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
    "812x375": {"width": 812, "height": 375},
}
_CASES = [
    *[("double-back-jack", size) for size in list(SIZES)[:5]],
    *[("midibaccarat", size) for size in list(SIZES)[:5]],
    ("midibaccarat-commission-free", "390x844"),
    ("six-card-fortune-pai-gow", "390x844"),
    ("21-baccarat", "360x740"),
    ("midibaccarat", "812x375"),
]


def _moved(
    page: Any, before: dict[str, Any], *, in_page: bool = False
) -> dict[str, Any]:
    """The controls whose box (the viewport's, or with ``in_page`` the
    page's) is now otherwise than ``before``: each with its box now and
    before."""
    return {
        k: (v, before.get(k))
        for k, v in boxes(page, CONTROLS, in_page=in_page).items()
        if v != before.get(k)
    }


def _page(browser: Any, srv: LiveServer, name: str, size: str) -> Any:
    return sized_page(browser, srv, name, SIZES[size])


@pytest.mark.parametrize(("game", "size"), _CASES)
def test_no_chip_moves_a_spot_or_the_rail(
    srv: LiveServer, browser: Any, game: str, size: str
) -> None:
    """The player's spots, the chips and every betting button stay
    where they were when he bets: at the first chip (which starts the
    countdown to "no more bets") and with a stack of eight chips.

    Before: the spot grew 6 px with its first chip and 4 px with each
    chip more (34 px with eight); on a desktop the seat, which stands on
    the row's foot, grew upwards, so the spot being clicked rose 6 px
    under the pointer; on a tablet or phone the rail under the felt, the
    chips and Deal with it, went 6 px down; a second row of spots
    (Midibaccarat's Perfect Pairs) went down too.
    """
    table = srv.table_id(game)
    page = _page(browser, srv, f"Steady {game[:14]} {size}", size)
    sit(page, srv, table, 1)
    idle(page)
    spot = ".seat.mine button.spot"
    first = page.get_attribute(spot, "data-wager")
    page.evaluate("scrollTo(0, 0)")
    before = boxes(page, CONTROLS)
    assert len(before) >= 12, before
    page.click("[data-chip='500']")
    page.click(f"{spot}[data-wager='{first}']")
    page.wait_for_selector("#clock:not([hidden])")
    idle(page)
    assert page.evaluate("scrollY") == 0
    moved = _moved(page, before)
    assert not moved, ("first chip", moved)
    # $39.50 is drawn as eight chips: 25, 5, 5, 1, 1, 1, 1 and 0.50
    page.fill("#bet-amount", "39.50")
    page.click("#bet-typed")
    eighth = f"{spot}[data-wager='{first}'] .stack .chip >> nth=7"
    page.wait_for_selector(eighth)
    idle(page)
    page.evaluate("scrollTo(0, 0)")  # the typing scrolled to the field
    moved = _moved(page, before)
    assert not moved, ("eight chips", moved)
    assert page.inner_text(f"{spot}[data-wager='{first}'] .amt") == "$39.50"
    assert not page.errors, page.errors
    clear_and_leave(page, srv, table, 1)
    page.close()


@pytest.mark.parametrize("size", ["1366x768", "768x1024", "360x740"])
def test_an_error_moves_no_chip_or_button(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """A typed amount that is no amount is refused with a line of error
    over the rail; the line appears, and goes with the next action,
    without moving the chips or any button of the rail.

    Before: the error's box grew 11 px as its text came (its padding
    and border were only drawn then), the rail under it with it, and
    the next action, which clears it, took it back up.
    """
    table = srv.table_id("double-back-jack")
    page = _page(browser, srv, f"Typist {size}", size)
    sit(page, srv, table, 4)
    idle(page)
    page.evaluate("scrollTo(0, 0)")
    before = boxes(page, CONTROLS)
    page.fill("#bet-amount", "five")
    page.click("#bet-typed")
    page.wait_for_selector("#error:has-text('Type an amount in dollars')")
    idle(page)
    page.evaluate("scrollTo(0, 0)")
    moved = _moved(page, before)
    assert not moved, ("the error shown", moved)
    page.click("[data-chip='500']")
    page.click(".seat.mine button.spot")
    page.wait_for_selector("#error:empty", state="attached")
    idle(page)
    page.evaluate("scrollTo(0, 0)")
    moved = _moved(page, before)
    assert not moved, ("the error gone", moved)
    assert not page.errors, page.errors
    clear_and_leave(page, srv, table, 4)
    page.close()


def test_sitting_out_passes_axe(srv: LiveServer, browser: Any) -> None:
    """axe-core (WCAG 2 A and AA, serious and critical) on a table where
    the player sits out, at desktop and phone size, and a refused typed
    bet's error. Before: "sitting out" under the player's name was
    #ffb84d on his seat's lightened felt, 4.0:1 (4.5:1 needed)."""
    table = srv.table_id("midibaccarat")
    page = player_page(browser, srv, "Axe Sitter", bypass_csp=True)
    sit(page, srv, table, 3)
    idle(page)
    axe = Axe(page)
    page.fill("#bet-amount", "999999")
    page.click("#bet-typed")
    page.wait_for_selector("#error:has-text('$999,999.00')")
    axe.audit("a refused bet", phone=True)
    page.click("#sit-out")
    page.wait_for_selector(".seat.mine .away")
    idle(page)
    axe.audit("sitting out", phone=True)
    assert_no_small_text(page, "sitting out")
    page.click("#sit-out")
    page.wait_for_selector(".seat.mine button.spot")
    assert not page.errors, page.errors
    HTTP.delete(f"{srv.base}/tables/{table}/seats/3", headers=token_of(page))
    page.close()
    assert not any(axe.found.values()), json.dumps(axe.found, indent=1)


@pytest.mark.parametrize("size", ["1366x768", "768x1024", "390x844"])
def test_the_next_bets_do_not_move_the_spot_under_the_result(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """The result of a round stays on the felt while the next bets are
    made, and the first chip moves nothing: a player who clicks his
    spot three times bets three chips.

    Before: the first chip of the next round closed the result, which
    took its height (140 to 160 px) out of the felt above the seats: the
    spot being clicked rose by as much, the rail with it, and the next
    click fell on whatever had come under the pointer (a chip, Deal, the
    felt).
    """
    table = srv.table_id("midibaccarat")
    page = _page(browser, srv, f"Bets On {size}", size)
    sit(page, srv, table, 5)
    idle(page)
    spot = ".seat.mine button.spot[data-wager='player']"
    page.click("[data-chip='500']")
    page.click(spot)
    idle(page)
    page.click("#deal")
    page.wait_for_selector("#result:not([hidden])")
    idle(page)
    net = int(page.get_attribute("#result", "data-net"))
    head = page.inner_text("#result .headline")
    before = boxes(page, CONTROLS, in_page=True)
    box = page.eval_on_selector(
        spot,
        "e => { const r = e.getBoundingClientRect(); "
        "return [r.left + r.width / 2, r.top + r.height / 2 + scrollY]; }",
    )
    for n in (1, 2, 3):
        # the pointer stays where the spot was: each click is on it
        page.evaluate(f"scrollTo(0, {box[1]} - innerHeight / 2)")
        y = page.evaluate(f"{box[1]} - scrollY")
        page.mouse.click(box[0], y)
        page.wait_for_selector(f"{spot} .amt:has-text('${5 * n}.00')")
        idle(page)
        page.wait_for_timeout(600)  # not a double click (one action)
    moved = _moved(page, before, in_page=True)
    assert not moved, moved
    assert page.inner_text("#result .headline") == head
    assert int(page.get_attribute("#result", "data-net")) == net
    page.keyboard.press("Escape")
    page.wait_for_selector("#result", state="hidden")
    assert page.inner_text(f"{spot} .amt") == "$15.00"
    assert not page.errors, page.errors
    clear_and_leave(page, srv, table, 5)
    page.close()


def test_the_result_is_not_read_out_again_at_each_bet(
    srv: LiveServer, browser: Any
) -> None:
    """The result (a live region, role status) is written once: the
    next bets, the player's and another player's, which redraw the
    table, leave its text as it is, so a screen reader reads it once.

    Before: each redraw emptied the banner and wrote it again (a
    screen reader reads a live region's new text out).
    """
    table = srv.table_id("midibaccarat-commission-free")
    page = player_page(browser, srv, "Listener")
    sit(page, srv, table, 2)
    other = player_page(browser, srv, "Talker")
    sit(other, srv, table, 4)
    page.click("[data-chip='500']")
    page.click(".seat.mine button.spot[data-wager='banker']")
    idle(page)
    page.click("#deal")  # Ready: the other player has no bet
    page.wait_for_selector("#result:not([hidden])")
    idle(page)
    text = page.inner_text("#result")
    page.evaluate(
        "window.rewritten = 0; new MutationObserver((m) => "
        "{ window.rewritten += m.length; }).observe("
        "document.getElementById('result'), "
        "{childList: true, subtree: true, characterData: true})"
    )
    other.click("[data-chip='500']")
    other.click(".seat.mine button.spot[data-wager='player']")
    page.wait_for_selector(".seat[data-seat='4'] .spot[data-wagers~='player']")
    page.click(".seat.mine button.spot[data-wager='banker']")
    page.wait_for_selector(".seat.mine button.spot .amt:has-text('$5.00')")
    idle(page)
    assert page.evaluate("window.rewritten") == 0
    assert page.inner_text("#result") == text
    page.keyboard.press("Escape")
    page.wait_for_selector("#result", state="hidden")
    assert not page.errors, page.errors
    for p, seat in ((page, 2), (other, 4)):
        p.click("#clear")
        p.wait_for_selector("#deal:disabled")
        HTTP.delete(
            f"{srv.base}/tables/{table}/seats/{seat}", headers=token_of(p)
        )
        p.close()


_GAMES = [
    "21-baccarat",
    "double-back-jack",
    "midibaccarat",
    "midibaccarat-commission-free",
    "six-card-fortune-pai-gow",
]


def _short_screen_round(
    page: Any, srv: LiveServer, game: str, *, tab: bool = False
) -> list[Any]:
    """At seat 1 of ``game``'s table at 1366 x 768, a round played and
    its result left shown: what is wrong with the next bet (see
    :func:`test_at_1366x768_the_result_leaves_the_bet_in_sight`)."""
    table, spot = round_played_at_seat_1(page, srv, game, close=False)
    chips = "#chip-pick button"
    wrong: list[Any] = out_of_sight(page, [spot, chips, "#rebet"])
    before = boxes(page, CONTROLS)
    page.click("[data-chip='500']")
    page.click(spot)
    page.wait_for_selector("#clock:not([hidden])")
    idle(page)
    wrong += out_of_sight(page, [spot, chips, "#deal"])
    if page.evaluate("scrollY") != 0:
        wrong.append(("scrolled", page.evaluate("scrollY")))
    if moved := _moved(page, before):
        wrong.append(("the first chip moved", moved))
    if tab:
        last = "#chip-pick button:last-child"
        wrong += tab_order_wrong(page, [last, "#deal", "#undo"])
    page.keyboard.press("Escape")
    page.wait_for_selector("#result", state="hidden")
    idle(page)
    if moved := _moved(page, before):
        wrong.append(("closing the result moved", moved))
    clear_and_leave(page, srv, table, 1)
    return wrong


def test_at_1366x768_the_result_leaves_the_bet_in_sight(
    srv: LiveServer, browser: Any
) -> None:
    """At 1366 x 768, at each game's table, with the last round's result
    shown (it stays while the next bets are made, D149): the player's
    spots, the chips, Rebet and Deal lie in the viewport, none covered,
    with no scrolling; the first chip, and then closing the result
    (Escape), move none of them, nor any other betting button; Tab goes
    from the chips to Deal, as they are drawn (D154).

    Before: the result took 150 to 210 px of the felt above the seats,
    and Rebet and Deal were 100 to 210 px under the screen's foot (the
    page had to be scrolled to bet again); closing it took the seats and
    the rail up by as much (D151).
    """
    page = _page(browser, srv, "Short Screen", "1366x768")
    wrong = {
        game: _short_screen_round(page, srv, game, tab=game == _GAMES[0])
        for game in _GAMES
    }
    assert not any(wrong.values()), json.dumps(wrong, indent=1)
    assert not page.errors, page.errors
    page.close()
