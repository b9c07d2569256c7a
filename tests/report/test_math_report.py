"""Issue 15 point 2: ``croupier report``, the regulator-format report.

Every game gets a report from a small simulation (the number of rounds
is a parameter; CI keeps it small). The JSON's figures are compared with
``analyze``'s, the derived figures with independent derivations, and the
PDF's pages are rendered to PNG (poppler's ``pdftoppm``) and checked:
enough pages, none blank.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from croupier.cli import app
from croupier.odds.registry import find_analyzer
from croupier.registry import all_games, find_game
from croupier.report import ReportSettings, build_report
from croupier.report import figures as fig
from croupier.report.build import rules_digest
from croupier.report.render import render_html, render_pdf

pytestmark = pytest.mark.slow  # PDF rendering; left out of `make check`

ROUNDS = 6_000
"""Rounds of the tests' statistical evaluations (kept small for CI)."""
GAMES = [spec.name for spec in all_games()]
DATE = "2026-12-01"


@pytest.fixture(scope="module")
def reports() -> dict[str, dict[str, Any]]:
    out = {}
    for name in GAMES:
        spec = find_game(name)
        settings = ReportSettings(rounds=ROUNDS, seed=3, date=DATE)
        out[name] = build_report(spec, spec.rules_type(), settings)
    return out


def test_issue_15_2_a_report_for_every_game(
    reports: dict[str, dict[str, Any]],
) -> None:
    assert set(reports) == {
        "21-baccarat",
        "double-back-jack",
        "midibaccarat",
        "midibaccarat-commission-free",
        "six-card-fortune-pai-gow",
    }


@pytest.mark.parametrize("game", GAMES)
def test_issue_15_2_json_figures_equal_analyze(
    reports: dict[str, dict[str, Any]], game: str
) -> None:
    spec = find_game(game)
    analyzer = find_analyzer(game)
    assert analyzer is not None
    exact = analyzer(spec.rules_type())
    report = json.loads(json.dumps(reports[game]))  # what --format json is
    by_name = {w["name"]: w for w in report["wagers"]}
    assert set(exact.wagers) <= set(by_name)
    for name, wager in exact.wagers.items():
        got = by_name[name]
        assert got["method"] == "exact"
        assert got["house_edge"] == wager.house_edge
        assert got["std_dev"] == wager.std_dev
        if "hit_frequency" in wager.extra:
            assert got["hit_frequency"] == wager.extra["hit_frequency"]
        else:
            assert "hit frequency" in got["observed_in_simulation"]
        if wager.house_edge_exact is not None:
            assert got["house_edge_exact"] == str(wager.house_edge_exact)
        assert len(got["rows"]) == len(wager.events)
        for row, event in zip(got["rows"], wager.events, strict=True):
            assert row["event"] == event["event"]
            assert row["pays"] == event["pays"]
            assert row["probability"] == event["probability"]
            assert row["return"] == event["return"]
            assert row["combinations"] == event.get("combinations")
    assert report["rules"] == spec.rules_type().to_dict()
    assert report["rules_digest"] == rules_digest(spec.rules_type())
    assert report["date"] == DATE
    assert {o["name"] for o in report["options"]} == set(report["rules"])


@pytest.mark.parametrize("game", GAMES)
def test_issue_15_2_simulation_agrees_with_the_exact_edge(
    reports: dict[str, dict[str, Any]], game: str
) -> None:
    checked = 0
    for wager in reports[game]["wagers"]:
        sim = wager["simulation"]
        if sim is None or "exact" not in sim:
            continue
        # The z-score, recomputed here from the interval.
        se = (sim["ci95"][1] - sim["ci95"][0]) / 2 / 1.959963984540054
        assert sim["z"] == pytest.approx(
            (sim["house_edge"] - sim["exact"]) / se
        )
        assert abs(sim["z"]) < 4.5, (wager["name"], sim["z"])
        assert sim["cut_card_effect_shows"] == (abs(sim["z"]) > 1.96)
        assert sim["rounds"] >= ROUNDS
        checked += 1
    assert checked >= 1


def test_issue_15_2_pai_gow_main_wager_from_a_labelled_simulation(
    reports: dict[str, dict[str, Any]],
) -> None:
    wagers = {
        w["name"]: w for w in reports["six-card-fortune-pai-gow"]["wagers"]
    }
    main = wagers["pai_gow"]
    assert main["method"] == "simulation"
    assert "simulation" in main["label"]
    low, high = main["house_edge_ci95"]
    assert low < main["house_edge"] < high
    assert main["simulation"]["rounds"] == ROUNDS
    # Its return table is the observed outcomes, which sum to one.
    assert sum(r["probability"] for r in main["rows"]) == pytest.approx(1)
    # One hand won, one lost: a push; the edge per resolved wager.
    push = sum(r["probability"] for r in main["rows"] if r["net"] == 0)
    assert 0.3 < push < 0.6
    assert main["house_edge_excluding_ties"] == pytest.approx(
        main["house_edge"] / (1 - push)
    )
    # No Double Down at the defaults (D182; before, its growth was noted
    # as not simulated): the wager cannot grow. With the Double Down on,
    # tests/paigow/test_d182_double_down_off_by_default.py.
    assert main["element_of_risk"] is None
    assert main["growth_note"] is None


