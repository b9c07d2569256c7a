"""The desk against a careless operator (the thirteenth session).

- "Open a table" had no field for ``idle_seat_minutes``, ``idle_rounds``
  or the limits per wager: a table could be opened with them through
  the API only. Each setting is now a labelled field with its unit and
  range, and a refusal is written beside the field it concerns, in the
  server's words (D172).
- A deposit was made the moment Deposit was pressed: 1000 typed for 100
  credited ten times the money. Deposit now asks first, "Confirm
  $1,000.00 for NAME" beside a Cancel; Escape takes it back, and the
  status line (a live region) says what is asked (D173).

Every figure is checked through the API against what the test typed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.live import OPERATOR, LiveServer
from tests.web.pages import BROWSER_TEST, HTTP, Axe, api_player, opened_desk

from croupier.server.tables import TableSettings

pytestmark = BROWSER_TEST

OP = {"Authorization": f"Bearer {OPERATOR}"}

FIELDS = {
    "game": ("nt-game", ()),
    "name": ("nt-name", ()),
    "rules": ("nt-rules", ("JSON",)),
    "min_bet": ("nt-min", ("$",)),
    "max_bet": ("nt-max", ("$",)),
    "betting_seconds": ("nt-betting", ("seconds", "5 to 3600")),
    "decision_seconds": ("nt-decision", ("seconds", "5 to 3600")),
    "idle_seat_minutes": ("nt-idle-minutes", ("minutes", "1 to 1440")),
    "idle_rounds": ("nt-idle-rounds", ("rounds", "1 to 1000")),
}
"""Each field of ``POST /tables`` but the limits per wager: the desk's
field and the words its label must hold (the unit; the range D158,
D170 and D28 set)."""


@pytest.fixture
def desk(browser: Any, srv: LiveServer) -> Iterator[Any]:
    """The desk, open: its token typed in as an operator does."""
    yield from opened_desk(browser, srv)


def _tables(srv: LiveServer) -> list[dict[str, Any]]:
    return list(HTTP.get(srv.base + "/tables").json())


def _label_of(page: Any, field: str) -> str:
    """The words of the label a field is in (its accessible name)."""
    return str(
        page.eval_on_selector(
            f"#{field}",
            "e => Array.from(e.labels).map(l => l.textContent).join(' ')",
        )
    )


def _focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement.id"))


def test_d172_the_form_has_a_labelled_field_for_every_setting_of_the_api(
    srv: LiveServer, desk: Any
) -> None:
    """Every property of ``POST /tables``'s body (the OpenAPI schema) has
    its field, labelled with its unit and range; the limits per wager
    have a minimum and a maximum for each wager of the game chosen, and
    follow the game."""
    spec = HTTP.get(srv.base + "/openapi.json").json()
    taken = set(spec["components"]["schemas"]["NewTable"]["properties"])
    assert taken == {*FIELDS, "wager_limits"}
    for key, (field, words) in FIELDS.items():
        label = _label_of(desk, field)
        assert label, key
        for word in words:
            assert word in label, (key, label)
    desk.select_option("#nt-game", "midibaccarat-commission-free")
    wagers = [
        "player",
        "banker",
        "tie",
        "perfect_pairs_player",
        "perfect_pairs_banker",
        "dragon7",
        "panda8",
    ]
    for wager in wagers:
        for end in ("min", "max"):
            label = _label_of(desk, f"nt-wl-{wager}-{end}")
            assert "($)" in label, label
            assert ("Minimum" if end == "min" else "Maximum") in label
    desk.select_option("#nt-game", "double-back-jack")
    shown = desk.eval_on_selector_all(
        "#nt-wager-fields input", "es => es.map(e => e.id)"
    )
    assert shown == ["nt-wl-blackjack-min", "nt-wl-blackjack-max"]


def test_d172_the_desk_opens_a_table_with_every_setting(
    srv: LiveServer, desk: Any
) -> None:
    before = len(_tables(srv))
    desk.select_option("#nt-game", "midibaccarat")
    typed = {
        "nt-name": "Every setting",
        "nt-min": "10",
        "nt-max": "2,000",
        "nt-betting": "5",
        "nt-decision": "6.5",
        "nt-idle-minutes": "2.5",
        "nt-idle-rounds": "4",
        "nt-rules": '{"decks": 6}',
    }
    for field, value in typed.items():
        desk.fill(f"#{field}", value)
    desk.click("#nt-wagers summary")  # the limits per wager, shown
    desk.fill("#nt-wl-tie-min", "5")
    desk.fill("#nt-wl-tie-max", "50")
    desk.fill("#nt-wl-perfect_pairs_player-max", "25")  # min: the table's
    desk.click("#nt-go")
    desk.wait_for_selector("#done:has-text('Every setting')")
    after = _tables(srv)
    assert len(after) == before + 1
    made = after[-1]
    assert made["name"] == "Every setting"
    assert (made["min_bet"], made["max_bet"]) == (1_000, 200_000)
    assert made["settings"] == {
        "betting_seconds": 5,
        "decision_seconds": 6.5,
        "idle_seat_minutes": 2.5,
        "idle_rounds": 4,
    }
    assert made["wager_limits"] == {
        "tie": [500, 5_000],
        "perfect_pairs_player": [1_000, 2_500],
    }
    assert made["rules"]["decks"] == 6


def test_d172_each_refusal_is_beside_its_field_in_the_servers_words(
    srv: LiveServer, desk: Any
) -> None:
    """The server's refusal of a setting is written beside its field
    (the field marked invalid, described by it, focused), and in the
    error line; typing in the field takes the mark off. Refusals the
    desk makes itself (a format, a minimum above its maximum) are
    placed the same way. Nothing is opened."""
    before = _tables(srv)
    desk.select_option("#nt-game", "midibaccarat")
    desk.fill("#nt-name", "Careless")

    def refused(field: str, value: str, note: str, error: str) -> None:
        desk.fill(f"#{field}", value)
        desk.evaluate("document.getElementById('error').textContent = ''")
        desk.click("#nt-go")
        desk.wait_for_selector(f"#{field}-note:not([hidden])")
        assert desk.inner_text(f"#{field}-note") == note
        assert desk.get_attribute(f"#{field}", "aria-invalid") == "true"
        described = desk.get_attribute(f"#{field}", "aria-describedby")
        assert described == f"{field}-note"
        assert _focused(desk) == field
        assert error in desk.inner_text("#error")
        desk.fill(f"#{field}", "")  # typed again: the mark goes
        assert desk.get_attribute(f"#{field}", "aria-invalid") is None
        assert desk.is_hidden(f"#{field}-note")

    # the server's words (422): the setting, its range, the decision
    refused(
        "nt-idle-minutes",
        "0.5",
        "must be 1 to 1440 minutes (D158)",
        "idle seat minutes: must be 1 to 1440 minutes (D158)",
    )
    refused(
        "nt-betting",
        "0.1",
        "must be 5 to 3600 seconds (D170)",
        "betting seconds: must be 5 to 3600 seconds (D170)",
    )
    refused(
        "nt-decision",
        "3601",
        "must be 5 to 3600 seconds (D170)",
        "decision seconds: must be 5 to 3600 seconds (D170)",
    )
    refused(
        "nt-idle-rounds",
        "0",
        "must be 1 to 1000 rounds (D28)",
        "idle rounds: must be 1 to 1000 rounds (D28)",
    )
    taken = _tables(srv)[0]["name"]
    refused(
        "nt-name",
        taken,
        f'the table name "{taken}" is taken by table {_tables(srv)[0]["id"]}'
        ": an open table's name must differ from the others' in more than "
        "case and spaces (D157)",
        "is taken by table",
    )
    desk.fill("#nt-name", "Careless")
    # the desk's own: a whole number of rounds, a wager's limits in order
    refused(
        "nt-idle-rounds",
        "2.5",
        "Type the rounds a seat is kept without a wager in a whole "
        "number, like 3, or leave it empty for the server's 3.",
        "in a whole number",
    )
    desk.click("#nt-wagers summary")
    desk.fill("#nt-wl-tie-max", "5")
    refused(
        "nt-wl-tie-min",
        "50",
        "The Tie minimum $50.00 is above its maximum $5.00.",
        "above its maximum",
    )
    assert _tables(srv) == before


OWN_DEFAULTS = {
    "betting_seconds": 12,
    "decision_seconds": 45,
    "idle_seat_minutes": 9,
    "idle_rounds": 4,
}
"""A server's own settings for new tables, none of them D26-D28's."""


@pytest.fixture
def desk_of_own_defaults(browser: Any, srv: LiveServer) -> Iterator[Any]:
    """The desk of a server whose defaults are :data:`OWN_DEFAULTS`
    (as ``croupier serve --betting-seconds 12 ...`` gives), put back to
    the server's after."""
    kept = srv.casino.default_settings
    srv.casino.default_settings = TableSettings(**OWN_DEFAULTS)
    try:
        yield from opened_desk(browser, srv)
    finally:
        srv.casino.default_settings = kept


