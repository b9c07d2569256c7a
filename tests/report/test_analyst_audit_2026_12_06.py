"""Analyst's audit of 2026-12-06, the eleventh session (D143-D146).

- D143: a wager whose return table is simulated but whose house edge the
  analysis gives exactly (pai gow's Fortune Bonus with Envy and Envy
  Bonus) is headed by the exact edge, said to be exact; the simulated
  edge keeps its interval and z-score, and the figures that are
  simulated are named.
- D144: the rules summary names only the options in force (side wagers,
  surrender, insurance, Double Down, Envy, progressive) with their
  payouts.
- D145: Double Back Jack's report says which strategy its exact figure
  and its simulation each play.
- D146: ``analyze``, ``design`` and the report name every wager whose
  house edge is negative under the rules in force; the Envy Bonus,
  negative by construction, is not one of them, and the report says why.

Every expected figure is derived here (fractions from the paytables and
the category counts, a published hold), not read from the code tested.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
from tests.refusals import invoke

from croupier.odds.paigow.exact import category_counts
from croupier.registry import find_game
from croupier.report import ReportSettings, build_report
from croupier.report.build import SCHEMA
from croupier.report.render import render_html
from croupier.report.summaries import rules_summary

PAI_GOW = "six-card-fortune-pai-gow"
FREE = "midibaccarat-commission-free"
REPORTS = Path(__file__).resolve().parents[2] / "docs" / "reports"
GAMES = [
    "21-baccarat",
    "double-back-jack",
    "midibaccarat",
    FREE,
    PAI_GOW,
]

# -- the Fortune Bonus and Envy figures, derived from the paytables ---------

HANDS = comb(53, 6)
# categories from the highest: five aces, royal flush, straight flush,
# four of a kind, full house, flush, straight, three of a kind (D23's
# default tables, per unit; the Envy pays N times the $5.00 minimum)
FORTUNE_PAYS = [1000, 500, 200, 75, 15, 10, 7, 5]
ENVY_PAYS = [100, 50, 10, 5]
OTHER_HANDS = 5  # the five other players' hands, never the dealer's (D23)


def _top_counts() -> list[int]:
    """The category counts, highest category first (five aces ...)."""
    counts = category_counts()
    assert sum(counts) == HANDS
    assert counts[-1] == 48  # four aces and the joker, with any other card
    return list(reversed(counts))


def _envy_edge() -> Fraction:
    """The Envy part: minus the Envy paid per unit of a $5 wager."""
    top = _top_counts()
    paid = sum(c * n for c, n in zip(top, ENVY_PAYS, strict=False))
    return -Fraction(OTHER_HANDS * paid, HANDS)


def _fortune_with_envy_edge() -> Fraction:
    top = _top_counts()
    won = sum(c * n for c, n in zip(top, FORTUNE_PAYS, strict=False))
    lost = HANDS - sum(top[: len(FORTUNE_PAYS)])
    return Fraction(lost - won, HANDS) + _envy_edge()


@pytest.fixture(scope="module")
def pai_gow() -> dict[str, Any]:
    spec = find_game(PAI_GOW)
    settings = ReportSettings(rounds=4_000, seed=1, date="2026-12-06")
    return build_report(spec, spec.rules_type(), settings)


def test_d143_the_derived_figures_are_the_audits() -> None:
    """The audit read 2.90 % and -5.28 % in the shipped report."""
    assert _fortune_with_envy_edge() == Fraction(166493, 5739370)
    assert f"{100 * float(_fortune_with_envy_edge()):.4f}" == "2.9009"
    assert f"{100 * float(_envy_edge()):.4f}" == "-5.2846"


@pytest.mark.parametrize(
    ("wager", "edge"),
    [
        ("fortune_bonus_with_envy", _fortune_with_envy_edge),
        ("envy_bonus", _envy_edge),
    ],
)
def test_d143_headline_edge_is_exact_where_the_analysis_has_it(
    pai_gow: dict[str, Any], wager: str, edge: Any
) -> None:
    exact: Fraction = edge()
    w = {x["name"]: x for x in pai_gow["wagers"]}[wager]
    assert pai_gow["schema"] == "croupier-math-report/2"
    assert w["method"] == "simulation"  # its return table
    assert w["house_edge_method"] == "exact"
    assert w["house_edge"] == pytest.approx(float(exact), abs=1e-15)
    assert Fraction(w["house_edge_exact"]) == exact
    assert w["house_edge_ci95"] is None  # an exact figure has no interval
    # the simulated estimate is kept, with its interval and z-score
    sim = w["simulation"]
    assert sim["house_edge"] != w["house_edge"]
    assert sim["exact"] == pytest.approx(float(exact), abs=1e-15)
    low, high = sim["ci95"]
    assert sim["inside_ci"] == (low <= float(exact) <= high)
    half = (high - low) / 2
    assert sim["z"] == pytest.approx(
        (sim["house_edge"] - float(exact)) / (half / 1.959963984540054)
    )
    # the return table sums to the simulated edge, not to the exact one
    assert sum(r["return"] for r in w["rows"]) == pytest.approx(
        -sim["house_edge"]
    )
    # what is simulated is said; the house edge is not among it, nor
    # the largest payout, worked out from the paytables (D176)
    assert "house_edge" not in w["simulated_figures"]
    assert "max_payout_units" not in w["simulated_figures"]
    for name in ("rows", "std_dev", "hit_frequency"):
        assert name in w["simulated_figures"]
    # the operating figures use the exact edge
    per_hour = pai_gow["pace"]["decisions_per_hour"]
    assert w["operating"]["theoretical_win_per_hour"] == pytest.approx(
        float(exact) * 500 * per_hour
    )


def test_d143_a_wager_without_an_exact_figure_stays_simulated(
    pai_gow: dict[str, Any],
) -> None:
    main = {x["name"]: x for x in pai_gow["wagers"]}["pai_gow"]
    assert main["house_edge_method"] == "simulation"
    assert main["house_edge"] == main["simulation"]["house_edge"]
    assert main["house_edge_ci95"] == main["simulation"]["ci95"]
    assert "house_edge" in main["simulated_figures"]


def _summary_rows(html: str) -> dict[str, str]:
    """The summary table's rows: wager title -> its text."""
    part = html[html.index('id="summary"') : html.index('id="wagers"')]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", part, flags=re.DOTALL):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.DOTALL)
        if cells:
            rows[cells[0].strip()] = " | ".join(c.strip() for c in cells)
    return rows


