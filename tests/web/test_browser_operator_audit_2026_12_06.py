"""The operator desk, audited as a demanding operator uses it (2026-12-06).

A void asks for a second press, names the round it is for (a desk left
open while that round ended voids nothing else, D137) and says what went
back to whom; a deposit typed with a decimal comma or a sign is refused
before it is sent, one typed as "0.29" or "1,000.10" is credited to the
cent, and one pressed again after the server could not be reached is
made once (D138). Every figure is checked through the API against the
amounts the test wagered and typed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from tests.web.live import OPERATOR, LiveServer
from tests.web.pages import (
    BROWSER_TEST,
    HTTP,
    Axe,
    api_player,
    desk_deposit,
    opened_desk,
)

from croupier.server.auth import new_token

pytestmark = BROWSER_TEST

OP = {"Authorization": f"Bearer {OPERATOR}"}


class Guest:
    """A player through the API."""

    def __init__(self, srv: LiveServer, name: str) -> None:
        self.srv = srv
        made = api_player(srv, name)
        self.id = made.id
        self.headers = made.headers

    def post(self, path: str, body: Any) -> Any:
        reply = HTTP.post(
            self.srv.base + path, json=body, headers=self.headers
        )
        assert reply.status_code == 200, (path, reply.text)
        return reply.json()

    def bet(self, table: int, seat: int, amount: int) -> int:
        """Wager on the Player; the round's id."""
        body = {"seat": seat, "wager": "player", "amount": amount}
        return int(self.post(f"/tables/{table}/wagers", body)["round"]["id"])

    @property
    def balance(self) -> int:
        me = HTTP.get(self.srv.base + "/me", headers=self.headers).json()
        return int(me["balance"])


def slow_table(srv: LiveServer, name: str) -> int:
    """A Midibaccarat table whose betting stays open an hour (D27): no
    deal starts on its own while a slow machine runs the test."""
    reply = HTTP.post(
        srv.base + "/tables",
        json={"game": "midibaccarat", "name": name, "betting_seconds": 3600},
        headers=OP,
    )
    assert reply.status_code == 200, reply.text
    return int(reply.json()["id"])


def books(srv: LiveServer) -> dict[str, Any]:
    """``GET /ledger``, balanced."""
    got = HTTP.get(srv.base + "/ledger", headers=OP).json()
    assert got["ok"], got
    return dict(got)


@pytest.fixture
def desk(browser: Any, srv: LiveServer) -> Iterator[Any]:
    """The desk, open: its token typed in as an operator does."""
    yield from opened_desk(browser, srv)


def test_d137_an_action_said_while_the_desk_is_read_again_stays_said(
    srv: LiveServer, desk: Any
) -> None:
    """Refresh draws the tables before the books (a check sums every
    transaction): a void armed on a row just drawn said "to void round
    N", and the refresh's "as they are now", ending after it, wrote over
    it (seen in a full browser run). The books are held here until the
    void is armed, so the old page fails every time."""
    table = slow_table(srv, "Read again")
    ann = Guest(srv, "Rachel")
    ann.post(f"/tables/{table}/seats", {"seat": 7})
    first = ann.bet(table, 7, 2500)
    held: list[Any] = []
    desk.route("**/ledger", lambda route: held.append(route))
    desk.click("#refresh")
    row = f"#tables tr[data-table='{table}']"
    desk.wait_for_selector(f"{row} .in-play:has-text('round {first} \u00b7')")
    button = f"{row} button[data-void='{table}']"
    desk.fill(f"{row} input", "card exposed")
    desk.click(button)  # arms the void
    desk.wait_for_selector(f"{button}[data-confirm='{first}']")
    assert f"to void round {first}" in desk.inner_text("#done")
    assert len(held) == 1  # the refresh still waits for its books
    held[0].continue_()
    desk.unroute("**/ledger")
    # the books drawn: the refresh has ended (its message comes with them)
    desk.wait_for_selector("#books dd:has-text('$25.00')")
    assert f"to void round {first}" in desk.inner_text("#done")
    # a refresh with nothing said meanwhile still says what it did
    desk.click("#refresh")
    desk.wait_for_selector("#done:has-text('as they are now')")
    HTTP.post(
        f"{srv.base}/tables/{table}/void",
        json={"reason": "tidy", "round_id": first},
        headers=OP,
    )


