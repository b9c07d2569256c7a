"""A simulation read beside the exact analysis (issue 15 point 4).

``croupier analyze`` and ``croupier simulate`` print the same return
tables: the same event names, in the same order, with the same "pays"
column. :func:`align_with_exact` puts a simulated report in the exact
report's shape and adds, per wager, the exact house edge and the
z-score of the estimate against it.

>>> from fractions import Fraction
>>> from croupier.odds.report import ExactEvent, WagerSums
>>> exact = WagerReport.exact([
...     ExactEvent("win", Fraction(1), Fraction(9, 19), pays="1:1"),
...     ExactEvent("loss", Fraction(-1), Fraction(10, 19), pays="loss")])
>>> sums = WagerSums(unit=1, count=1900, total=-100, total_sq=1900,
...     outcomes={"loss": 1000, "win": 900},
...     outcome_nets={"loss": -1000, "win": 900})
>>> sim = WagerReport.simulated(sums)
>>> align_wager(sim, exact)
>>> [(e["event"], e["pays"]) for e in sim.events]
[('win', '1:1'), ('loss', 'loss')]
>>> round(sim.extra["z"], 6)
0.0
"""

from __future__ import annotations

from typing import Any

from croupier.odds.report import (
    SHOE_RAN_OUT_EVENT,
    Z95,
    GameReport,
    WagerReport,
)

__all__ = ["align_wager", "align_with_exact", "exact_edges"]


def exact_edges(exact: GameReport) -> dict[str, float]:
    """Every exact house edge the analysis gives, by wager name.

    Besides the wagers' own tables, the pai gow analysis gives the
    Fortune Bonus with Envy and the Envy part alone (as figures, not
    tables).
    """
    out = {
        name: report.house_edge
        for name, report in exact.wagers.items()
        if report.ci95 is None  # not itself a simulation
    }
    envy: dict[str, Any] = exact.extra.get("envy") or {}
    if "fortune_bonus_with_envy_house_edge" in envy:
        out["fortune_bonus_with_envy"] = envy[
            "fortune_bonus_with_envy_house_edge"
        ]
    if "expected_envy_per_qualifying_wager" in envy:
        out["envy_bonus"] = -envy["expected_envy_per_qualifying_wager"]
    return out


def align_wager(
    sim: WagerReport, exact: WagerReport | None, edge: float | None = None
) -> None:
    """Order ``sim``'s rows as ``exact``'s, fill "pays", add the z-score.

    Rows the exact table does not have keep their order after the
    others. ``edge`` is the exact house edge when there is no exact
    table (a figure only); by default ``exact``'s.
    """
    if exact is not None:
        order = {row["event"]: i for i, row in enumerate(exact.events)}
        pays = {row["event"]: row.get("pays", "") for row in exact.events}
        sim.events.sort(key=lambda row: order.get(row["event"], len(order)))
        for row in sim.events:
            known = pays.get(row["event"])
            if known:
                row["pays"] = known
        if edge is None and exact.ci95 is None:
            edge = exact.house_edge
    void = sum(
        row["probability"]
        for row in sim.events
        if str(row["event"]).endswith(SHOE_RAN_OUT_EVENT)
    )
    if void:
        # the exact figures are of rounds played to the end
        sim.extra["void_share"] = void
    if edge is None:
        return
    sim.extra["exact_house_edge"] = edge
    if sim.ci95 is not None:
        se = (sim.ci95[1] - sim.ci95[0]) / (2 * Z95)
        if se > 0:
            sim.extra["z"] = (sim.house_edge - edge) / se


def align_with_exact(sim: GameReport, exact: GameReport) -> None:
    """Align every wager of ``sim`` with the exact report ``exact``."""
    edges = exact_edges(exact)
    for name, report in sim.wagers.items():
        table = exact.wagers.get(name)
        if table is not None and table.ci95 is not None:
            table = None  # itself a simulation
        align_wager(report, table, edges.get(name))
    sim.extra["exact_method"] = exact.method
