"""Double Back Jack (58 Pa. Code 591.7, now Chapter 673a).

Blackjack played against a dealer who checks the hole card with a card
reader device, pays player Blackjacks and 21s at once, and offers a
Second Chance Wager on a busted hand. The package holds the Rules
Submission options and wagers (:mod:`.rules`), the phases and decisions
(:mod:`.phases`), the hands (:mod:`.hands`), the dealer's steps
(:mod:`.procedure`), the round (:mod:`.round`) and its views
(:mod:`.views`); importing it registers the game.

>>> from croupier.registry import find_game
>>> spec = find_game("double-back-jack")
>>> spec.section, spec.max_seats, spec.wagers
('591.7', 6, ('blackjack',))
"""

from __future__ import annotations

from typing import cast

from croupier.registry import GameSpec, register_game
from croupier.rng import Rng
from croupier.rules import GameRules
from croupier.shoe import Shoe

from .phases import PHASES, TRANSITIONS, DbjAction, Phase
from .round import DoubleBackJackRound
from .rules import MAX_BOXES, CollectionProcedure, DoubleBackJackRules, Wager

__all__ = [
    "PHASES",
    "CollectionProcedure",
    "DbjAction",
    "DoubleBackJackRound",
    "DoubleBackJackRules",
    "Phase",
    "Wager",
    "new_shoe",
    "shuffled_shoe",
]


def new_shoe(rules: GameRules, rng: Rng) -> Shoe:
    """A full, unshuffled shoe of ``rules.decks`` decks (673a.3(a))."""
    return Shoe.new(decks=cast("DoubleBackJackRules", rules).decks)


def shuffled_shoe(rules: DoubleBackJackRules, rng: Rng) -> Shoe:
    """A shuffled shoe with its cover card at ``rules.penetration``.

    The shuffle-and-cut procedure itself (591.5, now 673a.5) was not
    retrieved; this stands in for it in simulations and tests.
    """
    shoe = Shoe.new(decks=rules.decks)
    shoe.shuffle(rng)
    shoe.insert_cover_card(int(len(shoe) * rules.penetration))
    return shoe


register_game(
    GameSpec(
        name=DoubleBackJackRound.game,
        title="Double Back Jack",
        section="591.7",
        rules_type=DoubleBackJackRules,
        new_round=DoubleBackJackRound,
        new_shoe=new_shoe,
        wagers=DoubleBackJackRound.wager_names,
        wager_titles=DoubleBackJackRound.wager_titles,
        actions=tuple(action.value for action in DbjAction),
        max_seats=MAX_BOXES,
        seats_ref=DoubleBackJackRound.seats_ref,
        offered_ref=DoubleBackJackRound.offered_ref,
        transitions=TRANSITIONS,
    )
)