def test_d137_a_void_is_confirmed_names_its_round_and_says_what_went_back(
    srv: LiveServer, desk: Any
) -> None:
    table = slow_table(srv, "Void desk")
    ann = Guest(srv, "Annette")
    ann.post(f"/tables/{table}/seats", {"seat": 7})
    start = ann.balance
    first = ann.bet(table, 7, 2500)
    desk.click("#refresh")
    row = f"#tables tr[data-table='{table}']"
    desk.wait_for_selector(f"{row} .in-play:has-text('round {first} \u00b7')")
    assert "$25.00 on the layout" in desk.inner_text(f"{row} .in-play")
    button = f"{row} button[data-void='{table}']"
    desk.fill(f"{row} input", "card exposed")
    desk.dblclick(button)  # arms the void; the second click confirms nothing
    desk.wait_for_selector(f"{button}[data-confirm='{first}']")
    assert "Confirm void" in desk.inner_text(button)
    assert f"to void round {first}" in desk.inner_text("#done")
    assert ann.balance == start - 2500
    assert books(srv)["on_layout"] == 2500
    desk.click(button)
    # has-text ignores case, and the armed void's line says "void round
    # 3 at": "went back" is in the answer's line alone
    desk.wait_for_selector("#done:has-text('went back')")
    said = desk.inner_text("#done")
    assert f"Round {first} at" in said, said
    assert "is void: $25.00 went back" in said, said
    assert "Annette (seat 7) $25.00" in said, said
    assert ann.balance == start
    assert books(srv)["on_layout"] == 0

    # the desk shows the next round; meanwhile it is voided elsewhere and
    # another takes a wager: the desk's void is refused, nothing moves
    second = ann.bet(table, 7, 1000)
    desk.click("#refresh")
    desk.wait_for_selector(f"{row} .in-play:has-text('round {second} \u00b7')")
    reply = HTTP.post(
        f"{srv.base}/tables/{table}/void",
        json={"reason": "second desk", "round_id": second},
        headers=OP,
    )
    assert reply.status_code == 200, reply.text
    third = ann.bet(table, 7, 1500)
    desk.fill(f"{row} input", "stale desk")
    desk.click(button)
    desk.click(button)
    desk.wait_for_selector("#error:not(:empty)")
    refused = desk.inner_text("#error")
    assert f"Round {second} was voided already" in refused, refused
    assert f"round {third} is in play" in refused, refused
    assert ann.balance == start - 1500
    assert books(srv)["on_layout"] == 1500
    # and the desk now shows the round that is in play
    desk.wait_for_selector(f"{row} .in-play:has-text('round {third} \u00b7')")
    desk.fill(f"{row} input", "tidy up")
    desk.click(button)
    desk.click(button)
    desk.wait_for_selector("#done:has-text('went back')")
    assert f"Round {third} at" in desk.inner_text("#done")
    assert ann.balance == start
    HTTP.delete(f"{srv.base}/tables/{table}/seats/7", headers=ann.headers)


