"""Exact CDZ- resplits in the analyzer (issue 14 point 2, D45).

The fast value (:mod:`croupier.odds.double_back_jack.resplit`: pattern
sums of one-split-hand kernel passes with pair cards removed) is checked
against independent derivations, never against itself:

* :func:`brute.resplit_value`, Farmer's pattern method enumerated hand by
  hand on tiny shoes (every pair, several up cards, three and four
  hands, resplitting aces or not);
* :class:`brute.BruteForce`, which deals the split in its real order
  (hand after hand, resplits, Second Chance, hole card explicit) on
  shoes where no deal can run out of cards;
* the kernel's own one-split value (twice one split hand), which the
  formula must reduce to with two hands;
* Farmer's published 2-2-2 figure and a published whole-game figure.

``croupier simulate`` plays the Rules Submission (``max_split_hands`` at
most 2, 673a.11(a)), so it cannot check resplits.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from croupier.errors import RulesError
from croupier.odds.double_back_jack.brute import BruteForce, resplit_value
from croupier.odds.double_back_jack.ca import (
    _split_value,
    composition,
    evaluate_hand,
    solve_ca,
)
from croupier.odds.double_back_jack.carules import (
    CARules,
    HoleCard,
    Surrender,
)
from croupier.odds.double_back_jack.passes import (
    DealerCache,
    UpPasses,
    run_pass,
)
from croupier.odds.double_back_jack.resplit import (
    coefficients,
    split_value,
)

Shoe = tuple[int, ...]


def _up(rules: CARules, left: Shoe, pair: int, up: int) -> UpPasses:
    """The up card's passes for a pair dealt from ``left`` + pair."""
    s = np.array(left, dtype=np.int64)
    s[pair] += 2
    cache = DealerCache.empty()
    return UpPasses(
        rules, s, up, run_pass(rules, s, up, 0, cache=cache), cache
    )


def _fast(rules: CARules, left: Shoe, pair: int, up: int) -> float:
    """The fast split value, conditioned on no dealer Blackjack."""
    joint = split_value(_up(rules, left, pair, up), pair).value
    bjc = 10 if up == 1 else 1 if up == 10 else 0
    mass = 1 - left[bjc] / sum(left) if bjc else 1.0
    return joint / mass


def _shoe(pair: int, extra: int, base: Shoe) -> Shoe:
    """``base`` (counts by value index) with ``extra`` pair cards added."""
    s = list(base)
    s[pair] += extra
    return tuple(s)


SMALL: Shoe = (0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4)
LOW: Shoe = (0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 4)
"""Shoes after the pair and the up card are dealt (``LOW`` for the small
pairs, whose split hands draw many cards)."""

PATTERN_CASES = [
    (1, 1, 4, True, LOW),
    (1, 6, 3, True, LOW),
    (2, 10, 4, False, LOW),
    (3, 6, 3, False, LOW),
    (4, 5, 4, True, SMALL),
    (5, 9, 3, False, SMALL),
    (6, 6, 4, False, SMALL),
    (7, 10, 3, True, SMALL),
    (8, 1, 4, False, SMALL),
    (9, 7, 3, True, SMALL),
    (10, 6, 4, False, SMALL),
    (10, 1, 3, True, SMALL),
]


@pytest.mark.parametrize(("pair", "up", "hands", "rsa", "base"), PATTERN_CASES)
def test_issue_14_resplit_equals_pattern_enumeration(
    pair: int, up: int, hands: int, rsa: bool, base: Shoe
) -> None:
    """Every pair, resplit to three or four hands (aces resplit or not,
    H17 with the aces): the fast value equals Farmer's pattern method
    enumerated by :func:`brute.resplit_value` to 1e-12, and differs
    from the one-split value (the resplits are really valued)."""
    rules = CARules.ordinary(
        max_split_hands=hands,
        resplit_aces=rsa,
        split_aces_one_card=not rsa,
        dealer_hits_soft_17=pair == 1,
    )
    left = _shoe(pair, 3, base)
    expected = resplit_value(rules, left, pair, up)
    assert _fast(rules, left, pair, up) == pytest.approx(expected, abs=1e-12)
    one = _fast(replace(rules, max_split_hands=2), left, pair, up)
    if pair == 1 and not rsa:
        assert one == pytest.approx(expected, abs=1e-12)
    else:
        assert abs(one - expected) > 1e-6


