"""Issue 13 in a real browser: the web table as a player meets it.

One in-process server (:mod:`tests.web.live`, which can stack the next
cards of a shoe) and one Debian chromium for the module; pages are
reused. Other players at the table play through the HTTP API.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import passive_action
from tests.web.live import DOUBLE_DOWN, OPERATOR, LiveServer
from tests.web.pages import (
    BROWSER_TEST,
    Axe,
    api_player,
    assert_no_small_text,
    decline_double_down,
)
from tests.web.pages import HTTP as _HTTP
from tests.web.pages import idle as _idle
from tests.web.pages import player_page as _page
from tests.web.pages import sit as _sit
from tests.web.pages import table_state as _table_state
from tests.web.pages import token_of as _token

WIDTHS = (1024, 1366, 1920)

pytestmark = BROWSER_TEST

TABLE_RULES = DOUBLE_DOWN
"""The pai gow table offers the Double Down Wager (off by default since
D182): these tests decide on it."""


class Api:
    """A player at the table through the HTTP API."""

    def __init__(self, srv: LiveServer, name: str) -> None:
        self.srv = srv
        made = api_player(srv, name)
        self.id = made.id
        self.headers = made.headers

    def post(self, path: str, body: Any = None) -> Any:
        r = _HTTP.post(self.srv.base + path, json=body, headers=self.headers)
        assert r.status_code == 200, (path, body, r.text)
        return r.json()

    def sit(self, table: int, seat: int) -> None:
        self.post(f"/tables/{table}/seats", {"seat": seat})

    def bet(self, table: int, seat: int, wager: str, amount: int) -> None:
        self.post(
            f"/tables/{table}/wagers",
            {"seat": seat, "wager": wager, "amount": amount},
        )

    def state(self, table: int) -> Any:
        return _HTTP.get(
            f"{self.srv.base}/tables/{table}", headers=self.headers
        ).json()


def _as_api(srv: LiveServer, headers: dict[str, str]) -> Api:
    """An :class:`Api` for a player whose headers a page holds."""
    api = Api.__new__(Api)
    api.srv, api.headers = srv, headers
    return api


def _fresh(
    srv: LiveServer, table: int, api: Api, seat: int, wager: str
) -> None:
    """Play throwaway rounds until the open one starts no shoe (no burn)
    and its shoe still holds half of every value a full shoe has.

    Rounds stacked one after another use up some values (the sixes and
    nines the tests favour) long before the cover card comes out; a
    shoe that runs low (:meth:`LiveServer.runs_low`) has its cover card
    moved to the top (:meth:`LiveServer.cover_card_next`), so that the
    throwaway rounds end it the way the game ends any shoe.
    """
    for _ in range(5):
        due = srv.new_shoe_due(table)
        if not due and not srv.runs_low(table):
            return
        if not due:
            srv.cover_card_next(table)
        api.bet(table, seat, wager, _min(srv, table))
        _decide_passively(api, table, api.post(f"/tables/{table}/deal"))
    assert not srv.new_shoe_due(table)
    assert not srv.runs_low(table)


def _seated_at(
    browser: Any, srv: LiveServer, table: int, name: str, wager: str
) -> tuple[Any, dict[str, str]]:
    """A page for a new player ``name`` at seat 1 of ``table``, on the
    table's page, the open round starting no shoe (``_fresh``): the
    cards a test stacks next are dealt as stacked. The page and the
    player's headers."""
    page = _page(browser, srv, name)
    _sit(page, srv, table, 1)
    me = _token(page)
    # the throwaway rounds are played while the page is away: they are
    # not the page's own (its session net and result banners)
    page.goto(f"{srv.base}/")
    _fresh(srv, table, _as_api(srv, me), 1, wager)
    page.goto(f"{srv.base}/play/{table}")
    return page, me


def _decide_passively(api: Api, table: int, state: Any) -> Any:
    """Take the quietest legal decision until the round is over."""
    for _ in range(30):
        pending = state["round"]["pending"]
        if state["round"]["status"] != "playing" or pending is None:
            break
        state = api.post(
            f"/tables/{table}/actions",
            {
                "seat": pending["seat"],
                "action": passive_action(pending["legal"]),
            },
        )
    return state


def _leave(srv: LiveServer, table: int, seat: int, headers: Any) -> None:
    """Leave a seat (refused while it has stakes in a round: then kept)."""
    _HTTP.delete(f"{srv.base}/tables/{table}/seats/{seat}", headers=headers)


def _min(srv: LiveServer, table: int) -> int:
    t = _HTTP.get(f"{srv.base}/tables/{table}").json()["table"]
    return int(t["min_bet"])


def _last_events(srv: LiveServer, table: int, headers: Any) -> list[Any]:
    s = _table_state(srv, table, headers)
    return list(s["last"]["events"])


# -- point 1: betting, one action per click -----------------------------------


def test_issue_13_double_click_applies_one_action(
    srv: LiveServer, browser: Any
) -> None:
    table = srv.table_id("double-back-jack")
    other = Api(srv, "Burner")
    other.sit(table, 6)
    _fresh(srv, table, other, 6, "blackjack")
    _leave(srv, table, 6, other.headers)
    page = _page(browser, srv, "Dee")
    page.goto(f"{srv.base}/play/{table}")
    page.dblclick("[data-sit='1']")  # one seat taken, no error
    page.wait_for_selector(".seat.mine[data-seat='1']")
    assert page.inner_text("#error") == ""
    me = _token(page)
    balance0 = _table_state(srv, table, me)["you"]["balance"]
    # split, double, hit and Second Chance, each by a double click
    srv.stack_next(table, "8h 6s 8d Ts 3c Tc 6h Kc 4d 9c 9c")
    page.click("[data-chip='500']")
    page.dblclick(".seat.mine button.spot[data-wager='blackjack']")
    _idle(page)
    state = _table_state(srv, table, me)
    assert state["round"]["stakes"][0]["amount"] == 500  # one $5 chip
    page.dblclick("#deal")
    for action in ("split", "double", "hit", "second_chance"):
        page.wait_for_selector(f"#actions button[data-action='{action}']")
        page.dblclick(f"#actions button[data-action='{action}']")
        _idle(page)
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#error") == ""  # no "WrongPhaseError"
    events = _last_events(srv, table, me)
    made = [e["action"] for e in events if e["type"] == "decision_made"]
    assert made == ["split", "double", "hit", "second_chance"], made
    # independently: split 8s, hand 1 doubles 11 to 21 (3c, Tc): +$10;
    # hand 2: 8 6 K = 24, Second Chance 4 -> 20 against a dealer bust:
    # the Blackjack Wager is returned, the Second Chance pays 1:1
    dealer_total = 6 + 10 + 9
    assert dealer_total > 21
    expected = 2 * 500 + 0 + 500
    assert int(page.get_attribute("#result", "data-net")) == expected
    assert "You win $15.00" in page.inner_text("#result .headline")
    after = _table_state(srv, table, me)["you"]["balance"]
    assert after == balance0 + expected
    # insurance and surrender, each by a double click
    srv.stack_next(table, "Th As 6d 9c 5h 9c")
    page.dblclick(".seat.mine button.spot[data-wager='blackjack']")
    _idle(page)
    page.dblclick("#deal")
    for action in ("insurance", "surrender"):
        page.wait_for_selector(f"#actions button[data-action='{action}']")
        page.dblclick(f"#actions button[data-action='{action}']")
        _idle(page)
    page.wait_for_selector("#result:not([hidden]) li")
    made = [
        e["action"]
        for e in _last_events(srv, table, me)
        if e["type"] == "decision_made"
    ]
    assert made == ["insurance", "surrender"], made
    text = page.inner_text("#result")
    assert "surrendered, half returned" in text, text
    assert "You lose $5.00" in text  # $2.50 insurance + $2.50 surrender
    # rebet and stand by double clicks: one rebet of $5, one stand
    srv.stack_next(table, "Th 6s 9d Ts 2c")
    page.dblclick("#rebet")
    _idle(page)
    stakes = _table_state(srv, table, me)["round"]["stakes"]
    assert [s["amount"] for s in stakes] == [500]
    page.dblclick("#deal")
    page.wait_for_selector("#actions button[data-action='stand']")
    page.dblclick("#actions button[data-action='stand']")
    page.wait_for_selector("#result:not([hidden])")
    made = [
        e["action"]
        for e in _last_events(srv, table, me)
        if e["type"] == "decision_made"
    ]
    assert made == ["stand"]
    assert int(page.get_attribute("#result", "data-net")) == 500  # 19 v 18
    assert not page.errors, page.errors
    page.close()
    _leave(srv, table, 1, me)