def test_d143_summary_table_prints_the_exact_edge_labelled(
    pai_gow: dict[str, Any],
) -> None:
    html = render_html(pai_gow)
    rows = _summary_rows(html)
    exact = f"{100 * float(_fortune_with_envy_edge()):.4f} %"
    row = rows["Fortune bonus with envy"]
    assert f"{exact} (exact)" in row
    assert "exact edge; rest simulated" in row
    sim = {x["name"]: x for x in pai_gow["wagers"]}["fortune_bonus_with_envy"][
        "simulation"
    ]["house_edge"]
    assert f"{100 * sim:.4f} %" not in row
    # the wager's own section keeps the simulated edge and says which
    # figures are simulated
    assert "<tr><th>simulated house edge</th>" in html
    assert "<tr><th>simulated figures</th>" in html


@pytest.mark.parametrize("game", GAMES)
def test_d143_shipped_reports_head_with_the_exact_edge(game: str) -> None:
    """Every shipped report: an exact figure, where any, is the headline."""
    shipped = json.loads((REPORTS / f"{game}.json").read_text("utf-8"))
    assert shipped["schema"] == SCHEMA == "croupier-math-report/2"
    assert shipped["summary"] == rules_summary(game, None)
    for w in shipped["wagers"]:
        sim = w["simulation"] or {}
        if "exact" in sim:
            assert w["house_edge"] == sim["exact"], w["name"]
            assert w["house_edge_method"] == "exact"
        else:
            assert w["house_edge_method"] == "simulation"
    if game == PAI_GOW:
        by_name = {w["name"]: w for w in shipped["wagers"]}
        got = by_name["fortune_bonus_with_envy"]["house_edge"]
        assert got == pytest.approx(float(_fortune_with_envy_edge()))


# -- D144: the summary follows the rules in force -------------------------


def _summary(game: str, **options: object) -> str:
    spec = find_game(game)
    return " ".join(
        rules_summary(game, spec.rules_type.from_mapping(dict(options)))
    )


@pytest.mark.parametrize("game", ["midibaccarat", FREE])
def test_d144_perfect_pairs_not_named_when_not_offered(game: str) -> None:
    text = _summary(game, perfect_pairs_offered=False)
    assert "Perfect Pairs" not in text
    assert "Perfect Pairs" in _summary(game)


