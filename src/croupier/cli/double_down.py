"""``croupier analyze six-card-fortune-pai-gow --double-down N`` (D177).

The Six-Card Wager with the Double Down Wager played well, simulated
(:mod:`croupier.odds.paigow.double_down`): a table of the figures, or
their JSON, and a warning where doubling makes the wager favour the
player (D146's words).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table as RichTable

from croupier.cli.common import console, load_game_rules, warn_favourable
from croupier.errors import ScenarioError

if TYPE_CHECKING:
    from croupier.odds.report import GameReport

__all__ = ["GAME", "print_double_down", "print_double_down_line"]

GAME = "six-card-fortune-pai-gow"

_ROWS = (
    ("Six-Card Wager alone: house edge", "edge_without", "edge_without_ci"),
    (
        "with the Double Down: house edge per Six-Card unit",
        "edge_with",
        "edge_with_ci",
    ),
    (
        "what the Double Down gains the player, per Six-Card unit",
        "double_down_value",
        "double_down_value_ci",
    ),
    (
        "the Double Down Wager's own house edge",
        "double_down_edge",
        "double_down_edge_ci",
    ),
)


def _plus_minus(half: float | None) -> str:
    """``± 1.49`` (percentage points), or nothing without an interval."""
    return "" if half is None else f"± {100 * half:.2f}"


def print_double_down_line(report: GameReport) -> None:
    """``analyze``'s line on the Double Down, where the analysis has one.

    Where the rules offer none (the default, D182) the line says so.
    """
    figures: dict[str, Any] = report.extra.get("double_down") or {}
    if figures.get("offered") is False:
        console.print(
            f"[bold]{report.game} · the Double Down Wager[/bold]\n"
            f"  {figures['note']}"
        )
        return
    if "house_edge_with_double_down" not in figures:
        return
    console.print(
        f"[bold]{report.game} · Six-Card Wager with the Double Down[/bold]\n"
        f"  house edge "
        f"{100 * figures['house_edge_with_double_down']:.2f} % "
        f"{_plus_minus(figures['house_edge_with_double_down_ci95'])} per "
        f"Six-Card unit, doubled in "
        f"{100 * figures['double_frequency']:.1f} % "
        f"of rounds (simulated, {figures['rounds']:,} rounds; "
        f"--double-down N for more; D177)"
    )


def print_double_down(
    rules_file: Path | None,
    settings: list[str] | None,
    rounds: int,
    as_json: bool,
) -> None:
    """Simulate ``rounds`` rounds and print the Double Down's figures.

    Raises :class:`~croupier.errors.ScenarioError` when the rules in
    force do not offer the Double Down Wager.
    """
    from croupier.odds.paigow.double_down import (
        double_down_figures,
        double_down_warnings,
    )

    _, rules = load_game_rules(GAME, rules_file, settings)
    if not getattr(rules, "double_down_offered", False):
        msg = (
            "--double-down: the rules in force do not offer the Double "
            "Down Wager (double_down_offered is false)"
        )
        raise ScenarioError(msg)
    figures = double_down_figures(rules, rounds)
    favourable = double_down_warnings({"double_down": figures.to_dict()})
    if as_json:
        data: dict[str, object] = {
            "game": GAME,
            "double_down": figures.to_dict(),
        }
        if favourable:
            data["player_favourable"] = favourable
        print(json.dumps(data, indent=2))
    else:
        table = RichTable(
            title=f"Six-Card Fortune Pai Gow: the Double Down Wager "
            f"({figures.rounds:,} round{'' if figures.rounds == 1 else 's'}"
            f", seed {figures.seed})"
        )
        table.add_column("figure")
        table.add_column("value", justify="right")
        table.add_column("95 % interval", justify="right")
        for label, name, ci in _ROWS:
            value = getattr(figures, name)
            half = getattr(figures, ci)
            table.add_row(
                label,
                "—" if value is None else f"{100 * value:.2f} %",
                _plus_minus(half) or "—",
            )
        table.add_row(
            "rounds doubled", f"{100 * figures.double_frequency:.2f} %", ""
        )
        table.add_row(
            "units staked per Six-Card unit",
            f"{figures.average_stake:.4f}",
            "",
        )
        table.add_row(
            "element of risk (loss per unit staked)",
            f"{100 * figures.element_of_risk:.2f} %",
            "",
        )
        console.print(table)
        console.print(
            f"The player doubles the whole Six-Card Wager when his hand "
            f"wins more than it loses against {figures.samples} hands "
            f"drawn for the dealer from the 47 cards he does not see: a "
            f"strategy a player could follow, so a lower bound of the "
            f"best use (D177)."
        )
    warn_favourable(favourable, as_json)
