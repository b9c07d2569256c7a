"""The Midibaccarat simulator kernel agrees with the engine, round by round.

Shoes are shuffled and cut by the kernel's own code from a seeded
generator; each shoe is then played twice: by the kernel
(:func:`play_round`, :func:`shoe_rounds`) and by the state-machine
engine (a real :class:`Shoe` with the second cover card, the 629a.5(f)
burn in the first round, every wager on the layout), and every
settlement, the cards used and the reshuffle point are compared.
"""

from __future__ import annotations

import numpy as np
import pytest

from croupier.cards import Card
from croupier.games.midibaccarat import (
    CommissionFreeRound,
    CommissionFreeRule,
    CommissionFreeRules,
    Dealing,
    MidibaccaratRound,
    MidibaccaratRules,
)
from croupier.games.midibaccarat.rules import BaccaratRules
from croupier.money import Odds
from croupier.odds.baccarat.model import stake_unit, wagers_of
from croupier.odds.baccarat.simulation import (
    burn_start,
    play_round,
    prepared_shoe,
    shoe_rounds,
)
from croupier.rng import SeededRng
from croupier.rules import Paytable
from croupier.shoe import COVER_CARD, Shoe, StackItem

RULES: list[BaccaratRules] = [
    MidibaccaratRules(),
    MidibaccaratRules(
        decks=6, tie_payout=Odds(9, 1), dealing=Dealing.FACE_DOWN
    ),
    CommissionFreeRules(),
    CommissionFreeRules(
        decks=8,
        commission_free_rule=CommissionFreeRule.BANKER6_PAYS_HALF,
        perfect_pairs=Paytable.parse({"perfect": "25:1", "mixed": "5:1"}),
    ),
    CommissionFreeRules(decks=4, second_cover_from_bottom=30),
]


def _engine_shoe(codes: list[int], below_cover: int) -> Shoe:
    cards: list[StackItem] = [Card.from_code(c) for c in codes]
    cards.insert(len(cards) - below_cover, COVER_CARD)
    return Shoe(cards)


def _round_type(rules: BaccaratRules) -> type[MidibaccaratRound]:
    if isinstance(rules, CommissionFreeRules):
        return CommissionFreeRound
    return MidibaccaratRound


def _play_shoe(rules: BaccaratRules, codes: list[int]) -> int:
    """Play one shoe through both; return the rounds played."""
    shoe = _engine_shoe(codes, rules.second_cover_from_bottom)
    unit = stake_unit(rules)
    names = [str(w) for w in wagers_of(rules)]
    pos = burn_start(codes)
    rounds = 0
    while True:
        round_ = _round_type(rules)(
            rules=rules, shoe=shoe, rng=SeededRng(0), new_shoe=rounds == 0
        )
        for seat, name in enumerate(names, start=1):
            round_.place_wager(seat, name, unit)
        before = len(shoe)
        if rounds == 0:
            assert before == len(codes) - pos  # the (f) burn
        round_.deal()
        expected = play_round(rules, codes[pos:])
        assert before - len(shoe) == expected.used
        nets = {s.key.wager: s.net for s in round_.settlements}
        assert nets == expected.nets, (rounds, round_.hands())
        pos += expected.used
        rounds += 1
        if round_.cover_card_reached:
            return rounds


@pytest.mark.parametrize("rules", RULES, ids=lambda r: type(r).__name__)
def test_kernel_agrees_with_engine(rules: BaccaratRules) -> None:
    gen = np.random.default_rng(np.random.SeedSequence(2024, spawn_key=(6,)))
    played = 0
    while played < 800:
        codes = [int(c) for c in prepared_shoe(rules, gen)]
        rounds = _play_shoe(rules, codes)
        assert rounds == shoe_rounds(rules, codes)
        played += rounds
