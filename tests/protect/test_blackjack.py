"""Issue 16 point 5: Double Back Jack EoRs, a Hi-Lo count, the hole card,
against independent derivations (a published EoR table, the game's own
solver, a plain recursive dealer, a simulation's confidence interval).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.odds.double_back_jack.analysis import rule_parameters, solve
from croupier.odds.double_back_jack.carules import CARules, Surrender
from croupier.odds.double_back_jack.dealer import (
    BJ,
    dealer_distribution,
    full_composition,
)
from croupier.odds.double_back_jack.simulation import UNIT
from croupier.protect import blackjack
from croupier.protect._bj_hole import dealer_from, round_values

ONE_DECK = DoubleBackJackRules.from_mapping({"decks": 1})
PER_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)


@pytest.fixture(scope="module")
def one_deck() -> blackjack.BlackjackEoR:
    return blackjack.eors(ONE_DECK)


def test_issue_16_5_eor_sum_check_one_deck(
    one_deck: blackjack.BlackjackEoR,
) -> None:
    """591.7 defaults at one deck: the exact EoRs against the game
    solver's own method (total-dependent play after the first decision,
    :mod:`croupier.protect._bj_hole` with the hole card unknown, on the
    same shoes) agree to 0.025 points a card; the sum over one deck's 52
    cards is the non-negative value of knowing the removed card (a
    fixed strategy would give exactly 0; both methods re-optimise); a 5
    helps the player and an ace hurts him, as in every blackjack."""
    table = one_deck
    assert table.ev == pytest.approx(solve_ev_exact(ONE_DECK), abs=1e-12)
    par = rule_parameters(ONE_DECK)
    full = full_composition(1)
    base = round_values(full, par)[0]
    approx = {}
    for index, value in enumerate(blackjack.VALUES, start=1):
        shoe = full.copy()
        shoe[index] -= 1
        approx[value] = round_values(shoe, par)[0] - base
        assert table.by_value[value] == pytest.approx(
            approx[value], abs=2.5e-4
        )
    approx_sum = sum(
        n * approx[v] for n, v in zip(PER_DECK, blackjack.VALUES, strict=True)
    )
    assert 0 <= table.sum_check == pytest.approx(approx_sum, abs=1e-3)
    assert table.by_value["5"] > 0 > table.by_value["A"]
    assert table.per_deck["5"] == table.by_value["5"]


def solve_ev_exact(rules: DoubleBackJackRules) -> float:
    """The exact CDZ- EV the analyzer reports (``croupier analyze``)."""
    from croupier.odds.double_back_jack.ca import solve_ca

    return -solve_ca(CARules.from_game(rules)).edge


def test_issue_16_5_eor_ordinary_blackjack_published() -> None:
    """Ordinary blackjack through the same code: 6 decks, S17, double any
    two, DAS, one split, composition-dependent strategy, the effects of
    removal of the Wizard of Odds' Blackjack Appendix 7 (from MGP's CA at
    bjstrat.net) to 0.003 points. The page does not list surrender; its
    figures are those of late surrender (without it the 5 is 0.125 %,
    not 0.141 %). The sum over a deck is the small value of knowing the
    removed card."""
    published = {
        "2": 0.069, "3": 0.082, "4": 0.110, "5": 0.141, "6": 0.079,
        "7": 0.041, "8": -0.008, "9": -0.040, "10": -0.091, "A": -0.094,
    }  # fmt: skip
    table = blackjack.eors(CARules.ordinary(decks=6, surrender=Surrender.LATE))
    for value, pct in published.items():
        assert 100 * table.by_value[value] == pytest.approx(pct, abs=0.003)
    assert 0 <= table.sum_check < 1e-3


def _dealer_brute(
    counts: list[int], hard: int, soft: bool
) -> dict[int, Fraction]:
    """The dealer's final total law by plain recursion (S17, exact)."""
    total = hard + 10 if soft and hard + 10 <= 21 else hard
    if total >= 17:
        return {min(total, 23): Fraction(1)}
    n = sum(counts[1:])
    out: dict[int, Fraction] = {}
    for v in range(1, 11):
        if counts[v] == 0:
            continue
        p = Fraction(counts[v], n)
        counts[v] -= 1
        for t, q in _dealer_brute(counts, hard + v, soft or v == 1).items():
            out[t] = out.get(t, Fraction(0)) + p * q
        counts[v] += 1
    return out


@pytest.mark.parametrize(("up", "hole"), [(6, 10), (1, 5), (2, 2), (10, 7)])
def test_issue_16_5_hole_known_dealer_law_brute_force(
    up: int, hole: int
) -> None:
    """The dealer's law from two known cards agrees with a plain
    recursion (591.7(o): draws to 17-21, stands on soft 17)."""
    counts = [0, 3, 2, 2, 2, 3, 2, 2, 2, 2, 6]
    counts[up] -= 1
    counts[hole] -= 1
    law = dealer_from(
        np.array(counts, dtype=np.int64), up + hole, 1 in (up, hole)
    )
    brute = _dealer_brute(counts, up + hole, 1 in (up, hole))
    for i, total in enumerate((17, 18, 19, 20, 21, 22, 23)):
        assert law[i] == pytest.approx(float(brute.get(total, 0)), abs=1e-14)