def test_typed_deposits_are_whole_cents_or_refused_before_they_are_sent(
    srv: LiveServer, desk: Any
) -> None:
    bea = Guest(srv, "Beatrix")
    start = bea.balance
    deposits = books(srv)["deposits"]
    desk.click("#refresh")
    row = f"#players tr[data-player='{bea.id}']"
    desk.wait_for_selector(row)
    sent: list[str] = []
    desk.on(
        "request",
        lambda r: sent.append(r.url) if "/deposits" in r.url else None,
    )
    for typed in ("1,50", "1e3", "-5", "1.234", "1,00,000"):
        desk.fill(f"{row} input", typed)
        desk.click(f"{row} button")
        desk.wait_for_selector("#error:has-text('Type a deposit in dollars')")
        desk.evaluate("document.getElementById('error').textContent = ''")
    assert sent == []
    assert bea.balance == start
    credited = 0
    for typed, cents in (("0.29", 29), ("1,000.10", 100_010), ("$7", 700)):
        desk.fill(f"{row} input", typed)
        desk.press(f"{row} input", "Enter")  # Enter asks for it too
        desk.wait_for_selector(f"{row} button[data-confirm='{cents}']")
        desk.keyboard.press("Enter")  # and Enter on Confirm makes it
        credited += cents
        shown = f"${(start + credited) / 100:,.2f}"
        desk.wait_for_selector(f"#done:has-text('the balance is {shown}')")
        assert bea.balance == start + credited
    # past the largest deposit: the server's rule, in dollars
    desk.fill(f"{row} input", "99,999,999,999")
    desk_deposit(desk, row)
    desk.wait_for_selector("#error:has-text('$10,000,000,000.00')")
    assert bea.balance == start + credited
    assert books(srv)["deposits"] == deposits + credited


def test_d138_a_deposit_pressed_again_after_a_lost_answer_is_made_once(
    srv: LiveServer, desk: Any
) -> None:
    cid = Guest(srv, "Cid")
    start = cid.balance
    desk.click("#refresh")
    row = f"#players tr[data-player='{cid.id}']"
    desk.wait_for_selector(row)
    keys: list[str | None] = []

    def lost(route: Any) -> None:
        # the deposit reaches the server; its answer never comes back
        keys.append(route.request.headers.get("idempotency-key"))
        route.fetch()
        route.abort()

    desk.route("**/deposits", lost)
    desk.fill(f"{row} input", "40")
    desk_deposit(desk, row)
    desk.wait_for_selector("#error:has-text('may have been made')")
    assert cid.balance == start + 4000  # it was made
    desk.unroute("**/deposits")
    desk.on(
        "request",
        lambda r: (
            keys.append(r.headers.get("idempotency-key"))
            if "/deposits" in r.url
            else None
        ),
    )
    desk_deposit(desk, row)  # asked and confirmed again
    desk.wait_for_selector("#done:has-text('$40.00 deposited for Cid')")
    assert len(keys) == 2, keys
    assert keys[0], keys
    assert keys[0] == keys[1], keys
    assert cid.balance == start + 4000  # once
    # the next deposit is a new one
    desk.fill(f"{row} input", "40")
    desk_deposit(desk, row)
    shown = f"${(start + 8000) / 100:,.2f}"
    desk.wait_for_selector(f"#done:has-text('the balance is {shown}')")
    assert len(set(keys)) == 2, keys
    assert cid.balance == start + 8000
    books(srv)


def test_the_desk_with_a_round_in_play_passes_axe(
    srv: LiveServer, desk: Any
) -> None:
    table = slow_table(srv, "Axe desk")
    dan = Guest(srv, "Dana")
    dan.post(f"/tables/{table}/seats", {"seat": 5})
    dan.bet(table, 5, 500)
    desk.click("#refresh")
    row = f"#tables tr[data-table='{table}']"
    desk.wait_for_selector(f"{row} .in-play:has-text('on the layout')")
    desk.fill(f"{row} input", "audit")
    desk.click(f"{row} button[data-void='{table}']")
    desk.wait_for_selector(f"{row} button[data-confirm]")
    desk.fill("#nt-rules", "{oops")
    desk.click("#nt-go")  # a refusal on show as well
    desk.wait_for_selector("#error:has-text('not JSON')")
    axe = Axe(desk)
    axe.audit("operator desk, a void armed", phone=True)
    assert not any(axe.found.values()), axe.found
    desk.click(f"{row} button[data-void='{table}']")
    desk.wait_for_selector("#done:has-text('went back')")
    HTTP.delete(f"{srv.base}/tables/{table}/seats/5", headers=dan.headers)


