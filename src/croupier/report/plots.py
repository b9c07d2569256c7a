"""The report's pictures, as SVG text (matplotlib, Agg backend).

Every plot draws figures that the report's JSON carries: the return
table (the distribution of the net per unit) and the simulation's
running edge with its 95 % band, against the exact value as the
reference line.
"""

from __future__ import annotations

import io
from types import ModuleType
from typing import TYPE_CHECKING, Any

from croupier.extras import require

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["convergence_svg", "distribution_svg"]

_GREEN = "#0b6e4f"
_RED = "#a23b2a"


def _pyplot() -> ModuleType:
    require("plot", "the report's figures")
    import matplotlib as mpl

    mpl.use("Agg")
    mpl.rcParams["svg.fonttype"] = "none"
    mpl.rcParams["svg.hashsalt"] = "croupier"
    mpl.rcParams["font.family"] = "DejaVu Sans"
    import matplotlib.pyplot as plt

    return plt


def _svg(fig: Figure) -> str:
    plt = _pyplot()
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    text = out.getvalue()
    return text[text.index("<svg") :]


def distribution_svg(wager: dict[str, Any]) -> str:
    """Horizontal bars: each event's probability (log scale), by net."""
    plt = _pyplot()
    from matplotlib.ticker import NullFormatter

    rows = [r for r in wager["rows"] if r["probability"] > 0]
    rows.sort(key=lambda r: r["net"] if r["net"] is not None else 0)
    labels = [
        f"{r['event']} ({r['pays']})"
        if r["pays"] and r["pays"] != r["event"]
        else r["event"]
        for r in rows
    ]
    height = 0.9 + 0.2 * len(rows)
    fig, axis = plt.subplots(figsize=(6.2, height))
    colours = [_GREEN if (r["net"] or 0) > 0 else _RED for r in rows]
    colours = [
        "#888888" if r["net"] == 0 else c
        for r, c in zip(rows, colours, strict=True)
    ]
    axis.barh(
        range(len(rows)), [r["probability"] for r in rows], color=colours
    )
    axis.set_yticks(range(len(rows)), labels, fontsize=6.5)
    axis.set_xscale("log")
    axis.xaxis.set_minor_formatter(NullFormatter())
    axis.set_xlabel("probability per round (log scale)", fontsize=7)
    axis.tick_params(axis="x", labelsize=6.5)
    axis.set_title(
        f"{wager['title']}: outcomes by net per unit "
        "(green win, grey push, red loss)",
        fontsize=7.5,
        loc="left",
    )
    fig.tight_layout()
    return _svg(fig)


def convergence_svg(wager: dict[str, Any], subtitle: str) -> str | None:
    """The running simulated edge, its 95 % band and the exact line."""
    sim = wager.get("simulation")
    if not sim or not sim.get("running"):
        return None
    plt = _pyplot()
    points = sim["running"]
    x = [p[0] for p in points]
    edge = [100 * p[1] for p in points]
    low = [100 * (p[1] - p[2]) for p in points]
    high = [100 * (p[1] + p[2]) for p in points]
    fig, axis = plt.subplots(figsize=(6.2, 2.3))
    axis.plot(x, edge, color=_GREEN, linewidth=1, marker=".", markersize=3)
    axis.fill_between(x, low, high, color=_GREEN, alpha=0.18, linewidth=0)
    exact = sim.get("exact")
    if exact is not None:
        axis.axhline(
            100 * exact,
            color="#222222",
            linewidth=0.8,
            linestyle="--",
            label=f"exact {100 * exact:.4f} %",
        )
        axis.legend(fontsize=6.5, loc="upper right", frameon=False)
    # The first checkpoints' wide bands would flatten the rest: frame the
    # y axis on the last three quarters of the run (and the exact line).
    tail = [i for i, v in enumerate(x) if v >= x[-1] / 4] or [len(x) - 1]
    span = [low[i] for i in tail] + [high[i] for i in tail]
    if exact is not None:
        span.append(100 * exact)
    pad = 0.15 * (max(span) - min(span) or 1e-6)
    axis.set_ylim(min(span) - pad, max(span) + pad)
    axis.set_xlabel("rounds simulated", fontsize=7)
    axis.set_ylabel("house edge %", fontsize=7)
    axis.tick_params(labelsize=6.5)
    axis.set_title(
        f"{wager['title']}: simulated edge and 95 % band · {subtitle}",
        fontsize=7.5,
        loc="left",
    )
    fig.tight_layout()
    return _svg(fig)
