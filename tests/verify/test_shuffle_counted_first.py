"""A shuffle's count is held to the rules' decks before the cut (D65).

A Midibaccarat record whose rules say one deck while its shuffle, stack
and cut count eight was cited as a cut too near an end (629a.5(c)) or
a second cover card misplaced (629a.5(d)): the cut's replay measures
positions in the rules' shoe. The fault is the shoe's size, the decks
option's subsection: the count comes first.
"""

from __future__ import annotations

import dataclasses

import pytest

from croupier.hhf import rules_digest
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_round


@pytest.mark.proves("629a.3")
@pytest.mark.parametrize("cut", [332, 20])
def test_629a_3_a_shoe_of_eight_decks_under_rules_of_one(cut: int) -> None:
    history = next(sample_histories("midibaccarat", 1, seed=8, seats=3))
    rules = {**history.rules, "decks": 1}
    steps = [dict(s) for s in history.shoe.preparation]
    shuffled = steps[0]
    assert (shuffled["type"], shuffled["cards"]) == ("shuffled", 8 * 52)
    for step in steps:
        if step.get("purpose") == "cut":
            step["position"] = cut
        if step["type"] == "cut_completed":
            step["moved"] = cut
    broken = dataclasses.replace(
        history,
        rules=rules,
        rules_digest=rules_digest(rules),
        shoe=dataclasses.replace(history.shoe, preparation=tuple(steps)),
    )
    deviation = verify_round(broken)
    assert deviation is not None
    assert deviation.ref == "629a.3", str(deviation)
    assert "recorded as 416 cards" in deviation.message
    assert "the rules' shoe has 52" in deviation.message
