"""D23, D68: a table's progressive meter goes on from round to round.

The round grows the meter by each progressive wager's contribution (a
fifth by default) and pays from it; the table's next round begins with
the meter the round left, not with the Rules Submission's starting
value. Counted here from the stakes: two wagers of 100 add 2 x 20.
"""

from __future__ import annotations

from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.registry import find_game
from croupier.rng import SeededRng
from croupier.round import Action
from croupier.table import Table

SPEC = find_game("six-card-fortune-pai-gow")


def _meter(table: Table) -> int:
    rules = table.rules
    assert isinstance(rules, SixCardRules)
    return rules.progressive_meter


def _play(table: Table) -> int:
    """One round, two seats on the progressive; the meter it began at."""
    rnd = table.new_round(occupied_seats=(1, 2), starting_position=1)
    began = _meter(table)
    for seat in (1, 2):
        rnd.place_wager(seat, "pai_gow", 500)
        rnd.place_wager(seat, "progressive", 100)
    rnd.deal()
    while (pending := rnd.pending()) is not None:
        legal = [a.value for a in pending.legal]
        name = "no_double_down" if "no_double_down" in legal else "house_way"
        rnd.apply(Action(seat=pending.seat, name=name))
    table.finish_round(rnd)
    return int(began)


def test_d23_the_meter_is_carried_to_the_next_round() -> None:
    table = Table(SPEC, rng=SeededRng(4))
    start = SixCardRules().progressive_meter
    began = [_play(table) for _ in range(4)]
    assert began[0] == start
    # the contributions stay on the meter (no jackpot in these rounds:
    # each round's meter rises by exactly 2 x 100 / 5)
    assert began == [start + 40 * k for k in range(4)]
    assert _meter(table) == start + 160
