"""Issue 14: a source file named before a test file is one module.

``pytest src/croupier/odds/double_back_jack/carules.py tests/...`` used
to fail Farmer's 2-2 test with ``KeyError: 'double'``: collecting
``carules.py`` for its doctests (``--import-mode=importlib``) executed
it a second time after the package had imported it, so the analyzer's
``DoubleOn`` and the test's were different classes and ``double_on is
DoubleOn.ANY`` was false. The root ``conftest.py`` now imports every
source file by its package name before pytest collects it (D62).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from croupier.odds.double_back_jack import ca, carules, passes
from croupier.odds.double_back_jack.ca import evaluate_hand
from croupier.odds.double_back_jack.carules import CARules, DoubleOn

ROOT = Path(__file__).resolve().parents[2]


def test_issue_14_carules_is_the_module_the_analyzer_uses() -> None:
    """The rules the tests build are the rules the analyzer compares."""
    assert sys.modules[carules.__name__] is carules
    assert vars(passes)["DoubleOn"] is DoubleOn
    assert vars(ca)["CARules"] is CARules
    rules = CARules.ordinary(split_aces_one_card=False)
    assert rules.double_on is vars(passes)["DoubleOn"].ANY
    shoe = np.array([0, 0, 4, 4, 2, 0, 0, 2, 0, 0, 7], dtype=np.int64)
    actions = evaluate_hand(rules, shoe, [2, 2], 7)["actions"]
    assert isinstance(actions, dict)
    assert "double" in actions


def test_issue_14_source_file_before_test_file_keeps_one_module() -> None:
    """Regression: the source file on the command line first, then the
    test above, in a fresh pytest (the order that raised KeyError)."""
    here = Path(__file__).resolve().relative_to(ROOT)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(  # noqa: S603 - this interpreter, our code
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "src/croupier/odds/double_back_jack/carules.py",
            str(here),
            "-k",
            "not source_file_before_test_file",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout, done.stdout
