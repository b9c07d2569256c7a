"""An in-process table server for the browser tests, with a stacking hook.

The server runs with uvicorn on a thread of the test process, so a test
can reach the casino and arrange the next cards of a table's shoe (the
way the scenario files stack a shoe), then play them in the browser.
:func:`stack_next` only reorders the cards already in the shoe: the
composition, and so every conservation check, is unchanged.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn
from tests.server.procs import free_port

from croupier.cards import Card
from croupier.server.app import create_app
from croupier.server.casino import Casino

__all__ = ["CHROMIUM_ARGS", "LiveServer", "stack_open_round"]

OPERATOR = "operator-token-for-the-browser-tests-0123"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

_T = TypeVar("_T")


class LiveServer:
    """``create_app`` served by uvicorn on a thread, on a SQLite file."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.app = create_app(f"sqlite:///{db}", operator_token=OPERATOR)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        """The server's address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def casino(self) -> Casino:
        """The casino the server plays."""
        casino: Casino = self.app.state.casino
        return casino

    def start(self) -> None:
        """Start serving; wait until the tables answer."""
        self.thread.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/tables", timeout=1).is_success:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise AssertionError("server did not start")

    def stop(self) -> None:
        """Stop serving."""
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def between_requests(self, work: Callable[[], _T]) -> _T:
        """Run ``work`` on the test's thread while no request is in flight.

        The tests call it only when the browser and the API players are
        idle and the open round has no wager (so no clock runs): nothing
        else touches the table meanwhile.
        """
        return work()

    def table_id(self, game: str) -> int:
        """The id of the first table of ``game``."""
        for t in httpx.get(self.base + "/tables").json():
            if t["game"] == game:
                return int(t["id"])
        raise AssertionError(f"no {game} table")

    def stack_next(self, table_id: int, cards: str) -> None:
        """Put ``cards`` (``"Th 6s 9c"``) on top of the open round's shoe.

        The round must be open for wagers. Only the order changes: each
        card is taken from where it lies in the stack.
        """

        def work() -> None:
            stack_open_round(self.casino, table_id, cards)

        self.between_requests(work)

    def new_shoe_due(self, table_id: int) -> bool:
        """Whether the open round starts a shoe (its burn runs first)."""

        def due() -> bool:
            live = self.casino.table(table_id).live
            assert live is not None
            return bool(live.round.new_shoe)

        return self.between_requests(due)


def _same_value(a: Card, b: Card) -> bool:
    """Same rank, or both ten-valued: every game's totals are the same."""
    tens = {"T", "J", "Q", "K"}
    ra, rb = str(a)[:-1], str(b)[:-1]
    return ra == rb or (ra in tens and rb in tens)


def stack_open_round(casino: Casino, table_id: int, cards: str) -> None:
    """Reorder the open round's shoe so that ``cards`` come out first.

    Each card is taken from where it lies in the stack; one that earlier
    rounds used up is replaced by one of the same rank (or any ten-valued
    card for a ten-valued one), so totals are as stacked. The round must
    be open for wagers and must not start a shoe (its burn would come
    first).
    """
    live = casino.table(table_id).live
    assert live is not None
    assert not live.dealt
    assert not live.round.new_shoe
    shoe = live.round.shoe
    stack = list(shoe.stack)
    top: list[Any] = []
    for wanted in (Card.parse(c) for c in cards.split()):
        card = wanted
        if card not in stack:
            card = next(
                c
                for c in stack
                if isinstance(c, Card) and _same_value(c, wanted)
            )
        stack.remove(card)
        top.append(card)
    shoe.stack = top + stack
    live.round.initial_stack = shoe.notation()
    live.recorder.record.shoe = live.round.initial_stack
