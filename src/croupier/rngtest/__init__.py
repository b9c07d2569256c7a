"""``croupier rng-test``: the § 810a.5 battery on shuffled shoes.

:mod:`.sources` yields shuffles (the live shuffler, a file, known-bad
shufflers); :mod:`.battery` runs the tests (:mod:`.card_tests`,
:mod:`.stream_tests`) with Holm's correction, reading the shuffles once.
"""

from __future__ import annotations

from .battery import ALPHA, Battery, TestResult, holm, run_battery
from .sources import (
    BAD_SHUFFLERS,
    RngInputError,
    bad_shuffles,
    file_shuffles,
    fresh_shoe,
    iter_file_shuffles,
    live_shuffles,
)

__all__ = [
    "ALPHA",
    "BAD_SHUFFLERS",
    "Battery",
    "RngInputError",
    "TestResult",
    "bad_shuffles",
    "file_shuffles",
    "fresh_shoe",
    "holm",
    "iter_file_shuffles",
    "live_shuffles",
    "run_battery",
]