def test_issue_15_2_house_edge_excluding_ties_midibaccarat_banker(
    reports: dict[str, dict[str, Any]],
) -> None:
    banker = next(
        w for w in reports["midibaccarat"]["wagers"] if w["name"] == "banker"
    )
    # Independently: the tie's count over the 8-deck cycle.
    cycle = banker["game_cycle"]
    tie = next(r for r in banker["rows"] if r["event"].lower() == "tie")
    edge = Fraction(banker["house_edge_exact"])
    excluding = edge / (1 - Fraction(tie["combinations"], cycle))
    assert banker["house_edge_excluding_ties"] == pytest.approx(
        float(excluding), rel=1e-12
    )
    assert cycle == sum(r["combinations"] for r in banker["rows"])
    # 19:20 on the table maximum, in cents.
    settings = reports["midibaccarat"]["settings"]
    assert banker["max_payout_units"] == pytest.approx(0.95)
    assert banker["max_payout_at_table_maximum"] == (
        settings["table_maximum"] * 95 // 100
    )
    win = banker["operating"]["theoretical_win_per_hour"]
    assert win == pytest.approx(float(edge) * 2500 * 72)


def test_issue_15_2_true_odds_and_one_in_n(
    reports: dict[str, dict[str, Any]],
) -> None:
    wagers = {w["name"]: w for w in reports["midibaccarat"]["wagers"]}
    pairs = wagers["perfect_pairs_player"]
    perfect = next(r for r in pairs["rows"] if r["event"] == "Perfect pair")
    # 2,912 of 172,640 ordered two-card deals are perfect pairs.
    p = Fraction(2912, 172640)
    assert perfect["one_in"] == pytest.approx(float(1 / p))
    assert perfect["true_odds"] == fig.true_odds(float(p))
    assert float((1 - p) / p) == pytest.approx(58.2857, abs=1e-4)
    assert perfect["true_odds"] == "58.2857 to 1"
    assert not perfect["gli_rare"]
    losing = next(r for r in pairs["rows"] if r["event"] == "No pair")
    assert losing["one_in"] is None


def test_issue_15_2_gli_11_flags_an_award_rarer_than_1_in_100_million() -> (
    None
):
    from croupier.report.build import _row

    rare = _row(
        {"event": "x", "pays": "1:1", "probability": 1e-9, "return": 1e-9}
    )
    common = _row(
        {"event": "y", "pays": "1:1", "probability": 2e-8, "return": 2e-8}
    )
    loss = _row(
        {"event": "z", "pays": "loss", "probability": 1e-9, "return": -1e-9}
    )
    assert rare["gli_rare"]
    assert not common["gli_rare"]
    assert not loss["gli_rare"]


def test_issue_15_2_element_of_risk_double_back_jack(
    reports: dict[str, dict[str, Any]],
) -> None:
    (box,) = reports["double-back-jack"]["wagers"]
    risk = box["element_of_risk"]
    assert risk is not None
    assert 1 < risk["average_stake"] < 2
    assert risk["value"] == pytest.approx(
        box["house_edge"] / risk["average_stake"]
    )
    # Second Chance Wagers per round: the kernel's count agrees with the
    # analyzer's exact rate.
    analyzer = find_analyzer("double-back-jack")
    assert analyzer is not None
    exact = analyzer(find_game("double-back-jack").rules_type())
    by_wager = exact.wagers["blackjack"].extra.get("return_by_wager", {})
    rate = by_wager.get("second_chance_wagers_per_round")
    if rate is not None:
        n = risk["rounds"]
        se = math.sqrt(rate * (1 - rate) / n)
        assert abs(risk["per_round"]["second_chance"] - rate) < 5 * se
    # Baccarat wagers cannot grow.
    for wager in reports["midibaccarat"]["wagers"]:
        assert wager["element_of_risk"] is None


def test_issue_15_2_risk_of_ruin_without_drift_is_the_reflection_law() -> None:
    # P(min of a driftless Brownian motion <= -b by T) = 2 Phi(-b/sqrt T).
    for b, t in ((10.0, 100.0), (3.0, 4.0), (50.0, 2000.0)):
        want = 2 * NormalDist().cdf(-b / math.sqrt(t))
        assert fig.ruin_probability(b, 0.0, 1.0, t) == pytest.approx(want)
    units = fig.units_for_ruin(0.01, 0.0, 2.0, 300.0)
    assert units == pytest.approx(
        2.0 * math.sqrt(300.0) * NormalDist().inv_cdf(1 - 0.005), rel=1e-9
    )


def test_issue_15_2_risk_of_ruin_with_a_favourable_drift_long_run() -> None:
    # A player with an edge mu > 0 is ever ruined with probability
    # exp(-2 mu b / sigma^2) (the classical gambler's-ruin limit).
    mu, sigma, b = 0.02, 1.5, 20.0
    want = math.exp(-2 * mu * b / sigma**2)
    got = fig.ruin_probability(b, mu, sigma, 1e9)
    assert got == pytest.approx(want, rel=1e-6)


