"""Issue 18, point 7: a small core, and extras that name themselves.

The extras of ``pyproject.toml`` and :data:`croupier.extras.EXTRAS` are
the same lists; every library the package imports is either a core
dependency or belongs to an extra. Then a Python in which the extras'
modules cannot be imported (an import hook refuses them) imports every
game, runs scenarios, shows ``croupier rules`` and refuses the commands
of an extra with a line naming it. ``make core`` checks the same in a
real fresh install (``.ci/core_check.py``).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from pathlib import Path

from croupier.extras import EXTRAS, extra_of, import_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
CORE = {"typer", "rich", "numpy", "tomli_w"}
"""The core's own dependencies, by module name."""
WITH_CORE = {"pydantic", "pydantic_core"}
"""Modules a core dependency brings along (typer needs pydantic, which
needs pydantic_core)."""
META = {"all", "dev"}
"""Extras that only gather others (and the developers' tools)."""


def test_issue_18_7_core_dependencies_are_few() -> None:
    project = PYPROJECT["project"]
    assert {import_name(r) for r in project["dependencies"]} == CORE


def test_issue_18_7_extras_agree_with_pyproject() -> None:
    declared = PYPROJECT["project"]["optional-dependencies"]
    assert {k: tuple(v) for k, v in declared.items() if k not in META} == (
        EXTRAS
    )
    assert declared["all"] == [f"croupier[{','.join(EXTRAS)}]"]


def _imported_libraries() -> dict[str, str]:
    """Top-level module -> a croupier file importing it (anywhere)."""
    stdlib = set(sys.stdlib_module_names) | {"__future__", "croupier"}
    found: dict[str, str] = {}
    for path in sorted((ROOT / "src" / "croupier").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.partition(".")[0]
                if top not in stdlib:
                    found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def test_issue_18_7_every_library_is_core_or_in_an_extra() -> None:
    unplaced = {
        module: where
        for module, where in _imported_libraries().items()
        if module not in CORE | WITH_CORE and extra_of(module) is None
    }
    assert not unplaced, f"add to the core or to an extra: {unplaced}"


_WITHOUT_EXTRAS = """
import importlib.abc, sys
from croupier.extras import extra_of

class NoExtras(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if extra_of(name) is not None:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoExtras())
"""

_CORE_RUN = """
import json
from pathlib import Path
from typer.testing import CliRunner
from croupier.cli import app
from croupier.registry import all_games
from croupier.scenario import run_scenario

games = sorted(spec.name for spec in all_games())
runner = CliRunner()
rules = {g: runner.invoke(app, ["rules", g, "--json"]) for g in games}
ran = {}
for path in sorted(Path(SCENARIOS).glob("*/*.json")):
    data = json.loads(path.read_text())
    result = run_scenario(data)
    ok = result.exit_code == data.get("expect", {}).get("exit_code", 0)
    ran.setdefault(data["game"], []).append(ok)
refused = {
    name: runner.invoke(app, args)
    for name, args in {
        "serve": ["serve"],
        "replay": ["replay", "1"],
        "simulate": ["simulate", "midibaccarat", "--rounds", "1000"],
        "analyze": ["analyze", "six-card-fortune-pai-gow"],
        "verify": ["verify", "-"],
        "history": ["history", "export"],
        "token": ["token", "rotate", "--out", "never-written"],
    }.items()
}
loaded = sorted(
    m for m in sys.modules if extra_of(m) is not None
)
print(json.dumps({
    "games": games,
    "rules": {
        g: (r.exit_code, bool(json.loads(r.stdout))) for g, r in rules.items()
    },
    "scenarios": {g: all(v) and len(v) for g, v in ran.items()},
    "refused": {n: (r.exit_code, r.output) for n, r in refused.items()},
    "loaded": loaded,
}))
"""


def test_issue_18_7_core_runs_without_any_extra() -> None:
    code = (
        _WITHOUT_EXTRAS
        + f"SCENARIOS = {str(ROOT / 'tests' / 'scenarios')!r}\n"
        + _CORE_RUN
    )
    done = subprocess.run(  # noqa: S603 - this interpreter, our code
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert len(out["games"]) == 5
    assert out["rules"] == {g: [0, True] for g in out["games"]}
    assert set(out["scenarios"]) == set(out["games"])
    assert all(out["scenarios"].values()), out["scenarios"]
    assert out["loaded"] == []
    needs = {
        "serve": "server",
        "replay": "server",
        "simulate": "sim",
        "analyze": "sim",
        "verify": "history",
        "history": "server",
        "token": "server",
    }
    for name, extra in needs.items():
        status, text = out["refused"][name]
        assert status == 2, (name, text)
        assert f"needs the {extra!r} extra" in text, (name, text)
        assert f"pip install 'croupier[{extra}]'" in text, (name, text)
