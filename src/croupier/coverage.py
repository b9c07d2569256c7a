"""Regulation coverage: which code and which tests carry each subsection.

For every lettered subsection of the four seed sections, the report
lists the code registered with :func:`croupier.regs.implements` and the
tests that prove it. A test proves what its ``proves`` marker names
(``@pytest.mark.proves("591.7(l)(2)")``), and a scenario file under
``tests/scenarios`` proves the references its ``expect.refs`` lists
(``tests/test_scenarios.py`` checks that they appear on its events).
A test's *name* counts for nothing. A subsection is *covered* only when
both code and a proof exist.

Every reference a marker or a scenario names is checked
(:func:`check_proof`): a paragraph of a seed section must exist in that
section, any other section must be one this project cites, so that a
typo fails instead of covering nothing.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
from dataclasses import dataclass
from pathlib import Path

from croupier.regs import SEED_SECTIONS, SEED_SUBSECTIONS, Ref, implementations

__all__ = [
    "OTHER_SECTIONS",
    "PROVES",
    "SEED_PARAGRAPHS",
    "CoverageRow",
    "ProofError",
    "check_proof",
    "coverage_report",
    "find_proofs",
    "scenario_proofs",
]

PROVES = "proves"
"""The pytest marker naming the subsection(s) a test proves."""


def _paragraphs(section: str, outline: str) -> frozenset[Ref]:
    """Every paragraph of an outline such as ``"a d:1,2 r:1(i,ii),2"``.

    Each space-separated item is a letter, optionally followed by ``:``
    and its numbered paragraphs, each optionally followed by its roman
    numerals in parentheses. Only the numbering is recorded here.
    """
    refs: set[Ref] = set()
    for item in outline.split():
        letter, _, numbers = item.partition(":")
        refs.add(Ref(section, (letter,)))
        for number in (
            numbers.replace("),", ");").split(";") if numbers else []
        ):
            digit, _, romans = number.partition("(")
            for part in digit.split(","):
                refs.add(Ref(section, (letter, part)))
            for roman in romans.rstrip(")").split(",") if romans else []:
                refs.add(Ref(section, (letter, digit, roman)))
    return frozenset(refs)


SEED_PARAGRAPHS: frozenset[Ref] = (
    _paragraphs(
        "591.7",
        "a b c d:1,2 e:1,2,3,4 f g h i j k:1,2 l:1,2,3 m n o p q:1,2 "
        "r:1(i,ii);2;3(i,ii) s:1(i,ii);2;3 t:1,2 u v",
    )
    | _paragraphs("629a.5", "a b c d e f")
    | _paragraphs("670a.9", "a:1;2;3(i,ii) b c d e f")
    | _paragraphs(
        "681a.7",
        "a b c d:1,2 e:1,2,3,4 f:1,2 g h i:1;2(i,ii);3(i,ii);4 "
        "j:1;2(i,ii);3(i,ii);4 k:1(i,ii);2(i,ii);3(i,ii) l m",
    )
)
"""Every paragraph of the seed sections, by number only (no text)."""

OTHER_SECTIONS: frozenset[str] = frozenset(
    {
        # Double Back Jack (permanent chapter) and its temporary definitions
        *(f"591.{n}" for n in range(1, 14)),
        *(f"673a.{n}" for n in range(1, 14)),
        # Midibaccarat, its side wagers and commission-free variant
        *(f"629a.{n}" for n in range(1, 14)),
        "629b.1",
        "629b.2",
        # Minibaccarat and Baccarat sections the Midibaccarat code follows
        "627a.1",
        "627a.8",
        "631a.11",
        # Six-Card Fortune Pai Gow Poker
        *(f"670a.{n}" for n in range(1, 14)),
        # 21 Baccarat
        *(f"681a.{n}" for n in range(1, 10)),
        # table game equipment and records
        "601a.10",
        "810a.5",
        "810a.11",
    }
)
"""Sections outside the seeds that a test may claim to prove."""


class ProofError(ValueError):
    """A ``proves`` marker or scenario ref that names no known paragraph."""


def check_proof(raw: object) -> Ref:
    """The reference a proof names, or :class:`ProofError`.

    >>> check_proof("591.7(l)(2)")
    Ref.parse('591.7(l)(2)')
    >>> check_proof("591.7(l)(4)")
    Traceback (most recent call last):
    ...
    croupier.coverage.ProofError: 591.7(l)(4) is not a paragraph of 591.7
    >>> check_proof("673a.7(l)")
    Ref.parse('673a.7(l)')
    """
    if not isinstance(raw, str):
        msg = f"a proof names a reference as a string, not {raw!r}"
        raise ProofError(msg)
    try:
        ref = Ref.parse(raw)
    except ValueError as exc:
        raise ProofError(str(exc)) from None
    if ref.section in SEED_SECTIONS:
        if ref not in SEED_PARAGRAPHS:
            msg = f"{ref} is not a paragraph of {ref.section}"
            raise ProofError(msg)
    elif ref.section not in OTHER_SECTIONS:
        msg = f"{ref}: section {ref.section} is not one this project cites"
        raise ProofError(msg)
    return ref


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


def _proves_calls(node: ast.AST) -> list[ast.Call]:
    """Every ``….mark.proves(...)`` call inside ``node``."""
    return [
        call
        for call in ast.walk(node)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == PROVES
        and isinstance(call.func.value, ast.Attribute)
        and call.func.value.attr == "mark"
    ]


def _refs_of(calls: list[ast.Call], where: str) -> list[Ref]:
    refs = []
    for call in calls:
        if call.keywords or not call.args:
            msg = f"{where}: proves() takes references only"
            raise ProofError(msg)
        for arg in call.args:
            if not isinstance(arg, ast.Constant):
                msg = (
                    f"{where}: proves() takes literal references, "
                    f"not {ast.unparse(arg)}"
                )
                raise ProofError(msg)
            value = arg.value
            try:
                refs.append(check_proof(value))
            except ProofError as exc:
                raise ProofError(f"{where}: {exc}") from None
    return refs


def _module_marks(tree: ast.Module) -> list[ast.Call]:
    """The ``proves`` calls of a module-level ``pytestmark``."""
    calls = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark"
            for t in node.targets
        ):
            calls += _proves_calls(node.value)
    return calls


def find_proofs(tests_dir: Path) -> dict[Ref, list[str]]:
    """Map each proved reference to the ``file::test`` names proving it.

    A test proves the references of the ``proves`` markers on it (also
    inside ``pytest.param(..., marks=...)``), on its class and in its
    module's ``pytestmark``. A marker naming an unknown paragraph raises
    :class:`ProofError`.
    """
    found: dict[Ref, list[str]] = {}
    for path in sorted(tests_dir.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(tests_dir.parent).as_posix()
        module = _refs_of(_module_marks(tree), rel)
        scopes: list[tuple[ast.AST, str, list[Ref]]] = [(tree, "", module)]
        while scopes:
            scope, prefix, inherited = scopes.pop()
            for node in getattr(scope, "body", []):
                if isinstance(node, ast.ClassDef) and node.name.startswith(
                    "Test"
                ):
                    where = f"{rel}::{prefix}{node.name}"
                    marks = [
                        c
                        for d in node.decorator_list
                        for c in _proves_calls(d)
                    ]
                    own = _refs_of(marks, where)
                    scopes.append(
                        (node, f"{prefix}{node.name}::", inherited + own)
                    )
                elif isinstance(
                    node, ast.FunctionDef | ast.AsyncFunctionDef
                ) and node.name.startswith("test_"):
                    where = f"{rel}::{prefix}{node.name}"
                    marks = [
                        c
                        for d in node.decorator_list
                        for c in _proves_calls(d)
                    ]
                    for ref in dict.fromkeys(
                        inherited + _refs_of(marks, where)
                    ):
                        found.setdefault(ref, []).append(where)
    return found


def scenario_proofs(tests_dir: Path) -> dict[Ref, list[str]]:
    """Map each reference a scenario's ``expect.refs`` lists to its test ids.

    ``tests/test_scenarios.py::test_scenario_file`` runs every scenario and
    checks that each of those references appears on one of its events.
    """
    found: dict[Ref, list[str]] = {}
    for path in sorted(tests_dir.glob("scenarios/*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        refs = data.get("expect", {}).get("refs", [])
        game = path.parent.name
        where = (
            f"{tests_dir.name}/test_scenarios.py::test_scenario_file"
            f"[{game}/{path.stem}]"
        )
        for raw in refs:
            try:
                ref = check_proof(raw)
            except ProofError as exc:
                raise ProofError(f"{path.name}: {exc}") from None
            found.setdefault(ref, []).append(where)
    return found


def coverage_report(tests_dir: Path | None) -> list[CoverageRow]:
    """Coverage of every seed subsection, in order.

    Raises :class:`ProofError` when a marker or scenario names an unknown
    paragraph.
    """
    _import_everything()
    registry = implementations()
    proofs: dict[Ref, list[str]] = {}
    if tests_dir and tests_dir.is_dir():
        for source in (find_proofs(tests_dir), scenario_proofs(tests_dir)):
            for ref, where in source.items():
                proofs.setdefault(ref, []).extend(where)
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
        proving = sorted(
            {
                where
                for proved, places in proofs.items()
                if proved.within(ref)
                for where in places
            }
        )
        rows.append(CoverageRow(ref, summary, tuple(code), tuple(proving)))
    return rows
