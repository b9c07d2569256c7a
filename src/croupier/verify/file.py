"""Verify a whole CHH file: a verdict per round and a summary."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from croupier.errors import CroupierError
from croupier.hhf.format import (
    loads_deferring_steps,
    read_at_line,
    validate,
)
from croupier.registry import find_game
from croupier.rules import GameRules

from .replay import Deviation, verify_round, verify_round_strict

__all__ = [
    "FileReport",
    "RoundVerdict",
    "report_json",
    "verify_file",
    "verify_lines",
]


@dataclass(frozen=True, slots=True)
class RoundVerdict:
    """One round's result."""

    line: int
    """Line of the file."""
    round_id: str
    """The round's id."""
    game: str
    """The game."""
    deviation: Deviation | None
    """The first deviation, or ``None`` when the round conforms."""

    @property
    def conforming(self) -> bool:
        """Whether the round follows the rules."""
        return self.deviation is None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "line": self.line,
            "round_id": self.round_id,
            "game": self.game,
            "conforming": self.conforming,
            "deviation": None
            if self.deviation is None
            else self.deviation.to_dict(),
        }


@dataclass(slots=True)
class FileReport:
    """Every round's verdict and the summary over the file."""

    verdicts: list[RoundVerdict] = field(default_factory=list)
    """In file order."""

    @property
    def rounds(self) -> int:
        """Rounds checked."""
        return len(self.verdicts)

    @property
    def conforming(self) -> int:
        """Rounds that follow the rules."""
        return sum(v.conforming for v in self.verdicts)

    def by_ref(self) -> dict[str, int]:
        """Deviations counted by the subsection broken."""
        counts = Counter(
            v.deviation.ref for v in self.verdicts if v.deviation is not None
        )
        return dict(sorted(counts.items()))

    def summary(self) -> dict[str, Any]:
        """Rounds, conforming, deviations by subsection."""
        return {
            "rounds": self.rounds,
            "conforming": self.conforming,
            "deviations": self.rounds - self.conforming,
            "by_ref": self.by_ref(),
        }


def verify_lines(
    lines: Iterable[str],
    *,
    submission: Mapping[str, object] | None = None,
) -> FileReport:
    """Check every line; a malformed line raises :class:`HistoryFormatError`.

    ``submission`` (a Rules Submission file's values) holds every round
    to those rules: the game's defaults overridden by them.
    """
    report = FileReport()
    held: dict[str, GameRules | None] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        history, doc = read_at_line(number, loads_deferring_steps, line)
        if history.game not in held:
            held[history.game] = _submission(history.game, submission)
        rules = held[history.game]
        if doc is None:
            deviation = verify_round(history, submission=rules)
        else:
            # the steps are checked against the schema only when they
            # are not exactly the engine's (whose steps meet it): the
            # line is malformed, with the same error, exactly when
            # HandHistory.loads would have said so
            try:
                deviation, strict = verify_round_strict(
                    history, submission=rules
                )
            except Exception:
                read_at_line(number, validate, doc)
                raise
            if not strict:
                read_at_line(number, validate, doc)
        report.verdicts.append(
            RoundVerdict(number, history.round_id, history.game, deviation)
        )
    return report


def _submission(
    game: str, values: Mapping[str, object] | None
) -> GameRules | None:
    if values is None:
        return None
    try:
        spec = find_game(game)
    except CroupierError:
        return None  # the round itself reports the unknown game
    return spec.rules_type().with_overrides(values)


def verify_file(
    path: str | Path, *, submission: Mapping[str, object] | None = None
) -> FileReport:
    """Check every round of a CHH file."""
    with Path(path).open(encoding="utf-8") as handle:
        return verify_lines(handle, submission=submission)


def report_json(report: FileReport) -> str:
    """The report as one JSON document."""
    return json.dumps(
        {
            "summary": report.summary(),
            "rounds": [v.to_dict() for v in report.verdicts],
        }
    )