@pytest.mark.parametrize(
    ("pair", "up", "hole"),
    [
        (1, 10, HoleCard.PEEK),
        (1, 1, HoleCard.ENHC_OBO),
        (8, 10, HoleCard.ENHC_OBO),
    ],
)
def test_issue_14_resplit_one_card_aces_and_no_hole_card(
    pair: int, up: int, hole: HoleCard
) -> None:
    """Aces resplit to four hands with one card each (the common casino
    rule), and resplits with no hole card (original bets only): equal
    to the pattern enumeration to 1e-12."""
    rules = CARules.ordinary(
        max_split_hands=4,
        resplit_aces=True,
        split_aces_one_card=True,
        hole_card=hole,
    )
    left = _shoe(pair, 3, SMALL)
    expected = resplit_value(rules, left, pair, up)
    assert _fast(rules, left, pair, up) == pytest.approx(expected, abs=1e-12)


def test_issue_14_aces_not_resplit_without_resplit_aces() -> None:
    """``resplit_aces=false``: a split of aces keeps two hands whatever
    ``max_split_hands`` (the pattern enumeration agrees)."""
    rules = CARules.ordinary(max_split_hands=4, resplit_aces=False)
    left = _shoe(1, 3, LOW)
    two = _fast(replace(rules, max_split_hands=2), left, 1, 6)
    assert _fast(rules, left, 1, 6) == pytest.approx(two, abs=1e-15)
    assert resplit_value(rules, left, 1, 6) == pytest.approx(two, abs=1e-12)


REAL_ORDER_CASES = [
    (8, 10, 3, (0, 1, 0, 1, 0, 1, 0, 1, 3, 1, 6)),
    (9, 6, 3, (0, 1, 0, 1, 0, 1, 1, 1, 0, 3, 5)),
    (10, 1, 3, (0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 5)),
    (1, 7, 3, (0, 3, 0, 0, 0, 0, 0, 1, 1, 2, 7)),
    (10, 6, 4, (0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 6)),
]


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"collect_busts_at_once": False},
        {"second_chance_on_doubled": False, "dealer_hits_soft_17": True},
        {"double_after_split": False, "twenty_one_paid_at_once": False},
    ],
)
def test_issue_14_resplit_second_chance_equals_real_order_deal(
    changes: dict[str, bool],
) -> None:
    """Double Back Jack rules with resplits (Second Chance on split and
    doubled hands, 21 paid at once, dealer 22 push with busts collected
    or kept, card reader on ace and ten, aces resplit): the fast value
    equals the real-order deal of :class:`brute.BruteForce` to 1e-12
    (split hands played one after the other, each resplit as it is
    dealt). So the Second Chance with resplits is exact, not refused."""
    for pair, up, hands, left in REAL_ORDER_CASES:
        rules = CARules(
            max_split_hands=hands, resplit_aces=True
        ).with_overrides(changes)
        real = BruteForce(rules, left, (pair, pair), up).actions()["split"]
        fast = _fast(rules, left, pair, up)
        assert fast == pytest.approx(real, abs=1e-12), (pair, up)
        two = _fast(replace(rules, max_split_hands=2), left, pair, up)
        assert abs(two - real) > 1e-6, (pair, up)


@pytest.mark.parametrize(
    "rules",
    [
        CARules(decks=1),
        CARules.ordinary(
            decks=2, hole_card=HoleCard.ENHC_ALL, insurance=False
        ),
        CARules(
            decks=1, collect_busts_at_once=False, surrender=Surrender.NONE
        ),
    ],
    ids=["dbj-1-deck", "ordinary-enhc-all-2-decks", "dbj-busts-kept"],
)
def test_issue_14_resplit_formula_with_two_hands_is_one_split(
    rules: CARules,
) -> None:
    """With ``max_split_hands=2`` the pattern formula (values on shoes
    with 0 and 1 pair cards removed, signed coefficients) must equal the
    kernel's one split (twice one split hand), every pair and up card,
    full shoe, Second Chance and no-hole-card rules included."""
    assert coefficients(2).alpha == (2, 0, 0)
    shoe = composition(rules.decks)
    for up in range(1, 11):
        s = shoe.copy()
        s[up] -= 1
        cache = DealerCache.empty()
        u = UpPasses(
            rules, s, up, run_pass(rules, s, up, 0, cache=cache), cache
        )
        for pair in range(1, 11):
            fast = split_value(u, pair).value
            assert fast == pytest.approx(_split_value(u, pair), abs=1e-12)


FARMER_SHOE = np.array([0, 0, 4, 4, 2, 0, 0, 2, 0, 0, 7], dtype=np.int64)
"""Farmer's CA v6.3 regression shoe (blackjackinfo thread 22710)."""


