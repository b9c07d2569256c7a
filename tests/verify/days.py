"""Days of logged rounds for the verifier's tests, broken where told.

Which lines are broken is decided here, not read off the verifier.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.registry import all_games
from croupier.verify import verify_lines


def swap_first_two_dealt(history: HandHistory) -> HandHistory:
    """The first two cards dealt swap destinations (a wrong deal order)."""
    steps = [dict(s) for s in history.procedure]
    first, second = [
        i for i, s in enumerate(steps) if s["type"] == "card_dealt"
    ][:2]
    assert steps[first]["to"] != steps[second]["to"]
    steps[first]["to"], steps[second]["to"] = (
        steps[second]["to"],
        steps[first]["to"],
    )
    return dataclasses.replace(history, procedure=tuple(steps))


def mixed_day(rounds: int) -> tuple[list[str], set[int]]:
    """Rounds of every game interleaved, every seventh one broken.

    Returns the lines (a blank line among them, which is skipped) and
    the numbers of the broken lines.
    """
    games = [
        list(sample_histories(spec.name, rounds, seed=21))
        for spec in all_games()
    ]
    lines: list[str] = []
    broken: set[int] = set()
    for i in range(rounds):
        for histories in games:
            history = histories[i]
            if len(lines) % 7 == 3:
                history = swap_first_two_dealt(history)
                broken.add(len(lines) + 1)
            lines.append(history.dumps() + "\n")
        if i == 2:
            lines.append("\n")
    return lines, broken


def deviations(
    docs: list[dict[str, Any]], *, across: bool = True
) -> list[tuple[int, str, str]]:
    """Each deviating line of a file of ``docs``: line, ref and message."""
    report = verify_lines(
        [json.dumps(doc) + "\n" for doc in docs], across=across
    )
    return [
        (v.line, v.deviation.ref, v.deviation.message)
        for v in report.verdicts
        if v.deviation is not None
    ]