def test_d183_an_empty_setting_says_the_servers_value(
    srv: LiveServer, desk_of_own_defaults: Any
) -> None:
    """Each empty setting field shows the server's own value (where it
    said "server's" and no number), a refusal of the field names it,
    and a table opened with the fields empty takes exactly those."""
    desk = desk_of_own_defaults
    fields = {key: field for key, (field, _) in FIELDS.items()}
    for key, value in OWN_DEFAULTS.items():
        shown = desk.get_attribute(f"#{fields[key]}", "placeholder")
        assert shown == f"server's {value}"
    desk.select_option("#nt-game", "21-baccarat")
    desk.fill("#nt-name", "Server's pace")
    desk.fill("#nt-betting", "twelve")
    desk.click("#nt-go")
    desk.wait_for_selector("#nt-betting-note:not([hidden])")
    assert desk.inner_text("#nt-betting-note") == (
        "Type the betting time in seconds, like 20, or leave it empty for "
        "the server's 12."
    )
    desk.fill("#nt-betting", "")
    desk.click("#nt-go")
    desk.wait_for_selector('#done:has-text("Server\'s pace")')
    made = _tables(srv)[-1]
    assert made["name"] == "Server's pace"
    assert made["settings"] == OWN_DEFAULTS


NAMES = iter(["Careful Cy", "Careful Di", "Careful Ed", "Careful Flo"])
"""The guests' names (one server for the module: a name is one
player's, D31)."""


