"""D194 at the operator's desk: the cards changed between rounds.

Each table's row has a "Change the cards" control beside the void's: a
reason, then a press that arms it, naming the shoe, and a second press
that ends it (as the void, D137). While a stake is on the layout it is
refused with what to do instead, and nothing changes; once the round is
over the shoe ends, the row shows the new one, and the rounds dealt from
the old shoe are disclosed. By keyboard at desktop size, and audited by
axe with the end armed. Every figure is checked through the API.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.live import OPERATOR, LiveServer
from tests.web.pages import BROWSER_TEST, HTTP, Axe, api_player, opened_desk

pytestmark = BROWSER_TEST

OP = {"Authorization": f"Bearer {OPERATOR}"}


@pytest.fixture
def desk(browser: Any, srv: LiveServer) -> Iterator[Any]:
    """The desk at 1366 x 900, open."""
    yield from opened_desk(browser, srv)


def _table(srv: LiveServer, name: str) -> int:
    """A Midibaccarat table whose betting stays open an hour (D27)."""
    reply = HTTP.post(
        srv.base + "/tables",
        json={"game": "midibaccarat", "name": name, "betting_seconds": 3600},
        headers=OP,
    )
    assert reply.status_code == 200, reply.text
    return int(reply.json()["id"])


def _post(srv: LiveServer, path: str, body: Any, headers: Any) -> Any:
    reply = HTTP.post(srv.base + path, json=body, headers=headers)
    assert reply.status_code == 200, (path, reply.text)
    return reply.json()


def _table_state(srv: LiveServer, table: int) -> Any:
    return HTTP.get(f"{srv.base}/tables/{table}", headers=OP).json()


def test_d194_the_desk_changes_the_cards_by_keyboard_between_rounds(
    srv: LiveServer, desk: Any
) -> None:
    table = _table(srv, "Shoe desk")
    gil = api_player(srv, "Gil")
    _post(srv, f"/tables/{table}/seats", {"seat": 4}, gil.headers)
    bet = {"seat": 4, "wager": "player", "amount": 500}
    _post(srv, f"/tables/{table}/wagers", bet, gil.headers)
    state = _post(srv, f"/tables/{table}/deal", None, gil.headers)
    assert state["round"]["status"] == "betting", state["round"]
    dealt = state["last"]["id"]
    shoe = state["table"]["shoe"]["number"]
    # a stake on the layout: the desk refuses, and says what to do
    in_play = _post(srv, f"/tables/{table}/wagers", bet, gil.headers)
    round_id = in_play["round"]["id"]
    desk.click("#refresh")
    row = f"#tables tr[data-table='{table}']"
    desk.wait_for_selector(f"{row} .in-play:has-text('round {round_id}')")
    assert f"shoe {shoe} \u00b7" in desk.inner_text(f"{row} .shoe-no")
    reason = f"{row} input[data-shoe-reason='{table}']"
    button = f"{row} button[data-shoe-end='{table}']"
    desk.focus(reason)
    desk.keyboard.type("marked card")
    desk.keyboard.press("Tab")
    assert desk.evaluate(
        "() => document.activeElement.dataset.shoeEnd"
    ) == str(table)
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#error:not(:empty)")
    refused = desk.inner_text("#error")
    assert f"Round {round_id} is in play at Shoe desk #{table}" in refused
    assert "end the shoe after it, or void it (D29)" in refused
    assert desk.get_attribute(button, "data-confirm") is None
    now = _table_state(srv, table)
    assert now["table"]["shoe"]["number"] == shoe
    assert now["round"]["id"] == round_id

    # the round is dealt and over: the shoe may end
    over = _post(srv, f"/tables/{table}/deal", None, gil.headers)
    waiting = over["round"]["id"]
    desk.click("#refresh")
    desk.wait_for_selector(f"{row} .in-play:text-is('none')")
    desk.focus(button)
    for _ in range(3):  # Enter held down: the repeats confirm nothing
        desk.keyboard.down("Enter")
    desk.keyboard.up("Enter")
    desk.wait_for_selector(f"{button}[data-confirm='{shoe}']")
    assert "Confirm new cards" in desk.inner_text(button)
    said = desk.inner_text("#done")
    assert f"to end shoe {shoe} at Shoe desk #{table}" in said, said
    assert _table_state(srv, table)["round"]["id"] == waiting
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#done:has-text('is ended')")
    said = desk.inner_text("#done")
    after = _table_state(srv, table)
    new_round = after["round"]["id"]
    assert after["table"]["shoe"]["number"] == shoe + 1
    assert new_round != waiting
    assert f"Shoe {shoe} at Shoe desk #{table} is ended" in said, said
    assert f"shoe {shoe + 1} is dealt from round {new_round}" in said, said
    assert "2 rounds' stacks disclosed" in said, said
    desk.wait_for_selector(f"{row} .shoe-no:has-text('shoe {shoe + 1} ')")
    steps = [e["type"] for e in after["round"]["events"]]
    assert steps[-1] == "shoe_ended"
    for rid in (dealt, round_id):
        recalled = HTTP.get(f"{srv.base}/rounds/{rid}", headers=OP).json()
        assert recalled["disclosed"] is True, recalled
    HTTP.delete(f"{srv.base}/tables/{table}/seats/4", headers=gil.headers)


def test_d194_the_desk_with_an_end_of_shoe_armed_passes_axe(
    srv: LiveServer, desk: Any
) -> None:
    table = _table(srv, "Axe shoe desk")
    row = f"#tables tr[data-table='{table}']"
    desk.click("#refresh")
    button = f"{row} button[data-shoe-end='{table}']"
    desk.wait_for_selector(button)
    desk.fill(f"{row} input[data-shoe-reason='{table}']", "audit")
    desk.click(button)
    desk.wait_for_selector(f"{button}[data-confirm]")
    axe = Axe(desk)
    axe.audit("operator desk, an end of shoe armed", phone=True)
    assert not any(axe.found.values()), axe.found
    desk.click(button)
    desk.wait_for_selector("#done:has-text('is ended')")
    axe.audit("operator desk, a shoe ended")
    assert not any(axe.found.values()), axe.found
