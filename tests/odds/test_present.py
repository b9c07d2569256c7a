"""Issue 15 point 4: analyze and simulate read alike.

Same event names, order and "pays" in both; the exact edge and the
z-score beside each estimate; plots with checkpoints, the exact value as
the reference line, rounds on the x axis and a titled figure; the pai
gow analysis shows its main wager (simulated, labelled), the Fortune
plus Envy figure and the meter in dollars.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.odds.report import Z95, WagerReport, WagerSums

runner = CliRunner()


def _json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize(
    "game", ["midibaccarat", "midibaccarat-commission-free", "21-baccarat"]
)
def test_issue_15_4_simulate_rows_read_like_analyze(game: str) -> None:
    exact = _json("analyze", game)
    sim = _json("simulate", game, "--rounds", "40000", "--chunk", "20000")
    assert list(sim["wagers"]) == list(exact["wagers"])
    for name, wager in sim["wagers"].items():
        rows = exact["wagers"][name]["events"]
        order = [row["event"] for row in rows]
        pays = {row["event"]: row["pays"] for row in rows}
        seen = [row["event"] for row in wager["events"]]
        assert seen == [e for e in order if e in seen], (name, seen)
        for row in wager["events"]:
            assert row["pays"] == pays[row["event"]]
        edge = exact["wagers"][name]["house_edge"]
        assert wager["exact_house_edge"] == edge
        low, high = wager["ci95"]
        se = (high - low) / (2 * Z95)
        assert wager["z"] == pytest.approx((wager["house_edge"] - edge) / se)
        assert abs(wager["z"]) < 5


def test_issue_15_4_bonus_rows_in_category_rank() -> None:
    rows = _json("analyze", "21-baccarat")["wagers"]["bonus_player"]
    names = [row["event"] for row in rows["events"]]
    # table A pays three of a kind and straight both 20:1: rank decides
    assert names.index("three of a kind") < names.index("straight")


def test_issue_15_4_simulated_rows_sorted_by_net_not_by_name() -> None:
    sums = WagerSums(
        unit=2,
        count=10,
        total=-2,
        total_sq=22,
        outcomes={"a loss": 5, "b push": 1, "c win": 4},
        outcome_nets={"a loss": -10, "b push": 0, "c win": 8},
        pays={"c win": "1:1"},
    )
    report = WagerReport.simulated(sums)
    assert [(r["event"], r["pays"]) for r in report.events] == [
        ("c win", "1:1"),
        ("b push", "push"),
        ("a loss", "loss"),
    ]


def test_issue_15_4_text_output_shows_exact_and_z_at_80_columns() -> None:
    result = runner.invoke(
        app, ["simulate", "midibaccarat", "--rounds", "20000"]
    )
    assert result.exit_code == 0
    out = result.stdout
    assert "exact 1.0579 %, z = " in out
    assert "19:20" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_issue_15_4_plot_checkpoints_rounds_and_exact_line(
    tmp_path: Path,
) -> None:
    import matplotlib as mpl

    mpl.use("Agg")
    from matplotlib.figure import Figure

    captured: dict[str, Any] = {}
    save = Figure.savefig

    def spy(fig: Any, path: Any, **kw: Any) -> None:
        captured["title"] = fig._suptitle.get_text()
        axis = fig.axes[0]
        captured["xlabel"] = fig.axes[-1].get_xlabel()
        captured["lines"] = [
            (line.get_label(), list(line.get_ydata()))
            for line in axis.get_lines()
        ]
        save(fig, path, **kw)

    path = tmp_path / "run.png"
    mp = pytest.MonkeyPatch()
    mp.setattr(Figure, "savefig", spy)
    try:
        data = _json(
            "simulate",
            "midibaccarat",
            "--rounds",
            "30000",
            "--seed",
            "7",
            "--set",
            "tie_payout=9:1",
            "--plot",
            str(path),
            "--checkpoints",
            "30",
        )
    finally:
        mp.undo()
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert data["chunks"] == 30
    assert data["chunk_rounds"] == 1000
    assert "seed 7" in captured["title"]
    assert "tie_payout=9:1" in captured["title"]
    assert captured["xlabel"] == "rounds played"
    reference = [y for label, y in captured["lines"] if "exact" in label]
    exact = _json("analyze", "midibaccarat", "--set", "tie_payout=9:1")
    edge = exact["wagers"]["player"]["house_edge"]
    assert reference
    assert math.isclose(reference[0][0], 100 * edge)


def test_issue_15_4_running_edges_count_rounds() -> None:
    from croupier.odds.simulate import running_edges

    part = {"w": WagerSums(unit=1, count=12, total=0, total_sq=12)}
    points = running_edges([part, part], [2, 2])
    assert [p[0] for p in points["w"]] == [2.0, 4.0]  # rounds, not wagers


def test_issue_15_4_paigow_analyze_shows_main_wager_envy_and_dollars() -> None:
    result = runner.invoke(app, ["analyze", "six-card-fortune-pai-gow"])
    assert result.exit_code == 0
    out = result.stdout
    assert "six-card-fortune-pai-gow · pai_gow" in out
    assert "simulated (not enumerable) over 200,000 wagers, seed 1" in out
    assert "Fortune Bonus with Envy" in out
    assert "2.9009 % (exact)" in out
    assert "meter ($10,000.00)" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_issue_15_4_paigow_analyze_json_labels_the_main_wager() -> None:
    data = _json("analyze", "six-card-fortune-pai-gow")
    assert "pai_gow" not in data["wagers"]  # the wagers are exact only
    main = data["pai_gow"]
    assert (main["method"], main["rounds"], main["seed"]) == (
        "simulation",
        200_000,
        1,
    )
    rows = {row["event"]: row for row in main["events"]}
    # no commission (D20): the edge is P(both lose) - P(both win)
    expected = (
        rows["both hands lose"]["probability"]
        - rows["both hands win"]["probability"]
    )
    assert main["house_edge"] == pytest.approx(expected)
    assert rows["both hands win"]["pays"] == "1:1"
