"""A round keeps few enough attributes for CPython's shared-key tables.

CPython 3.11 stores an object's attributes as a values array indexed by
its class's shared keys, read by specialised instructions, for a bounded
number of keys (``SHARED_KEYS_MAX_SIZE``, 30, in
``Objects/dictobject.c``); an object past the bound has its attributes
copied into a dict of its own, and every attribute read on it is then a
hashed look-up. Measured with ``bench/bench_verify_instructions.py``: a
Double Back Jack round with 30 attributes (D69's flag as an attribute)
cost a verified round 2.2 % more instructions than with 29, and a pai
gow round 0.9 % more at 30 than at 29 (it held 31); so the bound held
here is 29.
"""

from __future__ import annotations

import pytest

from croupier.hhf.sample import sample_histories
from croupier.history import replay
from croupier.registry import all_games

FAST_ATTRIBUTES = 29
"""The most attributes a round may hold and stay in the fast table."""


@pytest.mark.parametrize("game", [spec.name for spec in all_games()])
def test_a_played_round_fits_the_shared_keys(game: str) -> None:
    for history in sample_histories(game, 6, seed=8, seats=4):
        result = replay(history.to_record())
        assert result.ok, result.differences
        rnd = result.round
        assert rnd.is_over
        assert len(vars(rnd)) <= FAST_ATTRIBUTES, sorted(vars(rnd))