def test_issue_16_5_hole_law_mixes_to_the_card_reader_law() -> None:
    """Total probability: the laws from each hole card, weighted by the
    hole card's chance, are the law the card reader leaves (its "no
    Blackjack" answer conditioned on)."""
    counts = full_composition(1)
    counts[10] -= 1  # the up card
    n = int(counts[1:].sum())
    raw = dealer_distribution(counts.copy(), 10)
    mixed = np.zeros(7)
    for hole in range(2, 11):
        c = counts.copy()
        c[hole] -= 1
        mixed += counts[hole] / n * dealer_from(c, 10 + hole, False)
    assert raw[BJ] == pytest.approx(4 / 51)
    np.testing.assert_allclose(mixed, raw[:7], atol=1e-14)


@pytest.mark.parametrize("decks", [1, 6])
def test_issue_16_5_591_7_h_card_reader_hole_card_value(decks: int) -> None:
    """Unseen, the hole card gives the game's own edge (the game's
    solver, an independent code path, to 1e-12); seen, the player would
    have a large edge. The card reader of 591.7(h) keeps it unseen."""
    rules = DoubleBackJackRules.from_mapping({"decks": decks})
    hole = blackjack.hole_card(rules)
    assert hole.unknown == pytest.approx(solve(rules).ev, abs=1e-12)
    assert hole.known > 0.05 > 0 > hole.unknown


def test_issue_16_5_flat_count_matches_the_exact_edge() -> None:
    """A flat bet through real shoes (the count's own loop) has the
    simulator strategy's EV within its 95 % CI; Hi-Lo sorts the rounds:
    high true counts play better than low ones."""
    rules = DoubleBackJackRules()
    result = blackjack.hilo(rules, rounds=1_500_000, seed=5, ramp=())
    low, high = result.flat_ci95
    assert low < solve(rules).ev < high
    assert result.average_bet == 1
    assert result.win_per_100 == pytest.approx(100 * result.flat_ev)
    rows = {int(r["true_count"]): r for r in result.by_true_count}
    assert sum(r["share"] for r in rows.values()) == pytest.approx(1)
    hot = [r["flat_ev"] for tc, r in rows.items() if tc >= 3]
    cold = [r["flat_ev"] for tc, r in rows.items() if tc <= -3]
    assert np.mean(hot) > np.mean(cold)


def test_issue_16_5_hilo_spread_and_sections(
    one_deck: blackjack.BlackjackEoR,
) -> None:
    """The 1-8 spread bets more than one unit on average; the sections
    carry the EoR table, the count and the card reader finding (591.7(h)
    closes hole-card play: not beatable)."""
    rules = DoubleBackJackRules()
    result = blackjack.hilo(rules, rounds=200_000, seed=1)
    assert 1 < result.average_bet < 8
    assert result.sd_per_100 > 10
    eor = blackjack._eor_section(one_deck)
    assert eor.key == "eor"
    assert "| 5 |" in eor.markdown
    assert eor.to_json()["data"]["blackjack"]["per_card"]["A"] < 0
    count = blackjack._count_section(result, [result])
    (finding,) = count.findings
    assert finding.method == "count"
    assert finding.beatable == (result.win_per_100 > 0)
    hole = blackjack._hole_section(blackjack.hole_card(ONE_DECK))
    (closed,) = hole.findings
    assert not closed.beatable
    assert closed.player_edge > 0.05
    assert closed.ref == "591.7(h)"
    assert "591.7(n)" in hole.markdown
    assert blackjack.sections("midibaccarat", None, rules) == []
    assert blackjack.sections("double-back-jack", "insurance", rules) == []
    with pytest.raises(ValueError, match="tags"):
        blackjack.hilo(rules, rounds=10, tags={"A": 1})


def test_issue_16_5_confidence_interval_from_shoe_totals() -> None:
    """The count's CI treats each shoe as one batch (its rounds are
    correlated): the ratio estimator's standard error, against the
    textbook formula on three shoes written out."""
    unit = UNIT
    rounds = np.array([30, 40, 50])
    flat = np.array([-2, 5, -9]) * unit  # a shoe's flat net, minor units
    sums = np.zeros(10, dtype=np.int64)
    sums[4] = 3
    sums[5] = int((rounds**2).sum())
    sums[6] = int((flat**2).sum())
    sums[7] = int((flat * rounds).sum())
    ratio = flat.sum() / unit / rounds.sum()
    resid = flat / unit - ratio * rounds
    expected = np.sqrt((resid**2).sum() / (3 * 2)) / rounds.mean()
    got = blackjack._ratio_se(sums, 6, 7, float(ratio), int(rounds.sum()))
    assert got == pytest.approx(float(expected), rel=1e-12)
