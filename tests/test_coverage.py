"""Coverage from what tests prove: the ``proves`` marker and scenario refs.

Issue 18 point 3: a test's name proves nothing; a subsection is proved by
a test marked ``@pytest.mark.proves(...)`` or a scenario whose
``expect.refs`` lists it, and every reference named is checked.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.coverage import (
    ProofError,
    check_proof,
    coverage_report,
    find_proofs,
    scenario_proofs,
)
from croupier.regs import Ref

TESTS = Path(__file__).parent


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    tests = tmp_path / "tests"
    for name, text in files.items():
        path = tests / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tests


def _row(tests: Path, ref: str) -> tuple[str, ...]:
    rows = {str(row.ref): row for row in coverage_report(tests)}
    return rows[ref].tests


def test_issue_18_3_a_name_alone_proves_nothing(tmp_path: Path) -> None:
    tests = _tree(
        tmp_path,
        {"test_named.py": "def test_591_7_c_burns_a_card():\n    pass\n"},
    )
    assert find_proofs(tests) == {}
    assert _row(tests, "591.7(c)") == ()
    rows = {str(row.ref): row for row in coverage_report(tests)}
    assert rows["591.7(c)"].code  # implemented, yet not covered
    assert not rows["591.7(c)"].covered


MARKED = """
import pytest

pytestmark = pytest.mark.proves("629a.5(f)")


@pytest.mark.proves("591.7(l)(2)", "681a.7(k)")
def test_second_chance():
    pass


@pytest.mark.parametrize(
    "x", [pytest.param(1, marks=pytest.mark.proves("670a.9(e)"))]
)
def test_param(x):
    pass


@pytest.mark.proves("591.7(c)")
class TestBurn:
    @pytest.mark.proves("591.7(d)(1)")
    def test_method(self):
        pass

    def helper(self):
        pass


def helper():
    pass


@pytest.mark.proves("591.7(v)")
class Helpers:  # not collected by pytest: proves nothing
    def test_not_collected(self):
        pass