def test_issue_13_chips_stack_to_30_and_to_the_table_maximum(
    srv: LiveServer, browser: Any
) -> None:
    table = srv.table_id("midibaccarat")
    page = _page(browser, srv, "Stacker")
    _sit(page, srv, table, 4)
    me = _token(page)
    page.click("[data-chip='500']")
    spot = ".seat.mine button.spot[data-wager='banker']"
    for _ in range(6):
        page.click(spot)
        _idle(page)
    assert "$30.00" in page.inner_text(spot)
    stakes = _table_state(srv, table, me)["round"]["stakes"]
    assert [(s["wager"], s["amount"]) for s in stakes] == [("banker", 3000)]
    # the keyboard: Enter on the spot adds a chip; a double click on
    # Undo undoes one step only
    page.focus(spot)
    page.keyboard.press("Enter")
    _idle(page)
    assert "$35.00" in page.inner_text(spot)
    page.dblclick("#undo")
    _idle(page)
    assert "$30.00" in page.inner_text(spot)
    # right-click takes one chip off, Delete another, undo puts it back
    page.click(spot, button="right")
    _idle(page)
    page.focus(spot)
    page.keyboard.press("Delete")
    _idle(page)
    assert "$20.00" in page.inner_text(spot)
    page.click("#undo")
    _idle(page)
    assert "$25.00" in page.inner_text(spot)
    page.dblclick("#double-bet")  # one doubling
    _idle(page)
    assert "$50.00" in page.inner_text(spot)
    # the table maximum, typed in dollars, then one chip more is refused
    high = _table_state(srv, table, me)["table"]["max_bet"]
    page.fill("#bet-amount", f"{high // 100:,}")
    page.click("#bet-typed")
    _idle(page)
    stakes = _table_state(srv, table, me)["round"]["stakes"]
    assert stakes[0]["amount"] == high
    page.click(spot)
    _idle(page)
    error = page.inner_text("#error")
    assert "$1,000.00" in error, error
    assert "Error" not in error, error
    assert _table_state(srv, table, me)["round"]["stakes"][0]["amount"] == high
    page.click("#clear")
    _idle(page)
    assert _table_state(srv, table, me)["round"]["stakes"] == []
    me_now = _HTTP.get(srv.base + "/me", headers=me).json()
    assert me_now["balance"] == 100_000  # every chip came back
    page.close()
    _leave(srv, table, 4, me)


# -- point 3: layout ----------------------------------------------------------

_SEAT_BOXES = """() => [...document.querySelectorAll('#seats .seat')]
.map(s => {
  const boxes = [s, ...s.querySelectorAll('*')]
    .map(e => e.getBoundingClientRect())
    .filter(r => r.width > 0 && r.height > 0);
  return {seat: s.dataset.seat,
    l: Math.min(...boxes.map(r => r.left)),
    t: Math.min(...boxes.map(r => r.top)),
    r: Math.max(...boxes.map(r => r.right)),
    b: Math.max(...boxes.map(r => r.bottom))};
})"""


def _no_overlap(page: Any, what: str) -> None:
    """No two seats' boxes (with everything drawn in them) intersect."""
    boxes = page.evaluate(_SEAT_BOXES)
    assert len(boxes) >= 6
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["r"] <= b["l"]
                or b["r"] <= a["l"]
                or a["b"] <= b["t"]
                or b["b"] <= a["t"]
            )
            assert apart, (what, a, b)


def test_issue_13_six_dbj_seats_with_splits_and_second_chance_never_overlap(
    srv: LiveServer, browser: Any
) -> None:
    table = srv.table_id("double-back-jack")
    players = {s: Api(srv, f"Box {s}") for s in (1, 2, 4, 5, 6)}
    for seat, p in players.items():
        p.sit(table, seat)
    _fresh(srv, table, players[1], 1, "blackjack")
    page = _page(browser, srv, "Centre")
    _sit(page, srv, table, 3)
    me = _token(page)
    # seats 1-3 split 8s and both hands bust and take a Second Chance
    # (to 20 and 19); seats 4-6 bust 16 and take a Second Chance (to 17);
    # the dealer busts, so every hand stays on the felt to the end: the
    # widest hands of the game
    srv.stack_next(
        table,
        (
            "8h 8d 8c Th Jd Qc 6s 8s 8h 8d 6h 6d 6c Ks "
            "6h Tc 4d 7h Jc 6s 6s Qd 4h 7d Kc 6d 6d Kd 4s 7c Qh 6h "
            "Td 9s Jh 9h Qs 9d 9c"
        ),
    )
    for seat, p in players.items():
        p.bet(table, seat, "blackjack", 500)
    _HTTP.post(
        f"{srv.base}/tables/{table}/wagers/change",
        json={"seat": 3, "wager": "blackjack", "amount": 500},
        headers=me,
    )
    everyone = {**players, 3: None}
    for seat in sorted(everyone):
        headers = me if seat == 3 else players[seat].headers
        _HTTP.post(
            f"{srv.base}/tables/{table}/ready",
            json={"seat": seat},
            headers=headers,
        )
    for _ in range(60):
        s = _table_state(srv, table, me)
        pending = s["round"]["pending"]
        if s["round"]["status"] != "playing" or pending is None:
            break
        legal = pending["legal"]
        act = next(a for a in ("split", "second_chance", "hit") if a in legal)
        headers = (
            me if pending["seat"] == 3 else players[pending["seat"]].headers
        )
        r = _HTTP.post(
            f"{srv.base}/tables/{table}/actions",
            json={"seat": pending["seat"], "action": act},
            headers=headers,
        )
        assert r.status_code == 200, r.text
    page.wait_for_selector("#result:not([hidden])")
    shown = page.query_selector_all("#seats .card")
    assert len(shown) == 3 * 8 + 3 * 4  # every hand is still on the felt
    assert page.query_selector_all("#seats .card.sideways")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(250)
        _no_overlap(page, f"dbj at {width}")
        assert_no_small_text(page, f"dbj at {width}")
    assert not page.errors, page.errors
    page.close()
    _leave(srv, table, 3, me)
    for seat, p in players.items():
        _leave(srv, table, seat, p.headers)


def test_issue_13_nine_midibaccarat_seats_with_side_wagers_never_overlap(
    srv: LiveServer, browser: Any
) -> None:
    table = srv.table_id("midibaccarat")
    page = _page(browser, srv, "Nine")
    _sit(page, srv, table, 5)
    players = {}
    for seat in (1, 2, 3, 4, 6, 7, 8, 9):
        players[seat] = Api(srv, f"Midi {seat}")
        players[seat].sit(table, seat)
        for wager in (
            "banker",
            "tie",
            "perfect_pairs_player",
            "perfect_pairs_banker",
        ):
            players[seat].bet(table, seat, wager, 500)
    for wager in ("player", "perfect_pairs_banker"):
        page.click(f".seat.mine button.spot[data-wager='{wager}']")
        _idle(page)
    page.wait_for_selector(".seat:not(.mine) .spot .chip")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(250)
        _no_overlap(page, f"midibaccarat betting at {width}")
        assert_no_small_text(page, f"midibaccarat betting at {width}")
    for seat, p in players.items():
        p.post(f"/tables/{table}/ready", {"seat": seat})
    page.click("#deal")
    page.wait_for_selector("#result:not([hidden])")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(250)
        _no_overlap(page, f"midibaccarat results at {width}")
        assert_no_small_text(page, f"midibaccarat results at {width}")
    me = _token(page)
    page.close()
    _leave(srv, table, 5, me)
    for seat, p in players.items():
        _leave(srv, table, seat, p.headers)


