"""The core install (issue 18, point 7), run by ``make core``.

``make core`` makes a fresh virtual environment, installs croupier into
it with ``pip install .`` and no extra, and runs this file with that
environment's Python. Without any extra croupier must import every game,
run every scenario under ``tests/scenarios`` to the exit code and
settlements its ``expect`` names, show ``croupier rules`` for every game,
and refuse a command of an extra with one line naming the extra. The
extras' modules must be absent, so that nothing passes by accident.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from croupier.extras import EXTRAS, import_name
from croupier.registry import all_games
from croupier.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[1]
CROUPIER = Path(sys.executable).with_name("croupier")
NEEDS = {
    "serve": ((), "server"),
    "simulate": (("midibaccarat", "--rounds", "1000"), "sim"),
    "verify": (("-",), "history"),
}
"""Commands of an extra, their arguments, and the extra to name."""


def _fail(message: str) -> None:
    sys.stderr.write(f"core install: {message}\n")
    raise SystemExit(1)


def _extras_absent() -> None:
    present = sorted(
        module
        for requirements in EXTRAS.values()
        for module in map(import_name, requirements)
        if module != "croupier" and importlib.util.find_spec(module)
    )
    if present:
        _fail(f"extras' modules are installed: {present}")


def _scenarios() -> int:
    paths = sorted((ROOT / "tests" / "scenarios").glob("*/*.json"))
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        expect = data.get("expect", {})
        result = run_scenario(data)
        if result.exit_code != expect.get("exit_code", 0):
            _fail(f"{path.name}: exit {result.exit_code}: {result.stderr}")
        if "settlements" in expect:
            got = json.loads(result.stdout)["settlements"]
            if got != expect["settlements"]:
                _fail(f"{path.name}: settlements {got}")
    if not paths:
        _fail("no scenario found")
    return len(paths)


def _commands(games: list[str]) -> None:
    for game in games:
        shown = subprocess.run(  # noqa: S603 - our own command
            [CROUPIER, "rules", game, "--json"],
            capture_output=True,
            text=True,
            check=False,
        )
        if shown.returncode != 0 or not json.loads(shown.stdout):
            _fail(f"croupier rules {game}: {shown.stderr}")
    for command, (args, extra) in NEEDS.items():
        refused = subprocess.run(  # noqa: S603 - our own command
            [CROUPIER, command, *args],
            capture_output=True,
            text=True,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        wanted = f"pip install 'croupier[{extra}]'"
        if refused.returncode != 2 or wanted not in refused.stderr:
            _fail(f"croupier {command}: {refused.stderr or refused.stdout}")


def main() -> None:
    """Check the core install; print what it holds."""
    _extras_absent()
    games = [spec.name for spec in all_games()]
    if len(games) < 5:
        _fail(f"games: {games}")
    scenarios = _scenarios()
    _commands(games)
    names = sorted(
        {
            dist.metadata["Name"].lower()
            for dist in importlib.metadata.distributions()
        }
        - {"pip", "setuptools", "croupier"}
    )
    print(
        f"core install: {len(names)} distributions ({', '.join(names)}); "
        f"{len(games)} games, {scenarios} scenarios and `croupier rules` "
        f"ran; {', '.join(NEEDS)} name their extras"
    )


if __name__ == "__main__":
    main()
