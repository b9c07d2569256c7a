"""A table's new Midibaccarat shoe is prepared before play (D83).

629a.5(a)-(d): the cards are shuffled (unless preshuffled), offered to
the players for the cut (the highest-numbered occupied seat first, the
dealer cutting if none accepts), cut, and the second cover card placed,
before the first round of the shoe. Midibaccarat never reshuffles inside
a round, so a table's round that begins a new shoe (``new_shoe``, the
record saying its shoe is the table's whole shoe) shows that
preparation. An audit's forgery, a new shoe with no preparation at all,
conformed, alone and after the round that ended the shoe before.
"""

from __future__ import annotations

import dataclasses

import pytest

from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_round


def _first_round(game: str) -> HandHistory:
    history = next(sample_histories(game, 1, seed=8, seats=3))
    assert history.shoe.new_shoe
    assert history.shoe.whole
    assert verify_round(history) is None
    return history


@pytest.mark.proves("629a.5(b)")
@pytest.mark.parametrize(
    "game", ["midibaccarat", "midibaccarat-commission-free"]
)
@pytest.mark.parametrize("kept", ["nothing", "the shuffle"])
def test_629a_5_b_new_shoe_never_offered_for_the_cut(
    game: str, kept: str
) -> None:
    history = _first_round(game)
    steps = history.shoe.preparation
    left = () if kept == "nothing" else steps[:1]
    assert all(s["type"] == "shuffled" for s in left)
    unprepared = dataclasses.replace(
        history,
        shoe=dataclasses.replace(history.shoe, preparation=tuple(left)),
    )
    deviation = verify_round(unprepared)
    assert deviation is not None
    assert deviation.ref == "629a.5(b)", str(deviation)
    assert "never offers the stack for the cut" in deviation.message


def test_a_shoe_not_said_whole_may_be_a_scenarios_stack() -> None:
    """A scenario stacks its shoe: no shuffle or cut is recorded (D75)."""
    history = _first_round("midibaccarat")
    stacked = dataclasses.replace(
        history,
        shoe=dataclasses.replace(history.shoe, preparation=(), whole=False),
    )
    assert verify_round(stacked) is None
