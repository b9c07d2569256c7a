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
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn
from tests.server.procs import free_port

from croupier.cards import Card
from croupier.games.six_card_fortune_pai_gow.round import SixCardRound
from croupier.games.six_card_fortune_pai_gow.rules import Dealing
from croupier.server.app import create_app
from croupier.server.casino import Casino
from croupier.server.tables import RecordedRng
from croupier.shoe import CoverCard

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "DOUBLE_DOWN",
    "LiveServer",
    "cover_card_next",
    "runs_low",
    "stack_open_round",
    "stack_pai_gow",
]

OPERATOR = "operator-token-for-the-browser-tests-0123"
CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium, which the browser tests drive."""
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

TableRules = Mapping[str, Mapping[str, object]]
"""Rules Submission options of the tables a server opens, by game."""

DOUBLE_DOWN: TableRules = {
    "six-card-fortune-pai-gow": {"double_down_offered": True},
}
"""A pai gow table that offers the Double Down Wager, for the browser
tests that decide on it: the wager is off by default (670a.7(e), D182)."""


class LiveServer:
    """``create_app`` served by uvicorn on a thread, on a SQLite file.

    ``rules`` are the options of the table it opens for a game (the
    game's defaults for the others), as an operator's ``POST /tables``
    gives them; the tables are opened in the order and with the names
    the server gives its own (one per game).
    """

    def __init__(
        self,
        db: Path,
        port: int | None = None,
        *,
        rules: TableRules | None = None,
    ) -> None:
        self.port = port or free_port()
        self.app = create_app(
            f"sqlite:///{db}",
            operator_token=OPERATOR,
            default_tables=not rules,
        )
        if rules:
            self.casino.open_game_tables(rules)
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

    def stack_pai_gow(self, table_id: int, hands: dict[int, str]) -> None:
        """Deal each position of ``hands`` (seat, 7 the dealer) its six.

        See :func:`stack_pai_gow`; the round must be open for wagers.
        """

        def work() -> None:
            stack_pai_gow(self.casino, table_id, hands)

        self.between_requests(work)

    def runs_low(self, table_id: int) -> bool:
        """See :func:`runs_low`; the round must be open."""
        return self.between_requests(lambda: runs_low(self.casino, table_id))

    def cover_card_next(self, table_id: int) -> None:
        """See :func:`cover_card_next`; the round must be open."""
        self.between_requests(lambda: cover_card_next(self.casino, table_id))

    def new_shoe_due(self, table_id: int) -> bool:
        """Whether the open round starts a shoe (its burn runs first)."""

        def due() -> bool:
            live = self.casino.table(table_id).live
            assert live is not None
            return bool(live.round.new_shoe)

        return self.between_requests(due)


def _value(card: Card) -> str:
    """A card's rank, ``T`` for every ten-valued one."""
    rank = str(card)[:-1]
    return "T" if rank in {"T", "J", "Q", "K"} else rank


def _same_value(a: Card, b: Card) -> bool:
    """Same rank, or both ten-valued: every game's totals are the same."""
    return _value(a) == _value(b)


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
        found: Card | None = wanted
        if wanted not in stack:
            found = next(
                (
                    c
                    for c in stack
                    if isinstance(c, Card) and _same_value(c, wanted)
                ),
                None,
            )
        assert found is not None, (
            f"no card of {wanted}'s value left in the stack of "
            f"{len(stack)}: {' '.join(map(str, stack))}"
        )
        card = found
        stack.remove(card)
        top.append(card)
    _restack(live, top + stack)


def runs_low(casino: Casino, table_id: int) -> bool:
    """Whether the open round's stack holds fewer than half of the cards a
    full shoe has of some value (ten-valued cards as one value).

    A stacked round takes the cards it names from this stack; rounds
    stacked one after another in a shoe use up some values (sixes,
    nines) far faster than a shuffle would, so a test ends a shoe
    (:func:`cover_card_next`) that runs low before it stacks one.
    """
    live = casino.table(table_id).live
    assert live is not None
    decks = getattr(live.round.rules, "decks", None)
    assert isinstance(decks, int), "a shoe game's rules name its decks"
    left = dict.fromkeys("A23456789T", 0)
    for card in live.round.shoe.stack:
        if isinstance(card, Card):
            left[_value(card)] += 1
    return any(
        2 * n < 4 * decks * (4 if value == "T" else 1)
        for value, n in left.items()
    )


def cover_card_next(casino: Casino, table_id: int) -> None:
    """Move the shoe's last cover card to the top of the open round's stack.

    The round then meets it on its first draw and the shoe ends as the
    game says: the round deals on and reshuffles when it ends
    (591.7(d)(1)-(2), 681a.7(d)), or one more coup follows (629a.5).
    Only the order changes. The round must be open for wagers and must
    not start a shoe. A stack whose cover card already came out (its
    shoe ends after this round) is left as it is.
    """
    live = casino.table(table_id).live
    assert live is not None
    assert not live.dealt
    assert not live.round.new_shoe
    stack = list(live.round.shoe.stack)
    covers = [i for i, item in enumerate(stack) if isinstance(item, CoverCard)]
    if covers:
        cover = stack.pop(covers[-1])
        _restack(live, [cover, *stack])


def _restack(live: Any, stack: list[Any]) -> None:
    """Put ``stack`` in the open round's shoe and in its record."""
    shoe = live.round.shoe
    assert sorted(map(str, stack)) == sorted(map(str, shoe.stack))
    shoe.stack = stack
    live.round.initial_stack = shoe.notation()
    live.recorder.record.shoe = live.round.initial_stack


DEALER = 7
"""The dealer's position at Six-Card Fortune Pai Gow Poker (670a.9(b))."""


def stack_pai_gow(
    casino: Casino, table_id: int, hands: dict[int, str]
) -> None:
    """Arrange the open pai gow round's deck so each position gets its six.

    The table shuffles the deck when it opens the round, before any
    wager (670a.9(a)(1)); the round draws the starting position from the
    table's RNG when it deals (670a.9(b), D84). Here that draw is queued
    in the table's :class:`RecordedRng`, as a restart replays a stored
    one, so that the round starts at seat 1. The deal takes one card
    at a time, face down, clockwise from that position to every position
    and the dealer (7) until each has six (670a.9(c)). So this reorders
    the shuffled deck: card ``7 * turn + k`` of the 42 goes to the k-th
    position clockwise from the start. Positions not in ``hands`` get
    cards left over in the shuffled order; the eleven under them stay.
    Only the order changes (the same 53 cards).
    """
    live = casino.table(table_id).live
    assert live is not None
    rnd = live.round
    assert isinstance(rnd, SixCardRound)
    assert not live.dealt
    assert rnd.rules.dealing is Dealing.HAND  # one card at a time
    assert not rnd.shuffle_first  # the round deals the deck as it lies
    assert rnd.given_start is None  # the round draws it as it deals
    table_rng = casino.table(table_id).table.rng
    assert isinstance(table_rng, RecordedRng)
    assert not table_rng.replay
    start = 1
    # the number drawn counts from the dealer as 1, counter-clockwise:
    # number n is position DEALER + 1 - n; randbelow gives n - 1
    table_rng.replay.append((DEALER, DEALER - start))
    order = [(start - 1 + k) % DEALER + 1 for k in range(DEALER)]
    wanted = {
        p: [Card.parse(c) for c in text.split()] for p, text in hands.items()
    }
    assert all(len(cards) == 6 for cards in wanted.values()), hands
    rest: list[Any] = list(rnd.shoe.stack)
    for cards in wanted.values():
        for card in cards:
            rest.remove(card)  # a full deck: every card is there
    spare = iter(list(rest))
    top = [
        wanted[p][turn] if p in wanted else next(spare)
        for turn in range(6)
        for p in order
    ]
    for card in top:
        if card in rest:
            rest.remove(card)
    _restack(live, top + rest)
