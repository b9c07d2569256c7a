"""The second cover card's depth: the regulation's least, the option's value.

629a.5(d) puts the second cover card at least 14 cards above the bottom
of the stack; where exactly is the Rules Submission's
``second_cover_from_bottom``. A sample Midibaccarat shoe (dealt by
croupier, its marker 14 above the bottom) has its marker moved: below
14 breaks (d) itself; deeper, but not the Rules Submission's depth,
breaks the option, cited as the penetration option is (audit,
2026-12-06). Stacked and as dealt alike (the preparation is checked the
same way either way).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.hhf.sample import sample_histories
from croupier.registry import find_game
from croupier.verify.explain import option_ref


def _moved(up: int, *, as_dealt: bool) -> dict[str, Any]:
    """A new Midibaccarat shoe whose marker went ``up`` cards higher."""
    [history] = sample_histories("midibaccarat", 1, seed=3)
    doc: dict[str, Any] = json.loads(history.dumps())
    marker = next(
        s
        for s in doc["shoe"]["preparation"]
        if s.get("purpose") == "reshuffle marker"
    )
    stack = doc["shoe"]["stack"].split()
    position = marker["position"]
    assert stack[position] == "CC"
    del stack[position]
    stack.insert(position - up, "CC")
    marker["position"] = position - up
    doc["shoe"]["stack"] = " ".join(stack)
    if as_dealt:
        doc["shoe"]["known"], doc["shoe"]["stack"] = "as_dealt", None
    return doc


@pytest.mark.proves("629a.5(d)")
@pytest.mark.parametrize("as_dealt", [False, True])
def test_629a_5_d_deeper_than_the_rules_submission_cites_the_option(
    as_dealt: bool,
) -> None:
    assert deviations([_moved(0, as_dealt=as_dealt)], across=False) == []
    [(_, ref, message)] = deviations(
        [_moved(6, as_dealt=as_dealt)], across=False
    )
    assert ref == option_ref(
        find_game("midibaccarat"), "second_cover_from_bottom"
    ), message
    assert "20 cards above the bottom" in message
    assert "second_cover_from_bottom puts it 14 above" in message
    # the control at the other side: under 14 breaks (d) itself
    [(_, ref, message)] = deviations(
        [_moved(-4, as_dealt=as_dealt)], across=False
    )
    assert ref == "629a.5(d)", message
    assert "the rule requires at least 14" in message
