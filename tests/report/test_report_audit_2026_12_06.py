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


# -- D134: the Envy Bonus pays fixed amounts --------------------------------


@pytest.fixture(scope="module")
def pai_gow_report() -> dict[str, Any]:
    spec = find_game("six-card-fortune-pai-gow")
    settings = ReportSettings(rounds=20_000, seed=1, date="2026-12-06")
    return build_report(spec, spec.rules_type(), settings)


@pytest.mark.parametrize("wager", ["fortune_bonus_with_envy", "envy_bonus"])
def test_670a_9_envy_figures_are_priced_at_the_qualifying_stake(
    pai_gow_report: dict[str, Any], wager: str
) -> None:
    """§ 670a.9(a)(3)(i): Envy pays fixed amounts on a Qualifying Wager.

    The simulation's figures are per unit of a Qualifying Wager of the
    minimum ($5.00, D23); the Envy paid is the same whatever the Fortune
    Bonus Wager, so they are that stake's. The report priced them at the
    $25.00 average wager: five times the Envy paid per hour.
    """
    rules: Any = find_game("six-card-fortune-pai-gow").rules_type()
    minimum = rules.envy_qualifying_minimum
    assert minimum == 500  # D23's $5.00
    by_name = {w["name"]: w for w in pai_gow_report["wagers"]}
    w = by_name[wager]
    assert w["stake"] == minimum
    assert w["stake_fixed"] is True
    per_hour = pai_gow_report["pace"]["decisions_per_hour"]
    assert w["operating"]["theoretical_win_per_hour"] == pytest.approx(
        w["house_edge"] * minimum * per_hour
    )
    assert any("$5.00" in note for note in w["notes"])


def test_670a_9_envy_bonus_is_compared_with_its_exact_value(
    pai_gow_report: dict[str, Any],
) -> None:
    """The Envy part's exact value: minus the Envy paid per unit."""
    from fractions import Fraction

    by_name = {w["name"]: w for w in pai_gow_report["wagers"]}
    simulated = by_name["envy_bonus"]["simulation"]
    assert simulated["exact"] is not None
    # the Envy per qualifying unit the analysis prints, negated
    from croupier.odds.registry import find_analyzer

    analyzer = find_analyzer("six-card-fortune-pai-gow")
    assert analyzer is not None
    spec = find_game("six-card-fortune-pai-gow")
    figures = analyzer(spec.rules_type()).extra["envy"]
    paid = Fraction(figures["expected_envy_per_qualifying_wager_exact"])
    assert paid > 0
    assert simulated["exact"] == pytest.approx(float(-paid))
    assert simulated["z"] is not None


# -- D135: the largest payout of a Double Back Jack box ---------------------


@pytest.mark.parametrize(
    ("settings", "largest"),
    [
        # two split hands (673a.11(a)), each doubled (673a.10(c)), each
        # winning 1:1 when the dealer busts: 2 x 2 x 1
        ({}, 4),
        # no double after a split: a doubled hand wins 2, two split
        # hands 1 each
        ({"double_after_split": False}, 2),
        ({"max_split_hands": 1}, 2),
        # a doubled split hand's 21 paid at once at 2:1: 2 x 2 x 2
        ({"twenty_one_payout": "2:1"}, 8),
        # the Second Chance Wager is the doubled hand's size, paid 3:1
        # while the hand pushes: 2 x 2 x 3
        ({"second_chance_win_payout": "3:1"}, 12),
        (
            {
                "second_chance_win_payout": "3:1",
                "second_chance_on_split": False,
            },
            6,
        ),
    ],
)
def test_673a_11_dbj_largest_payout_is_a_split_box_of_doubled_wins(
    settings: dict[str, object], largest: int
) -> None:
    from croupier.games.double_back_jack.rules import DoubleBackJackRules
    from croupier.odds.double_back_jack.analysis import max_net_per_unit

    rules = DoubleBackJackRules.from_mapping(settings)
    assert max_net_per_unit(rules) == largest


def test_673a_11_dbj_report_states_the_largest_payout_of_a_box() -> None:
    """The report said 2.00 units (the largest net of a grouped table)."""
    spec = find_game("double-back-jack")
    rules: Any = spec.rules_type()
    settings = ReportSettings(rounds=ROUNDS, seed=1, date="2026-12-06")
    report = build_report(spec, rules, settings)
    (wager,) = report["wagers"]
    assert wager["max_payout_units"] == 4.0
    table_max = rules.table_maximum
    assert wager["max_payout_at_table_maximum"] == 4 * table_max
    html = render_html(report)
    assert "4.00 units per unit" in html


