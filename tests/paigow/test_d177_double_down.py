"""D177: the Six-Card Wager with the Double Down Wager played.

The kernel's rounds are played again from the same random stream with
the engine's own house way and comparison (:mod:`croupier.hands.paigow`)
and a shuffle written from the kernel's documented draws
(:func:`croupier.odds.paigow.baseline.double_down_python`, the bench's
baseline): every round's decision (the sample's wins and losses), and
its settlement against the dealer's real hand, must agree.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.hands.paigow_fast import five_card_table
from croupier.odds.paigow import kernels as k
from croupier.odds.paigow.baseline import double_down_python
from croupier.odds.paigow.double_down import (
    BASE_NET,
    COLUMNS,
    DOUBLED,
    LOSSES,
    WINS,
    double_down_figures,
    double_down_rounds,
)
from croupier.odds.paigow.simulation import kernel_params


@pytest.mark.proves("670a.7(e)(1)")
@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"commission": "0.05"},
        {"house_way": "best_high", "joker_low_beats_all": False},
    ],
)
def test_d177_kernel_rounds_are_the_engines(settings: dict[str, Any]) -> None:
    rules = SixCardRules.from_mapping(
        {"double_down_offered": True, **settings}
    )
    params = kernel_params(rules)
    rounds, samples, seed = 30, 15, 7
    out = np.zeros((rounds, COLUMNS), dtype=np.int64)
    double_down_rounds(
        np.random.Generator(np.random.PCG64(seed)),
        rounds,
        samples,
        five_card_table(),
        k.binomials(),
        k.LOW_RANK,
        params.iparams,
        out,
    )
    kernel = [
        (int(r[DOUBLED]), int(r[BASE_NET]), int(r[WINS]), int(r[LOSSES]))
        for r in out
    ]
    engine = double_down_python(
        rules, seed=seed, rounds=rounds, samples=samples
    )
    assert kernel == engine
    # the rounds are not all of one kind: both decisions are taken
    assert {row[0] for row in engine} == {0, 1}


def test_d177_figures_follow_from_the_rounds() -> None:
    """Each figure is read from the rounds' records as D177 defines it."""
    rules = SixCardRules(double_down_offered=True)  # off by default: D182
    figures = double_down_figures(rules, 400, samples=20, seed=3)
    params = kernel_params(rules)
    out = np.zeros((400, COLUMNS), dtype=np.int64)
    double_down_rounds(
        np.random.Generator(np.random.PCG64(3)),
        400,
        20,
        five_card_table(),
        k.binomials(),
        k.LOW_RANK,
        params.iparams,
        out,
    )
    base = out[:, BASE_NET] / params.pai_gow_stake
    doubled = out[:, DOUBLED] == 1
    assert figures.double_frequency == pytest.approx(doubled.mean())
    assert figures.edge_without == pytest.approx(-base.mean())
    assert figures.edge_with == pytest.approx(
        -(base.sum() + base[doubled].sum()) / 400
    )
    assert figures.double_down_edge == pytest.approx(-base[doubled].mean())
    assert figures.element_of_risk == pytest.approx(
        figures.edge_with / (1 + doubled.mean())
    )


def test_d177_refused_where_the_rules_do_not_offer_it() -> None:
    with pytest.raises(ValueError, match="do not offer the Double Down"):
        double_down_figures(SixCardRules(double_down_offered=False), 10)


runner = CliRunner()


def test_d177_analyze_double_down_json_and_its_warning() -> None:
    """At D22's assumed terms doubling well makes the wager the player's:
    said on standard error with ``--json``."""
    result = runner.invoke(
        app,
        ["analyze", "six-card-fortune-pai-gow", "--double-down", "3000",
         "--json", "--set", "double_down_offered=true"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    figures = data["double_down"]
    assert figures["rounds"] == 3000
    assert figures["samples"] == 300
    assert figures["house_edge_with_double_down"] == pytest.approx(
        figures["house_edge_without_double_down"]
        - figures["double_down_value"]
    )
    assert figures["house_edge_with_double_down"] < 0
    [warning] = data["player_favourable"]
    assert warning["wager"] == "six_card_with_double_down"
    assert "favours the player" in result.stderr


def test_d177_one_round_has_no_interval_and_the_json_stays_json() -> None:
    """One round gives no interval (and no round doubled, no Double
    Down edge): ``null``, where ``Infinity`` was written, which is not
    JSON."""
    result = runner.invoke(
        app,
        ["analyze", "six-card-fortune-pai-gow", "--double-down", "1",
         "--json", "--set", "double_down_offered=true"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Infinity" not in result.stdout
    figures = json.loads(result.stdout)["double_down"]
    assert figures["house_edge_with_double_down_ci95"] is None
    assert figures["house_edge_without_double_down_ci95"] is None
    if figures["double_frequency"] == 0:
        assert figures["double_down_house_edge"] is None


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["midibaccarat", "--double-down", "10"],
         "--double-down: six-card-fortune-pai-gow only"),
        (["six-card-fortune-pai-gow", "--double-down", "10", "--set",
          "double_down_offered=false"],
         "do not offer the Double Down Wager"),
        (["six-card-fortune-pai-gow", "--double-down", "0"],
         "Invalid value for '--double-down'"),
        (["double-back-jack", "--double-down", "10", "--strategy", "cdz-"],
         "--strategy and --double-down are separate analyses: give one"),
    ],
)  # fmt: skip
def test_d177_analyze_double_down_refusals(args: list[str], said: str) -> None:
    result = runner.invoke(app, ["analyze", *args])
    assert result.exit_code == 2
    assert said in " ".join(result.output.split())
