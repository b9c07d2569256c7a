"""Plots: the running house edge of a simulation with its 95 % band."""

from __future__ import annotations

from pathlib import Path

from croupier.errors import CroupierError
from croupier.extras import require
from croupier.odds.report import GameReport

__all__ = ["plot_running_edge", "plot_title"]


def _changed_rules(report: GameReport) -> str:
    import croupier.games  # noqa: F401  (registers the games)
    from croupier.registry import find_game

    try:
        defaults = find_game(report.game).rules_type().to_dict()
    except CroupierError:  # a game the registry does not know
        defaults = {}
    changed = [
        f"{key}={value}"
        for key, value in report.rules.items()
        if defaults.get(key) != value
    ]
    return ", ".join(changed) if changed else "default rules"


def plot_title(report: GameReport) -> str:
    """The figure's title: game, rules changed from the defaults, seed."""
    seed = report.extra.get("seed")
    chunks = report.extra.get("chunks")
    rounds = f"{report.rounds:,} rounds" if report.rounds else ""
    parts = [
        report.game,
        _changed_rules(report),
        f"seed {seed}" if seed is not None else "",
        rounds,
        f"{chunks} chunks" if chunks else "",
    ]
    return " · ".join(p for p in parts if p)


def plot_running_edge(
    report: GameReport, path: Path, *, exact: GameReport | None = None
) -> None:
    """Write a PNG: each wager's running edge and its 95 % CI band.

    The x axis counts rounds played (one point per seeded chunk); the
    reference line is the exact house edge where ``exact`` (or the
    report's own alignment) gives one, else none is drawn.
    """
    require("plot", "a plot of the running edge")
    import matplotlib as mpl

    mpl.use("Agg")
    import matplotlib.pyplot as plt

    from croupier.odds.present import exact_edges

    reference = exact_edges(exact) if exact is not None else {}
    running: dict[str, list[list[float]]] = report.extra.get("running", {})
    wagers = list(running)
    fig, axes = plt.subplots(
        len(wagers), 1, figsize=(8, 2.4 * max(len(wagers), 1)), squeeze=False
    )
    for axis, wager in zip(axes[:, 0], wagers, strict=True):
        rows = running[wager]
        x = [row[0] for row in rows]
        edge = [100 * row[1] for row in rows]
        low = [100 * (row[1] - row[2]) for row in rows]
        high = [100 * (row[1] + row[2]) for row in rows]
        axis.plot(
            x,
            edge,
            color="#0b6e4f",
            marker="." if len(x) < 40 else "",
            label="simulated edge",
        )
        axis.fill_between(
            x, low, high, color="#0b6e4f", alpha=0.2, label="95 % CI"
        )
        value = report.wagers[wager].extra.get(
            "exact_house_edge", reference.get(wager)
        )
        if value is not None:
            axis.axhline(
                100 * value,
                color="#a4243b",
                linewidth=0.9,
                linestyle="--",
                label=f"exact {100 * value:.4f} %",
            )
        axis.set_title(wager, fontsize=9)
        axis.set_ylabel("house edge %")
        axis.legend(fontsize=7, loc="upper right")
    axes[-1, 0].set_xlabel("rounds played")
    fig.suptitle(plot_title(report), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