def test_d144_perfect_pairs_named_with_their_payouts() -> None:
    # D12's table: 25, 12 and 6 to 1 for a suited, a one-colour and a
    # mixed pair
    text = _summary(
        "midibaccarat", perfect_pairs={"perfect": "30:1", "mixed": "5:1"}
    )
    assert "a pair of one suit 30 to 1" in text
    assert "a pair of two colours 5 to 1" in text
    assert "12 to 1" not in text


def test_d144_midibaccarat_without_side_wagers_says_so() -> None:
    text = _summary("midibaccarat", perfect_pairs_offered=False)
    assert "offers no side wager" in text
    text = _summary(
        FREE,
        perfect_pairs_offered=False,
        dragon7_offered=False,
        panda8_offered=False,
    )
    assert "offers no side wager" in text
    assert "Dragon 7" not in text
    assert "Panda 8" not in text
    text = _summary(FREE, perfect_pairs_offered=False, panda8_offered=False)
    assert "Dragon 7" in text
    assert "Panda 8" not in text


def test_d144_21_baccarat_states_the_submissions_odds() -> None:
    text = _summary(
        "21-baccarat",
        player_payout="1:1",
        banker_payout="1:1",
        tie_payout="8:1",
        bonus_paytable={"pair": "2:1"},
    )
    assert "Winning Player and Banker Wagers pay 1 to 1." in text
    assert "by default" not in text
    assert "pays 8 to 1" in text
    assert "pair 2 to 1" in text


def test_d144_double_back_jack_surrender_insurance_and_splits() -> None:
    text = _summary("double-back-jack")
    assert "surrender late" in text
    assert "Insurance, up to 1/2 of the wager and paying 2 to 1" in text
    text = _summary(
        "double-back-jack",
        surrender=False,
        insurance=False,
        max_split_hands=1,
        twenty_one_paid="before_hole_card",
    )
    assert "surrender late" not in text
    assert "offers no surrender" in text
    assert "offers no insurance" in text
    assert "Insurance," not in text
    assert "split" not in text.replace("Second Chance", "")
    assert "player 21s are paid at once" not in text


def test_d144_pai_gow_double_down_envy_and_progressive() -> None:
    text = _summary(PAI_GOW, double_down_offered=True)
    assert "Double Down Wager may be added" in text
    assert "Envy Bonus for wagers of at least $5.00" in text
    assert "Progressive Wager pays" in text
    # the Double Down is off by default (D182; it was on before)
    text = _summary(
        PAI_GOW,
        envy_bonus_offered=False,
        progressive_offered=False,
        commission="1/20",
    )
    assert "Double Down Wager may" not in text
    assert "offers no Double Down Wager" in text
    assert "Envy Bonus for" not in text
    assert "offers no Envy Bonus" in text
    assert "offers no Progressive Wager" in text
    assert "5 % commission" in text


# -- D145: which strategy each Double Back Jack figure is for --------------


def test_d145_shipped_dbj_report_names_both_strategies() -> None:
    shipped = json.loads(
        (REPORTS / "double-back-jack.json").read_text("utf-8")
    )
    sim = shipped["wagers"][0]["simulation"]
    strategies = sim["strategies"]
    assert strategies["exact"].startswith("CDZ-")
    assert "total dependent" in strategies["simulated"]
    assert "z-score tests both together" in strategies["note"]
    html = (REPORTS / "double-back-jack.html").read_text("utf-8")
    assert "the exact figure is that of the strategy" in html
    # a game without player decisions has no such note
    free = json.loads((REPORTS / f"{FREE}.json").read_text("utf-8"))
    assert all("strategies" not in w["simulation"] for w in free["wagers"])


# -- D146: a wager that favours the player is named -------------------------

# Wizard of Odds, EZ Baccarat: Dragon 7 at 40:1 holds 7.6113 % at 8
# decks, so it wins with probability (1 - 0.076113) / 41.
P_DRAGON7 = (1 - 0.076113) / 41
HUGE = 100_000_000


def _dragon7_edge(odds: int) -> float:
    return 1 - P_DRAGON7 * (odds + 1)


def _text(output: str) -> str:
    return " ".join(output.split())


