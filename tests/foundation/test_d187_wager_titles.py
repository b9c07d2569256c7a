"""D187: a refusal names a wager as the game's section does, not by its id.

Each game's rules module maps its wagers' ids to the names its section
writes ("banker": "Banker Wager"); the round's
:meth:`~croupier.round.Round.wager_title` reads it, and every refusal
that names a wager goes through it. Here, for every registered game:
every wager it may place, and every wager its rounds put on the layout
(a Second Chance, an insurance, a Double Down), has a name; and no
refusal met while its rounds are played names a wager by its id.
"""

from __future__ import annotations

import contextlib
import random
import re

import pytest

from croupier.errors import CroupierError
from croupier.registry import GameSpec, all_games
from croupier.rng import SeededRng
from croupier.round import Action, GameRound, Round
from croupier.table import Table

GAMES = all_games()
_IDS = [g.name for g in GAMES]


def _refusals(rnd: Round, seats: range, wagers: list[str]) -> list[str]:
    """What ``rnd`` says to every wager placed or changed at ``seats``."""
    said = []
    for seat in seats:
        for wager in wagers:
            for attempt in (rnd.place_wager, rnd.change_wager):
                try:  # one that is taken changes the round: so be it
                    attempt(seat, wager, 1)
                except CroupierError as exc:
                    said.append(exc.message)
    return said


def _played(spec: GameSpec, rounds: int) -> tuple[set[str], list[str]]:
    """The wagers ``rounds`` rounds put on the layout, and the refusals
    met on the way (a wager of each id tried at every step)."""
    chooser = random.Random(f"D187 {spec.name}")
    table = Table(spec, rng=SeededRng(187))
    placed: set[str] = set()
    said: list[str] = []
    for _ in range(rounds):
        rnd = table.new_round(occupied_seats=(1, 2))
        ids = sorted(set(spec.wagers) | set(rnd.wager_titles))
        for seat in (1, 2):
            for wager in spec.wagers:
                with contextlib.suppress(CroupierError):
                    rnd.place_wager(seat, wager, chooser.choice((500, 1000)))
        said += _refusals(rnd, range(1, 3), ids)
        assert isinstance(rnd, GameRound)
        if not rnd.can_deal():  # pragma: no cover - two seats wagered
            continue
        rnd.deal()
        said += _refusals(rnd, range(1, 3), ids)
        while (pending := rnd.pending()) is not None:
            name = chooser.choice([a for a in pending.legal if a != "set"])
            amount = 1 if name == "insurance" else None
            rnd.apply(Action(seat=pending.seat, name=name, amount=amount))
            said += _refusals(rnd, range(1, 3), ids)
        placed |= {key.wager for key in rnd.ledger.stakes}
        table.finish_round(rnd)
    return placed, said


@pytest.mark.parametrize("spec", GAMES, ids=_IDS)
def test_d187_every_wager_has_its_sections_name(spec: GameSpec) -> None:
    rnd = Table(spec, rng=SeededRng(1)).new_round(occupied_seats=(1,))
    titles = rnd.wager_titles
    assert dict(spec.wager_titles) == dict(titles)
    assert set(spec.wagers) <= set(titles)
    for wager, title in titles.items():
        assert rnd.wager_title(wager) == title
        assert " Wager" in title, title
        assert "_" not in title, title
    # a name the game does not have is no wager of it: said as written
    assert rnd.wager_title("nope") == "nope"


@pytest.mark.parametrize("spec", GAMES, ids=_IDS)
def test_d187_no_refusal_names_a_wager_by_its_id(spec: GameSpec) -> None:
    placed, said = _played(spec, 12)
    titles = spec.wager_titles
    assert placed <= set(titles), placed - set(titles)
    assert said
    for wager in titles:
        # "a banker wager", "the second_chance wager", "fortune_bonus is"
        by_id = re.compile(
            rf"\b{wager}\b" if "_" in wager else rf"\b{wager} wager\b"
        )
        for message in said:
            # a phase is named in words too (D189): "the round is in the
            # Second Chance phase", no more "phase is second_chance"
            assert not by_id.search(message), (wager, message)
