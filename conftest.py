"""Collect each source module for its doctests as the one module it is.

``--doctest-modules --import-mode=importlib`` (pyproject.toml) makes
pytest import every ``src/croupier`` file it collects. For a module
that is not imported yet, pytest first imports the parent package and
then executes the file again as a fresh module object that replaces the
entry in ``sys.modules``. When the parent's ``__init__`` has already
imported the module (``croupier.odds.double_back_jack`` imports
``carules`` through ``analysis`` and ``ca``), two copies then live side
by side: the package's modules hold the first copy's classes, later
imports get the second's, and identity checks fail
(``rules.double_on is DoubleOn.ANY``; pytest-dev/pytest#10811,
#12194). That is what made
``pytest src/croupier/odds/double_back_jack/carules.py tests/...`` fail
Farmer's 2-2 test with a ``KeyError``.

The hook below imports each source file under its package name, by
the ordinary import system, before pytest collects it: pytest then
finds it in ``sys.modules`` and uses that module. A file that fails to
import is left to pytest, which reports the error as before. Test
files (``tests/``) are not in a package and are not touched (D62).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

_SRC = Path(__file__).resolve().parent / "src"


def _module_name(path: Path) -> str | None:
    """The dotted name of a source file under ``src/``, else ``None``."""
    try:
        parts = path.resolve().relative_to(_SRC).with_suffix("").parts
    except ValueError:
        return None
    if not parts or parts[-1] in {"__main__", "conftest", "setup"}:
        return None
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) if parts else None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> None:
    """Import a source module canonically before its doctests are read."""
    if file_path.suffix != ".py":
        return
    if not parent.config.getoption("doctestmodules", False):
        return
    name = _module_name(file_path)
    if name is None:
        return
    try:
        importlib.import_module(name)
    except Exception:
        return  # pytest reports the error when it imports the file
