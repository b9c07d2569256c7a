"""The dependency rule of the architecture, checked on the import graph.

Lower layers never import higher ones: the engine (cards ... games) knows
nothing of the math, the server, the CLI or the web; the math may read
the engine's evaluators and rules but not drive the server or the CLI.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "croupier"

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "cards": ("croupier.",),
    "errors": ("croupier.",),
    "regs": ("croupier.",),
    "rng": ("croupier.",),
    "money": ("croupier.shoe", "croupier.round", "croupier.games"),
    "shoe": ("croupier.round", "croupier.games", "croupier.events"),
    "hands": ("croupier.round", "croupier.games", "croupier.odds"),
    "procedures": ("croupier.games", "croupier.odds", "croupier.server"),
    "round": ("croupier.games", "croupier.odds", "croupier.server"),
    "games": ("croupier.odds", "croupier.server", "croupier.cli"),
    "odds": ("croupier.server", "croupier.cli"),
    "report": ("croupier.server", "croupier.cli"),
    "history": ("croupier.server", "croupier.cli", "croupier.odds"),
    "server": ("croupier.cli",),
}
_ALLOWED: dict[str, tuple[str, ...]] = {
    "cards": ("croupier.errors",),
    "errors": ("croupier.regs",),  # for type hints only
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _layer_files(layer: str) -> list[Path]:
    package = SRC / layer
    if package.is_dir():
        return sorted(package.rglob("*.py"))
    module = SRC / f"{layer}.py"
    return [module] if module.exists() else []


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_nothing_above_it(layer: str) -> None:
    own = f"croupier.{layer}"
    allowed = (own, *_ALLOWED.get(layer, ()))
    files = _layer_files(layer)
    assert files, layer
    for path in files:
        for name in _imports(path):
            if name.startswith(allowed):
                continue
            if name.startswith(FORBIDDEN[layer]):
                pytest.fail(f"{path.relative_to(SRC)} imports {name}")
