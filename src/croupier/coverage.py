"""Regulation coverage: which code and which tests carry each subsection.

For every lettered subsection of the four seed sections, the report
lists the code registered with :func:`croupier.regs.implements` and the
tests whose names start with the subsection's slug
(``test_591_7_l_...`` for 591.7(l)). A subsection is *covered* only when
both exist.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path

from croupier.regs import SEED_SUBSECTIONS, Ref, implementations

__all__ = ["CoverageRow", "coverage_report", "find_tests"]


@dataclass(frozen=True, slots=True)
class CoverageRow:
    """One subsection's coverage."""

    ref: Ref
    """The lettered subsection."""
    summary: str
    """This project's one-line summary of it."""
    code: tuple[str, ...]
    """Qualified names of the implementing code (inner refs included)."""
    tests: tuple[str, ...]
    """``file::test`` names that prove it."""

    @property
    def covered(self) -> bool:
        """Implemented and tested."""
        return bool(self.code) and bool(self.tests)


def _import_everything() -> None:
    """Import every croupier module so that all registrations run."""
    import croupier

    for module in pkgutil.walk_packages(croupier.__path__, "croupier."):
        name = module.name
        if ".server" in name or ".cli" in name or name.endswith("__main__"):
            continue
        importlib.import_module(name)


def find_tests(tests_dir: Path) -> dict[str, list[str]]:
    """Map test-name slugs to ``file::name`` for every test function."""
    found: dict[str, list[str]] = {}
    for path in sorted(tests_dir.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(
                node, ast.FunctionDef | ast.AsyncFunctionDef
            ) and node.name.startswith("test_"):
                rel = path.relative_to(tests_dir.parent)
                found.setdefault(node.name, []).append(f"{rel}::{node.name}")
    return found


def coverage_report(tests_dir: Path | None) -> list[CoverageRow]:
    """Coverage of every seed subsection, in order."""
    _import_everything()
    registry = implementations()
    tests = find_tests(tests_dir) if tests_dir and tests_dir.is_dir() else {}
    rows = []
    for ref, summary in SEED_SUBSECTIONS.items():
        code = sorted(
            {
                name
                for reg_ref, names in registry.items()
                if reg_ref.within(ref)
                for name in names
            }
        )
        prefix = f"test_{ref.slug()}"
        proving = sorted(
            location
            for name, locations in tests.items()
            if name == prefix or name.startswith(prefix + "_")
            for location in locations
        )
        rows.append(CoverageRow(ref, summary, tuple(code), tuple(proving)))
    return rows
