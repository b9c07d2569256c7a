"""A round the server voided (D25): every chip on the layout goes back.

A voided round is replayed up to its ``round_voided`` step (it stopped
where the server could not carry it on, :mod:`croupier.verify.replay`);
its record must then add up. The settlements the procedure made before
the void come first, as it made them (a Blackjack paid at once,
591.7(f)); every other settlement is a void one that nets nothing, and
what they return to each seat is what the procedure shows on the layout
there when the round stopped: the stakes placed and changed, less those
it settled already. Then the record's own checks
(:mod:`croupier.verify.record`).

>>> from croupier.hhf.sample import sample_histories
>>> import dataclasses
>>> history = next(sample_histories("midibaccarat", 1, seed=2))
>>> kinds = [s["type"] for s in history.procedure]
>>> before = history.procedure[: kinds.index("card_dealt")]  # voided here
>>> placed = [s for s in before if s["type"] == "wager_placed"]
>>> def void(stakes):
...     return dataclasses.replace(history, status="voided",
...         procedure=before, settlements=tuple(
...             {"seat": s["seat"], "wager": s["wager"], "amount": s["amount"],
...              "outcome": "void", "net": 0, "ref": "D25"} for s in stakes))
>>> print(voided_problem(void(placed[1:])).message)
... # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
seat ... had ... on the layout when the round was voided; the void
settlements return 0: every stake goes back to its player
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from croupier.hhf.format import HandHistory

from .explain import Deviation, fields_text
from .record import record_problem

__all__ = ["VOID_REF", "voided_problem"]

VOID_REF = "D25"
"""The decision that a round the server cannot finish returns every stake."""


def voided_problem(
    history: HandHistory, settled: Sequence[Mapping[str, Any]] = ()
) -> Deviation | None:
    """The first way a voided round's record fails to return every stake.

    ``settled`` are the settlements the procedure made before the void
    (the replay's): the record lists them first, as they were made, and
    every other settlement is a void one that nets nothing.
    """
    rows = list(history.settlements)
    for i, want in enumerate(settled):
        got = rows[i] if i < len(rows) else None
        if got != want:
            shown = fields_text(got) if got else "nothing"
            return Deviation(
                str(want["ref"]),
                f"settlement {i + 1} of a voided round is recorded as "
                f"{shown}; the procedure settled {fields_text(want)} "
                f"before the void",
            )
    for row in rows[len(settled) :]:
        if row["outcome"] != "void" or row["net"] != 0:
            return Deviation(
                str(row["ref"]),
                f"a voided round settled {fields_text(row)}; every wager "
                f"must be returned",
            )
    on_layout = _on_layout(history.procedure)
    returned: Counter[int] = Counter()
    for row in rows[len(settled) :]:
        returned[int(row["seat"])] += int(row["amount"])
    for seat in sorted(on_layout.keys() | returned.keys()):
        if on_layout[seat] != returned[seat]:
            return Deviation(
                VOID_REF,
                f"seat {seat} had {on_layout[seat]} on the layout when the "
                f"round was voided; the void settlements return "
                f"{returned[seat]}: every stake goes back to its player",
            )
    return record_problem(history)


def _on_layout(procedure: tuple[Mapping[str, Any], ...]) -> Counter[int]:
    """Each seat's chips on the layout at the end of ``procedure``."""
    layout: Counter[int] = Counter()
    for step in procedure:
        kind = step["type"]
        if kind == "wager_placed":
            layout[int(step["seat"])] += int(step["amount"])
        elif kind == "wager_changed":
            change = int(step["amount"]) - int(step["previous"])
            layout[int(step["seat"])] += change
        elif kind == "wager_settled":
            layout[int(step["seat"])] -= int(step["amount"])
    return +layout
