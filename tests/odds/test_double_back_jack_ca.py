"""The exact CDZ- blackjack analyzer (issue 14).

Independent checks, never the analyzer against itself:

* published figures of Eric Farmer's combinatorial analyzer (v6.3);
* the issue's independent exact Double Back Jack figure (2.3276 %);
* :mod:`croupier.odds.double_back_jack.brute`, a second algorithm that
  deals every round of a tiny shoe in its real order (explicit hole
  card, Bayesian decisions, split hands played one after the other);
* ``croupier simulate`` through real shoes.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.errors import RulesError
from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.odds.double_back_jack.brute import BruteForce, resplit_value
from croupier.odds.double_back_jack.ca import (
    evaluate_hand,
    hand_actions,
    solve_ca,
)
from croupier.odds.double_back_jack.carules import CARules
from croupier.odds.registry import find_simulator
from croupier.odds.simulate import simulate

FARMER_SHOE = np.array([0, 0, 4, 4, 2, 0, 0, 2, 0, 0, 7], dtype=np.int64)
"""Farmer's CA v6.3 regression shoe (blackjackinfo thread 22710), A..T =
{0, 4, 4, 2, 0, 0, 2, 0, 0, 7}."""


def _farmer_rules(**kw: object) -> CARules:
    """S17, double any two (soft too), DAS, no surrender, ordinary."""
    return CARules.ordinary(split_aces_one_card=False, **kw)


def test_issue_14_farmer_ca_v6_3_published_2_2_against_7() -> None:
    """Farmer's CA v6.3, blackjackinfo thread 22710, 2-2 against 7.

    Published: stand -61.639194139 %, hit -13.266733267 %, double
    -123.278388278 %. Conventions found by trying them: the counts are
    the shoe *before* the hand and the up card are dealt (removing the
    two 2s and the 7 reproduces all three figures to the 12 digits
    published; the counts read as the shoe after the deal, or a hand of
    three 2s, give -57.08 % / -65.35 % for standing). Both our methods
    reproduce them.
    """
    published = {
        "stand": -61.639194139,
        "hit": -13.266733267,
        "double": -123.278388278,
    }
    rules = _farmer_rules(max_split_hands=2)
    result = evaluate_hand(rules, FARMER_SHOE, [2, 2], 7)
    assert result["engine"] == "analyzer"
    actions = result["actions"]
    assert isinstance(actions, dict)
    shoe = FARMER_SHOE.copy()
    shoe[2] -= 2
    shoe[7] -= 1
    brute = BruteForce(rules, tuple(int(x) for x in shoe), (2, 2), 7)
    enumerated = brute.actions()
    for name, value in published.items():
        assert round(100 * actions[name], 9) == value, name
        assert round(100 * enumerated[name], 9) == value, name
    assert result["best"] == "hit"


def test_issue_14_farmer_ca_v6_3_published_split_2_2_resplit_to_4() -> None:
    """Farmer's CA v6.3 (same thread): split 2-2 against 7, resplits to
    four hands, no resplit of aces: -76.210220335 %.

    This is the "2-2-2" of the thread: the pair of 2s split and resplit
    on further 2s. The enumeration of the resplit patterns
    (:func:`brute.resplit_value`, Farmer's method) reproduces it to the
    12 digits, and is compared with the real-order deal at two and three
    hands (on this 16-card shoe some real deals run out of cards when
    splitting to four hands; at two and three none can). So at four
    hands the figure is the pattern method's, not the game's: ``croupier
    ev`` refuses that shoe (D130) and values it at two and three."""
    shoe = FARMER_SHOE.copy()
    shoe[2] -= 2
    shoe[7] -= 1
    left = tuple(int(x) for x in shoe)
    four = _farmer_rules(max_split_hands=4)
    assert round(100 * resplit_value(four, left, 2, 7), 9) == -76.210220335
    with pytest.raises(RulesError, match="can run out while the hand 2-2"):
        evaluate_hand(four, FARMER_SHOE, [2, 2], 7)
    for hands in (2, 3):
        rules = _farmer_rules(max_split_hands=hands)
        real = BruteForce(rules, left, (2, 2), 7).actions()["split"]
        assert resplit_value(rules, left, 2, 7) == pytest.approx(
            real, abs=1e-12
        )
        ours = evaluate_hand(rules, FARMER_SHOE, [2, 2], 7)["actions"]
        assert isinstance(ours, dict)
        assert ours["split"] == pytest.approx(real, abs=1e-12)
    two = evaluate_hand(
        _farmer_rules(max_split_hands=2), FARMER_SHOE, [2, 2], 7
    )["actions"]
    assert isinstance(two, dict)
    assert two["split"] == pytest.approx(
        BruteForce(
            _farmer_rules(max_split_hands=2), left, (2, 2), 7
        ).actions()["split"],
        abs=1e-12,
    )
    with pytest.raises(RulesError, match="shoe"):
        BruteForce(_farmer_rules(max_split_hands=4), left, (2, 2), 7).actions()


@pytest.mark.parametrize(("pair", "up"), [(8, 10), (9, 1), (1, 6)])
def test_issue_14_resplits_match_real_order_enumeration(
    pair: int, up: int
) -> None:
    """Resplits to three hands (aces too, H17, 21 paid at once, card
    reader on ace and ten): the pattern formula equals the real deal."""
    rules = CARules.ordinary(
        max_split_hands=3,
        resplit_aces=True,
        split_aces_one_card=False,
        dealer_hits_soft_17=True,
        twenty_one_paid_at_once=True,
    )
    shoe = list(TINY)
    shoe[pair] -= 2
    shoe[up] -= 1
    real = BruteForce(rules, tuple(shoe), (pair, pair), up).actions()
    assert resplit_value(rules, tuple(shoe), pair, up) == pytest.approx(
        real["split"], abs=1e-12
    )


def test_issue_14_ordinary_six_decks_house_edge_0_4569() -> None:
    """Farmer's CA: 6 decks, S17, DOA, DAS, one split, split aces one
    card, no surrender, peek, 3:2 -> house edge 0.4569 %."""
    edge = solve_ca(CARules.ordinary(decks=6)).edge
    assert round(100 * edge, 4) == 0.4569


def test_issue_14_double_back_jack_six_decks_exact() -> None:
    """The Double Back Jack defaults at six decks: 2.3276 %, the issue's
    independent exact calculation, within 0.0005 points (the former
    approximation gave 2.3327 %, outside that band)."""
    result = solve_ca(CARules.from_game(DoubleBackJackRules()))
    assert abs(100 * result.edge - 2.3276) < 0.0005
    assert abs(100 * result.edge - 2.3327) > 0.004
    assert result.method == "exact"
    assert result.strategy == "CDZ-"


TINY = (0, 2, 1, 1, 1, 2, 2, 1, 2, 2, 6)
"""A 20-card shoe on which no deal can run out of cards."""

CASES = [
    ((10, 6), 10),
    ((1, 7), 1),
    ((5, 6), 1),
    ((10, 10), 5),
    ((9, 9), 6),
]


@pytest.mark.slow  # brute force over every deal of a tiny shoe
@pytest.mark.parametrize(
    "change",
    [
        {},
        {"ordinary": True},
        {"dealer_hits_soft_17": True, "dealer_22_push": False},
        {"collect_busts_at_once": False, "surrender": "early"},
        {"hole_card": "enhc_obo", "surrender": "none"},
        {"second_chance_on_split": False, "double_on": "10-11"},
    ],
)
def test_issue_14_every_action_matches_brute_force_on_tiny_shoe(
    change: dict[str, object],
) -> None:
    """Every action value of several hands (pairs, ace and ten up cards
    with the card reader) equals the real-order enumeration to 1e-12."""
    kw = dict(change)
    ordinary = kw.pop("ordinary", False)
    rules = (CARules.ordinary if ordinary else CARules)().with_overrides(kw)
    for hand, up in CASES:
        shoe = list(TINY)
        for card in (*hand, up):
            shoe[card] -= 1
        ours = hand_actions(rules, np.array(shoe), list(hand), up)
        theirs = BruteForce(rules, tuple(shoe), hand, up).actions()
        assert set(ours) == set(theirs), (hand, up)
        for name, value in ours.items():
            assert value == pytest.approx(theirs[name], abs=1e-12), (
                hand,
                up,
                name,
            )


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_issue_14_exact_within_simulation_ci(decks: int) -> None:
    """croupier simulate (real shoes, the simulator's strategy tables)
    covers the exact CDZ- edge with its 95 % CI. The simulator's
    strategy is the former total-dependent one, worse than CDZ- by
    less than 0.07 points, far inside the CI of 1,000,000 rounds. The
    smallest penetration reshuffles after every round, so each round is
    dealt from a full shoe (no cut-card effect), as the analyzer
    assumes."""
    rules = DoubleBackJackRules(decks=decks, penetration=Fraction(1, 10))
    simulator = find_simulator("double-back-jack")
    assert simulator is not None
    report = simulate(
        "double-back-jack",
        simulator,
        rules,
        rounds=1_000_000,
        seed=decks,
        chunk_rounds=500_000,
    )
    ci = report.wagers["blackjack"].ci95
    assert ci is not None
    exact = solve_ca(CARules.from_game(rules)).edge
    assert ci[0] <= exact <= ci[1], (exact, ci)


def test_issue_14_rules_refuse_undefined_combinations() -> None:
    """Options the analyzer cannot honour are refused, naming them."""
    with pytest.raises(RulesError, match='"surrender"'):
        CARules(hole_card="enhc_all")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match='"second_chance"'):
        CARules.ordinary(hole_card="enhc_all", second_chance=True)
    with pytest.raises(RulesError, match="max_split_hands"):
        CARules().with_overrides({"max_split_hands": 5})


def test_issue_14_enhc_obo_equals_peek_and_all_bets_cost_more() -> None:
    """European no hole card: original bets only has the peek game's
    edge (doubles and splits come back); losing every bet costs more."""
    peek = solve_ca(CARules.ordinary(decks=2)).edge
    obo = solve_ca(CARules.ordinary(decks=2, hole_card="enhc_obo")).edge
    every = solve_ca(CARules.ordinary(decks=2, hole_card="enhc_all")).edge
    assert obo == pytest.approx(peek, abs=1e-12)
    assert every > peek + 0.0005


def test_issue_14_cli_ev_json() -> None:
    """croupier ev prints every action, the best one and the strategy."""
    runner = CliRunner()
    out = runner.invoke(
        app,
        [
            "ev", "double-back-jack", "--shoe", "0,4,4,2,0,0,2,0,0,7",
            "--hand", "2-2", "--up", "7", "--ordinary",
            "--set", "split_aces_one_card=false", "--json",
        ],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["strategy"] == "CDZ-"
    assert data["best"] == "hit"
    assert round(100 * data["actions"]["stand"], 9) == -61.639194139
    early = runner.invoke(
        app,
        ["ev", "double-back-jack", "--shoe", "6", "--hand", "10-6",
         "--up", "10", "--set", "surrender=early", "--json"],
    )  # fmt: skip
    data = json.loads(early.output)
    # surrender before the card reader: every value unconditional; the
    # hole card is an ace with probability 24 / 309
    assert not data["conditioned_on_no_dealer_blackjack"]
    assert data["best"] == "surrender"
    assert data["actions"]["surrender"] == -0.5
    late = evaluate_hand(CARules(), np.array([0, *[24] * 9, 96]), [10, 6], 10)[
        "actions"
    ]
    assert isinstance(late, dict)
    pbj = 24 / 309
    assert data["actions"]["hit"] == pytest.approx(
        late["hit"] * (1 - pbj) - pbj, abs=1e-12
    )
    bad = runner.invoke(
        app, ["ev", "double-back-jack", "--shoe", "1", "--hand", "Z",
              "--up", "7"],
    )  # fmt: skip
    assert bad.exit_code == 2
    assert '"hand"' in bad.output
