"""Checks every registered game must pass (OpenSpiel's random_sim_test spirit).

Random tables of every game play many rounds with random wagers and random
legal decisions; after every step every card is accounted for, at the end
every chip is, the round replays identically from its record, and views
and rules serialise.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random

import pytest

from croupier.errors import CroupierError
from croupier.events import PhaseEntered
from croupier.history import Recorder, replay
from croupier.registry import GameSpec, all_games
from croupier.rng import SeededRng
from croupier.round import Action, Round
from croupier.table import Table

GAMES = all_games()
_AMOUNTS = (5, 100, 1000, 2500)


def _random_action(rnd: Round, chooser: random.Random) -> Action:
    pending = rnd.pending()
    assert pending is not None
    legal = [name for name in pending.legal if name != "set"]
    assert legal, pending
    name = chooser.choice(legal)
    return Action(seat=pending.seat, name=name)


def _play_round(
    table: Table, spec: GameSpec, chooser: random.Random
) -> Recorder:
    seats = sorted(
        chooser.sample(range(1, spec.max_seats + 1), k=min(3, spec.max_seats))
    )
    rnd = table.new_round(occupied_seats=seats)
    recorder = Recorder(spec.name, rnd)
    recorder.place_wager(seats[0], spec.wagers[0], chooser.choice(_AMOUNTS))
    for seat in seats:
        for wager in spec.wagers:
            if chooser.random() < 0.6:
                with contextlib.suppress(CroupierError):
                    recorder.place_wager(seat, wager, chooser.choice(_AMOUNTS))
    recorder.deal()
    rnd.verify_conservation()
    steps = 0
    while rnd.pending() is not None:
        steps += 1
        assert steps < 200, "a round that never ends"
        action = _random_action(rnd, chooser)
        before = len(rnd.events)
        try:
            recorder.apply(action)
        except CroupierError:
            # A refused action (an amount the rules reject, say) must
            # change nothing; pick again.
            assert len(rnd.events) == before
            continue
        rnd.verify_conservation()
        json.dumps(rnd.view(action.seat))
    assert rnd.is_over
    rnd.ledger.verify()
    _check_phase_path(spec, rnd)
    json.dumps(rnd.view(None))
    json.dumps(rnd.hands())
    table.finish_round(rnd)
    return recorder


def _check_phase_path(spec: GameSpec, rnd: Round) -> None:
    """Every phase the round entered follows an edge of its table."""
    assert spec.transitions is not None, spec.name
    table = {
        str(source): {str(t) for t in targets}
        for source, targets in spec.transitions.items()
    }
    path = [e.phase for e in rnd.events if isinstance(e, PhaseEntered)]
    for source, target in itertools.pairwise(path):
        assert target in table.get(source, set()), (source, target)


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
def test_random_rounds_conserve_cards_and_chips_and_replay(
    spec: GameSpec,
) -> None:
    chooser = random.Random(spec.name)
    table = Table(spec, rng=SeededRng(11))
    for _ in range(25):
        recorder = _play_round(table, spec, chooser)
        result = replay(recorder.record)
        assert result.ok, result.differences


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
def test_rules_document_every_option_and_round_trip(spec: GameSpec) -> None:
    rules = spec.rules_type()
    assert spec.rules_type.from_mapping(rules.to_dict()) == rules
    for info in spec.rules_type.options():
        assert info.doc, info.name
        assert info.provenance.value in ("REG", "INFER", "ASSUMED")
    json.dumps(rules.to_dict())


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
def test_wager_refusals_leave_the_round_unchanged(spec: GameSpec) -> None:
    table = Table(spec, rng=SeededRng(5))
    rnd = table.new_round(occupied_seats=(1,))
    before = len(rnd.events)
    for seat, wager, amount in (
        (1, "no-such-wager", 100),
        (1, spec.wagers[0], 0),
        (1, spec.wagers[0], -5),
        (spec.max_seats + 1, spec.wagers[0], 100),
        (0, spec.wagers[0], 100),
    ):
        with pytest.raises(CroupierError):
            rnd.place_wager(seat, wager, amount)
    assert len(rnd.events) == before
    assert rnd.ledger.stakes == {}


@pytest.mark.proves("591.7(d)(2)", "591.7(c)")
def test_591_7_d_table_cuts_the_reshuffled_stack_once() -> None:
    spec = next(g for g in GAMES if g.name == "double-back-jack")
    rules = spec.rules_type.from_mapping({"penetration": "1/4"})
    table = Table(spec, rules, rng=SeededRng(1))
    reshuffled = 0
    while not reshuffled:
        rnd = table.new_round(occupied_seats=(1,))
        rnd.place_wager(1, "blackjack", 100)
        rnd.deal()
        while (pending := rnd.pending()) is not None:
            rnd.apply(Action(seat=pending.seat, name=pending.legal[-1]))
        table.finish_round(rnd)
        reshuffled = rnd.cover_card_reached
    shuffles = sum(type(e).__name__ == "Shuffled" for e in table.log.events)
    nxt = table.new_round(occupied_seats=(1,))
    after = [type(e).__name__ for e in table.log.events]
    assert after.count("Shuffled") == shuffles  # no second shuffle
    assert after[-1] == "CoverCardInserted"  # but a new cover card
    assert nxt.new_shoe  # and the next round burns per 591.7(c)