def test_the_desk_says_why_a_token_does_not_open_it(
    srv: LiveServer, browser: Any
) -> None:
    """A player's token, an expired one and a mistyped one are each told
    apart; a token pasted with "Bearer " opens the desk."""
    eve = Guest(srv, "Evelyn")
    player_token = eve.headers["Authorization"].removeprefix("Bearer ")
    expired_at = int(time.time()) - 600
    expired = new_token(expired_at)
    # a second operator account, whose token ran out ten minutes ago
    srv.between_requests(
        lambda: srv.casino.register(
            "night operator", balance=0, operator=True, token=expired
        )
    )
    when = datetime.fromtimestamp(expired_at, UTC).strftime("%Y-%m-%d %H:%M")
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(srv.base + "/operator")
    for typed, said in (
        (player_token, "That token is a player's, not the operator's."),
        (expired, f"expired at {when} UTC"),
        ("not-a-token-at-all", "The server does not know that token"),
    ):
        page.fill("#token", typed)
        page.click("#login-go")
        page.wait_for_selector(f'#error:has-text("{said}")')
        assert page.is_hidden("#desk")
        page.evaluate("document.getElementById('error').textContent = ''")
    page.fill("#token", f"Bearer {OPERATOR}")
    page.click("#login-go")
    page.wait_for_selector("#desk:not([hidden]) #tables tr[data-table]")
    assert page.inner_text("#error") == ""
    page.evaluate("sessionStorage.removeItem('croupier.operator')")
    page.close()


def _tables(srv: LiveServer) -> list[dict[str, Any]]:
    return list(HTTP.get(srv.base + "/tables").json())


def test_the_desk_opens_a_table_with_its_rules_limits_and_pacing(
    srv: LiveServer, desk: Any
) -> None:
    """The desk's form opens a table once (a double press too), and says
    each refusal in the rule's own terms: seconds and decks are not
    dollars."""
    before = _tables(srv)
    sent: list[str] = []
    desk.on(
        "request",
        lambda r: (
            sent.append(r.method)
            if r.url.endswith("/tables") and r.method == "POST"
            else None
        ),
    )

    def fill(**fields: str) -> None:
        values = {
            "nt-name": "",
            "nt-min": "1.00",
            "nt-max": "1,000.00",
            "nt-betting": "",
            "nt-decision": "",
            "nt-rules": "",
            **fields,
        }
        for field, value in values.items():
            desk.fill(f"#{field}", value)

    def refused(said: str) -> None:
        desk.evaluate("document.getElementById('error').textContent = ''")
        desk.click("#nt-go")
        desk.wait_for_selector(f"#error:has-text('{said}')")

    desk.select_option("#nt-game", "midibaccarat")
    fill(**{"nt-min": "50", "nt-max": "5"})
    refused("is above the maximum $5.00")
    fill(**{"nt-rules": "{decks: 6}"})
    refused("are not JSON")
    fill(**{"nt-betting": "1e3"})
    refused("betting time in seconds")
    assert sent == []  # none of these left the page
    fill(**{"nt-rules": '{"decks": 1000}'})
    refused('"decks": 1000 is above the maximum 8')
    assert "$" not in desk.inner_text("#error")
    fill(**{"nt-betting": "4000"})
    refused("betting seconds: must be 5 to 3600 seconds (D170)")
    assert "$" not in desk.inner_text("#error")
    assert len(sent) == 2
    assert _tables(srv) == before

    fill(
        **{
            "nt-name": "Desk baccarat",
            "nt-min": "25",
            "nt-max": "5,000",
            "nt-betting": "45",
            "nt-decision": "12.5",
            "nt-rules": '{"decks": 6}',
        }
    )
    desk.dblclick("#nt-go")  # one table
    desk.wait_for_selector("#done:has-text('Desk baccarat')")
    after = _tables(srv)
    assert len(after) == len(before) + 1
    made = after[-1]
    assert made["name"] == "Desk baccarat"
    assert made["game"] == "midibaccarat"
    assert (made["min_bet"], made["max_bet"]) == (2_500, 500_000)
    assert made["settings"]["betting_seconds"] == 45
    assert made["settings"]["decision_seconds"] == 12.5
    assert made["rules"]["decks"] == 6
    said = desk.inner_text("#done")
    assert f"#{made['id']} is open" in said, said
    assert "$25.00 to $5,000.00" in said, said
    desk.wait_for_selector(f"#tables tr[data-table='{made['id']}']")


