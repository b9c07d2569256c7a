"""D194: a round after a shoe the operator ended begins a new shoe.

The server writes a ``shoe_ended`` table step (server scope) in the
record of the first round of the shoe it opens when the operator
retires one between rounds. The step is the table's own (not replayed,
D79); a round that carries it but deals on from the old shoe deviates,
citing D194. (A new shoe in the middle of a day without the step stays
acceptable: the server also takes a new shoe after every restart, D25's
recovery, and after a void, D29.)
"""

from __future__ import annotations

import dataclasses

import pytest

from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_round

SHOE_ENDED = {
    "seq": 1,
    "scope": "server",
    "ref": "D194",
    "type": "shoe_ended",
    "by": "operator",
    "reason": "card found marked",
    "shoe": 1,
    "rounds": 4,
}
"""The step the server writes when the operator ends a shoe."""


def _rounds() -> list[HandHistory]:
    """Three conforming Double Back Jack rounds of one sample shoe."""
    rounds = list(sample_histories("double-back-jack", 3, seed=4, seats=2))
    assert all(verify_round(h) is None for h in rounds)
    return rounds


def test_d194_the_first_round_of_the_new_shoe_carries_the_step() -> None:
    first = _rounds()[0]
    assert first.shoe.new_shoe
    history = dataclasses.replace(first, table_steps=(SHOE_ENDED,))
    assert verify_round(history) is None
    # it reads back as written; the schema holds it to its reason
    assert HandHistory.loads(history.dumps()) == history
    bare = {k: v for k, v in SHOE_ENDED.items() if k != "reason"}
    broken = dataclasses.replace(first, table_steps=(bare,))
    with pytest.raises(ValueError, match="reason"):
        HandHistory.loads(broken.dumps())


def test_d194_a_round_that_deals_on_after_an_ended_shoe_deviates() -> None:
    later = _rounds()[1]
    assert not later.shoe.new_shoe
    history = dataclasses.replace(later, table_steps=(SHOE_ENDED,))
    found = verify_round(history)
    assert found is not None
    assert found.ref == "D194"
    assert "the operator ended the shoe before this round" in found.message
    assert "deals on from that shoe" in found.message
