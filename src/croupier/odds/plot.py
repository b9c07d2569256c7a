"""Plots: the running house edge of a simulation with its 95 % band."""

from __future__ import annotations

from pathlib import Path

from croupier.odds.report import GameReport

__all__ = ["plot_running_edge"]


def plot_running_edge(report: GameReport, path: Path) -> None:
    """Write a PNG: each wager's running edge and its 95 % CI band."""
    import matplotlib as mpl

    mpl.use("Agg")
    import matplotlib.pyplot as plt

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
        axis.plot(x, edge, color="#0b6e4f", marker="." if len(x) < 40 else "")
        axis.fill_between(x, low, high, color="#0b6e4f", alpha=0.2)
        axis.axhline(edge[-1], color="grey", linewidth=0.6, linestyle="--")
        axis.set_title(f"{report.game}: {wager}", fontsize=9)
        axis.set_ylabel("house edge %")
    axes[-1, 0].set_xlabel("rounds")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