"""


def test_issue_18_3_markers_on_tests_classes_params_and_modules(
    tmp_path: Path,
) -> None:
    tests = _tree(tmp_path, {"game/test_marked.py": MARKED})
    where = "tests/game/test_marked.py::"
    assert find_proofs(tests) == {
        Ref.parse("629a.5(f)"): [
            f"{where}test_second_chance",
            f"{where}test_param",
            f"{where}TestBurn::test_method",
        ],
        Ref.parse("591.7(l)(2)"): [f"{where}test_second_chance"],
        Ref.parse("681a.7(k)"): [f"{where}test_second_chance"],
        Ref.parse("670a.9(e)"): [f"{where}test_param"],
        Ref.parse("591.7(c)"): [f"{where}TestBurn::test_method"],
        Ref.parse("591.7(d)(1)"): [f"{where}TestBurn::test_method"],
    }
    # a paragraph proves its lettered subsection
    assert _row(tests, "591.7(l)") == (f"{where}test_second_chance",)
    assert _row(tests, "591.7(d)") == (f"{where}TestBurn::test_method",)
    assert _row(tests, "591.7(e)") == ()


def test_issue_18_3_scenario_refs_prove(tmp_path: Path) -> None:
    scenario = {"game": "x", "expect": {"refs": ["591.7(p)", "673a.9"]}}
    tests = _tree(
        tmp_path,
        {
            "scenarios/double-back-jack/no-draw.json": json.dumps(scenario),
            "scenarios/double-back-jack/plain.json": json.dumps({"a": 1}),
        },
    )
    where = "tests/test_scenarios.py::test_scenario_file"
    assert scenario_proofs(tests) == {
        Ref.parse("591.7(p)"): [f"{where}[double-back-jack/no-draw]"],
        Ref.parse("673a.9"): [f"{where}[double-back-jack/no-draw]"],
    }
    assert _row(tests, "591.7(p)") == (f"{where}[double-back-jack/no-draw]",)


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ("591.7(w)", "not a paragraph of 591.7"),
        ("591.7(l)(4)", "not a paragraph of 591.7"),
        ("670a.9(a)(3)(iii)", "not a paragraph of 670a.9"),
        ("629a.5", "not a paragraph of 629a.5"),
        ("591.7 (l)", "not a regulation reference"),
        ("999a.1(a)", "not one this project cites"),
        (591.7, "as a string"),
    ],
)
def test_issue_18_3_unknown_paragraphs_are_refused(
    raw: object, fragment: str
) -> None:
    with pytest.raises(ProofError, match=fragment.replace("(", r"\(")):
        check_proof(raw)


def test_issue_18_3_every_seed_paragraph_cited_in_the_code_is_known() -> None:
    """The outline of the seed sections agrees with what the code cites."""
    from croupier.coverage import _import_everything
    from croupier.regs import implementations

    _import_everything()
    for ref in implementations():
        if ref.parts and ref.section in {
            "591.7",
            "629a.5",
            "670a.9",
            "681a.7",
        }:
            check_proof(str(ref))


@pytest.mark.parametrize(
    ("decorator", "fragment"),
    [
        ("@pytest.mark.proves(REF)", "takes literal references, not REF"),
        ("@pytest.mark.proves()", "takes references only"),
        ("@pytest.mark.proves(ref='591.7(a)')", "takes references only"),
        ("@pytest.mark.proves(591)", "as a string"),
    ],
)
def test_issue_18_3_a_marker_must_name_literal_references(
    tmp_path: Path, decorator: str, fragment: str
) -> None:
    tests = _tree(
        tmp_path,
        {
            "test_odd.py": (
                f"import pytest\n\nREF = '591.7(a)'\n\n\n{decorator}\n"
                "def test_odd():\n    pass\n"
            )
        },
    )
    with pytest.raises(ProofError, match=fragment.replace("(", r"\(")):
        find_proofs(tests)


def test_issue_18_3_a_typo_fails_the_coverage_command(tmp_path: Path) -> None:
    tests = _tree(
        tmp_path,
        {
            "test_typo.py": (
                "import pytest\n\n\n@pytest.mark.proves('591.7(x)')\n"
                "def test_typo():\n    pass\n"
            )
        },
    )
    result = CliRunner().invoke(
        app, ["regs", "coverage", "--tests", str(tests)]
    )
    assert result.exit_code == 2
    assert "test_typo.py::test_typo: 591.7(x) is not a paragraph" in (
        result.output
    )


def test_issue_18_3_fail_under_fails_an_unproved_suite(tmp_path: Path) -> None:
    tests = _tree(tmp_path, {"test_none.py": "def test_x():\n    pass\n"})
    runner = CliRunner()
    args = ["regs", "coverage", "--tests", str(tests), "--json"]
    result = runner.invoke(app, [*args, "--fail-under", "100"])
    assert result.exit_code == 1
    assert "0 of 47 subsections covered" in result.output
    assert runner.invoke(app, [*args, "--fail-under", "0"]).exit_code == 0


def test_issue_18_3_this_suite_proves_every_seed_subsection() -> None:
    rows = coverage_report(TESTS)
    assert len(rows) == 47
    assert [str(r.ref) for r in rows if not r.covered] == []
    for row in rows:
        assert all("::" in where for where in row.tests)


class _Item:
    """Just what the collection hook reads of a pytest item."""

    def __init__(self, *refs: str) -> None:
        self.nodeid = "tests/test_x.py::test_x"
        self.marks = [pytest.mark.proves(*refs).mark]

    def iter_markers(self, name: str) -> list[pytest.Mark]:
        return [mark for mark in self.marks if mark.name == name]


def test_issue_18_3_collection_refuses_a_typo() -> None:
    """tests/conftest.py stops the run on a marker naming no paragraph."""
    spec = importlib.util.spec_from_file_location(
        "_croupier_conftest", TESTS / "conftest.py"
    )
    assert spec is not None
    assert spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    hook = conftest.pytest_collection_modifyitems
    fine = [_Item("681a.7(k)(3)(ii)", "673a.9"), _Item("591.7(t)(2)")]
    hook(None, fine)  # no error
    with pytest.raises(pytest.UsageError, match=r"681a\.7\(k\)\(4\) is not"):
        hook(None, [*fine, _Item("681a.7(k)(4)")])
    with pytest.raises(pytest.UsageError, match=r"test_x: .*not one this"):
        hook(None, [_Item("999a.1")])