# -- point 4: results a player cannot miss ------------------------------------


@pytest.mark.parametrize(
    ("game", "wager", "stake", "cards", "net"),
    [
        # Th 9c v 6s Td + 2d: 19 v 18, even money
        ("double-back-jack", "blackjack", 2500, "Th 6s 9c Td 2d", 2500),
        # P 4h 5d = 9 (natural) v B Kc 7s = 7: Player wins at 1:1
        ("midibaccarat", "player", 1000, "4h Kc 5d 7s", 1000),
        # P 2c 3d = 5, B 5h 3s = 8 natural: Banker wins at 1:1 (no
        # commission; not a three-card 7)
        ("midibaccarat-commission-free", "banker", 2000, "2c 5h 3d 3s", 2000),
        # P Ah Kd = 21 v B Th 9s = 19: Player wins at 19:20
        ("21-baccarat", "player", 2000, "Ah Th Kd 9s", 1900),
    ],
)
def test_issue_13_result_banner_shows_the_net_of_a_stacked_round(
    srv: LiveServer,
    browser: Any,
    game: str,
    wager: str,
    stake: int,
    cards: str,
    net: int,
) -> None:
    table = srv.table_id(game)
    page, me = _seated_at(
        browser, srv, table, f"Net {game.replace('-', ' ')[:28]}", wager
    )
    before = _table_state(srv, table, me)["you"]["balance"]
    srv.stack_next(table, cards)
    spot = f".seat.mine button.spot[data-wager='{wager}']"
    page.click(spot)  # a chip, and the spot is the typed amount's
    _idle(page)
    page.fill("#bet-amount", f"{stake / 100:.2f}")
    page.click("#bet-typed")
    _idle(page)
    assert f"${stake / 100:,.2f}" in page.inner_text(spot)
    page.click("#deal")
    for _ in range(10):
        if page.is_visible("#result"):
            break
        button = page.query_selector("#actions button[data-action='stand']")
        if button:
            button.click()
            _idle(page)
        page.wait_for_timeout(100)
    page.wait_for_selector("#result:not([hidden])")
    assert int(page.get_attribute("#result", "data-net")) == net
    dollars = f"${net / 100:,.2f}"
    assert f"You win {dollars}" in page.inner_text("#result .headline")
    assert "won" in page.inner_text("#result li")
    # the stacked round is the only one of this page's session: the
    # session net is the balance's change over it
    change = _table_state(srv, table, me)["you"]["balance"] - before
    session = page.inner_text("#session-net")
    assert f"${abs(change) / 100:,.2f}" in session, (session, change)
    page.close()
    _leave(srv, table, 1, me)


_SUITS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


def _as_read(code: str) -> str:
    """A card code as a person reads it (``Td`` -> ``10♦``)."""
    rank = "10" if code[0] == "T" else code[0]
    return rank + _SUITS[code[1]]


@pytest.mark.parametrize(
    ("game", "wager", "cards", "last"),
    [
        # the whole round is dealt in the update that opens the next:
        # P 4h 5d = 9, B Kc 7s = 7; every card is the dealer's last
        ("midibaccarat", "player", "4h Kc 5d 7s", ["4h", "Kc", "5d", "7s"]),
        # the player stands on 19; the dealer turns his hole Td (16)
        # and draws 2d (18) in the update that ends the round
        ("double-back-jack", "blackjack", "Th 6s 9c Td 2d", ["Td", "2d"]),
    ],
)
def test_the_screen_reader_hears_the_dealers_last_cards_when_the_round_ends(
    srv: LiveServer,
    browser: Any,
    game: str,
    wager: str,
    cards: str,
    last: list[str],
) -> None:
    # D161: a round that ends in the update that opens the next one was
    # followed by a new round with no steps, so the announcer (the
    # page's polite live region) said none of the dealer's last cards
    table = srv.table_id(game)
    page, me = _seated_at(
        browser, srv, table, f"Ears {game.replace('-', ' ')[:28]}", wager
    )
    srv.stack_next(table, cards)
    page.click(f".seat.mine button.spot[data-wager='{wager}']")
    _idle(page)
    page.click("#deal")
    stand = "#actions button[data-action='stand']"
    if game == "double-back-jack":
        page.wait_for_selector(stand)
        page.click(stand)
    page.wait_for_selector("#result:not([hidden])")
    _idle(page)
    heard = page.inner_text("#sr-live")
    for code in last:
        assert _as_read(code) in heard, (code, heard)
    # in the order dealt
    at = [heard.index(_as_read(code)) for code in last]
    assert at == sorted(at), heard
    assert not page.errors, page.errors
    page.close()
    _leave(srv, table, 1, me)


# Each pai gow round stacked for seat 2 and the dealer (7), with its set
# by the standard house way (D21: the best category for the high hand,
# then the highest low card), worked out by hand:
_PAI_GOW_ROUNDS = [
    (
        # seat: KKKK J high, Qs low; dealer no pair (2 3 5 7 9 T, no
        # straight, no flush): T 7 5 3 2 high, 9d low: both seat hands
        # win
        "Ks Kh Kd Kc Qs Jh",
        "2d 3h 5s 7c 9d Td",
        ("Qs", "9d"),
        ("beats", "beats"),
        "Both hands win.",
        1,
    ),
    (
        # seat: KKKK 2 high, 3s low; dealer no pair: A 9 8 6 4 high,
        # Jd low (the ace must stay high, or the hand fouls): the seat
        # wins the high hand and loses the low one: a push
        "Ks Kh Kd Kc 3s 2h",
        "Ac 4d 6h 8s 9c Jd",
        ("3s", "Jd"),
        ("beats", "loses to"),
        "One each: a push.",
        0,
    ),
    (
        # seat no pair: J 7 5 3 2 high, 8c low; dealer two pair:
        # QQ99 4 high, 8d low: the high loses, the lows are a copy,
        # which goes to the dealer (670a.11): both lose
        "2c 3d 5h 7s 8c Jh",
        "Qs Qd 9h 9s 8d 4c",
        ("8c", "8d"),
        ("loses to", "copies (a tie goes to the dealer)"),
        "Both hands lose.",
        -1,
    ),
]


