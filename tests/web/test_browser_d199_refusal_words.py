"""D199, D200 in a real browser: the table page's words for a refusal.

The page puts a player's words on the server's refusals it knows
(``Croupier.friendly``), but three of its keys named errors the server
never sends: ``SeatTakenError`` (the server sends ``SeatError``, "seat 2
is taken"), ``AuthError`` and ``UnauthorizedError`` (it sends
``NotAuthenticatedError``). A player whose token had been revoked (or
had expired) and who pressed a spot was shown "A valid bearer token is
required." (or "... the operator renews it with croupier token
rotate"), words for an API client. And where the page put its own words
in place of the server's, it left the rule off when the server's words
had named it (an expired token's "... (D32): ..."). Each test here
fails on the page as it was.
"""

from __future__ import annotations

from typing import Any

from tests.web.live import OPERATOR, LiveServer
from tests.web.pages import (
    BROWSER_TEST,
    HTTP,
    api_player,
    idle,
    player_page,
    sit,
    token_of,
)

from croupier.errors import _names
from croupier.regs import Decision, Ref

pytestmark = BROWSER_TEST

CASHIER = {"Authorization": f"Bearer {OPERATOR}"}
EXPIRED = "Your session has expired: get chips again in the lobby."


def test_d199_a_revoked_players_bet_is_told_to_go_to_the_lobby(
    srv: LiveServer, browser: Any
) -> None:
    """A seated player whose token the operator revokes presses a spot:
    the page tells him what to do, not the API's words."""
    table = srv.table_id("midibaccarat")
    page = player_page(browser, srv, "Revoked Rita")
    sit(page, srv, table, 4)
    idle(page)
    me = HTTP.get(srv.base + "/me", headers=token_of(page)).json()
    gone = HTTP.delete(f"{srv.base}/players/{me['id']}/token", headers=CASHIER)
    assert gone.is_success, gone.text
    page.click(".seat.mine button.spot[data-wager='banker']")
    page.wait_for_selector("#error:not(:empty)")
    said = page.inner_text("#error")
    assert said == EXPIRED, said
    assert not page.errors, page.errors
    page.close()


def test_d199_a_seat_taken_and_an_expired_token_in_a_players_words(
    srv: LiveServer, browser: Any
) -> None:
    """The server's own refusals, read by the page's ``Croupier.friendly``:
    a seat another player holds, an expired token (D32), an unknown one,
    another's seat (D199) and an operator's task (D200)."""
    table = srv.table_id("21-baccarat")
    base = f"{srv.base}/tables/{table}"
    ann, bob = api_player(srv, "Seat Ann"), api_player(srv, "Seat Bob")
    assert HTTP.post(
        base + "/seats", json={"seat": 5}, headers=ann.headers
    ).is_success
    page = player_page(browser, srv, "Words Wendy")
    page.goto(f"{srv.base}/play/{table}")
    page.wait_for_selector("#seats .seat")
    answers = {
        "taken": HTTP.post(
            base + "/seats", json={"seat": 5}, headers=bob.headers
        ),
        "expired": HTTP.post(
            base + "/seats",
            json={"seat": 6},
            headers={"Authorization": "Bearer abcdefghijklmnop.86400"},
        ),
        "unknown": HTTP.post(
            base + "/seats",
            json={"seat": 6},
            headers={"Authorization": "Bearer no-such-token"},
        ),
        "another's": HTTP.post(
            base + "/wagers",
            json={"seat": 5, "wager": "player", "amount": 500},
            headers=bob.headers,
        ),
        "operator's": HTTP.post(
            srv.base + "/tables",
            json={"game": "21-baccarat"},
            headers=bob.headers,
        ),
    }
    shown = {
        what: page.evaluate(
            "([d, s]) => Croupier.friendly(d, s)",
            [answer.json(), answer.status_code],
        )
        for what, answer in answers.items()
    }
    HTTP.delete(base + "/seats/5", headers=ann.headers)
    assert shown == {
        "taken": "Someone else sat there first; choose another seat. "
        "(house rule\u00a0D199)",
        "expired": EXPIRED + " (house rule\u00a0D32)",
        "unknown": EXPIRED,
        "another's": "That seat is not yours. (house rule\u00a0D199)",
        "operator's": "Only the casino operator may do that. "
        "(house rule\u00a0D200)",
    }, shown
    assert not page.errors, page.errors
    page.close()


NAMED = [
    ("nothing was voided (D137)", "D137"),
    ("nothing was voided (D137)", "D13"),
    ("see D1370", "D137"),
    ("no draw on a 21 (591.7(k))", "591.7(k)"),
    ("no draw on a 21 (591.7(k)(1))", "591.7(k)"),
    ("under 591.7(k). Next", "591.7(k)"),
    ("x591.7(k)", "591.7(k)"),
    ("1591.7(k) and 591.7(k)", "591.7(k)"),
    ("é591.7(k)", "591.7(k)"),
    ("the rule: 629a.5(f)", "629a.5(f)"),
    ("nothing here", "D27"),
]
"""Messages and rules: whether each message names its rule already."""


def test_d198_the_page_and_the_server_agree_on_a_rule_named(
    srv: LiveServer, browser: Any
) -> None:
    """The page adds a refusal's rule after its words unless they name it
    (``Croupier.names``), by the rule the server's ``str`` of a refusal
    follows (``croupier.errors._names``): the two agree on every case.
    Before, the page knew only a decision's name: "(591.7(k))" in a
    message was followed by "(§ 591.7(k))"."""
    page = player_page(browser, srv, "Names Nell")
    for text, ref in NAMED:
        cite = Decision.parse(ref) if ref.startswith("D") else Ref.parse(ref)
        on_page = page.evaluate(
            "([t, r]) => Croupier.names(t, r)", [text, ref]
        )
        assert on_page == _names(text, cite), (text, ref, on_page)
    note = page.evaluate(
        "(d) => Croupier.refNote(d)",
        {"ref": "591.7(k)", "message": "no draw on a 21 (591.7(k))"},
    )
    assert note == ""
    assert not page.errors, page.errors
    page.close()