def test_d146_analyze_warns_of_a_player_favourable_wager() -> None:
    args = ["analyze", FREE, "--set", f"dragon7_payout={HUGE}:1"]
    result = invoke(args)
    assert result.exit_code == 0, result.output
    edge = _dragon7_edge(HUGE)
    shown = f"{-100 * edge:,.0f}"[:-4]  # its leading digits, 225,338,...
    text = _text(result.stdout)
    assert "warning: dragon7 favours the player by " + shown in text
    result = invoke([*args, "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    (item,) = data["player_favourable"]
    assert item["wager"] == "dragon7"
    assert item["house_edge"] == pytest.approx(edge, rel=1e-5)
    assert "dragon7 favours the player" in _text(result.stderr)


def test_d146_analyze_default_rules_warn_of_nothing() -> None:
    result = invoke(["analyze", FREE, "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["player_favourable"] == []
    assert "warning" not in result.stderr


@pytest.mark.parametrize("price", [True, False])
def test_d146_design_warns_of_the_rules_in_force(price: bool) -> None:
    args = ["design", FREE, "dragon7", "--set", f"dragon7_payout={HUGE}:1"]
    args += ["--price"] if price else ["--target-hold", "1..5"]
    result = invoke(args)
    assert result.exit_code == 0, result.output
    assert "warning: dragon7 favours the player by 225,33" in _text(
        result.stdout
    )
    result = invoke([*args, "--json"])
    assert result.exit_code == 0
    (item,) = json.loads(result.stdout)["player_favourable"]
    assert item["decks"] == 8
    assert item["house_edge"] == pytest.approx(_dragon7_edge(HUGE), rel=1e-5)
    assert "warning" in result.stderr
    # the default table warns of nothing
    result = invoke(["design", FREE, "dragon7", "--price", "--json"])
    assert json.loads(result.stdout)["player_favourable"] == []


def test_d146_a_dragon7_at_43_to_1_is_not_a_warning_but_at_44_it_is() -> None:
    """At 43:1 the Dragon 7 holds 1 - 44 p, about 0.85 %; at 44:1 about
    -1.4 % (p from the published 7.6113 % at 40:1)."""
    assert _dragon7_edge(43) > 0 > _dragon7_edge(44)
    for odds, warned in ((43, False), (44, True)):
        args = ["design", FREE, "dragon7", "--price", "--json"]
        result = invoke([*args, "--set", f"dragon7_payout={odds}:1"])
        found = json.loads(result.stdout)["player_favourable"]
        assert bool(found) is warned, odds


def test_d146_envy_bonus_is_negative_by_construction_not_a_warning(
    pai_gow: dict[str, Any],
) -> None:
    envy = {x["name"]: x for x in pai_gow["wagers"]}["envy_bonus"]
    assert envy["house_edge"] < 0
    # no warning at the defaults: the Double Down, whose play D177 warns
    # of, is not offered by default (D182; the warning was the one
    # here before), and no wager's own edge is negative
    assert pai_gow["player_favourable"] == []
    (note,) = pai_gow["negative_by_construction"]
    assert note["wager"] == "envy_bonus"
    assert note["judged_as"] == "fortune_bonus_with_envy"
    assert "no stake of its own" in note["why"]
    html = render_html(pai_gow)
    assert "negative house edge by construction" in html
    assert "Warning:" not in html
    assert "<b>favours the player</b>" not in html


def test_d146_the_report_warns_in_its_summary() -> None:
    spec = find_game(FREE)
    rules = spec.rules_type.from_mapping({"dragon7_payout": f"{HUGE}:1"})
    settings = ReportSettings(rounds=2_000, seed=1, date="2026-12-06")
    report = build_report(spec, rules, settings)
    (item,) = report["player_favourable"]
    assert item["wager"] == "dragon7"
    assert item["house_edge"] == pytest.approx(_dragon7_edge(HUGE), rel=1e-5)
    html = render_html(report)
    summary = html[html.index('id="summary"') : html.index('id="wagers"')]
    assert "Warning: a wager favours the player" in summary
    assert "dragon7 favours the player by 225,33" in summary


def test_d146_envy_carrier_that_favours_the_player_is_warned() -> None:
    """The Envy part is judged through the wager that pays it."""
    from croupier.odds.favour import player_favourable

    edges = {"envy_bonus": -2.0, "fortune_bonus_with_envy": -0.5}
    (item,) = player_favourable(PAI_GOW, edges)
    assert item["wager"] == "fortune_bonus_with_envy"
    assert "50.0000 %" in str(item["message"])


def test_d145_dbj_report_says_the_simulation_plays_another_strategy() -> None:
    """The exact figure is CDZ-'s; the simulator plays its own tables."""
    spec = find_game("double-back-jack")
    settings = ReportSettings(rounds=2_000, seed=1, date="2026-12-06")
    report = build_report(spec, spec.rules_type(), settings)
    (box,) = report["wagers"]
    sim = box["simulation"]
    assert sim["exact"] == box["house_edge"]
    strategies = sim["strategies"]
    assert strategies["exact"].startswith("CDZ-")
    assert strategies["simulated"].startswith(
        "first decision composition dependent"
    )
    # the simulator's tables are close to CDZ-: well inside one 95 %
    # half-width of a 2,000,000-round simulation (about 0.16 points)
    assert abs(strategies["expected_difference"]) < 0.0005
    html = render_html(report)
    assert "The simulation plays the simulator's tables" in html
    assert "the z-score tests both together" in html


def _p_natural(decks: int) -> Fraction:
    """A player's two-card 21 from a fresh shoe of ``decks`` decks: an
    ace and a ten (4 aces and 16 tens a deck)."""
    cards = 52 * decks
    return Fraction(2 * (4 * decks) * (16 * decks), cards * (cards - 1))


P_NATURAL = _p_natural(6)
"""A player's two-card 21 from a fresh six-deck shoe."""


def _at_3_to_1(args: list[str]) -> tuple[Any, Any, Any]:
    """``croupier ARGS`` (a JSON run) under the default rules, which
    must favour the player nowhere, then with a player's Blackjack paid
    3:1: the default's JSON, the other's and its result."""
    base = invoke(args)
    assert base.exit_code == 0, base.output
    default = json.loads(base.stdout)
    assert default["player_favourable"] == []
    assert "warning" not in base.stderr
    rich = invoke([*args, "--set", "blackjack_payout=3:1"])
    assert rich.exit_code == 0, rich.output
    return default, json.loads(rich.stdout), rich


def test_d146_analyze_strategy_warns_when_the_rules_favour_the_player() -> (
    None
):
    """``analyze --strategy``, the exact edge of one strategy, warned of a
    negative edge too (it printed one silently). At 3:1 a player's
    Blackjack, paid at once whatever the dealer holds (591.7(f)), returns
    1.5 units more than at 3:2 and changes no decision: the edge falls by
    exactly 1.5 x P(natural), from 2.33 % to below nought."""
    args = ["analyze", "double-back-jack", "--strategy", "td", "--json"]
    default, data, rich = _at_3_to_1(args)
    edge = default["house_edge"] - float(Fraction(3, 2) * P_NATURAL)
    assert data["house_edge"] == pytest.approx(edge, abs=1e-9)
    assert edge < 0
    (item,) = data["player_favourable"]
    assert item["wager"] == "blackjack"
    assert item["house_edge"] == pytest.approx(edge, abs=1e-9)
    assert "warning: blackjack favours the player by " in _text(rich.stderr)
    table = invoke([*args[:-1], "--set", "blackjack_payout=3:1"])
    shown = f"{-100 * edge:.4f} %"
    assert f"blackjack favours the player by {shown}" in _text(table.stdout)


@pytest.mark.slow  # two exact rule-effect runs, 15 s each
def test_d164_rule_effects_warn_where_the_rules_favour_the_player() -> None:
    """``analyze --rule-effects`` ends each deck count's table with the
    Double Back Jack edge under the rules in force, and printed a
    negative one silently. At 3:1 the edge falls by exactly 1.5 x
    P(natural) at every deck count (a player's Blackjack is paid at once,
    591.7(f), and changes no decision): below nought, one warning a deck
    count."""
    args = ["analyze", "double-back-jack", "--rule-effects", "--json"]
    default, data, rich = _at_3_to_1(args)
    warned = {item["decks"]: item for item in data["player_favourable"]}
    for before, after in zip(
        default["rule_effects"], data["rule_effects"], strict=True
    ):
        decks = after["decks"]
        edge = before["double_back_jack_house_edge"] - float(
            Fraction(3, 2) * _p_natural(decks)
        )
        assert after["double_back_jack_house_edge"] == pytest.approx(
            edge, abs=1e-9
        )
        assert edge < 0
        assert warned[decks]["house_edge"] == pytest.approx(edge, abs=1e-9)
        where = f"at {decks} deck{'s' if decks > 1 else ''}"
        assert where in warned[decks]["message"]
        assert f"{-100 * edge:.4f} %" in _text(rich.stderr)
    assert len(warned) == len(data["rule_effects"])
