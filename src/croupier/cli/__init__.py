"""The ``croupier`` command line (typer + rich).

Sub-commands: ``games``, ``rules``, ``scenario``, ``regs coverage``,
``play``, ``demo``, and, where installed, ``analyze``, ``simulate``,
``strategy``, ``serve`` and ``replay``.
"""

from __future__ import annotations

import importlib

import typer

from croupier.cli.basic import games, phases, rules, scenario
from croupier.cli.common import GuardedGroup
from croupier.cli.history import history_app
from croupier.cli.play import demo, play
from croupier.cli.regs import regs_app
from croupier.cli.token import token_app

__all__ = ["app", "main"]

app = typer.Typer(
    help="Pennsylvania table games run by the regulation, and their math.",
    no_args_is_help=True,
    add_completion=False,
    cls=GuardedGroup,
    pretty_exceptions_enable=False,
)
app.command()(games)
app.command()(rules)
app.command()(scenario)
app.command()(phases)
app.command()(play)
app.command()(demo)
app.add_typer(regs_app, name="regs")
app.add_typer(history_app, name="history")
app.add_typer(token_app, name="token")

# Commands that live in their own modules, registered when present.
_OPTIONAL = {
    "serve": ("croupier.cli.serve", "serve"),
    "replay": ("croupier.cli.replay", "replay"),
    "analyze": ("croupier.cli.odds", "analyze"),
    "simulate": ("croupier.cli.odds", "simulate"),
    "strategy": ("croupier.cli.odds", "strategy"),
    "ev": ("croupier.cli.ev", "ev"),
    "report": ("croupier.cli.report", "report"),
    "design": ("croupier.cli.design", "design"),
    "verify": ("croupier.cli.verify", "verify"),
    "rng-test": ("croupier.cli.rngtest", "rng_test"),
}
for _name, (_module, _attr) in _OPTIONAL.items():
    try:
        _command = getattr(importlib.import_module(_module), _attr)
    except ModuleNotFoundError as _exc:
        if _exc.name != _module:
            raise
        continue
    app.command(_name)(_command)


def main() -> None:
    """Entry point of the ``croupier`` console script."""
    app()