def test_issue_14_farmer_2_2_2_through_the_fast_path() -> None:
    """Farmer's CA v6.3 (blackjackinfo thread 22710): split 2-2 against
    7, resplit to four hands, no resplit of aces, S17, DOA, DAS, CDZ-:
    -76.210220335 %. Counts are the shoe before the deal; "2-2-2" is the
    pair of 2s resplit on 2s. The fast path and the whole-game solve
    (its situation 2-2 against 7) both give it, without the
    enumeration. Some real deals of four hands run out of cards on this
    shoe, so ``croupier ev`` refuses it (D130): the figure is the
    pattern method's, not the game's."""
    rules = CARules.ordinary(split_aces_one_card=False, max_split_hands=4)
    left = tuple(int(x) for x in FARMER_SHOE)
    left = (*left[:2], left[2] - 2, *left[3:7], left[7] - 1, *left[8:])
    fast = _split_value(_up(rules, left, 2, 7), 2)
    assert round(100 * fast, 9) == -76.210220335
    with pytest.raises(RulesError, match="can run out while the hand 2-2"):
        evaluate_hand(rules, FARMER_SHOE, [2, 2], 7)
    with pytest.raises(RulesError, match="can run out"):
        solve_ca(rules, FARMER_SHOE)  # the whole game is checked too
    # Farmer's convention on his tiny shoes: what runs out adds nothing
    game = solve_ca(rules, FARMER_SHOE, allow_run_out=True)
    split = game.situations[(2, 2, 7)].evs[3]
    assert round(100 * split, 9) == -76.210220335


def test_issue_14_resplit_whole_game_six_decks_wizard_of_odds() -> None:
    """6 decks, S17, double any two, DAS, split to four hands, no
    resplit of aces, one card on split aces, no surrender, peek, 3:2:
    exact CDZ- edge within 0.0005 points of the Wizard of Odds house
    edge calculator's "composition-dependent optimal" 0.40312 %
    (https://wizardofodds.com/games/blackjack/calculator/, as captured
    in a public project's release notes; the page itself was not
    reachable here). That calculator values splits approximately (its
    program counts the hands already split, not the other hands'
    cards, per the Wizard's appendix notes), so agreement to its five
    digits is not expected; the one-split edge (0.4569 %, Farmer's CA)
    is 0.054 points away, far outside the tolerance."""
    rules = CARules.ordinary(max_split_hands=4)
    edge = solve_ca(rules).edge
    assert 100 * edge == pytest.approx(0.40312, abs=0.0005)
    one = solve_ca(replace(rules, max_split_hands=2)).edge
    assert 100 * one == pytest.approx(0.4569, abs=0.00005)
    est, low, high = solve_ca(rules).std_dev()
    assert low <= est <= high


def test_issue_14_resplit_whole_game_uses_the_resplit_values() -> None:
    """Whole game on a 30-card shoe, split to four hands: each pair
    situation's split value in :func:`solve_ca` (the figure the edge is
    made of) equals the pattern enumeration of that situation."""
    counts = np.array([0, 2, 2, 2, 2, 2, 2, 2, 4, 4, 6], dtype=np.int64)
    rules = CARules.ordinary(max_split_hands=4, split_aces_one_card=False)
    game = solve_ca(rules, counts)
    for pair, up in ((8, 6), (9, 7), (10, 6)):
        left = counts.copy()
        left[pair] -= 2
        left[up] -= 1
        ref = resplit_value(rules, tuple(int(x) for x in left), pair, up)
        shown = game.situations[(pair, pair, up)].evs[3]
        assert shown == pytest.approx(ref, abs=1e-12), (pair, up)


BJMATH_RSA = {1: 0.032, 2: 0.053, 6: 0.069, 8: 0.072}
"""bjmath.com, "Rule Abbreviations and Effects on Basic Strategy"
(http://www.bjmath.com/bjmath/conseq/rules.htm), row "RSA (SPA3)
Resplit Aces (up to 4 hands)", gain for the player in points of the
wager against its base rules DOA, S17, SPL3 (four hands), NDAS, NRSA,
NS, by decks."""


@pytest.mark.parametrize("decks", [1, 6])
def test_issue_14_resplit_aces_effect_published_table(decks: int) -> None:
    """Resplitting aces up to four hands, one card per split ace, from
    the table's base rules: the exact CDZ- change of the edge agrees
    with bjmath.com's published effect within 0.0015 points (the table
    gives three decimals and does not state its method; 1, 2 and 6
    decks agree within 0.0005, 8 decks within 0.0012; 1 and 6 decks
    are tested, for time)."""
    base = CARules.ordinary(
        decks=decks, max_split_hands=4, double_after_split=False
    )
    shoe = composition(decks)
    without = solve_ca(base, shoe).edge
    with_rsa = solve_ca(replace(base, resplit_aces=True), shoe).edge
    gain = 100 * (without - with_rsa)
    assert gain == pytest.approx(BJMATH_RSA[decks], abs=0.0015)
