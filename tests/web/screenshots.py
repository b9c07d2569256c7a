"""Take the README's screenshots of every table, desktop and phone.

``.venv/bin/python -m tests.web.screenshots [FOLDER]`` (default
``docs/screenshots``) serves a fresh casino, seats a few players at each
table, plays a round with stacked cards where that shows the table at
its busiest (Double Back Jack's split and Second Chance hands) and
saves ``table-GAME.png`` (1366 x 1000) and ``table-GAME-phone.png``
(375 x 812, the whole page), plus the lobby and the recall page.
Not a test: it only draws.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from tests.server.conftest import passive_action
from tests.web.live import CHROMIUM_ARGS, LiveServer
from tests.web.pages import seated_player

GAMES = {
    "double-back-jack": ("blackjack", (1, 2)),
    "midibaccarat": ("banker", (2, 3, 6)),
    "midibaccarat-commission-free": ("player", (1, 4, 7)),
    "21-baccarat": ("player", (1, 3)),
    "six-card-fortune-pai-gow": ("pai_gow", (1, 4)),
}
"""Each game's wager for the other players and their seats."""

DBJ_SPLIT = "8h Td 6s 8d 9h Ts 3c 6h Kc 4d 9s"
"""Seat 1 splits 8s, stands on 11, busts the other hand and takes a Second
Chance to 20; seat 2 stands on 19; the dealer busts."""
DBJ_SCRIPT = ["split", "stand", "hit", "second_chance"]
NAMES = iter(["Bea", "Carl", "Dora", "Eli", "Fay", "Gus", "Hana", "Ivo"])


def _post(srv: LiveServer, headers: Any, path: str, body: Any = None) -> Any:
    r = httpx.post(srv.base + path, json=body, headers=headers)
    r.raise_for_status()
    return r.json()


def main(folder: Path) -> None:
    """Draw every screenshot into ``folder``."""
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        srv = LiveServer(Path(tmp) / "shots.db")
        srv.start()
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
            )
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            page.goto(srv.base + "/")
            page.fill("#name", "Ann")
            page.click("#join")
            page.wait_for_selector("#balance:has-text('$')")
            page.screenshot(path=str(folder / "lobby.png"))
            for game, (wager, seats) in GAMES.items():
                _table(srv, page, folder, game, wager, seats)
            page.set_viewport_size({"width": 1366, "height": 1000})
            page.goto(srv.base + "/recall")
            page.wait_for_selector("#rounds tr[data-round] a")
            page.click("#rounds tr[data-round] a")
            page.wait_for_selector("#step-pos")
            page.click("[data-step='first']")
            for _ in range(14):
                page.click("[data-step='next']")
            page.screenshot(path=str(folder / "recall.png"))
            browser.close()
        srv.stop()


def _table(
    srv: LiveServer,
    page: Any,
    folder: Path,
    game: str,
    wager: str,
    seats: tuple[int, ...],
) -> None:
    table = srv.table_id(game)
    others = {}
    for seat in seats[1:]:
        others[seat] = seated_player(srv, table, seat, next(NAMES))
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto(f"{srv.base}/play/{table}")
    page.click(f"[data-sit='{seats[0]}']")
    page.wait_for_selector(".seat.mine")
    token = page.evaluate("localStorage.getItem('croupier.token')")
    me = {"Authorization": f"Bearer {token}"}
    if game == "double-back-jack":
        _play(srv, table, {seats[0]: me, **others}, wager)  # the burn
        srv.stack_next(table, DBJ_SPLIT)
    page.click("[data-chip='2500']")
    page.click(f".seat.mine button.spot[data-wager='{wager}']")
    page.wait_for_timeout(150)
    script = list(DBJ_SCRIPT) if game == "double-back-jack" else []
    _play(srv, table, {seats[0]: me, **others}, wager, seats[0], script)
    page.wait_for_selector("#result:not([hidden])")
    page.wait_for_timeout(200)
    page.screenshot(path=str(folder / f"table-{game}.png"))
    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_timeout(300)
    page.screenshot(
        path=str(folder / f"table-{game}-phone.png"), full_page=True
    )


def _play(
    srv: LiveServer,
    table: int,
    players: dict[int, dict[str, str]],
    wager: str,
    mine: int | None = None,
    script: list[str] | None = None,
) -> None:
    """Every other seat bets, all are ready; decisions until the end."""
    for seat, headers in players.items():
        if seat != mine:
            _post(
                srv,
                headers,
                f"/tables/{table}/wagers",
                {"seat": seat, "wager": wager, "amount": 1000},
            )
    for seat, headers in players.items():
        _post(srv, headers, f"/tables/{table}/ready", {"seat": seat})
    for _ in range(40):
        state = httpx.get(
            f"{srv.base}/tables/{table}", headers=players[min(players)]
        ).json()
        pending = state["round"]["pending"]
        if state["round"]["status"] != "playing" or pending is None:
            return
        legal = pending["legal"]
        act = passive_action(legal)
        if script and script[0] in legal:
            act = script.pop(0)
        _post(
            srv,
            players[pending["seat"]],
            f"/tables/{table}/actions",
            {"seat": pending["seat"], "action": act},
        )


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
