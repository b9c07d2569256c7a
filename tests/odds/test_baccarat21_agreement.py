"""The 21 Baccarat simulator kernel agrees with the engine, round by round.

Shoes are shuffled by the kernel's own code from a seeded generator;
each is played by the kernel (:func:`play_round`, :func:`shoe_rounds`)
and by the engine (a real :class:`Shoe` with the cover card at the
penetration, the (c) burn in the first round), with and without Bonus
Wagers, and every settlement, the cards used (Bonus-only cards
included) and the reshuffle point are compared.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.cards import Card
from croupier.games.baccarat21 import Baccarat21Round, Baccarat21Rules
from croupier.money import Odds
from croupier.odds.baccarat21.model import stake_unit
from croupier.odds.baccarat21.simulation import (
    cover_position,
    play_round,
    prepared_shoe,
    shoe_rounds,
)
from croupier.rng import SeededRng
from croupier.rules import Paytable
from croupier.shoe import COVER_CARD, Shoe, StackItem

RULES = [
    Baccarat21Rules(),
    Baccarat21Rules(
        decks=2,
        penetration=Fraction(2, 3),
        tie_payout=Odds(9, 1),
        banker_payout=Odds(1, 1),
        bonus_paytable=Paytable.parse(
            {"pair": "1:1", "flush": "3:1", "straight": "6:1"}
        ),
    ),
    Baccarat21Rules(decks=6),
    # one deck cut at 19/20: the last round often needs more than the
    # shoe holds, and is void (D69), its wagers returned
    Baccarat21Rules(decks=1, penetration=Fraction(19, 20)),
]


def _play_shoe(
    rules: Baccarat21Rules, codes: list[int], bonus: bool
) -> tuple[int, bool]:
    """The engine's rounds of the shoe, checked against the kernel's.

    Returns the rounds and whether the last was void for want of cards.
    """
    stack: list[StackItem] = [Card.from_code(c) for c in codes]
    stack.insert(cover_position(rules), COVER_CARD)
    shoe = Shoe(stack)
    unit = stake_unit(rules)
    names = ["player", "banker", "tie"]
    if bonus:
        names += ["bonus_player", "bonus_banker"]
    pos = 1
    rounds = 0
    while True:
        round_ = Baccarat21Round(
            rules=rules, shoe=shoe, rng=SeededRng(0), new_shoe=rounds == 0
        )
        for seat, name in enumerate(names, start=1):
            round_.place_wager(seat, name, unit)
        before = len(shoe)
        round_.deal()
        expected = play_round(rules, codes[pos:], bonus=bonus)
        nets = {s.key.wager: s.net for s in round_.settlements}
        assert nets == expected.nets, (rounds, round_.hands())
        rounds += 1
        if round_.shoe_ran_out:
            assert set(nets.values()) == {0}
            assert {s.outcome.value for s in round_.settlements} == {"void"}
            return rounds, True
        if round_.cover_card_reached:
            return rounds, False
        assert before - len(shoe) == expected.used
        pos += expected.used


@pytest.mark.parametrize("bonus", [True, False], ids=["bonus", "no_bonus"])
@pytest.mark.parametrize(
    "rules", RULES, ids=["default", "2_decks", "6_decks", "1_deck_deep"]
)
def test_kernel_agrees_with_engine(
    rules: Baccarat21Rules, bonus: bool
) -> None:
    gen = np.random.default_rng(np.random.SeedSequence(21, spawn_key=(6,)))
    played = voided = 0
    while played < 800:
        codes = [int(c) for c in prepared_shoe(rules, gen)]
        rounds, void = _play_shoe(rules, codes, bonus)
        assert rounds == shoe_rounds(rules, codes, bonus=bonus)
        played += rounds
        voided += void
    # a shoe runs out only when the cover card lies within a round's
    # six cards of the end
    assert (voided > 0) == (len(codes) - cover_position(rules) < 6)