@pytest.fixture
def guest(srv: LiveServer) -> dict[str, Any]:
    """A player through the API: his name, id and headers."""
    name = next(NAMES)
    made = api_player(srv, name)
    return {"name": name, "id": made.id, "headers": made.headers}


def _balance(srv: LiveServer, guest: dict[str, Any]) -> int:
    me = HTTP.get(srv.base + "/me", headers=guest["headers"]).json()
    return int(me["balance"])


def test_d173_a_deposit_is_asked_before_it_is_made(
    srv: LiveServer, desk: Any, guest: dict[str, Any]
) -> None:
    """Deposit (a click, a double click) asks, naming the amount and the
    player, and sends nothing; Cancel and Escape take it back; Confirm
    makes it once."""
    start = _balance(srv, guest)
    sent: list[str] = []
    desk.on(
        "request",
        lambda r: sent.append(r.url) if "/deposits" in r.url else None,
    )
    desk.click("#refresh")
    row = f"#players tr[data-player='{guest['id']}']"
    desk.wait_for_selector(row)
    button = f"{row} button[data-deposit]"
    cancel = f"{row} button[data-cancel-deposit]"
    assert desk.is_hidden(cancel)
    desk.fill(f"{row} input", "1000")
    desk.dblclick(button)  # the second click confirms nothing
    desk.wait_for_selector(f"{button}[data-confirm='100000']")
    name = guest["name"]
    assert desk.inner_text(button) == f"Confirm $1,000.00 for {name}"
    assert desk.inner_text("#done") == (
        f"Deposit $1,000.00 for {name}? Confirm it, or Cancel (Escape)."
    )
    assert desk.get_attribute("#done", "role") == "status"
    assert desk.is_visible(cancel)
    assert sent == []
    assert _balance(srv, guest) == start
    desk.click(cancel)
    desk.wait_for_selector(f"{button}:not([data-confirm])")
    assert desk.inner_text("#done") == (
        f"No deposit for {name}: the $1,000.00 was not deposited."
    )
    assert desk.is_hidden(cancel)
    assert desk.input_value(f"{row} input") == "1000"  # to be corrected
    # the amount typed over takes the question back too
    desk.click(button)
    desk.wait_for_selector(f"{button}[data-confirm='100000']")
    # a click asks, and hands the focus to Confirm
    assert desk.evaluate("document.activeElement.dataset.deposit") == str(
        guest["id"]
    )
    desk.fill(f"{row} input", "100")
    desk.wait_for_selector(f"{button}:not([data-confirm])")
    assert "was typed over" in desk.inner_text("#done")
    desk.click(button)
    desk.wait_for_selector(f"{button}[data-confirm='10000']")
    assert sent == []
    desk.click(button)
    desk.wait_for_selector(f"#done:has-text('$100.00 deposited for {name}')")
    assert len(sent) == 1
    assert _balance(srv, guest) == start + 10_000
    assert desk.input_value(f"{row} input") == ""
    assert desk.inner_text(button).startswith("Deposit")


