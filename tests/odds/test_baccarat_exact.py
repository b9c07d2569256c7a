"""Exact Midibaccarat analysis against published figures (issue 6).

Sources of the published figures (8 decks, finite shoe):

- Wizard of Odds, "Baccarat" (https://wizardofodds.com/games/baccarat/):
  Banker 1.0579 %, Player 1.2351 %, Tie at 8 to 1 14.3596 %, and the
  combination counts of its 8-deck return table (Banker wins
  2,292,252,566,437,888; Player wins 2,230,518,282,592,256; Tie
  475,627,426,473,216; total 4,998,398,275,503,360).
- Wizard of Odds, "EZ Baccarat" (https://wizardofodds.com/games/
  ez-baccarat/): Banker with a Dragon 7 push 1.0183 % (per Banker
  wager, pushes included), Dragon 7 at 40 to 1 7.6113 %, Panda 8 at
  25 to 1 10.1876 %.
- Wizard of Odds, "Baccarat" (commission-free variants): Banker win on
  6 pays 1 to 2, 1.4581 %.
"""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import pytest

from croupier.cards import Card
from croupier.games.midibaccarat import (
    CommissionFreeRule,
    CommissionFreeRules,
    MidibaccaratRules,
)
from croupier.hands.baccarat import PairKind, pair_kind
from croupier.money import Odds
from croupier.odds.baccarat.kernels import PAIR_KIND
from croupier.odds.baccarat.model import (
    PAIR_KINDS,
    analyze,
    cell_weights,
    pair_weights,
)
from croupier.odds.registry import find_analyzer
from croupier.rules import Paytable
from croupier.shoe import Shoe

# The published figures assume 8 decks, Tie 8 to 1, Dragon 7 40 to 1 and
# Panda 8 25 to 1: set explicitly, whatever the engine's defaults become.
PUNTO_BANCO = MidibaccaratRules(
    decks=8,
    player_payout=Odds(1, 1),
    banker_payout=Odds(19, 20),
    tie_payout=Odds(8, 1),
)
EZ = CommissionFreeRules(
    decks=8,
    player_payout=Odds(1, 1),
    banker_payout=Odds(1, 1),
    tie_payout=Odds(8, 1),
    commission_free_rule=CommissionFreeRule.DRAGON7_PUSH,
    dragon7_payout=Odds(40, 1),
    panda8_payout=Odds(25, 1),
)
BANKER6 = CommissionFreeRules(
    decks=8,
    banker_payout=Odds(1, 1),
    commission_free_rule=CommissionFreeRule.BANKER6_PAYS_HALF,
    banker_six_payout=Odds(1, 2),
)


def _edge_percent(report_edge: Fraction | None) -> float:
    assert report_edge is not None
    return round(100 * float(report_edge), 4)


@pytest.mark.proves("629a.12")
def test_629a_12_punto_banco_published_edges() -> None:
    report = analyze(PUNTO_BANCO)
    edges = {
        name: _edge_percent(wager.house_edge_exact)
        for name, wager in report.wagers.items()
    }
    assert edges["banker"] == 1.0579
    assert edges["player"] == 1.2351
    assert edges["tie"] == 14.3596


@pytest.mark.proves("629a.10")
def test_629a_12_punto_banco_published_combinations() -> None:
    report = analyze(PUNTO_BANCO)
    rows = {row["event"]: row for row in report.wagers["player"].events}
    assert rows["Banker wins"]["combinations"] == 2_292_252_566_437_888
    assert rows["Player wins"]["combinations"] == 2_230_518_282_592_256
    assert rows["Tie"]["combinations"] == 475_627_426_473_216
    assert report.extra["combinations_total"] == 4_998_398_275_503_360


@pytest.mark.proves("629b.2")
def test_629b_2_ez_baccarat_published_edges() -> None:
    report = analyze(EZ)
    assert _edge_percent(report.wagers["banker"].house_edge_exact) == 1.0183
    assert _edge_percent(report.wagers["dragon7"].house_edge_exact) == 7.6113
    assert _edge_percent(report.wagers["panda8"].house_edge_exact) == 10.1876
    # the Player and Tie wagers are those of punto banco
    assert _edge_percent(report.wagers["player"].house_edge_exact) == 1.2351
    assert _edge_percent(report.wagers["tie"].house_edge_exact) == 14.3596


