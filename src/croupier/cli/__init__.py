"""The ``croupier`` command line (typer + rich).

Sub-commands: ``games``, ``rules``, ``scenario``, ``regs coverage``,
``play``, ``demo``, and, where installed, ``analyze``, ``simulate``,
``strategy``, ``serve`` and ``replay``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import typer

from croupier.cli.basic import games, phases, rules, scenario
from croupier.cli.common import GuardedGroup
from croupier.cli.history import history_app
from croupier.cli.play import demo, play
from croupier.cli.regs import regs_app
from croupier.cli.token import token_app
from croupier.extras import MissingExtraError, extra_of

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
    "protect": ("croupier.cli.protect", "protect"),
}


def _needs_extra(extra: str, module: str) -> Callable[..., None]:
    """A stand-in for a command whose extra is not installed."""

    def missing(ctx: typer.Context) -> None:
        del ctx
        raise MissingExtraError("this command", extra, module)

    missing.__doc__ = f"(not installed: pip install 'croupier[{extra}]')"
    return missing


for _name, (_module, _attr) in _OPTIONAL.items():
    try:
        _command = getattr(importlib.import_module(_module), _attr)
    except ModuleNotFoundError as _exc:
        _extra = extra_of(_exc.name or "")
        if _extra is None:
            if _exc.name != _module:
                raise
            continue
        _command = _needs_extra(_extra, _exc.name or "")
        app.command(
            _name,
            context_settings={
                "allow_extra_args": True,
                "ignore_unknown_options": True,
            },
        )(_command)
        continue
    app.command(_name)(_command)


def main() -> None:
    """Entry point of the ``croupier`` console script."""
    app()
