"""Options shared by the sub-commands: loading a game's rules."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from croupier.errors import CroupierError
from croupier.registry import GameSpec, find_game
from croupier.rules import GameRules, load_rules_file

__all__ = ["console", "err_console", "fail", "load_game_rules"]

console = Console()
"""Standard output."""
err_console = Console(stderr=True, soft_wrap=True)
"""Standard error."""


def fail(exc: CroupierError, code: int = 2) -> typer.Exit:
    """Print a refusal on one line of stderr and return the exit to raise."""
    err_console.print(f"{type(exc).__name__}: {exc}", markup=False)
    return typer.Exit(code)


def load_game_rules(
    game: str, rules_file: Path | None, settings: list[str] | None
) -> tuple[GameSpec, GameRules]:
    """The game and its rules: defaults, then the file, then ``--set``."""
    spec = find_game(game)
    rules = spec.rules_type()
    if rules_file is not None:
        rules = rules.with_overrides(load_rules_file(rules_file))
    if settings:
        rules = rules.with_settings(settings)
    return spec, rules
