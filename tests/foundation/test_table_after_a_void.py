"""591.7(c), 681a.7(c), D69: after a shoe ran out, the table takes a new one.

A round that ran out reshuffles every card itself; the next round must
still begin a new shoe, with the new-shoe burn (c) and a cover card,
even when the round never met a cover card (a round the table adopted
on a shoe without one, as a server process takes over a table).
"""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.cards import full_deck, parse_cards
from croupier.events import CardBurned
from croupier.registry import find_game
from croupier.rng import SeededRng
from croupier.shoe import CoverCard, Shoe
from croupier.table import Table


def _whole(stack: str) -> Shoe:
    """One deck: ``stack`` on top of an empty shoe, the rest in the rack."""
    left = Counter(full_deck()) - Counter(parse_cards(stack))
    rack = [str(card) for card in full_deck() if left[card]]
    return Shoe.stacked(stack, discard=" ".join(rack))


@pytest.mark.parametrize(
    ("game", "wager", "stack"),
    [
        ("double-back-jack", "blackjack", "Th 6d 5c"),
        ("21-baccarat", "player", "Kd 5h 9c"),
    ],
)
def test_591_7_c_a_void_without_a_cover_card_ends_the_shoe(
    game: str, wager: str, stack: str
) -> None:
    spec = find_game(game)
    rules = spec.rules_type.from_mapping({"decks": 1})
    table = Table(spec, rules=rules, rng=SeededRng(1))
    rnd = spec.new_round(
        rules=rules,
        shoe=_whole(stack),
        rng=SeededRng(1),
        new_shoe=False,
        starting_position=None,
    )
    table.adopt(rnd)
    rnd.place_wager(1, wager, 100)
    rnd.deal()
    assert rnd.shoe_ran_out
    assert not rnd.cover_card_reached
    table.finish_round(rnd)
    after = table.new_round()
    assert after.new_shoe
    assert isinstance(after.events[0], CardBurned)
    assert any(isinstance(item, CoverCard) for item in after.shoe.stack)