def test_issue_15_2_risk_of_ruin_against_a_random_walk() -> None:
    # A Gaussian random walk with the house's drift, monitored each round;
    # the discrete walk crosses like the continuous one with the barrier
    # moved out by 0.5826 sigma (Broadie-Glasserman-Kou).
    rng = np.random.default_rng(7)
    mu, sigma, rounds, b = -0.05, 1.0, 400, 12.0
    steps = rng.normal(mu, sigma, size=(20_000, rounds))
    paths = np.cumsum(steps, axis=1)
    ruined = float(np.mean(paths.min(axis=1) <= -b))
    shifted = fig.ruin_probability(b + 0.5826 * sigma, mu, sigma, rounds)
    se = math.sqrt(shifted * (1 - shifted) / 20_000)
    assert abs(ruined - shifted) < 4 * se + 0.005


def test_issue_15_2_operating_figures(
    reports: dict[str, dict[str, Any]],
) -> None:
    for game, report in reports.items():
        pace = report["pace"]
        assert pace["decisions_per_hour"] == {
            "double-back-jack": 70,
            "six-card-fortune-pai-gow": 34,
        }.get(game, 72)
        assert "Wizard of Odds" in pace["source"]
        for wager in report["wagers"]:
            o = wager["operating"]
            assert o["volatility_index"] == pytest.approx(
                1.645 * wager["std_dev"]
            )
            rounds = pace["decisions_per_hour"] * 4.0
            assert o["session_rounds"] == rounds
            for risk in ("1%", "5%"):
                units = o["ruin"][risk]["units"]
                p = fig.ruin_probability(
                    units, -wager["house_edge"], wager["std_dev"], rounds
                )
                assert p == pytest.approx(int(risk[0]) / 100, abs=1e-9)
            assert o["ruin"]["1%"]["units"] > o["ruin"]["5%"]["units"]


def _pages(pdf: bytes, folder: Path) -> list[Path]:
    path = folder / "report.pdf"
    path.write_bytes(pdf)
    subprocess.run(  # noqa: S603 - our file, a fixed program
        [
            shutil.which("pdftoppm") or "pdftoppm",
            "-r",
            "24",
            "-png",
            str(path),
            str(folder / "page"),
        ],
        check=True,
    )
    return sorted(folder.glob("page-*.png"))


def _ink(page: Path) -> float:
    """The share of a page's pixels that are not white."""
    image = np.asarray(Image.open(page).convert("L"))
    return float(np.mean(image < 235))


@pytest.mark.parametrize("game", GAMES)
def test_issue_15_2_html_and_pdf_are_documents(
    reports: dict[str, dict[str, Any]], game: str, tmp_path: Path
) -> None:
    report = reports[game]
    html = render_html(report)
    assert html.startswith("<!DOCTYPE html>")
    assert 'nav class="toc"' in html
    assert "counter(page)" in html  # page numbers in print
    for wager in report["wagers"]:
        assert f'id="wager-{wager["name"]}"' in html
        assert f'href="#wager-{wager["name"]}"' in html
    assert report["rules_digest"] in html
    assert html.count("<svg") >= 2 * len(report["wagers"]) - len(
        [w for w in report["wagers"] if not w["simulation"]]
    )
    if game == "double-back-jack":
        assert 'id="strategy"' in html
    pages = _pages(render_pdf(html), tmp_path)
    assert len(pages) >= 8, len(pages)
    inks = [_ink(page) for page in pages]
    assert all(ink > 0.01 for ink in inks), inks


def test_issue_15_2_cli_writes_json_html_and_pdf(tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["report", "midibaccarat", "--rounds", "2000", "--date", DATE]
    for fmt in ("json", "html", "pdf"):
        out = tmp_path / f"m.{fmt}"
        result = runner.invoke(
            app, [*base, "--out", str(out)], prog_name="croupier"
        )
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 10_000
    data = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert data["settings"]["rounds"] == 2000
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")
    assert "<!DOCTYPE html>" in (tmp_path / "m.html").read_text("utf-8")


def test_dbj_average_stake_is_the_published_figure_from_one_kernel() -> None:
    """The element of risk's average stake, played by one reused kernel
    round player, gives the figures docs/reports/double-back-jack.json
    published (seed 1, 200,000 rounds), which a fresh player per round
    computed before 2026-12-06: the same shuffles, rounds and decisions,
    some six times faster."""
    from croupier.games.double_back_jack.rules import DoubleBackJackRules
    from croupier.report.build import _dbj_average_stake

    got = _dbj_average_stake(DoubleBackJackRules(), 200_000, 1)
    assert got["mean"] == 1.27001
    assert got["per_round"] == {
        "double": 0.070015,
        "split": 0.021295,
        "second_chance": 0.1787,
        "insurance": 0.0,
    }
    assert got["ci95_half_width"] == pytest.approx(0.002085656790376867)
