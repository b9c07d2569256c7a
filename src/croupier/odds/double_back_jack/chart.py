"""The Double Back Jack strategy chart (``croupier strategy``).

Three parts: the first decision of every two-card hand against every up
card, exact CDZ- (:mod:`.ca`, the house edge shown is its exact edge);
whether to buy a Second Chance by busted hard total; and hit or stand
after the first decision (three or more cards) by hard and soft total.
The last two are the exact analyzer's optimal total-dependent decisions
(:mod:`.td`, strategy TD, from the full shoe), whose exact edge is
shown beside the CDZ- one.

Every cell also carries its *margin*: the expectation (points of the
initial wager) of the best action less the second best's, shown with
``--margins`` so that a surprising cell can be checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.table import Table

from croupier.games.double_back_jack.rules import DoubleBackJackRules

__all__ = ["StrategyChart", "strategy_chart"]

UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
"""Up cards in chart order (ace last)."""
_LETTERS = {0: "S", 1: "H", 2: "D", 3: "P", 4: "R"}
LEGEND = {
    "S": "stand",
    "H": "hit",
    "D": "double down",
    "P": "split",
    "R": "surrender (late)",
    "Y": "take the Second Chance",
    "N": "decline the Second Chance",
    "I": "take insurance",
}
"""What each chart letter means."""
_COLOURS = {
    "S": "#f4d35e",
    "H": "#ffffff",
    "D": "#90be6d",
    "P": "#4d908e",
    "R": "#f94144",
    "Y": "#90be6d",
    "N": "#dddddd",
}


def _name(value: int) -> str:
    return "A" if value == 1 else str(value)


@dataclass(slots=True)
class StrategyChart:
    """A solved strategy, ready to print, serialise or draw."""

    rules: DoubleBackJackRules
    """The options it was solved for."""
    house_edge: float
    """The strategy's house edge (fraction of the initial wager)."""
    first: dict[str, dict[str, str]] = field(default_factory=dict)
    """Hand (``"10,6"``) -> up card -> letter."""
    insurance: list[str] = field(default_factory=list)
    """Hands that take insurance against an ace."""
    second_chance: dict[str, dict[str, str]] = field(default_factory=dict)
    """Busted total -> up card -> ``Y``/``N``."""
    hard: dict[str, dict[str, str]] = field(default_factory=dict)
    """Hard total -> up card -> ``H``/``S`` after the first decision."""
    soft: dict[str, dict[str, str]] = field(default_factory=dict)
    """Soft total -> up card -> ``H``/``S`` after the first decision."""
    margins: dict[str, dict[str, dict[str, float]]] = field(
        default_factory=dict
    )
    """Section -> row -> up card -> best less second-best EV (points)."""
    strategy: str = "CDZ-"
    """The strategy the house edge is exact for."""
    td_house_edge: float | None = None
    """Exact edge of the TD strategy the later sections come from."""
    td_summary: dict[str, Any] = field(default_factory=dict)
    """TD against CDZ-: strategy, method, both edges, difference."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "game": "double-back-jack",
            "rules": self.rules.to_dict(),
            "house_edge": self.house_edge,
            "legend": LEGEND,
            "first_decision": self.first,
            "insurance": self.insurance,
            "second_chance": self.second_chance,
            "after_first_decision": {"hard": self.hard, "soft": self.soft},
            "strategy": self.strategy,
            "later_sections_strategy": "TD",
            "td_house_edge": self.td_house_edge,
            "total_dependent": self.td_summary,
            "margins_points": self.margins,
        }

    def _sections(self) -> list[tuple[str, dict[str, dict[str, str]]]]:
        return [
            ("first decision (two cards), exact CDZ-", self.first),
            (
                "Second Chance (busted hard total), exact TD",
                self.second_chance,
            ),
            ("later decisions, hard total, exact TD", self.hard),
            ("later decisions, soft total, exact TD", self.soft),
        ]

    def _td_text(self) -> str:
        if self.td_house_edge is None:
            return ""
        return f" · TD {100 * self.td_house_edge:.4f} % (exact)"

    def _cell(self, title: str, label: str, up: str, margins: bool) -> str:
        letter = self._by_title(title)[label][up]
        if not margins:
            return letter
        margin = self.margins.get(title, {}).get(label, {}).get(up)
        return letter if margin is None else f"{letter} {margin:.2f}"

    def _by_title(self, title: str) -> dict[str, dict[str, str]]:
        return dict(self._sections())[title]

    def subtitle(self) -> str:
        """Rules and deck count, for the chart's title."""
        r = self.rules
        das = "yes" if r.double_after_split else "no"
        return (
            f"{r.decks} deck{'s' if r.decks > 1 else ''} · S17 · "
            f"BJ {r.blackjack_payout} · surrender "
            f"{'late' if r.surrender else 'none'} · split to "
            f"{r.max_split_hands} · DAS {das}"
            f" · split aces {'draw' if r.split_aces_may_draw else 'one card'}"
            " · 21 paid at once · dealer 22 pushes · Second Chance"
        )

    def rich_table(self, margins: bool = False) -> Table:
        """The chart as one rich table, a section per part."""
        table = Table(
            title=(
                "Double Back Jack strategy · house edge "
                f"{100 * self.house_edge:.4f} % ({self.strategy}, exact)"
                + self._td_text()
                + "\n"
                + self.subtitle()
                + (
                    "\ncells: action, margin over the second best (points)"
                    if margins
                    else ""
                )
            ),
            caption="  ".join(f"{k} {v}" for k, v in LEGEND.items())
            + (
                f"\ninsurance: {', '.join(self.insurance)}"
                if self.insurance
                else "\ninsurance: never"
            ),
            # A margin such as "151.13" is six characters: ten of them,
            # the hand column and the rules between fit 80 columns only
            # without the cells' padding (rich truncates cells that do
            # not fit, and a truncated figure is a wrong one).
            padding=(0, 0) if margins else (0, 1),
            show_edge=not margins,
        )
        # With margins, fixed widths: a section title's longest word is
        # ten characters, a margin six ("151.13"), 79 columns in all.
        table.add_column("hand", justify="left", width=10 if margins else None)
        for up in UPS:
            table.add_column(
                _name(up), justify="center", width=6 if margins else None
            )
        for title, rows in self._sections():
            table.add_section()
            table.add_row(f"[bold]{title}[/bold]", *[""] * len(UPS))
            for label in rows:
                table.add_row(
                    label,
                    *(
                        self._cell(title, label, _name(up), margins)
                        for up in UPS
                    ),
                )
        return table

    def plot(self, path: Path, margins: bool = False) -> None:
        """Write the chart as a PNG (matplotlib, Agg backend)."""
        import matplotlib as mpl

        mpl.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle

        sections = self._sections()
        heights = [max(len(rows), 1) for _, rows in sections]
        fig, axes = plt.subplots(
            len(sections),
            1,
            figsize=(7, 0.22 * sum(heights) + 2.5),
            gridspec_kw={"height_ratios": heights},
        )
        ups = [_name(up) for up in UPS]
        for axis, (title, rows) in zip(axes, sections, strict=True):
            labels = list(rows)
            for i, label in enumerate(labels):
                for j, up in enumerate(ups):
                    letter = rows[label][up]
                    text = self._cell(title, label, up, margins)
                    axis.add_patch(
                        Rectangle(
                            (j, i),
                            1,
                            1,
                            facecolor=_COLOURS.get(letter, "#ffffff"),
                            edgecolor="#888888",
                            linewidth=0.4,
                        )
                    )
                    axis.text(
                        j + 0.5,
                        i + 0.5,
                        text.replace(" ", "\n") if margins else text,
                        ha="center",
                        va="center",
                        fontsize=4 if margins else 6,
                    )
            axis.set_xlim(0, len(ups))
            axis.set_ylim(len(labels), 0)
            axis.set_xticks([j + 0.5 for j in range(len(ups))], ups)
            axis.set_yticks([i + 0.5 for i in range(len(labels))], labels)
            axis.tick_params(labelsize=6, length=0)
            axis.xaxis.tick_top()
            axis.xaxis.set_label_position("top")
            axis.set_xlabel("dealer up card", fontsize=6)
            axis.set_ylabel("player hand", fontsize=6)
            axis.set_title(title, fontsize=8, loc="left")
        from matplotlib.patches import Patch

        handles = [
            Patch(facecolor=_COLOURS.get(k, "#ffffff"), edgecolor="#888888",
                  label=f"{k} {v}")
            for k, v in LEGEND.items()
            if k != "I"
        ]  # fmt: skip
        fig.legend(
            handles=handles, loc="lower center", ncol=4, fontsize=6,
            frameon=False,
        )  # fmt: skip
        fig.suptitle(
            f"Double Back Jack · house edge {100 * self.house_edge:.4f} % "
            f"({self.strategy}, exact){self._td_text()}\n{self.subtitle()}"
            + ("\ncells: action and margin over the second best (points)"
               if margins else ""),
            fontsize=7,
        )  # fmt: skip
        fig.tight_layout(rect=(0, 0.04, 1, 0.975))
        fig.savefig(path, dpi=130)
        plt.close(fig)