def test_issue_13_pai_gow_banner_shows_the_net_of_stacked_rounds(
    srv: LiveServer, browser: Any
) -> None:
    """The banner's net and both comparisons for three stacked rounds.

    The deck is shuffled when the round opens (670a.9(a)(1)); the test
    reorders it (:func:`tests.web.live.stack_pai_gow`) so that seat 2
    and the dealer are dealt known hands. The Pai Gow Wager pays 1:1 on
    two winning hands, with no commission by default (D20), pushes on
    one each and loses on none (670a.11).
    """
    table = srv.table_id("six-card-fortune-pai-gow")
    page = _page(browser, srv, "Paigow")
    _sit(page, srv, table, 2)
    me = _token(page)
    rules = _table_state(srv, table, me)["table"]["rules"]
    assert Fraction(rules["commission"]) == 0  # D20's default
    assert rules["house_way"] == "standard"
    stake = 2500
    page.click("[data-chip='2500']")
    for seat, dealer, lows, verbs, words, paid in _PAI_GOW_ROUNDS:
        srv.stack_pai_gow(table, {2: seat, 7: dealer})
        balance = _table_state(srv, table, me)["you"]["balance"]
        page.click(".seat.mine button.spot[data-wager='pai_gow']")
        _idle(page)
        page.click("#deal")
        for name in ("no_double_down", "house_way"):
            page.wait_for_selector(f"#actions button[data-action='{name}']")
            page.click(f"#actions button[data-action='{name}']")
            _idle(page)
        page.wait_for_selector("#result:not([hidden]) .why")
        sets = {
            e["to"]: e
            for e in _last_events(srv, table, me)
            if e["type"] == "hand_set"
        }
        # the stack was dealt as arranged, and set the house way
        dealt = [*sets["seat 2"]["high"].split(), sets["seat 2"]["low"]]
        assert sorted(dealt) == sorted(seat.split())
        assert (sets["seat 2"]["low"], sets["dealer"]["low"]) == lows
        net = paid * stake
        assert int(page.get_attribute("#result", "data-net")) == net
        head = page.inner_text("#result .headline")
        if net > 0:
            assert f"You win ${net / 100:,.2f}" in head, head
        elif net < 0:
            assert f"You lose ${-net / 100:,.2f}" in head, head
        else:
            assert f"Push: your ${stake / 100:,.2f} is returned" in head
        why = page.inner_text("#result .why")
        assert f"the dealer's {sets['dealer']['hand']}" in why, why
        high, low = why.split(". Low hand: ")
        assert f" {verbs[0]} the dealer's" in high, why
        assert f" {verbs[1]} the dealer's" in low, why
        assert words in why, why
        after = _table_state(srv, table, me)["you"]["balance"]
        assert after == balance + net
    page.close()
    _leave(srv, table, 2, me)


# -- point 2: pacing ----------------------------------------------------------


# the sections a player reads for each game, from the chapters' own
# numbering: commission-free Midibaccarat is Chapter 629b's game, dealt
# under 629a.5; the others are their seed sections
_SHOWN_SECTIONS = {
    "double-back-jack": "591.7",
    "midibaccarat": "629a.5",
    "midibaccarat-commission-free": "629b.2, 629a.5",
    "six-card-fortune-pai-gow": "670a.9",
    "21-baccarat": "681a.7",
}


def test_issue_17_the_lobby_names_each_games_own_sections(
    srv: LiveServer, browser: Any
) -> None:
    page = _page(browser, srv, "Reader")
    page.wait_for_selector("#tables .table-card")
    shown = {
        card.get_attribute("data-game"): card.query_selector(
            ".meta"
        ).inner_text()
        for card in page.query_selector_all("#tables .table-card")
    }
    titles = {
        t["game"]: t["title"] for t in httpx.get(srv.base + "/tables").json()
    }
    assert shown == {
        game: f"{titles[game]} · § {_SHOWN_SECTIONS[game]}" for game in titles
    }
    page.close()


