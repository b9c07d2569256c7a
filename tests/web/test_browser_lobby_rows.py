"""The lobby's tables in a real browser: a row's Play buttons line up.

A table whose sections take two lines (commission-free Midibaccarat's
``629b.2, 629a.5`` at 300 px) put its Play button a line lower than its
neighbours'; each table is now a column with its button at the foot, and
a row's tables are as tall as its tallest. Fails on the page as it was.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

import pytest
from tests.web.live import LiveServer
from tests.web.pages import BROWSER_TEST, player_page

pytestmark = BROWSER_TEST

_BOXES = """() => [...document.querySelectorAll('.table-card')].map(card => {
  const c = card.getBoundingClientRect();
  const b = card.querySelector('.btn').getBoundingClientRect();
  return {game: card.dataset.game, top: Math.round(c.top),
          bottom: Math.round(c.bottom), button: Math.round(b.top),
          left: c.left, right: c.right};
})"""


@pytest.mark.parametrize("width", [1024, 1366, 1920])
def test_lobby_tables_of_a_row_have_their_play_buttons_in_line(
    srv: LiveServer, browser: Any, width: int
) -> None:
    size = {"width": width, "height": 900}
    page = player_page(browser, srv, f"Lobby {width}", viewport=size)
    page.wait_for_selector(".table-card .btn")
    cards = page.evaluate(_BOXES)
    inner = page.evaluate("document.documentElement.clientWidth")
    assert len(cards) >= 5, cards
    rows = [list(row) for _, row in groupby(cards, key=lambda c: c["top"])]
    assert any(len(row) > 1 for row in rows), rows
    for row in rows:
        assert len({c["button"] for c in row}) == 1, row
        # the button inside its table, under the table's text
        for card in row:
            assert card["top"] < card["button"] < card["bottom"], card
    # each row centred: as much room on its left as on its right
    for row in rows:
        left = row[0]["left"]
        right = inner - row[-1]["right"]
        assert abs(left - right) <= 20, (row, width)
    assert not page.errors, page.errors
    page.close()
