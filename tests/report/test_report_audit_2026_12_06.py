"""Audit of 2026-12-06: the math report as a regulator reads it.

Commission-free Midibaccarat is dealt under § 629b.2 (its Banker Wager
and the Dragon 7 and Panda 8 wagers) as well as § 629a.5; its report and
Rules Submission named § 629a.5 alone, as if it were Midibaccarat.
"""

from __future__ import annotations

from typing import Any

import pytest

from croupier.registry import find_game
from croupier.report import ReportSettings, build_report
from croupier.report.render import render_html
from croupier.submission import options_markdown, submission_toml

ROUNDS = 2_000
"""Rounds of the report's simulation (its figures are not checked)."""


@pytest.fixture(scope="module")
def free_report() -> dict[str, Any]:
    spec = find_game("midibaccarat-commission-free")
    settings = ReportSettings(rounds=ROUNDS, seed=1, date="2026-12-06")
    return build_report(spec, spec.rules_type(), settings)


def test_629b_2_commission_free_report_cites_629b_2(
    free_report: dict[str, Any],
) -> None:
    assert free_report["sections"] == ["629b.2", "629a.5"]
    assert free_report["citation"] == "58 Pa. Code §§ 629b.2, 629a.5"
    html = render_html(free_report)
    assert (
        "<tr><td>Governing sections</td>"
        "<td>58 Pa. Code §§ 629b.2, 629a.5</td></tr>"
    ) in html


def test_629a_5_midibaccarat_report_cites_its_one_section() -> None:
    spec = find_game("midibaccarat")
    settings = ReportSettings(rounds=ROUNDS, seed=1, date="2026-12-06")
    report = build_report(spec, spec.rules_type(), settings)
    assert report["sections"] == ["629a.5"]
    html = render_html(report)
    assert (
        "<tr><td>Governing section</td><td>58 Pa. Code § 629a.5</td></tr>"
    ) in html


def test_629b_2_commission_free_rules_submission_cites_629b_2() -> None:
    spec = find_game("midibaccarat-commission-free")
    toml = submission_toml(spec, spec.rules_type())
    assert toml.splitlines()[0] == (
        "# Rules Submission: Commission-free Midibaccarat "
        "(58 Pa. Code §§ 629b.2, 629a.5)"
    )
    assert options_markdown(spec).splitlines()[0] == (
        "## Commission-free Midibaccarat (`midibaccarat-commission-free`, "
        "§§ 629b.2, 629a.5)"
    )
