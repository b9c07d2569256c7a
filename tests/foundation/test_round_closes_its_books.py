"""Every round accounts for its cards and chips when it ends, whoever runs it.

The engine's standard: nothing is ever lost. 21 Baccarat and pai gow
counted their cards inside the round; Double Back Jack and both
Midibaccarats left the count to the table that ran them
(``Table.finish_round``), so a round run by itself (the verifier's
replay of a log, a scenario) could end with a card gone unnoticed.
The round now closes its books as it enters its last phase: the ledger
and the cards, for every game alike.
"""

from __future__ import annotations

import contextlib

import pytest

from croupier.autoplay import auto_action
from croupier.cards import Card
from croupier.errors import CardConservationError, CroupierError
from croupier.registry import GameSpec, all_games
from croupier.rng import SeededRng
from croupier.round import GameRound

GAMES = list(all_games())
_IDS = [spec.name for spec in GAMES]


def _round(spec: GameSpec, seed: int) -> GameRound:
    """A round of ``spec`` by itself (no table), two seats wagered."""
    rules = spec.rules_type()
    rnd = spec.new_round(
        rules=rules,
        shoe=spec.new_shoe(rules, SeededRng(seed)),
        rng=SeededRng(seed),
        new_shoe=True,
    )
    assert isinstance(rnd, GameRound)
    for seat in (1, 2):
        for wager in spec.wagers:
            with contextlib.suppress(CroupierError):
                rnd.place_wager(seat, wager, 500)
    assert rnd.can_deal()
    return rnd


def _play(rnd: GameRound) -> None:
    rnd.deal()
    while (pending := rnd.pending()) is not None:
        rnd.apply(auto_action(rnd, pending))


@pytest.mark.parametrize("spec", GAMES, ids=_IDS)
def test_a_round_by_itself_ends_with_its_books_closed(spec: GameSpec) -> None:
    for seed in range(5):
        rnd = _round(spec, seed)
        _play(rnd)
        assert rnd.is_over


@pytest.mark.parametrize("spec", GAMES, ids=_IDS)
def test_a_round_by_itself_that_loses_a_card_does_not_end_quietly(
    spec: GameSpec,
) -> None:
    rnd = _round(spec, 7)
    stack = rnd.shoe.stack
    # a card slips out from the bottom of the shoe, under every card the
    # round deals: only the count can find it
    lost = max(i for i, item in enumerate(stack) if isinstance(item, Card))
    del stack[lost]
    with pytest.raises(CardConservationError, match="missing"):
        _play(rnd)