def test_d137_enter_held_down_arms_a_void_but_does_not_confirm_it(
    srv: LiveServer, desk: Any
) -> None:
    """By keyboard: Enter held on Void repeats its keydown; the repeat is
    no second press. A second, separate press voids."""
    table = slow_table(srv, "Keyboard desk")
    fay = Guest(srv, "Fay")
    fay.post(f"/tables/{table}/seats", {"seat": 3})
    start = fay.balance
    round_id = fay.bet(table, 3, 800)
    desk.click("#refresh")
    row = f"#tables tr[data-table='{table}']"
    desk.wait_for_selector(
        f"{row} .in-play:has-text('round {round_id} \u00b7')"
    )
    desk.fill(f"{row} input", "keyboard")
    desk.focus(f"{row} button[data-void='{table}']")
    for _ in range(4):  # the first keydown, then three repeats
        desk.keyboard.down("Enter")
    desk.keyboard.up("Enter")
    desk.wait_for_selector(f"{row} button[data-confirm='{round_id}']")
    # whatever the repeats did has been answered by now: a live round
    assert books(srv)["on_layout"] >= 800
    state = HTTP.get(f"{srv.base}/tables/{table}").json()
    assert state["table"]["in_play"]["round_id"] == round_id
    assert fay.balance == start - 800
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#done:has-text('went back')")
    assert fay.balance == start
    HTTP.delete(f"{srv.base}/tables/{table}/seats/3", headers=fay.headers)


def test_the_desk_pages_the_players_and_finds_one_by_name(
    srv: LiveServer, desk: Any
) -> None:
    """With more players than a page (100), the desk lists the newest
    hundred, says how many there are, pages on, and finds a player by
    part of the name, whose deposit is then made; before, every account
    was listed at once, with no search."""
    for k in range(101):  # the operator's sign-ups are not rate limited
        made = HTTP.post(
            srv.base + "/players", json={"name": f"Crowd {k:03d}"}, headers=OP
        )
        assert made.status_code == 200, made.text
    zed = Guest(srv, "Zedekiah Quill")
    listed = HTTP.get(
        srv.base + "/players?operators=false&limit=500", headers=OP
    )
    total = int(listed.headers["X-Total-Count"])
    newest = [p["id"] for p in listed.json()][:100]
    desk.click("#refresh")
    desk.wait_for_selector(f"#players tr[data-player='{zed.id}']")
    shown = desk.eval_on_selector_all(
        "#players tr[data-player]", "rows => rows.map(r => +r.dataset.player)"
    )
    assert shown == newest
    pager = "#players-pager .pos"
    assert desk.inner_text(pager) == f"Players 1\u2013100 of {total}"
    desk.click("#players-pager [data-page='next']")
    desk.wait_for_selector(f"{pager}:has-text('Players 101\u2013')")
    rest = desk.eval_on_selector_all(
        "#players tr[data-player]", "rows => rows.map(r => +r.dataset.player)"
    )
    assert rest == [p["id"] for p in listed.json()][100:200]
    # a part of the name, in another case, finds him alone
    desk.fill("#fp-name", "quill")
    desk.press("#fp-name", "Enter")
    desk.wait_for_selector(f"{pager}:has-text('of 1 whose name holds')")
    assert desk.eval_on_selector_all(
        "#players tr[data-player]", "rows => rows.map(r => +r.dataset.player)"
    ) == [zed.id]
    start = zed.balance
    row = f"#players tr[data-player='{zed.id}']"
    desk.fill(f"{row} input", "12.34")
    desk_deposit(desk, row)
    desk.wait_for_selector("#done:has-text('$12.34 deposited for Zedekiah')")
    assert zed.balance == start + 1234
    books(srv)