@pytest.mark.parametrize("wager", ["fortune_bonus_with_envy", "envy_bonus"])
def test_670a_9_an_average_net_is_not_stated_as_the_largest_payout(
    pai_gow_report: dict[str, Any], wager: str
) -> None:
    """A Fortune Bonus with Envy pays up to 1000:1 (five aces, D23).

    The simulation groups its wins in one "net win" row whose net is
    their average (about 9 units); the report stated that average as
    the wager's maximum payout, then (D135) "not determined". Since D176
    it states the largest: the player's five aces and five straight
    flushes in the other hands (1000 + 5 x 10 units), or for the Envy
    part four royal flushes and a straight flush (4 x 50 + 10),
    worked by hand in ``tests/paigow/test_d176_largest_fortune_payout.py``.
    """
    rules: Any = find_game("six-card-fortune-pai-gow").rules_type()
    top_odds = max(o.fraction for _, o in rules.fortune_bonus_paytable)
    assert top_odds == 1000
    by_name = {w["name"]: w for w in pai_gow_report["wagers"]}
    w = by_name[wager]
    assert any(str(r["pays"]).startswith("avg") for r in w["rows"])
    largest = {"fortune_bonus_with_envy": 1050, "envy_bonus": 210}[wager]
    assert w["max_payout_units"] == largest
    assert "max_payout_units" not in w["simulated_figures"]
    html = render_html(pai_gow_report)
    assert "not determined" not in html
    assert f"{largest:,}.00 units per unit" in html
    assert by_name["fortune_bonus"]["max_payout_units"] == top_odds


# -- D136: the rules summary is the Rules Submission's -----------------------


def test_629b_2_report_summary_follows_the_commission_free_rule() -> None:
    """Under banker6_pays_half a Banker 6 pays 1 to 2; no 7 pushes."""
    spec = find_game("midibaccarat-commission-free")
    rules = spec.rules_type.from_mapping(
        {"commission_free_rule": "banker6_pays_half"}
    )
    settings = ReportSettings(rounds=ROUNDS, seed=1, date="2026-12-06")
    report = build_report(spec, rules, settings)
    text = " ".join(report["summary"])
    assert "three-card total of 7, which pushes" not in text
    assert "Banker wins with a total of 6, which pays 1 to 2" in text
    banker = next(w for w in report["wagers"] if w["name"] == "banker")
    assert {r["event"]: r["pays"] for r in banker["rows"]}[
        "Banker wins with 6"
    ] == "1:2"


def test_629a_12_report_summary_gives_the_submissions_tie_odds() -> None:
    spec = find_game("midibaccarat")
    rules = spec.rules_type.from_mapping({"tie_payout": "9:1"})
    settings = ReportSettings(rounds=ROUNDS, seed=1, date="2026-12-06")
    report = build_report(spec, rules, settings)
    assert report["summary"][-1] == (
        "A winning Banker Wager pays 19 to 20 (a 5 % commission on the "
        "win), a Player Wager 1 to 1 and a Tie Wager 9 to 1 (629a.12)."
    )


def test_670a_9_excluding_pushes_names_what_it_leaves_out(
    pai_gow_report: dict[str, Any],
) -> None:
    """A pai gow push is one hand won, not a tie; the figure is per
    wager resolved either way, and the report named it "excluding ties".
    """
    by_name = {w["name"]: w for w in pai_gow_report["wagers"]}
    main = by_name["pai_gow"]
    push = sum(r["probability"] for r in main["rows"] if r["net"] == 0)
    assert push > 0.4  # one hand of two won, about 47 % of rounds
    assert main["house_edge_excluding_ties"] == pytest.approx(
        main["house_edge"] / (1 - push)
    )
    html = render_html(pai_gow_report)
    assert "excluding ties" not in html
    assert "excl. ties" not in html
    assert "<tr><th>house edge excluding pushes</th>" in html


def test_670a_9_a_deck_shuffled_every_round_has_no_cut_card_effect(
    pai_gow_report: dict[str, Any],
) -> None:
    """§ 670a.9: the deck is shuffled for every round; no cut card."""
    assert find_game("six-card-fortune-pai-gow").reshuffle_every_round
    assert pai_gow_report["simulation"]["cut_card"] is False
    html = render_html(pai_gow_report)
    assert "cut-card effect</th>" not in html
    assert "so there is no cut-card effect" in html


def test_629a_5_a_shoe_game_keeps_its_cut_card_effect_column(
    free_report: dict[str, Any],
) -> None:
    assert free_report["simulation"]["cut_card"] is True
    assert "<th>cut-card effect</th>" in render_html(free_report)


# -- docs/reports: the shipped examples are of the current rules ------------


@pytest.mark.parametrize(
    "game",
    [
        "21-baccarat",
        "double-back-jack",
        "midibaccarat",
        "midibaccarat-commission-free",
        "six-card-fortune-pai-gow",
    ],
)
def test_issue_15_2_shipped_reports_are_of_the_current_default_rules(
    game: str,
) -> None:
    """docs/reports/GAME.json: the default rules' digest and options.

    Double Back Jack's had been made before the ``twenty_one_paid``
    option (D96): its digest and option list were not the rules'.
    """
    import json
    from pathlib import Path

    from croupier.report.build import rules_digest

    path = Path(__file__).resolve().parents[2] / "docs" / "reports"
    shipped = json.loads((path / f"{game}.json").read_text(encoding="utf-8"))
    spec = find_game(game)
    rules = spec.rules_type()
    assert shipped["rules"] == rules.to_dict()
    assert [o["name"] for o in shipped["options"]] == [
        info.name for info in spec.rules_type.options()
    ]
    assert shipped["rules_digest"] == rules_digest(rules)
    assert shipped["citation"] == f"58 Pa. Code {spec.citation}"
