"""The dependency rule of the architecture, checked on the import graph.

Every module of ``src/croupier`` has a rank in :data:`LAYERS`, from the
foundations (cards, money, citations) up to the server and the CLI. A
module may import modules of its own layer or below, never above, and
no set of modules may import each other in a cycle. Every import
statement counts: at module level, inside functions and methods (a lazy
import hides a cycle, it does not remove it) and under ``TYPE_CHECKING``
(a type is a dependency too); relative imports are resolved against
the importing module (issue 18, point 4).

The graph is read with the stdlib :mod:`ast`, so the test imports none
of the modules it checks.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterable, Mapping
from fnmatch import fnmatchcase
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

LAYERS: tuple[tuple[str, ...], ...] = (
    # the foundations: citations, errors, randomness, cards, money
    (
        "croupier.regs",
        "croupier.errors",
        "croupier.rng",
        "croupier.jit",
        "croupier.frozen",
    ),
    ("croupier.jsontypes",),
    ("croupier.cards", "croupier.money", "croupier.extras", "croupier.packed"),
    # the events' compiled encoders and constructors (cards only)
    ("croupier.event_codec",),
    # the engine's pieces
    ("croupier.shoe", "croupier.events", "croupier.rules"),
    ("croupier",),
    ("croupier.hands", "croupier.hands.*"),
    ("croupier.procedures", "croupier.procedures.*", "croupier.narrate"),
    ("croupier.round",),
    ("croupier.registry",),
    ("croupier.games", "croupier.games.*", "croupier.autoplay"),
    # what plays and records rounds of any game
    ("croupier.table", "croupier.history", "croupier.scenario"),
    ("croupier.submission", "croupier.coverage"),
    ("croupier.rngtest", "croupier.rngtest.*"),
    # the mathematics, and what is built on it
    ("croupier.odds", "croupier.odds.*"),
    ("croupier.protect", "croupier.protect.*"),
    ("croupier.report", "croupier.report.*"),
    # the server, from its storage up to its routes
    (
        "croupier.server",
        "croupier.server.decisions",
        "croupier.server.errors",
        "croupier.server.auth",
        "croupier.server.inputs",
        "croupier.server.lifeline",
        "croupier.server.limits",
    ),
    (
        "croupier.server.db",
        "croupier.server.serial",
        "croupier.server.store",
        "croupier.server.shared",
        "croupier.server.tables",
        "croupier.server.visibility",
        "croupier.server.edge",
        "croupier.server.withdrawn",
    ),
    ("croupier.server.play",),
    ("croupier.server.recovery",),
    ("croupier.server.pacing",),
    ("croupier.server.casino",),
    ("croupier.server.runtime", "croupier.server.access"),
    ("croupier.server.views", "croupier.server.recall", "croupier.server.ws"),
    ("croupier.server.play_api", "croupier.server.fast_play"),
    ("croupier.server.pacing_api",),
    ("croupier.server.app", "croupier.server.migrations.*"),
    # hand histories and their verification read stored rounds
    ("croupier.hhf", "croupier.hhf.*"),
    ("croupier.verify", "croupier.verify.*"),
    # the command line drives everything
    ("croupier.cli", "croupier.cli.*"),
    # `python -m croupier`: the command line itself
    ("croupier.__main__",),
)
"""Layers from the bottom up; a module matches exactly one pattern."""

KNOWN_CYCLES: tuple[frozenset[str], ...] = ()
"""Cycles still being removed (issue 18); a listed cycle that is gone
fails the test until it is struck from this list."""

KNOWN_UPWARD: frozenset[tuple[str, str]] = frozenset()
"""Imports of a higher layer still being removed, struck out likewise."""


def module_files(src: Path) -> dict[str, Path]:
    """Every module under ``src`` by dotted name (a package by its own)."""
    found: dict[str, Path] = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name a ``from ... import`` refers to."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _owner(name: str, modules: Mapping[str, Path]) -> str | None:
    """The module ``name`` lives in (a name may be a class in it)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(
    module: str, modules: Mapping[str, Path], root: str
) -> set[str]:
    """The modules of package ``root`` that ``module`` imports, anywhere."""
    path = modules[module]
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node)
            for alias in node.names:
                # ``from pkg import mod`` imports the submodule mod
                names.add(f"{base}.{alias.name}")
    found: set[str] = set()
    for name in names:
        if name != root and not name.startswith(f"{root}."):
            continue
        owner = _owner(name, modules)
        if owner is not None and owner != module:
            found.add(owner)
    return found


