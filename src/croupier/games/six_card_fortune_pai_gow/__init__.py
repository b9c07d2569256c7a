"""Six-Card Fortune Pai Gow Poker (58 Pa. Code Chapter 670a).

53 cards (one deck and a joker), six betting positions and the dealer.
Dealt from the dealer's hand (670a.9), a manual dealing shoe (670a.8)
or an automated dealing shoe (670a.10), per the ``dealing`` option;
each position sets a five-card high hand and a one-card low hand
against the dealer's, set the house way. Wagers: ``pai_gow`` (the
Six-Card Fortune Pai Gow Poker Wager), ``fortune_bonus`` (with the Envy
Bonus), ``progressive``, and, where the Rules Submission offers it
(``double_down_offered``, off by default: 670a.7(e), D182), the Double
Down Wager after the cards.

Importing this package registers the game ``six-card-fortune-pai-gow``.
"""

from __future__ import annotations

from croupier.events import EventLog, Shuffled
from croupier.registry import GameSpec, register_game
from croupier.regs import Ref
from croupier.rng import Rng
from croupier.rules import GameRules
from croupier.shoe import Shoe

from .phases import PHASES, TRANSITIONS, PaiGowAction, Phase
from .round import SixCardRound
from .rules import Dealing, SixCardRules, Wager

__all__ = [
    "PHASES",
    "SPEC",
    "Dealing",
    "PaiGowAction",
    "Phase",
    "SixCardRound",
    "SixCardRules",
    "Wager",
    "new_round",
    "new_shoe",
]


def new_round(
    *,
    rules: GameRules,
    shoe: Shoe,
    rng: Rng | None = None,
    new_shoe: bool = True,
    starting_position: int | None = None,
) -> SixCardRound:
    """The registry factory: a round on a deck already shuffled and cut.

    ``new_shoe`` has no effect: the game has no burn procedure, and the
    deck comes from the automated shuffler for every round (670a.9(a)(1)).
    Construct :class:`SixCardRound` with ``shuffle=True`` to let the
    round shuffle the deck itself with its RNG.
    """
    if not isinstance(rules, SixCardRules):
        msg = f"expected SixCardRules, got {type(rules).__name__}"
        raise TypeError(msg)
    return SixCardRound(
        rules=rules,
        shoe=shoe,
        rng=rng,
        new_shoe=new_shoe,
        starting_position=starting_position,
    )


def shuffle_deck(
    rules: GameRules,
    shoe: Shoe,
    rng: Rng,
    log: EventLog,
    occupied_seats: tuple[int, ...],
) -> None:
    """The automated shuffling device shuffles the deck for every round.

    670a.9(a)(1) requires the device when dealing from the hand; the deck
    is reshuffled before every round whatever the dealing procedure.
    """
    shoe.shuffle(rng)
    described = rng.describe()
    seed = described.get("seed")
    log.emit(
        Shuffled,
        ref=Ref.parse("670a.9(a)(1)"),
        source=str(described["kind"]),
        cards=len(shoe),
        seed=seed if isinstance(seed, int) else None,
    )


def new_shoe(rules: GameRules, rng: Rng) -> Shoe:
    """One unshuffled 53-card deck: 52 cards and a joker."""
    return Shoe.new(decks=1, jokers=1)


SPEC = register_game(
    GameSpec(
        name="six-card-fortune-pai-gow",
        title="Six-Card Fortune Pai Gow Poker",
        section="670a.9",
        rules_type=SixCardRules,
        new_round=new_round,
        new_shoe=new_shoe,
        wagers=("pai_gow", "fortune_bonus", "progressive"),
        wager_titles=SixCardRound.wager_titles,
        actions=tuple(action.value for action in PaiGowAction),
        max_seats=6,
        seats_ref=SixCardRound.seats_ref,
        offered_ref=SixCardRound.offered_ref,
        transitions=TRANSITIONS,
        uses_starting_position=True,
        prepare_shoe=shuffle_deck,
        reshuffle_every_round=True,
    )
)
"""The registered game."""
