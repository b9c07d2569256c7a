"""Issue 17 points 2 and 4: the shortcuts of a fast verifier change nothing.

The possible-shoe check counts each round's recorded stack and rack by
correcting the previous round's count (:func:`replay._held`); a round
from the same shoe that holds one card too many must still be refused,
and the count must always be the plain count of that round's texts.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.verify import replay, verify_lines, verify_round


def _plain_count(history: HandHistory) -> Counter[str]:
    stack = history.shoe.stack or ""
    discard = history.shoe.discard or ""
    return Counter(stack.split()) + Counter(discard.split())


def test_17_4_each_round_of_a_shoe_is_counted_as_if_alone() -> None:
    rounds = list(sample_histories("midibaccarat", 40, seed=11))
    replay._LAST_HELD.clear()
    for history in rounds:
        assert verify_round(history) is None
        (last,) = replay._LAST_HELD
        # the corrected count keeps zeros for cards dealt away
        assert +last.counts == _plain_count(history)
        assert last.stack == history.shoe.stack


def test_17_4_one_card_too_many_mid_shoe_is_refused() -> None:
    rounds = list(sample_histories("midibaccarat", 12, seed=12))
    # round 8 continues round 7's shoe, with more 6s in the rack than
    # the 8 decks' eight allow (the stack keeps the 6s it has)
    held = _plain_count(rounds[7])["6s"]
    extra = " ".join(["6s"] * (9 - held))
    tampered = dataclasses.replace(
        rounds[7].shoe,
        discard=f"{rounds[7].shoe.discard} {extra}".strip(),
    )
    rounds[7] = dataclasses.replace(rounds[7], shoe=tampered)
    report = verify_lines([h.dumps() for h in rounds])
    bad = [v for v in report.verdicts if not v.conforming]
    assert [v.line for v in bad] == [8]
    deviation = bad[0].deviation
    assert deviation is not None
    assert deviation.ref == "629a.3"  # the decks in the shoe
    assert "9 x 6s but the rules' shoe (8 deck(s)) has 8" in (
        deviation.message
    )