def test_the_lobby_by_keyboard_keeps_the_focus(
    srv: LiveServer, browser: Any
) -> None:
    """Type a name, Enter: the focus was left on the page (the form it
    was in hid), so Tab started again from the top. It goes on to the
    first table's Play; a refused name keeps it in the name's field;
    "Switch player" hands it back to the name's field."""
    taken = httpx.post(srv.base + "/players", json={"name": "Keys Twin"})
    assert taken.status_code == 200, taken.text
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(srv.base + "/")
    page.focus("#name")
    page.keyboard.type("Keys Twin")  # taken (D31): refused
    page.keyboard.press("Enter")
    page.wait_for_selector("#error:not(:empty)")
    assert page.evaluate("document.activeElement.id") == "name"
    page.fill("#name", "Keys")
    # the tables' list is held on its way: the player's name and balance
    # wait for it, so they never show over the list as it was, and when
    # they show the focus is already on a table (before, the balance
    # showed first and the focus came a request later: CI met the gap)
    held: list[Any] = []
    page.route("**/tables", lambda route: held.append(route))
    page.keyboard.press("Enter")
    for _ in range(250):
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the lobby did not ask for the tables after the join"
    assert page.text_content("#balance") == ""
    held[0].continue_()
    page.unroute("**/tables")
    page.wait_for_selector("#balance:has-text('$')")
    first = page.eval_on_selector("#tables a.btn", "a => a.dataset.table")
    focused = page.evaluate(
        "(e => [e.tagName, e.dataset.table])(document.activeElement)"
    )
    assert focused == ["A", first], focused
    page.focus("#switch")
    page.keyboard.press("Enter")
    page.wait_for_selector("#join-panel:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "name"
    page.close()


def _seat_cards(page: Any, seat: int) -> list[str]:
    """The card codes shown at ``seat`` on the felt (backs as ``?``)."""
    return list(
        page.eval_on_selector_all(
            f".seat[data-seat='{seat}'] .hands .card",
            "els => els.map(e => e.dataset.card || '?')",
        )
    )


def test_591_7_last_round_felt_keeps_hands_collected_at_once(
    srv: LiveServer, browser: Any
) -> None:
    """A hand settled and collected before the round's end (a surrender,
    a bust) still shows its cards on the last round's felt, marked as
    collected: the player sees what they had, not an empty seat."""
    table = srv.table_id("double-back-jack")
    page, me = _seated_at(browser, srv, table, "Early Hands", "blackjack")
    other = Api(srv, "Stands Pat")
    other.sit(table, 2)
    spot = ".seat.mine button.spot[data-wager='blackjack']"
    # seat 1 Th 6d (16), seat 2 9h Tc (19), the dealer 9s up, 9c in the
    # hole; seat 1 surrenders (collected at once), seat 2 stands
    srv.stack_next(table, "Th 9h 9s 6d Tc 9c")
    page.click("[data-chip='500']")
    page.click(spot)
    other.bet(table, 2, "blackjack", _min(srv, table))
    _idle(page)
    # seat 2 is done betting; the deal then starts on seat 1's "Ready"
    # (not when the betting clock runs out)
    other.post(f"/tables/{table}/ready", {"seat": 2})
    page.click("#deal")
    page.wait_for_selector("#actions button[data-action='surrender']")
    page.click("#actions button[data-action='surrender']")
    _idle(page)
    _decide_passively(other, table, other.state(table))
    page.wait_for_selector("#result:not([hidden])")
    events = _last_events(srv, table, me)
    collected = [
        i
        for i, e in enumerate(events)
        if e["type"] == "cards_collected" and e["source"] == "seat 1"
    ]
    settled = [i for i, e in enumerate(events) if e["type"] == "wager_settled"]
    # from the events alone: seat 1's cards left the felt before the
    # round's last settlement (seat 2's), which the felt draws as final
    assert collected, events
    assert collected[0] < settled[-1], events
    page.wait_for_selector("#felt.last-round")
    assert _seat_cards(page, 1) == ["Th", "6d"]
    assert page.query_selector(".seat[data-seat='1'] .hand.collected")
    assert _seat_cards(page, 2) == ["9h", "Tc"]
    # seat 1's 16 hits a King: bust, collected at once
    _fresh(srv, table, _as_api(srv, me), 1, "blackjack")
    srv.stack_next(table, "Th 9h 9s 6d Tc 9c Kc")
    page.click("#rebet")
    other.bet(table, 2, "blackjack", _min(srv, table))
    _idle(page)
    # seat 2 is done betting; the deal then starts on seat 1's "Ready"
    # (not when the betting clock runs out)
    other.post(f"/tables/{table}/ready", {"seat": 2})
    page.click("#deal")
    page.wait_for_selector("#actions button[data-action='hit']")
    page.click("#actions button[data-action='hit']")
    decline = "#actions button[data-action='no_second_chance']"
    page.wait_for_selector(decline)  # 591.7(l): offered on the bust
    page.click(decline)
    _idle(page)
    _decide_passively(other, table, other.state(table))
    page.wait_for_selector("#result:not([hidden])")
    page.wait_for_selector("#felt.last-round")
    assert _seat_cards(page, 1) == ["Th", "6d", "Kc"]
    assert page.query_selector(".seat[data-seat='1'] .hand.collected")
    assert not page.errors, page.errors
    page.close()
    _leave(srv, table, 1, me)
    _leave(srv, table, 2, other.headers)


def test_issue_13_late_player_is_dealt_in_next_round(
    srv: LiveServer, browser: Any
) -> None:
    table = srv.table_id("double-back-jack")
    early = Api(srv, "Early")
    early.sit(table, 4)
    _fresh(srv, table, early, 4, "blackjack")
    srv.stack_next(table, "Jh 6c 9h Qd 5s")
    early.bet(table, 4, "blackjack", 500)
    state = early.post(f"/tables/{table}/deal")
    assert state["round"]["status"] == "playing"
    page = _page(browser, srv, "Late")
    _sit(page, srv, table, 2)
    page.wait_for_selector("#late:not([hidden])")
    assert "next round" in page.inner_text("#late")
    early.post(f"/tables/{table}/actions", {"seat": 4, "action": "stand"})
    page.wait_for_selector(".seat.mine button.spot")
    page.click(".seat.mine button.spot[data-wager='blackjack']")
    _idle(page)
    page.click("#deal")  # "Ready": Early has no wager, so it deals now
    page.wait_for_selector(".seat.mine .card")
    me = _token(page)
    s = _table_state(srv, table, me)
    played = s["round"] if s["round"]["status"] == "playing" else s["last"]
    dealt_in = [
        e
        for e in played["events"]
        if e["type"] == "card_dealt" and str(e["to"]).startswith("seat 2")
    ]
    for _ in range(10):  # finish the round: stand
        pending = s["round"]["pending"]
        if s["round"]["status"] != "playing" or pending is None:
            break
        s = _HTTP.post(
            f"{srv.base}/tables/{table}/actions",
            json={"seat": 2, "action": passive_action(pending["legal"])},
            headers=me,
        ).json()
    page.close()
    _leave(srv, table, 4, early.headers)
    _leave(srv, table, 2, me)
    assert dealt_in  # the late player got cards in the next round


# -- the phone and every page ------------------------------------------------

_CONTROLS = """() => [...document.querySelectorAll(
  'button, a[href], input, select, textarea, summary, [role=button]')]
  .filter(e => { const r = e.getBoundingClientRect();
                 return r.width > 0 && r.height > 0 &&
                        getComputedStyle(e).visibility !== 'hidden'; })
  .map(e => { const r = e.getBoundingClientRect();
              return {what: e.outerHTML.slice(0, 90),
                      w: r.width, h: r.height}; })"""


def _every_page(srv: LiveServer, page: Any) -> Iterator[str]:
    """Visit each page with content on it; yield its name."""
    page.goto(srv.base + "/")
    page.wait_for_selector(".table-card")
    yield "lobby"
    for game in (
        "double-back-jack",
        "midibaccarat",
        "midibaccarat-commission-free",
        "21-baccarat",
        "six-card-fortune-pai-gow",
    ):
        page.goto(f"{srv.base}/play/{srv.table_id(game)}")
        page.wait_for_selector(".seat")
        yield f"table {game}"
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(srv.base + "/play/999")
    page.wait_for_selector("#notfound:not([hidden])")
    page.wait_for_timeout(300)
    assert not sockets  # no WebSocket retried to a table that is not
    assert "no table 999" in page.inner_text("#notfound")
    yield "no such table"
    page.goto(srv.base + "/recall")
    page.wait_for_selector("#rounds tr")
    first = page.query_selector("#rounds tr[data-round] a")
    if first is not None:
        first.click()
        page.wait_for_selector("#step-pos")
    yield "recall"
    page.goto(srv.base + "/operator")
    yield "operator login"
    page.fill("#token", OPERATOR)
    page.click("#login-go")
    page.wait_for_selector("#desk:not([hidden]) #tables tr[data-table]")
    yield "operator desk"
    page.evaluate("sessionStorage.removeItem('croupier.operator')")


def test_issue_13_phone_no_horizontal_scroll_and_44px_targets(
    srv: LiveServer, browser: Any
) -> None:
    page = _page(
        browser,
        srv,
        "Phone",
        viewport={"width": 375, "height": 812},
        is_mobile=True,
        has_touch=True,
    )
    table = srv.table_id("double-back-jack")
    _sit(page, srv, table, 6)
    page.click(".seat.mine button.spot")
    _idle(page)
    for name in _every_page(srv, page):
        wide, inner = page.evaluate(
            "[document.documentElement.scrollWidth, innerWidth]"
        )
        assert wide <= inner, (name, wide, inner)
        small = [
            c for c in page.evaluate(_CONTROLS) if c["w"] < 44 or c["h"] < 44
        ]
        assert not small, (name, small)
        assert_no_small_text(page, name)
    me = _token(page)
    _HTTP.post(
        f"{srv.base}/tables/{table}/wagers/change",
        json={"seat": 6, "wager": "blackjack", "amount": 0},
        headers=me,
    )
    page.close()
    _leave(srv, table, 6, me)


_AXE_WAGER = {
    "double-back-jack": "blackjack",
    "midibaccarat": "banker",
    "midibaccarat-commission-free": "banker",
    "21-baccarat": "player",
    "six-card-fortune-pai-gow": "pai_gow",
}


def _axe_round(
    srv: LiveServer, page: Any, axe: Axe, game: str, other: Api
) -> set[str]:
    """Bet, deal and finish a round of ``game``, auditing each state.

    ``other`` plays seat 5 through the API (quietest decisions), so the
    felt also shows another player's cards, face down where they are.
    Returns the states audited.
    """
    table = srv.table_id(game)
    wager = _AXE_WAGER[game]
    other.sit(table, 5)
    if game == "double-back-jack":
        _fresh(srv, table, other, 5, wager)
    page.goto(f"{srv.base}/play/{table}")
    page.click("[data-sit='2']")
    page.wait_for_selector(".seat.mine[data-seat='2']")
    if game == "double-back-jack":
        # seat 5 Th 9h = 19 stands; seat 2 6s 7d = 13 v the dealer's
        # Ts: a decision is awaited at seat 2
        srv.stack_next(table, "Th 6s Ts 9h 7d 5c")
    other.bet(table, 5, wager, _min(srv, table))
    page.click("[data-chip='2500']")
    page.click(f".seat.mine button.spot[data-wager='{wager}']")
    _idle(page)
    states = {"betting"}
    axe.audit(f"table {game} betting", phone=True)
    other.post(f"/tables/{table}/ready", {"seat": 5})
    page.click("#deal")
    me = _token(page)
    for _ in range(30):
        if page.is_visible("#result"):
            break
        state = _table_state(srv, table, me)
        pending = state["round"]["pending"]
        if state["round"]["status"] != "playing" or pending is None:
            page.wait_for_timeout(80)
            continue
        if pending["seat"] == 5:
            other.post(
                f"/tables/{table}/actions",
                {"seat": 5, "action": passive_action(pending["legal"])},
            )
            continue
        page.wait_for_selector("#actions button[data-action]")
        _idle(page)
        if "playing" not in states:
            states.add("playing")
            axe.audit(f"table {game} round in play", phone=True)
        name = passive_action(pending["legal"])
        page.click(f"#actions button[data-action='{name}']")
        _idle(page)
    page.wait_for_selector("#result:not([hidden])")
    _idle(page)
    states.add("settled")
    axe.audit(f"table {game} settled", phone=True)
    _leave(srv, table, 2, me)
    _leave(srv, table, 5, other.headers)
    return states


def test_issue_13_axe_finds_no_serious_or_critical_violation(
    srv: LiveServer, browser: Any
) -> None:
    """axe-core 4.14 (vendored, MPL-2.0) on every page, WCAG 2 A and AA.

    Every page: the lobby; each of the five tables while betting, with
    a round in play (the games with decisions) and settled, at desktop
    and at 375 x 812; the no-such-table page; recall's list, a round's
    detail and its replay part-way; the operator's login and desk.
    """
    page = _page(browser, srv, "Axe", bypass_csp=True)
    axe = Axe(page)
    axe.audit("lobby", phone=True)
    # the audit is live: an unnamed button on the page is caught
    page.evaluate(
        "document.body.append(Object.assign("
        "document.createElement('button'), {id: 'axe-canary'}))"
    )
    axe.audit("canary")
    assert [v[0] for v in axe.found.pop("canary")] == ["button-name"]
    page.evaluate("document.getElementById('axe-canary').remove()")
    other = Api(srv, "Axe Neighbour")
    played = {
        game: _axe_round(srv, page, axe, game, other) for game in _AXE_WAGER
    }
    assert "playing" in played["double-back-jack"]
    assert "playing" in played["six-card-fortune-pai-gow"]
    page.goto(srv.base + "/play/999")
    page.wait_for_selector("#notfound:not([hidden])")
    axe.audit("no such table", phone=True)
    page.goto(srv.base + "/recall")
    page.wait_for_selector("#rounds tr[data-round] a")
    axe.audit("recall list", phone=True)
    page.click("#rounds tr[data-round] a")
    page.wait_for_selector("#step-pos")
    axe.audit("recall detail", phone=True)
    page.click("[data-step='first']")
    for _ in range(3):
        page.click("[data-step='next']")
    axe.audit("recall replay", phone=True)
    page.goto(srv.base + "/operator")
    page.wait_for_selector("#token")
    axe.audit("operator login", phone=True)
    page.fill("#token", OPERATOR)
    page.click("#login-go")
    page.wait_for_selector("#desk:not([hidden]) #tables tr[data-table]")
    axe.audit("operator desk", phone=True)
    page.evaluate("sessionStorage.removeItem('croupier.operator')")
    page.close()
    assert not any(axe.found.values()), json.dumps(
        {k: v for k, v in axe.found.items() if v}, indent=1
    )


# -- point 6: recall ---------------------------------------------------------


def test_issue_13_recall_pages_through_the_history_and_replays_a_split(
    srv: LiveServer, browser: Any
) -> None:
    midi = srv.table_id("midibaccarat")
    dbj = srv.table_id("double-back-jack")
    player = Api(srv, "Recaller")
    player.sit(midi, 7)
    rounds = 101
    with httpx.Client(base_url=srv.base, headers=player.headers) as fast:
        minimal = {"Prefer": "return=minimal"}
        for _ in range(rounds):
            bet = {"seat": 7, "wager": "banker", "amount": 100}
            r = fast.post(f"/tables/{midi}/wagers", json=bet, headers=minimal)
            assert r.status_code == 200, r.text
            r = fast.post(f"/tables/{midi}/deal", headers=minimal)
            assert r.status_code == 200, r.text
    _leave(srv, midi, 7, player.headers)
    player.sit(dbj, 5)
    _fresh(srv, dbj, player, 5, "blackjack")
    # split 8s: hand 1 stands on 11, hand 2 on 17; the dealer 16 draws 2d
    srv.stack_next(dbj, "8h 6s 8d Ts 3c 9h 2d")
    player.bet(dbj, 5, "blackjack", 500)
    state = player.post(f"/tables/{dbj}/deal")
    for action in ("split", "stand", "stand"):
        state = player.post(
            f"/tables/{dbj}/actions", {"seat": 5, "action": action}
        )
    split_round = state["last"]["id"]
    _leave(srv, dbj, 5, player.headers)
    mine = _HTTP.get(
        srv.base + "/rounds?limit=1", headers=player.headers
    ).headers["X-Total-Count"]
    assert int(mine) >= rounds + 1

    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(srv.base + "/")
    token = player.headers["Authorization"].split()[1]
    page.evaluate(f"localStorage.setItem('croupier.token', '{token}')")
    page.goto(srv.base + "/recall")
    page.wait_for_selector("#rounds tr[data-round]")
    assert f"of {mine}" in page.inner_text("#pager")
    seen: list[str] = []
    for _ in range(20):
        rows = page.query_selector_all("#rounds tr[data-round]")
        seen += [r.get_attribute("data-round") or "" for r in rows]
        older = page.query_selector("#pager button[data-page='next']")
        if older is None or older.is_disabled():
            break
        older.click()
        page.wait_for_selector(
            f"#pager .pos:has-text('Rounds {len(seen) + 1}\u2013')"
        )
    assert len(seen) == int(mine)
    assert len(set(seen)) == len(seen)  # no round twice, none left out
    assert [int(x) for x in seen] == sorted(
        (int(x) for x in seen), reverse=True
    )
    # a row tells time, table, game, player and money
    page.fill("#f-player", "recaller")
    page.select_option("#f-game", "double-back-jack")
    page.click("#f-go")
    page.wait_for_selector(f"#rounds tr[data-round='{split_round}']")
    row = page.inner_text(f"#rounds tr[data-round='{split_round}']")
    assert "Double Back Jack" in row
    assert "Recaller" in row
    assert "$10.00" in row  # two $5 hands
    # step through the split round
    page.click(f"#rounds tr[data-round='{split_round}'] a")
    page.wait_for_selector("#step-pos")
    page.click("[data-step='first']")
    seat = "#replay-felt .area[data-label='seat 5'] .cards"
    hands = []
    for _ in range(80):
        hands.append(len(page.query_selector_all(seat)))
        nxt = page.query_selector("[data-step='next']")
        if nxt is None or nxt.is_disabled():
            break
        nxt.click()
    assert 1 in hands
    assert 2 in hands  # the felt is redrawn: one hand, then two
    assert hands.index(2) > hands.index(1)
    page.click("[data-step='prev']")
    assert "Step" in page.inner_text("#step-pos")
    results = page.inner_text("#detail table.rows")
    assert "hand 2" in results
    page.close()


def test_810a_11_a_rounds_page_says_what_moved_at_another_table_meanwhile(
    srv: LiveServer, browser: Any
) -> None:
    """D74: a Midibaccarat round of the player's falls inside a Double
    Back Jack one; the Double Back Jack round's page gives the account's
    own balances and the $1.00 lost at the other table meanwhile."""
    midi = srv.table_id("midibaccarat")
    dbj = srv.table_id("double-back-jack")
    player = Api(srv, "Two Tables")
    player.sit(dbj, 3)
    player.sit(midi, 8)
    _fresh(srv, dbj, player, 3, "blackjack")
    _fresh(srv, midi, player, 8, "banker")
    before = player.state(dbj)["you"]["balance"]
    # the box's Th 6d against the dealer's 6s Ts waits for a decision
    srv.stack_next(dbj, "Th 6s 6d Ts 2c 9h 5c 4d")
    player.bet(dbj, 3, "blackjack", 500)
    state = player.post(f"/tables/{dbj}/deal")
    assert state["round"]["pending"]["seat"] == 3
    # meanwhile, at the other table: Player 9 beats Banker 7, the
    # banker wager of $1.00 loses
    srv.stack_next(midi, "4h Kc 5d 7s")
    player.bet(midi, 8, "banker", 100)
    player.post(f"/tables/{midi}/deal")
    dbj_round = _decide_passively(player, dbj, state)["last"]["id"]
    after = player.state(dbj)["you"]["balance"]
    _leave(srv, dbj, 3, player.headers)
    _leave(srv, midi, 8, player.headers)
    net = after - before + 100  # the round's own: all but the $1.00

    def money(units: int) -> str:
        sign = "-" if units < 0 else ""
        return f"{sign}${abs(units) / 100:,.2f}"

    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(srv.base + "/")
    token = player.headers["Authorization"].split()[1]
    page.evaluate(f"localStorage.setItem('croupier.token', '{token}')")
    page.goto(f"{srv.base}/recall?round={dbj_round}")
    page.wait_for_selector("#detail dl.facts")
    facts = page.inner_text("#detail dl.facts")
    sign = "+" if net > 0 else ""
    assert (
        f"balance {money(before)} before, {money(after)} after "
        f"({sign}{money(net)}; -$1.00 elsewhere meanwhile)"
    ) in facts, facts
    page.close()


def test_issue_13_clocks_count_down_and_the_table_acts_for_a_gone_player(
    srv: LiveServer, browser: Any, request: pytest.FixtureRequest
) -> None:
    op = {"Authorization": f"Bearer {OPERATOR}"}
    made = _HTTP.post(
        srv.base + "/tables",
        json={
            "game": "double-back-jack",
            "name": "Quick clocks",
            "betting_seconds": 100,
            "decision_seconds": 5,  # the shortest an operator may set
        },
        headers=op,
    )
    # each clock runs 0.3 of its seconds: the decision's 1.5 s (D170)
    srv.casino.dealer.clock_scale = 0.3
    request.addfinalizer(lambda: setattr(srv.casino.dealer, "clock_scale", 1))
    assert made.status_code == 200, made.text
    table = int(made.json()["id"])
    page, me = _seated_at(browser, srv, table, "Slowpoke", "blackjack")
    srv.stack_next(table, "Th 6s 7d Ts 5c")  # 17 v 16: a decision
    page.click(".seat.mine button.spot[data-wager='blackjack']")
    page.wait_for_selector("#clock:has-text('Bets close in')")
    page.click("#deal")
    page.wait_for_selector("#clock:has-text('Your decision')")
    assert "then stand" in page.inner_text("#clock")
    # nobody decides: the clock runs out and the table stands for seat 1
    page.wait_for_selector("#acted-for:not([hidden])", timeout=10_000)
    text = page.inner_text("#acted-for")
    assert "seat 1" in text
    assert "stand" in text
    assert "\u00a7" in text
    stood = [
        e["action"]
        for e in _last_events(srv, table, me)
        if e["type"] == "decision_made"
    ]
    assert stood == ["stand"]
    page.close()
    _leave(srv, table, 1, me)


def test_issue_13_operator_desk_deposits_voids_and_checks_the_books(
    srv: LiveServer, browser: Any
) -> None:
    table = srv.table_id("midibaccarat")
    guest = Api(srv, "Guest")
    guest.sit(table, 8)
    guest.bet(table, 8, "banker", 2500)
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(srv.base + "/operator")
    page.fill("#token", OPERATOR)
    page.click("#login-go")
    row = f"#players tr[data-player='{guest.id}']"
    page.wait_for_selector(row)
    assert "$975.00" in page.inner_text(row)
    page.fill(f"{row} input", "50")
    page.dblclick(f"{row} button[data-deposit]")  # asks for it, once
    page.click(f"{row} button[data-confirm]")  # one deposit (D173)
    page.wait_for_selector(f"{row}:has-text('$1,025.00')")
    page.fill(f"#tables tr[data-table='{table}'] input", "dealer error")
    page.click(f"#tables tr[data-table='{table}'] button")  # arms it (D137)
    page.click(f"#tables tr[data-table='{table}'] button[data-confirm]")
    page.wait_for_selector(f"{row}:has-text('$1,050.00')")  # stake back
    assert page.get_attribute("#books", "data-ok") == "true"
    page.close()
    _leave(srv, table, 8, guest.headers)


def test_issue_13_reconnecting_banner_clears_itself(
    browser: Any, tmp_path: Path
) -> None:
    """The server goes away and comes back: the page says so, then not."""
    first = LiveServer(tmp_path / "again.db")
    first.start()
    page = _page(browser, first, "Comeback")
    page.goto(f"{first.base}/play/{first.table_id('midibaccarat')}")
    page.wait_for_selector(".seat")
    assert page.is_hidden("#conn")
    first.stop()
    page.wait_for_selector("#conn:not([hidden])", timeout=10_000)
    assert "Reconnecting" in page.inner_text("#conn")
    again = LiveServer(tmp_path / "again.db", port=first.port)
    again.start()
    try:
        page.wait_for_selector("#conn", state="hidden", timeout=15_000)
        page.click("[data-sit='1']")  # the page works again
        page.wait_for_selector(".seat.mine")
        assert page.inner_text("#error") == ""
    finally:
        page.close()
        again.stop()


# -- what a new player meets first: the audit of the web table ----------------


def _focused(page: Any) -> str:
    """The focused element's id, action, chip, seat or wager (or tag)."""
    return str(
        page.evaluate(
            "(() => { const e = document.activeElement;"
            " return e.id || e.dataset.action || e.dataset.chip ||"
            " e.dataset.sit || e.dataset.wager || e.dataset.card ||"
            " e.tagName; })()"
        )
    )


_RING_GAP = """(spot) => {
  // How far inside the spot's rounded ring the corners of its name's
  // box lie (negative: the ring crosses the name).
  const s = spot.getBoundingClientRect();
  const n = spot.querySelector(".spot-name").getBoundingClientRect();
  const cs = getComputedStyle(spot);
  const r = parseFloat(cs.borderTopLeftRadius) -
    parseFloat(cs.borderTopWidth);
  const inset = parseFloat(cs.borderTopWidth);
  const cx = s.left + inset + r, cy = s.top + inset + r;
  let worst = Infinity;
  for (const x of [n.left, n.right]) {
    const dx = x < cx ? cx - x : Math.max(0, x - (s.right - inset - r));
    const dy = Math.max(0, cy - n.top);
    if (dx > 0 && dy > 0) worst = Math.min(worst, r - Math.hypot(dx, dy));
  }
  return worst === Infinity ? 0 : worst;
}"""
"""The ring's clearance of a spot's name at the top corners (CSS px)."""


def test_591_7_n_a_hole_card_equal_to_the_up_card_is_turned_over(
    srv: LiveServer, browser: Any
) -> None:
    """Six decks can give the dealer J♣ up and J♣ in the hole.

    The felt turned the hole card over by looking for a face-down card
    only when the exposed card was not on the felt yet: J♣ was (the up
    card), so the hole card stayed a back and the result said "The
    dealer has 10" for a dealer's 20 (591.7(n): the dealer turns the
    hole card over, then the totals are compared).
    """
    table = srv.table_id("double-back-jack")
    page, me = _seated_at(browser, srv, table, "Twin Jacks", "blackjack")
    # seat 1 9h 9d = 18 stands; the dealer Jc up, Jc in the hole: 20
    srv.stack_next(table, "9h Jc 9d Jc")
    page.click(".seat.mine button.spot[data-wager='blackjack']")
    _idle(page)
    page.click("#deal")
    page.wait_for_selector("#actions button[data-action='stand']")
    _idle(page)
    # "ready" is a betting word: the seat's label drops it once dealt
    assert page.inner_text(".seat.mine .seat-no") == "Seat 1"
    page.click("#actions button[data-action='stand']")
    page.wait_for_selector("#result:not([hidden])")
    _idle(page)
    dealer = ".area[data-label='dealer']"
    cards = page.eval_on_selector_all(
        f"{dealer} .card", "cs => cs.map(c => c.dataset.card || 'back')"
    )
    assert cards == ["Jc", "Jc"], cards
    assert page.inner_text(f"{dealer} .total") == "20"
    assert page.inner_text("#result .why") == "The dealer has 20."
    page.close()
    _leave(srv, table, 1, me)


@pytest.mark.parametrize(
    ("stack", "why"),
    [
        # seat 1 18 stands; the dealer 6 6 draws a king: 22, a push
        (
            "9h 6c 9d 6d Kh",
            "The dealer has 22: every wager still in play is returned "
            "(\u00a7\u00a0591.7(q)(1)).",
        ),
        # the dealer K up, A in the hole: Blackjack, read by the card
        # reader before any decision
        ("9h Kc 9d Ah", "The dealer has Blackjack."),
    ],
    ids=["dealer-22", "dealer-blackjack"],
)
def test_591_7_q_1_the_result_says_a_dealer_22_returns_the_wagers(
    srv: LiveServer, browser: Any, stack: str, why: str
) -> None:
    """The result read "The dealer has 22 (bust)." where Double Back
    Jack's dealer 22 is no bust: every wager still in play is returned
    (591.7(q)(1)); a dealer's two-card 21 read "The dealer has 21."."""
    table = srv.table_id("double-back-jack")
    page, me = _seated_at(
        browser, srv, table, "Dealer " + stack.split()[1], "blackjack"
    )
    srv.stack_next(table, stack)
    page.click(".seat.mine button.spot[data-wager='blackjack']")
    _idle(page)
    page.click("#deal")
    page.wait_for_selector(
        "#actions button[data-action='stand'], #result:not([hidden])"
    )
    _idle(page)
    if page.is_visible("#actions button[data-action='stand']"):
        page.click("#actions button[data-action='stand']")
    page.wait_for_selector("#result:not([hidden])")
    _idle(page)
    assert page.inner_text("#result .why") == why.replace("\u00a0", " ")
    page.close()
    _leave(srv, table, 1, me)


def test_670a_9_face_down_cards_lie_in_one_squared_row_and_pass_axe(
    srv: LiveServer, browser: Any
) -> None:
    """The dealer's six face-down pai gow cards, while a seat sets hands.

    The squared-up stack of backs shared its class with the chip stack,
    a column: the six backs stood in a tower down the felt. The cards
    a player picks for the low hand are buttons whose accessible name
    starts with what they show (axe's label-content-name-mismatch,
    WCAG 2.5.3); picking one by keyboard keeps the focus on it.
    """
    table = srv.table_id("six-card-fortune-pai-gow")
    page = _page(browser, srv, "Squared", bypass_csp=True)
    _sit(page, srv, table, 2)
    me = _token(page)
    srv.stack_pai_gow(table, {2: "Ks Kh Kd Kc Qs Jh", 7: "2d 3h 5s 7c 9d Td"})
    page.click(".seat.mine button.spot[data-wager='pai_gow']")
    _idle(page)
    page.click("#deal")
    decline_double_down(page)
    tops = page.eval_on_selector_all(
        ".area[data-label='dealer'] .card.back",
        "cs => cs.map(c => Math.round(c.getBoundingClientRect().top))",
    )
    assert len(tops) == 6, tops
    assert len(set(tops)) == 1, tops
    axe = Axe(page)
    axe.audit("pai gow hands to set", phone=True)
    assert not any(axe.found.values()), axe.found
    # the house way would keep the jack high and put the queen low
    page.focus(".seat.mine .card[data-card='Jh']")
    page.keyboard.press("Enter")
    assert page.get_attribute(".card[data-card='Jh']", "aria-pressed") == (
        "true"
    )
    assert _focused(page) == "Jh"
    page.focus("#actions button[data-action='set']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result:not([hidden])")
    sets = [
        e
        for e in _last_events(srv, table, me)
        if e["type"] == "hand_set" and e["to"] == "seat 2"
    ]
    assert (sets[0]["low"], sets[0]["way"]) == ("Jh", "player"), sets
    page.close()
    _leave(srv, table, 2, me)


def test_keyboard_alone_bets_decides_and_reads_the_result_without_losing_focus(
    srv: LiveServer, browser: Any
) -> None:
    """Enter and Delete on a spot, Enter on the deal, a decision, OK.

    Each request redraws the rail and the seats: the focused control
    was a removed element and the focus fell to the page, so a second
    Enter added nothing. Now it stays on the control, or moves to the
    next thing to do. Another player's bet pushed over the WebSocket
    while an amount is typed keeps the typed text and the focus.
    """
    table = srv.table_id("21-baccarat")
    other = Api(srv, "Keyboard Neighbour")
    page = _page(browser, srv, "Keys Only")
    page.goto(f"{srv.base}/play/{table}")
    page.focus("[data-sit='3']")
    page.keyboard.press("Enter")
    page.wait_for_selector(".seat.mine[data-seat='3']")
    _idle(page)
    assert _focused(page) == "player"  # the first spot of the seat
    me = _token(page)
    for _ in range(3):
        page.keyboard.press("Enter")  # a $5 chip each
        _idle(page)
    page.keyboard.press("Delete")
    _idle(page)
    stakes = _table_state(srv, table, me)["round"]["stakes"]
    assert [(s["wager"], s["amount"]) for s in stakes] == [("player", 1000)]
    assert _focused(page) == "player"
    page.focus("#bet-amount")
    page.keyboard.type("12.5")
    other.sit(table, 6)
    other.bet(table, 6, "banker", 500)  # pushed to the page: a render
    page.wait_for_selector(".seat[data-seat='6'] .spot[data-wagers~='banker']")
    _idle(page)
    assert _focused(page) == "bet-amount"
    assert page.input_value("#bet-amount") == "12.5"
    page.keyboard.type("0")
    page.keyboard.press("Enter")  # on Player
    _idle(page)
    stakes = _table_state(srv, table, me)["round"]["stakes"]
    assert [(s["wager"], s["amount"]) for s in stakes if s["seat"] == 3] == [
        ("player", 1250)
    ]
    other.post(f"/tables/{table}/ready", {"seat": 6})
    page.focus("#deal")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result:not([hidden])")
    _idle(page)
    assert _focused(page) == "BUTTON"  # the result's OK
    assert page.evaluate("document.activeElement.closest('#result') !== null")
    page.keyboard.press("Enter")
    _idle(page)
    assert not page.is_visible("#result")
    assert _focused(page) == "player"
    page.close()
    _leave(srv, table, 3, me)
    _leave(srv, table, 6, other.headers)


def test_d27_ready_says_whom_the_deal_waits_for(
    srv: LiveServer, browser: Any
) -> None:
    """After "Ready" the button is done and the rail names the others.

    The button stayed as it was and nothing on the rail changed (only
    a small "· ready" by the seat): a control that seemed to do
    nothing. The cards are dealt when every seat with a wager is ready
    (D27); the clock of a decision is the casino's house rule D26, not
    a section of the regulation ("§ D26").
    """
    table = srv.table_id("midibaccarat")
    other = Api(srv, "Slow Neighbour")
    other.sit(table, 4)
    page = _page(browser, srv, "Quick Player")
    _sit(page, srv, table, 8)
    me = _token(page)
    other.bet(table, 4, "player", 500)
    page.click(".seat.mine button.spot[data-wager='banker']")
    _idle(page)
    # the spot's ring runs clear of the wager's name above its chips
    gap = page.eval_on_selector(
        ".seat.mine button.spot[data-wager='banker']", _RING_GAP
    )
    assert gap >= 0, gap
    assert page.inner_text("#deal") == "Ready"
    page.click("#deal")
    _idle(page)
    assert page.is_disabled("#deal")
    hint = page.inner_text("#hint")
    assert "seat 4" in hint, hint
    assert "ready" in hint, hint
    assert _table_state(srv, table, me)["round"]["status"] == "betting"
    other.post(f"/tables/{table}/ready", {"seat": 4})
    page.wait_for_selector("#result:not([hidden])")
    said = page.evaluate(
        "Croupier.describe({type: 'clock_expired', clock: 'decision',"
        " seat: 8, action: 'stand', seconds: 30, ref: '591.7(i)',"
        " decision: 'D26'})"
    )
    assert "house rule D26" in said, said
    assert "\u00a7 591.7(i)" in said, said
    assert "\u00a7 D26" not in said, said
    page.close()
    _leave(srv, table, 8, me)
    _leave(srv, table, 4, other.headers)
