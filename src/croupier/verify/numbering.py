"""Double Back Jack's two numberings: the seed's 591 and the current 673a.

The seed is the temporary Chapter 591; the permanent Chapter 673a that
replaced it keeps the letters of its subsections (673a.6(c) places the
Second Chance Wager at 673a.7(l), the seed's 591.7(l)). The engine cites
the dealing procedure as 591.7 (the seed text wins) and the other
sections in their current numbers (673a.6, 673a.9, ...). A log written
against either numbering cites the same rules, so before a Double Back
Jack record is compared its 673a.7 references are read as 591.7 and its
591.N ones (N not 7) as 673a.N (D70). Deviations are reported in the
engine's numbering; a step quoted by its reference is quoted as the log
wrote it, with the reading (:func:`as_written`).

Looking at every reference costs a conforming round about 13 µs, some 3 %
of its check, so a record is read as written first and renumbered only
when it deviates (:func:`second_reading`); once one needed it, the
records after it are renumbered first (:func:`first_reading`) until one
does not: a file keeps one numbering.

>>> seed_numbering_ref("673a.7(l)(2)"), seed_numbering_ref("591.9")
('591.7(l)(2)', '673a.9')
>>> seed_numbering_ref("673a.6(c)"), seed_numbering_ref("D25")
('673a.6(c)', 'D25')
"""

from __future__ import annotations

import dataclasses
import operator
import re
from collections.abc import Iterable
from itertools import chain
from typing import Any

from croupier.hhf.format import HandHistory

from .explain import Deviation

__all__ = [
    "GAME",
    "as_written",
    "first_reading",
    "second_reading",
    "seed_numbering",
    "seed_numbering_ref",
]

GAME = "double-back-jack"
"""The one game cited in two numberings."""

_OTHER = re.compile(r"591\.(?!7(?![0-9]))([0-9]+)")
"""A 591.N reference other than 591.7 (591.70 would be another)."""
_NEEDS = re.compile(r"^(?:673a\.7(?![0-9])|591\.(?!7(?![0-9]))[0-9])", re.M)
"""A line (a ref) that :func:`seed_numbering_ref` changes."""
_REF = operator.itemgetter("ref")


def seed_numbering_ref(ref: str) -> str:
    """``ref`` as the engine cites it: 591.7 for 673a.7, 673a.N for 591.N."""
    if ref.startswith("673a.7") and not ref[6:7].isdigit():
        return "591.7" + ref[6:]
    match = _OTHER.match(ref)
    if match is not None:
        return f"673a.{match.group(1)}{ref[match.end() :]}"
    return ref


def _renumbered(ref: object) -> bool:
    """Whether :func:`seed_numbering_ref` changes ``ref``."""
    return type(ref) is str and seed_numbering_ref(ref) != ref


def _steps(steps: Iterable[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    return tuple(
        {**step, "ref": seed_numbering_ref(step["ref"])}
        if _renumbered(step.get("ref"))
        else step
        for step in steps
    )


def _cites_other(lists: Iterable[Iterable[dict[str, Any]]]) -> bool:
    """Whether a row of ``lists`` cites a ref the engine numbers otherwise."""
    try:
        # one pass over the refs in C (every step and settlement has one,
        # ``null`` allowed), then one search
        refs = chain.from_iterable(map(_REF, rows) for rows in lists)
        return _NEEDS.search("\n".join(filter(None, refs))) is not None
    except (KeyError, TypeError):  # a row without a text ref
        return any(
            _renumbered(row.get("ref")) for rows in lists for row in rows
        )


def seed_numbering(history: HandHistory) -> HandHistory:
    """``history`` citing as the engine does (the same object if it does).

    Only a Double Back Jack record is read so; its section, the refs of
    its procedure, settlements, preparation and table steps are mapped.
    """
    if history.game != GAME:
        return history
    lists = (
        history.procedure,
        history.settlements,
        history.shoe.preparation,
        history.table_steps,
    )
    if not _NEEDS.match(history.section) and not _cites_other(lists):
        return history
    return dataclasses.replace(
        history,
        section=seed_numbering_ref(history.section),
        procedure=_steps(history.procedure),
        settlements=_steps(history.settlements),
        shoe=dataclasses.replace(
            history.shoe, preparation=_steps(history.shoe.preparation)
        ),
        table_steps=_steps(history.table_steps),
    )


_LAST_RENUMBERED = [False]
"""Whether the last Double Back Jack record needed renumbering."""


def first_reading(history: HandHistory) -> HandHistory:
    """The record to replay first: renumbered if the last one needed it."""
    if _LAST_RENUMBERED[0] and history.game == GAME:
        mapped = seed_numbering(history)
        _LAST_RENUMBERED[0] = mapped is not history
        return mapped
    return history


def second_reading(history: HandHistory) -> HandHistory | None:
    """After a deviation: the record renumbered, or ``None`` if the same."""
    if history.game != GAME:
        return None
    mapped = seed_numbering(history)
    if mapped is history:
        return None
    _LAST_RENUMBERED[0] = True
    return mapped


def as_written(deviation: Deviation, written: HandHistory) -> Deviation:
    """``deviation`` of a renumbered record, quoting its step as written.

    A step that cites the wrong subsection is quoted by its reference
    ("step 12 cites 591.7(f), the rule is 591.7(e)(1)"): in a record
    written in the other numbering that is the reference as read, not as
    the log has it, so the log's own is quoted, with the reading.

    >>> from croupier.hhf.sample import sample_histories
    >>> history = next(sample_histories(GAME, 1, seed=5))
    >>> step = {**history.procedure[3], "ref": "673a.7(f)"}
    >>> written = dataclasses.replace(history, procedure=(
    ...     *history.procedure[:3], step, *history.procedure[4:]))
    >>> found = Deviation(
    ...     "591.7(e)(1)", "step 4 cites 591.7(f), the rule is 591.7(e)(1)", 4)
    >>> as_written(found, written).message
    'step 4 cites 673a.7(f) (read as 591.7(f)), the rule is 591.7(e)(1)'
    """
    seq = deviation.seq
    if seq is None:
        return deviation
    step = next((s for s in written.procedure if s.get("seq") == seq), None)
    ref = None if step is None else step.get("ref")
    if type(ref) is not str:
        return deviation
    read = seed_numbering_ref(ref)
    quoted = f"step {seq} cites {read},"
    if read == ref or quoted not in deviation.message:
        return deviation
    return dataclasses.replace(
        deviation,
        message=deviation.message.replace(
            quoted, f"step {seq} cites {ref} (read as {read}),", 1
        ),
    )
