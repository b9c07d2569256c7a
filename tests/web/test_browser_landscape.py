"""A phone held sideways, in a real browser: a decision on one screen.

At 812 x 375 and 740 x 360 (a phone on its side, touch), a player who
had a decision to make (surrender, double, split, stand, hit, Second
Chance; pai gow's Double Down and the setting of his hands) scrolled
between the dealer's cards at the top of the felt and the buttons under
it: the header, the felt and the rail were taller together than the
screen, and the page brought the buttons into view, the dealer's cards
out of it. The geometry tests here fail on the page as it was.

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
    boxes,
    clear_bets,
    deal_pai_gow,
    decline_double_down,
    idle,
    out_of_sight,
    phone_page,
    play_out,
    round_played_at_seat_1,
    sight,
    sit,
    tab_order_wrong,
)
from tests.web.pages import token_of as _headers

SIDEWAYS = [{"width": 812, "height": 375}, {"width": 740, "height": 360}]
_IDS = ["812x375", "740x360"]
DEALER = "#dealer-row .area"
HAND = ".seat.mine .hand.acting"
BUTTONS = "#actions button"

pytestmark = BROWSER_TEST

TABLE_RULES = DOUBLE_DOWN
"""The pai gow table offers the Double Down Wager (off by default since
D182): these tests decide on it."""


def _all_in_sight(page: Any, what: str, *extra: str) -> None:
    """The dealer's cards, the player's hand for the decision and every
    enabled decision button (and ``extra``) lie in the viewport at once,
    none covered, as the page left its scroll; buttons are 44 x 44 CSS
    px at least, their type 12 px; the page does not scroll sideways."""
    wide, inner = page.evaluate(
        "[document.scrollingElement.scrollWidth, innerWidth]"
    )
    assert wide <= inner, (what, wide, inner)
    shown = sight(page, [DEALER, HAND, BUTTONS, *extra])
    assert all(shown.values()), (what, shown)
    hidden = [
        (sel, e)
        for sel, found in shown.items()
        for e in found
        if not (e["inside"] and e["seen"])
    ]
    assert not hidden, (what, page.evaluate("scrollY"), hidden)
    for sel in (BUTTONS, *extra):
        small = [
            e
            for e in shown[sel]
            if e["w"] < 44 or e["h"] < 44 or e["font"] < 12
        ]
        assert not small, (what, sel, small)


def _leave(page: Any, srv: LiveServer, table: int, seat: int) -> None:
    headers = _headers(page)
    page.close()
    HTTP.delete(f"{srv.base}/tables/{table}/seats/{seat}", headers=headers)


def _deal_eights(page: Any, srv: LiveServer, table: int, seat: int) -> None:
    """Bet $5 on Blackjack and deal 8h 8d against the dealer's 6s Ts,
    then 3c Tc 6h Kc 4d 9c 9c: split, double the first hand to 21, hit
    the second to 24, Second Chance. A round that starts the shoe (its
    burn comes first, so it cannot be stacked) is played out before,
    through the API and passively."""
    if srv.new_shoe_due(table):
        stake = {"seat": seat, "wager": "blackjack", "amount": 500}
        HTTP.post(
            f"{srv.base}/tables/{table}/wagers",
            json=stake,
            headers=_headers(page),
        )
        play_out(page, srv, table, seat, deal=True)
    srv.stack_next(table, "8h 6s 8d Ts 3c Tc 6h Kc 4d 9c 9c")
    page.click("[data-chip='500']")
    page.click(".seat.mine button.spot[data-wager='blackjack']")
    idle(page)
    page.click("#deal")
    page.wait_for_selector("#actions button[data-action='split']")
    idle(page)


def _deal_pai_gow(page: Any, srv: LiveServer, table: int) -> None:
    """Bet $25 on Pai Gow and deal the player As Kh Kd 9c 7s 4d: the
    Double Down Wager is offered."""
    hands = {2: "As Kh Kd 9c 7s 4d", 7: "2d 3h 5s 8c Td Qd"}
    deal_pai_gow(page, srv, table, hands)


@pytest.mark.parametrize("size", SIDEWAYS, ids=_IDS)
def test_sideways_dbj_decisions_show_dealer_hand_and_buttons_at_once(
    srv: LiveServer, browser: Any, size: Any
) -> None:
    """Double Back Jack on a phone on its side, a 40-letter name seated.

    Each decision of a round (a pair of eights against a 6: Surrender,
    Double down, Split, Stand, Hit; then each split hand; then Second
    Chance) shows the dealer's cards, the hand to decide and every
    button on one screen, with no scrolling of the player's after the
    page's own.
    """
    table = srv.table_id("double-back-jack")
    page = phone_page(browser, srv, "D" * 37 + str(size["width"]), size)
    sit(page, srv, table, 3)
    _deal_eights(page, srv, table, 3)
    _all_in_sight(page, "eights against a 6")
    for action, then in (
        ("split", "double"),
        ("double", "hit"),
        ("hit", "second_chance"),
    ):
        page.click(f"#actions button[data-action='{action}']")
        page.wait_for_selector(f"#actions button[data-action='{then}']")
        idle(page)
        _all_in_sight(page, f"after {action}")
    page.click("#actions button[data-action='second_chance']")
    page.wait_for_selector("#result:not([hidden])")
    assert not page.errors, page.errors
    _leave(page, srv, table, 3)


@pytest.mark.parametrize("size", SIDEWAYS, ids=_IDS)
def test_sideways_pai_gow_setting_shows_dealer_hand_and_buttons_at_once(
    srv: LiveServer, browser: Any, size: Any
) -> None:
    """Six-Card Fortune Pai Gow on a phone on its side.

    The Double Down decision, then the setting of the hands (before and
    after a card is chosen for the low hand: every card the player may
    choose is in sight and a 44 px target too) show the dealer's cards,
    the player's six and every button on one screen.
    """
    table = srv.table_id("six-card-fortune-pai-gow")
    page = phone_page(browser, srv, "P" * 37 + str(size["width"]), size)
    sit(page, srv, table, 2)
    _deal_pai_gow(page, srv, table)
    _all_in_sight(page, "double down")
    decline_double_down(page)
    cards = ".seat.mine .pickable .card"
    _all_in_sight(page, "setting", cards)
    page.click(".seat.mine .card[data-card='As']")
    _all_in_sight(page, "the ace chosen", cards)
    page.click("#actions button[data-action='set']")
    page.wait_for_selector("#result:not([hidden])")
    assert not page.errors, page.errors
    _leave(page, srv, table, 2)


def test_sideways_decisions_pass_axe(srv: LiveServer, browser: Any) -> None:
    """axe-core (WCAG 2 A and AA, serious and critical) at 812 x 375 on
    a Double Back Jack decision and on a pai gow hand setting."""
    page = phone_page(browser, srv, "Axe Sideways", SIDEWAYS[0])
    axe = Axe(page)
    table = srv.table_id("double-back-jack")
    sit(page, srv, table, 5)
    _deal_eights(page, srv, table, 5)
    axe.audit("double back jack decision")
    play_out(page, srv, table, 5)
    HTTP.delete(f"{srv.base}/tables/{table}/seats/5", headers=_headers(page))
    table = srv.table_id("six-card-fortune-pai-gow")
    sit(page, srv, table, 2)
    _deal_pai_gow(page, srv, table)
    decline_double_down(page)
    axe.audit("pai gow setting")
    play_out(page, srv, table, 2)
    assert not page.errors, page.errors
    _leave(page, srv, table, 2)
    assert not any(axe.found.values()), json.dumps(axe.found, indent=1)


_GAMES = [
    "double-back-jack",
    "midibaccarat",
    "midibaccarat-commission-free",
    "six-card-fortune-pai-gow",
    "21-baccarat",
]
PHONES = {
    "812x375": SIDEWAYS[0],
    "740x360": SIDEWAYS[1],
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
}
"""A phone on its side and upright."""


def _first_bet_wrong(
    page: Any, spot: str, kept: bool, *, tab: bool = False
) -> list[Any]:
    """What is wrong with the first bet at the page's table, the last
    round's result closed (shown with ``kept``), the page at its top:
    the player's spots, the chips and Deal must lie in the viewport,
    none covered, with no scrolling, and the first chip (which starts
    the countdown to "no more bets") must move none of them; with
    ``tab``, the Tab key goes from the last chip to Deal, then to Undo,
    in the order they are drawn (D154). The bet is cleared after, and
    with it the countdown (no stake, no clock)."""
    chip = "[data-chip='500']"
    watched = [spot, chip, "#deal"]
    page.wait_for_selector("#clock", state="hidden")
    before = boxes(page, watched, first=True)
    page.click(chip)
    page.click(spot)
    page.wait_for_selector("#clock:not([hidden])")
    idle(page)
    wrong: list[Any] = []
    if page.evaluate("scrollY") != 0:
        wrong.append(("scrolled", page.evaluate("scrollY")))
    after = boxes(page, watched, first=True)
    if after != before:
        wrong.append(("moved", before, after))
    wrong += out_of_sight(page, [spot, "#chip-pick button", "#deal"])
    if page.is_visible("#result") != kept:
        wrong.append(("result shown", not kept))
    if tab:
        last = "#chip-pick button:last-child"
        wrong += tab_order_wrong(page, [last, "#deal", "#undo"])
    clear_bets(page)
    return wrong


def _bets_in_sight(
    page: Any, srv: LiveServer, game: str, *, tab: bool = False
) -> dict[str, list[Any]]:
    """At seat 1 of ``game``'s table, after a round played there: what
    is wrong with the first bet while its result is kept (D149), then
    with the first bet after the player closes it."""
    table, spot = round_played_at_seat_1(page, srv, game, close=False)
    wrong = {"result kept": _first_bet_wrong(page, spot, True, tab=tab)}
    page.keyboard.press("Escape")
    page.wait_for_selector("#result", state="hidden")
    idle(page)
    page.evaluate("scrollTo(0, 0)")
    wrong["closed"] = _first_bet_wrong(page, spot, False, tab=tab)
    HTTP.delete(f"{srv.base}/tables/{table}/seats/1", headers=_headers(page))
    return {k: v for k, v in wrong.items() if v}


@pytest.mark.parametrize("size", list(PHONES))
def test_phone_betting_shows_spot_chips_and_deal_and_nothing_moves(
    srv: LiveServer, browser: Any, size: str
) -> None:
    """Betting on a phone, on its side or upright, after a round at each
    game's table, its result left shown (D149), then closed.

    The player's spots, the chips and Deal lie in the viewport at once,
    none covered, with no scrolling, and the first bet, which starts
    the countdown to "no more bets", moves none of them; Tab goes from
    the chips to Deal, as they are drawn (D154: on its side, Deal was
    drawn after the chips but came after the tools). Before, on its
    side: the last round's cards, which stay on the felt while the next
    bets are made, took it to twice the screen's height (Deal some 300
    px under its foot); at a table with no last round, Deal was still 0
    to 96 px out of sight; the countdown, under the game's name, pushed
    the rail 24 to 35 px down, while the spot grew with its first chip;
    the result, whole, took 140 px of the felt; and with the result
    kept, commission-free's seven spots took the seats to two rows and
    Deal 30 to 45 px under the screen's foot (D153). Upright (390 x 844,
    360 x 740), Deal was 60 to 550 px under the screen's foot (D152).
    """
    page = phone_page(browser, srv, f"Bettor {size}", PHONES[size])
    wrong = {
        game: _bets_in_sight(page, srv, game, tab=game == _GAMES[0])
        for game in _GAMES
    }
    assert not any(wrong.values()), json.dumps(wrong, indent=1)
    assert not page.errors, page.errors
    page.close()
