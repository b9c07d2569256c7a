"""``croupier verify``: conformance of anyone's CHH logs to the rules.

:func:`verify_round` replays one round's recorded cards and decisions
through the engine and returns its first :class:`Deviation` (or
``None``); :func:`verify_file` does a whole JSON Lines file and sums up,
:func:`iter_verdicts` streams a file of any length and
:func:`~croupier.verify.report.write_report` writes its report as the
verdicts come. A file's rounds are also checked against one another
(:mod:`croupier.verify.across`: unique ids, the shoe carried from one
round to the next) and each record against itself
(:mod:`croupier.verify.record`); :class:`Submissions` holds each game's
rounds to its own Rules Submission (D106).
"""

from __future__ import annotations

from .file import (
    FileReport,
    RoundVerdict,
    Tally,
    iter_verdicts,
    verify_file,
    verify_lines,
)
from .replay import Deviation, verify_round
from .submissions import Submission, Submissions

__all__ = [
    "Deviation",
    "FileReport",
    "RoundVerdict",
    "Submission",
    "Submissions",
    "Tally",
    "iter_verdicts",
    "verify_file",
    "verify_lines",
    "verify_round",
]
