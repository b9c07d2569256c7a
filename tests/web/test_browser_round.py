"""The web table in a real browser: lobby, a seat, a round of each game.

The ``croupier serve`` process itself (a child process, ``site``), where
the other modules here serve the app in the test's own process; Playwright
drives Debian's chromium (the ``browser`` fixture of ``conftest.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.procs import OPERATOR_TOKEN, Server
from tests.web.pages import BROWSER_TEST, player_page

from croupier.registry import all_games

PASSIVE = [
    "stand",
    "no_insurance",
    "no_second_chance",
    "no_double_down",
    "house_way",
]

pytestmark = BROWSER_TEST


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("web") / "web.db"
    srv = Server(f"sqlite:///{db}")
    srv.start()
    yield srv
    srv.kill()


def _table_link(site: Server, game: str) -> str:
    """The lobby's link to the table the round is played at: the game's
    own, but for pai gow one the operator opens offering the Double Down
    (off by default, D182), so that its decision is pressed too."""
    if game != "six-card-fortune-pai-gow":
        return f".table-card[data-game='{game}'] a"
    opened = httpx.post(
        site.base + "/tables",
        json={"game": game, "rules": {"double_down_offered": True}},
        headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
    )
    assert opened.status_code == 200, opened.text
    return f"#tables a[data-table='{opened.json()['id']}']"


@pytest.mark.parametrize("game", [spec.name for spec in all_games()])
def test_play_a_round_in_the_browser(
    site: Server, browser: Any, game: str, tmp_path: Path
) -> None:
    link = _table_link(site, game)  # before the lobby is shown
    # names are unique (D31): one player per game
    name = "Ann " + game.replace("-", " ").title()[:30]
    page = player_page(
        browser,
        site,
        name,
        viewport={"width": 1400, "height": 820},
        bypass_csp=True,
    )
    page.click(link)
    page.wait_for_selector(".felt")
    page.click("[data-sit='1']")
    page.wait_for_selector(".seat.mine")
    page.click(".seat.mine button.spot >> nth=0")
    page.wait_for_selector(".seat.mine .spot .chip")
    page.click("#deal")
    page.wait_for_function(
        "document.querySelector('#narration').textContent.includes('dealt')"
    )
    if page.get_attribute("#status-panel", "data-status") == "playing":
        _check_after_deal(page, game)
    pressed = []
    for _ in range(20):
        page.wait_for_timeout(150)
        status = page.get_attribute("#status-panel", "data-status")
        buttons = page.query_selector_all("#actions button")
        if status == "betting" and not buttons:
            break
        names = [b.get_attribute("data-action") for b in buttons]
        if not names:
            continue
        name = next((a for a in PASSIVE if a in names), names[0])
        page.click(f"#actions button[data-action='{name}']")
        pressed.append(name)
    if game == "six-card-fortune-pai-gow":
        assert pressed[:1] == ["no_double_down"], pressed
    page.wait_for_selector("#result:not([hidden]) .headline")
    assert page.query_selector_all(".card")
    narration = page.inner_text("#narration")
    assert "§" in narration
    # every step is told in words, never as a key="value" dump
    assert '="' not in narration, narration
    assert "dealt to" in narration
    page.screenshot(path=str(tmp_path / f"{game}.png"))
    page.close()
    assert not page.errors, page.errors


def _check_after_deal(page: Any, game: str) -> None:
    """What the felt must show while the first decision is awaited."""
    if game == "six-card-fortune-pai-gow":
        # 670a.9(f): the stacks of positions without a wager are
        # discarded unexposed, so they leave the felt
        assert page.query_selector_all(".seat:not(.mine) .card") == []
        assert len(page.query_selector_all(".seat.mine .card")) == 6
    if game == "double-back-jack":
        # the hole card lies face down until it is turned (591.7(e)(4))
        assert len(page.query_selector_all(".area.dealer .card.back")) == 1
        assert page.query_selector(".seat.mine .spot[data-wager='blackjack']")
