"""629a.5(f): a new shoe's burn comes before play, and the message says so.

An outside writer burned a new Midibaccarat shoe's cards after the
wagers instead of before them; the verifier found the first difference
at the wagering phase and said "burned 0 card(s) after an exposed 6,
requires 6", which reads as a missing burn. The burn is there, only
late: the message names where.
"""

from __future__ import annotations

import json
from typing import Any

from tests.verify.days import deviations

from croupier.hhf.sample import sample_histories


def _new_shoe_round() -> dict[str, Any]:
    for history in sample_histories("midibaccarat", 3, seed=2):
        doc: dict[str, Any] = json.loads(history.dumps())
        if doc["shoe"]["new_shoe"]:
            return doc
    raise AssertionError("no new shoe in the sample")


def test_629a_5_f_a_burn_after_the_wagers_is_named_late() -> None:
    doc = _new_shoe_round()
    steps = doc["procedure"]
    burns = [s for s in steps if s["type"] == "card_burned"]
    first = burns[0]
    assert first["face_up"]  # the exposed card that counts the burn
    wagering = [
        s
        for s in steps
        if s["type"] == "wager_placed"
        or (s["type"] == "phase_entered" and s["phase"] == "wagering")
    ]
    rest = [s for s in steps if s not in burns and s not in wagering]
    doc["procedure"] = [*wagering, *burns, *rest]
    for n, step in enumerate(doc["procedure"], start=1):
        step["seq"] = n
    [(line, ref, message)] = deviations([doc])
    assert (line, ref) == (1, "629a.5(f)")
    value = first["card"][0]
    required = min(10, "A23456789TJQK".index(value) + 1)
    assert message == (
        f"the log burns at step {len(wagering) + 1}, after its step 1 "
        f"(phase_entered); the burn, {required} card(s) after an exposed "
        f"{value}, comes first, before play begins"
    )