def import_graph(src: Path, root: str) -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    modules = {
        name: path
        for name, path in module_files(src).items()
        if name == root or name.startswith(f"{root}.")
    }
    return {name: imports_of(name, modules, root) for name in modules}


def cycles(graph: Mapping[str, Iterable[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        # iterative Tarjan: (node, iterator over its successors)
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def rank(module: str, layers: tuple[tuple[str, ...], ...]) -> list[int]:
    """The layers whose patterns match ``module`` (one when ranked)."""
    return [
        i
        for i, patterns in enumerate(layers)
        for pattern in patterns
        if fnmatchcase(module, pattern)
    ]


GRAPH = import_graph(SRC, "croupier")


def test_issue_18_4_every_module_is_ranked_once() -> None:
    unranked = [m for m in sorted(GRAPH) if len(rank(m, LAYERS)) != 1]
    assert not unranked, (
        f"rank these modules in LAYERS exactly once: {unranked}"
    )
    unused = [
        p
        for layer in LAYERS
        for p in layer
        if not any(fnmatchcase(m, p) for m in GRAPH)
    ]
    assert not unused, f"patterns matching no module: {unused}"


def test_issue_18_4_no_module_imports_a_layer_above_it() -> None:
    upward = {
        (module, target)
        for module, targets in GRAPH.items()
        for target in targets
        # an unranked module is reported by the test above
        if rank(module, LAYERS)
        and rank(target, LAYERS)
        and rank(target, LAYERS)[:1] > rank(module, LAYERS)[:1]
    }
    new = [
        f"{module} (layer {rank(module, LAYERS)[0]}) imports {target} "
        f"(layer {rank(target, LAYERS)[0]})"
        for module, target in sorted(upward - KNOWN_UPWARD)
    ]
    assert not new, "\n".join(new)
    gone = sorted(KNOWN_UPWARD - upward)
    assert not gone, f"strike these from KNOWN_UPWARD, they are gone: {gone}"


def test_issue_18_4_no_import_cycle() -> None:
    found = cycles(GRAPH)
    new = [sorted(c) for c in found if c not in KNOWN_CYCLES]
    assert not new, f"import cycles: {new}"
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in found]
    assert not gone, f"strike these from KNOWN_CYCLES, they are gone: {gone}"


def test_issue_18_4_registry_loads_every_game_package_by_entry_point() -> None:
    # the registry does not import the games: pyproject names them
    pyproject = tomllib.loads(
        (SRC.parent / "pyproject.toml").read_text(encoding="utf-8")
    )
    points = pyproject["project"]["entry-points"]["croupier.games"]
    packages = {
        path.parent.name: f"croupier.games.{path.parent.name}"
        for path in (SRC / "croupier" / "games").glob("*/__init__.py")
    }
    assert points == packages
    assert "croupier.games" not in GRAPH["croupier.registry"]


# -- the checker itself, on a package written for the purpose -------------


def _package(tmp_path: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_issue_18_4_checker_resolves_relative_and_lazy_imports(
    tmp_path: Path,
) -> None:
    src = _package(
        tmp_path,
        {
            "__init__.py": "",
            "low.py": "X = 1\n",
            "sub/__init__.py": "from . import deep\n",
            "sub/deep.py": (
                "def f():\n    from ..low import X\n    return X\n"
            ),
            "sub/typed.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from .deep import f\n"
            ),
            "high.py": "import pkg.sub.deep\nfrom pkg.low import X\n",
        },
    )
    graph = import_graph(src, "pkg")
    assert graph == {
        "pkg": set(),
        "pkg.low": set(),
        "pkg.sub": {"pkg.sub.deep"},
        "pkg.sub.deep": {"pkg.low"},
        "pkg.sub.typed": {"pkg.sub.deep"},
        "pkg.high": {"pkg.sub.deep", "pkg.low"},
    }


def test_issue_18_4_checker_finds_a_cycle_hidden_in_a_function(
    tmp_path: Path,
) -> None:
    src = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from pkg.b import g\n",
            "b.py": "def g():\n    from .c import h\n    return h\n",
            "c.py": "def h():\n    from . import a\n    return a\n",
            "d.py": "from . import a\n",
        },
    )
    assert cycles(import_graph(src, "pkg")) == [
        frozenset({"pkg.a", "pkg.b", "pkg.c"})
    ]


def test_issue_18_4_checker_ranks_by_the_first_matching_layer() -> None:
    layers = (("pkg.low",), ("pkg.sub", "pkg.sub.*"))
    assert rank("pkg.sub.deep", layers) == [1]
    assert rank("pkg.low", layers) == [0]
    assert rank("pkg.other", layers) == []
