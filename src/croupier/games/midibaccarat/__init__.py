"""Midibaccarat (Chapter 629a) and commission-free Midibaccarat (629b).

Two games are registered here: ``midibaccarat`` (Banker wins pay 19 to
20, a 5 % commission, D9/D10) and ``midibaccarat-commission-free``
(629b.2: no commission; a Banker win on a three-card 7 against a lower
Player is a push, or, as an option, a Banker win on 6 pays 1 to 2, D11;
with the Dragon 7 and Panda 8 wagers, D12).

There are no player decisions in baccarat: :meth:`MidibaccaratRound.deal`
closes wagering and runs the whole round; :meth:`~MidibaccaratRound.
pending` is always ``None``.

Most of Chapter 629a was not retrievable. Where the text is missing the
events cite the section the step belongs to by the chapter's table of
contents (INFER), and the drawing rules come from the sister chapter's
631a.11 and its Table 1 (see :mod:`croupier.hands.baccarat`).

>>> from croupier.registry import find_game
>>> [find_game(n).max_seats for n in ("midibaccarat",
...     "midibaccarat-commission-free")]
[9, 9]
"""

from __future__ import annotations

from collections.abc import Callable

from croupier.errors import RulesError
from croupier.events import Event, EventLog
from croupier.games.midibaccarat.commission_free import CommissionFreeRound
from croupier.games.midibaccarat.phases import PHASES, TRANSITIONS, Phase
from croupier.games.midibaccarat.refs import MAX_SEATS
from croupier.games.midibaccarat.round import MidibaccaratRound
from croupier.games.midibaccarat.rules import (
    BaccaratRules,
    CommissionFreeRule,
    CommissionFreeRules,
    Dealing,
    MidibaccaratRules,
    Wager,
)
from croupier.procedures.ch629a import cut_order, prepare_shoe
from croupier.registry import GameSpec, register_game
from croupier.rng import Rng
from croupier.rules import GameRules
from croupier.shoe import Shoe

__all__ = [
    "PHASES",
    "BaccaratRules",
    "CommissionFreeRound",
    "CommissionFreeRule",
    "CommissionFreeRules",
    "Dealing",
    "MidibaccaratRound",
    "MidibaccaratRules",
    "Phase",
    "Wager",
    "prepare_new_shoe",
]


def prepare_new_shoe(
    rules: BaccaratRules,
    shoe: Shoe,
    log: EventLog,
    *,
    rng: Rng | None = None,
    occupied_seats: tuple[int, ...] = (),
    accepting: tuple[int, ...] = (),
) -> list[Event]:
    """Shuffle, offer the cut, cut and insert the second cover card.

    629a.5 (a)-(d) with the second cover card where the rules put it;
    the first round of the shoe then runs the burn (f) itself.
    """
    return prepare_shoe(
        shoe,
        log,
        rng=rng,
        occupied_seats=occupied_seats,
        accepting=accepting,
        second_cover_from_bottom=rules.second_cover_from_bottom,
    )


def _table_prepare_shoe(
    rules: GameRules,
    shoe: Shoe,
    rng: Rng,
    log: EventLog,
    occupied_seats: tuple[int, ...],
) -> None:
    """The :class:`~croupier.table.Table` hook: 629a.5 (a)-(d).

    ASSUMED for automated tables: the first player offered the cut (the
    highest-numbered occupied seat) accepts it; the cut position is a
    uniform choice among the allowed ones.
    """
    if not isinstance(rules, BaccaratRules):
        msg = "expected the rules of a Midibaccarat game"
        raise RulesError(msg, key="rules")
    order = cut_order(occupied_seats)
    prepare_new_shoe(
        rules,
        shoe,
        log,
        rng=rng,
        occupied_seats=occupied_seats,
        accepting=tuple(order[:1]),
    )


def _factory(
    round_type: type[MidibaccaratRound], rules_type: type[BaccaratRules]
) -> Callable[..., MidibaccaratRound]:
    def new_round(
        *,
        rules: GameRules,
        shoe: Shoe,
        rng: Rng | None = None,
        new_shoe: bool = True,
        starting_position: int | None = None,
    ) -> MidibaccaratRound:
        if not isinstance(rules, rules_type):
            msg = f"expected {rules_type.__name__}"
            raise RulesError(msg, key="rules")
        if starting_position is not None:
            msg = "baccarat has no starting position"
            raise RulesError(msg, key="starting_position")
        return round_type(
            rules=rules,
            shoe=shoe,
            rng=rng,
            new_shoe=new_shoe,
        )

    return new_round


def _new_shoe(rules: GameRules, _rng: Rng) -> Shoe:
    decks = rules.decks if isinstance(rules, BaccaratRules) else 8
    return Shoe.new(decks=decks)


register_game(
    GameSpec(
        name=MidibaccaratRound.game,
        title="Midibaccarat",
        section="629a.5",
        rules_type=MidibaccaratRules,
        new_round=_factory(MidibaccaratRound, MidibaccaratRules),
        new_shoe=_new_shoe,
        prepare_shoe=_table_prepare_shoe,
        wagers=MidibaccaratRound.wager_names,
        wager_titles=MidibaccaratRound.wager_titles,
        max_seats=MAX_SEATS,
        seats_ref=MidibaccaratRound.seats_ref,
        offered_ref=MidibaccaratRound.offered_ref,
        transitions=TRANSITIONS,
    )
)
register_game(
    GameSpec(
        name=CommissionFreeRound.game,
        title="Commission-free Midibaccarat",
        section="629a.5",
        sections=("629b.2", "629a.5"),
        rules_type=CommissionFreeRules,
        new_round=_factory(CommissionFreeRound, CommissionFreeRules),
        new_shoe=_new_shoe,
        prepare_shoe=_table_prepare_shoe,
        wagers=CommissionFreeRound.wager_names,
        wager_titles=CommissionFreeRound.wager_titles,
        max_seats=MAX_SEATS,
        seats_ref=CommissionFreeRound.seats_ref,
        offered_ref=CommissionFreeRound.offered_ref,
        transitions=TRANSITIONS,
    )
)