def strategy_chart(rules: DoubleBackJackRules) -> StrategyChart:
    """Solve ``rules`` and build its chart (first decision exact CDZ-)."""
    from .ca import solve_ca
    from .carules import CARules

    exact = solve_ca(CARules.from_game(rules))
    chart = StrategyChart(rules=rules, house_edge=exact.edge)
    letters = {"stand": "S", "hit": "H", "double": "D", "split": "P",
               "surrender": "R"}  # fmt: skip
    first_title = chart._sections()[0][0]
    chart.margins = {title: {} for title, _ in chart._sections()}
    for a in range(2, 12):
        for b in range(a, 12):
            va, vb = (1 if a == 11 else a), (1 if b == 11 else b)
            if {va, vb} == {1, 10}:
                continue
            label = f"A,{_name(va)}" if vb == 1 else f"{_name(va)},{_name(vb)}"
            lo, hi = min(va, vb), max(va, vb)
            row: dict[str, str] = {}
            margin: dict[str, float] = {}
            for up in UPS:
                sit = exact.situations.get((lo, hi, up))
                if sit is None:
                    row[_name(up)] = "-"
                    continue
                row[_name(up)] = letters[sit.best]
                allowed = sorted(
                    (e for e in sit.evs if e > -1e8), reverse=True
                )
                if len(allowed) > 1:
                    margin[_name(up)] = 100 * (allowed[0] - allowed[1])
                if sit.insure and label not in chart.insurance:
                    chart.insurance.append(label)
            chart.first[label] = row
            chart.margins[first_title][label] = margin
    from .td import solve_td

    td = solve_td(CARules.from_game(rules))
    chart.td_house_edge = td.edge
    chart.td_summary = {k: v for k, v in td.to_dict().items() if k != "chart"}
    sc_title, hard_title, soft_title = (t for t, _ in chart._sections()[1:])
    for total in range(22, 31):
        chart.second_chance[str(total)] = {
            _name(up): "Y" if td.ups[up].second_chance.get(total) else "N"
            for up in UPS
        }
        chart.margins[sc_title][str(total)] = {
            _name(up): 100 * m
            for up in UPS
            if (m := td.ups[up].second_chance_margin.get(total)) is not None
        }
    rows = [(str(t), t, False) for t in range(12, 21)]
    rows += [(f"A,{t - 11}", t, True) for t in range(13, 21)]
    for label, total, soft in rows:
        section = chart.soft if soft else chart.hard
        title = soft_title if soft else hard_title
        section[label] = {
            _name(up): "H" if td.ups[up].later[(total, soft)] == "hit" else "S"
            for up in UPS
        }
        chart.margins[title][label] = {
            _name(up): 100 * m
            for up in UPS
            if (m := td.ups[up].later_margin.get((total, soft))) is not None
        }
    return chart