@pytest.mark.proves("629b.2")
def test_629b_2_banker_six_pays_half_published_edge() -> None:
    report = analyze(BANKER6)
    assert _edge_percent(report.wagers["banker"].house_edge_exact) == 1.4581


@pytest.mark.proves("629b.2")
def test_629b_2_dragon7_push_row_is_the_dragon7_win() -> None:
    report = analyze(EZ)
    banker = {r["event"]: r for r in report.wagers["banker"].events}
    dragon = {r["event"]: r for r in report.wagers["dragon7"].events}
    push = banker["Banker wins with a three-card 7"]
    assert push["pays"] == "push"
    assert push["combinations"] == dragon["Dragon 7"]["combinations"]


@pytest.mark.proves("629a.12")
def test_629a_12_results_follow_the_rules_object() -> None:
    nine = analyze(MidibaccaratRules(tie_payout=Odds(9, 1)))
    edge = nine.wagers["tie"].house_edge_exact
    p_tie = Fraction(475_627_426_473_216, 4_998_398_275_503_360)
    assert edge == 1 - 10 * p_tie
    six = analyze(MidibaccaratRules(decks=6))
    assert six.wagers["banker"].house_edge != nine.wagers["banker"].house_edge
    assert "dragon7" not in six.wagers
    bare = analyze(CommissionFreeRules(perfect_pairs_offered=False))
    assert "perfect_pairs_player" not in bare.wagers
    assert "dragon7" in bare.wagers


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_weights_count_every_six_card_sequence(decks: int) -> None:
    n = 52 * decks
    total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert int(cell_weights(decks).sum()) == total
    assert sum(pair_weights(decks)) == n * (n - 1)


@pytest.mark.proves("629b.1(a)")
@pytest.mark.parametrize("decks", [1, 2, 3])
def test_629b_1_pair_weights_match_a_real_shoe(decks: int) -> None:
    cards = Shoe.new(decks=decks).cards_in_stack()
    counts = dict.fromkeys(PAIR_KINDS, 0)
    for first, second in itertools.permutations(cards, 2):
        kind = pair_kind((first, second))
        counts["none" if kind is None else kind.value] += 1
    assert tuple(counts[k] for k in PAIR_KINDS) == pair_weights(decks)


def test_629b_1_kernel_pair_kinds_match_the_engine() -> None:
    codes = {kind: i for i, kind in enumerate(PAIR_KINDS)}
    for a, b in itertools.product(range(52), repeat=2):
        kind = pair_kind((Card.from_code(a), Card.from_code(b)))
        expected = codes["none" if kind is None else PairKind(kind).value]
        assert PAIR_KIND[a, b] == expected


@pytest.mark.proves("629b.1")
def test_629b_1_perfect_pairs_follow_the_paytable() -> None:
    rules = MidibaccaratRules(
        decks=8, perfect_pairs=Paytable.parse({"perfect": "200:1"})
    )
    report = analyze(rules)
    perfect = Fraction(52 * 8 * 7, 416 * 415)
    edge = report.wagers["perfect_pairs_banker"].house_edge_exact
    assert edge == 1 - 201 * perfect


def test_629a_registered_analyzers_and_speed() -> None:
    for game, rules in (
        ("midibaccarat", PUNTO_BANCO),
        ("midibaccarat-commission-free", EZ),
    ):
        analyzer = find_analyzer(game)
        assert analyzer is not None
        analyzer(rules)  # warm: compile or load the cached kernel
        started = time.perf_counter()
        report = analyzer(rules)
        assert time.perf_counter() - started < 0.25
        assert report.seconds < 0.05
        assert report.game == game
        assert report.method == "exact"
        contract = report.to_dict()
        assert contract["wagers"]["banker"]["events"][0]["pays"]