def test_d173_the_confirmation_by_keyboard(
    srv: LiveServer, desk: Any, guest: dict[str, Any]
) -> None:
    """Enter in the amount asks and puts the focus on Confirm; Enter
    held down there (its repeats) confirms nothing; Escape takes it
    back to the amount; Tab reaches Cancel; Enter on Confirm makes the
    deposit once."""
    start = _balance(srv, guest)
    sent: list[str] = []
    desk.on(
        "request",
        lambda r: sent.append(r.url) if "/deposits" in r.url else None,
    )
    desk.click("#refresh")
    row = f"#players tr[data-player='{guest['id']}']"
    desk.wait_for_selector(row)
    button = f"{row} button[data-deposit]"
    amount = f"{row} input"
    desk.focus(amount)
    desk.keyboard.type("250")
    for _ in range(4):  # the first keydown, then three repeats
        desk.keyboard.down("Enter")
    desk.keyboard.up("Enter")
    desk.wait_for_selector(f"{button}[data-confirm='25000']")
    assert desk.evaluate("document.activeElement.dataset.deposit") == str(
        guest["id"]
    )
    desk.wait_for_timeout(300)  # whatever the repeats did, done by now
    assert sent == []
    desk.keyboard.press("Escape")
    desk.wait_for_selector(f"{button}:not([data-confirm])")
    assert desk.evaluate("document.activeElement.matches('tr input')")
    assert "was not deposited" in desk.inner_text("#done")
    # asked again; Tab goes to Cancel, Enter there takes it back
    desk.keyboard.press("Enter")
    desk.wait_for_selector(f"{button}[data-confirm='25000']")
    desk.keyboard.press("Tab")
    assert desk.evaluate("document.activeElement.dataset.cancelDeposit")
    desk.keyboard.press("Enter")
    desk.wait_for_selector(f"{button}:not([data-confirm])")
    assert desk.evaluate("document.activeElement.matches('tr input')")
    # Escape in the amount field takes it back as well
    desk.keyboard.press("Enter")
    desk.wait_for_selector(f"{button}[data-confirm='25000']")
    desk.focus(amount)
    desk.keyboard.press("Escape")
    desk.wait_for_selector(f"{button}:not([data-confirm])")
    assert sent == []
    assert _balance(srv, guest) == start
    desk.keyboard.press("Enter")
    desk.wait_for_selector(f"{button}[data-confirm='25000']")
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#done:has-text('$250.00 deposited')")
    assert len(sent) == 1
    assert _balance(srv, guest) == start + 25_000


def test_d173_the_desk_asking_a_deposit_with_a_refused_field_passes_axe(
    srv: LiveServer, desk: Any, guest: dict[str, Any]
) -> None:
    desk.click("#refresh")
    row = f"#players tr[data-player='{guest['id']}']"
    desk.wait_for_selector(row)
    desk.fill("#nt-betting", "0.1")
    desk.click("#nt-go")
    desk.wait_for_selector("#nt-betting-note:not([hidden])")
    desk.click("#nt-wagers summary")
    desk.fill(f"{row} input", "75")
    desk.click(f"{row} button[data-deposit]")
    desk.wait_for_selector(f"{row} button[data-confirm]")
    axe = Axe(desk)
    axe.audit("operator desk, a deposit asked", phone=True)
    assert not any(axe.found.values()), axe.found
    desk.keyboard.press("Escape")
    desk.fill("#nt-betting", "")
