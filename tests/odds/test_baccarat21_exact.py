"""Exact 21 Baccarat analysis (issue 6).

The Tie figures are the project's own published check: SUMMARY.md §4.1
(the regulation's preamble quotes a Tie hold of "5.4 % or 5.9 %
depending on the number of decks"; the exact finite-shoe edge at 10 to
1 is 5.41 % with 3 decks and 5.99 % with 2 decks, truncated).
"""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import pytest

from croupier.cards import Card
from croupier.games.baccarat21 import Baccarat21Rules
from croupier.hands.blackjack import blackjack_total
from croupier.hands.bonus21 import CATEGORY_ORDER, bonus_categories
from croupier.money import Odds
from croupier.odds.baccarat21.kernels import VALUE, bonus_mask
from croupier.odds.baccarat21.model import (
    analyze,
    bonus_event,
    bonus_weights,
    total_weights,
)
from croupier.odds.registry import find_analyzer
from croupier.rules import Paytable


def _truncated_percent(edge: Fraction | None) -> Fraction:
    assert edge is not None
    return Fraction(int(10_000 * edge), 100)


@pytest.mark.proves("681a.7(k)")
@pytest.mark.parametrize(
    ("decks", "percent"), [(3, Fraction(541, 100)), (2, Fraction(599, 100))]
)
def test_681a_7_k_tie_at_10_to_1_matches_summary(
    decks: int, percent: Fraction
) -> None:
    rules = Baccarat21Rules(decks=decks, tie_payout=Odds(10, 1))
    edge = analyze(rules).wagers["tie"].house_edge_exact
    assert _truncated_percent(edge) == percent


def test_player_and_banker_edges_are_symmetric() -> None:
    report = analyze(Baccarat21Rules(decks=3))
    player = report.wagers["player"].house_edge_exact
    banker = report.wagers["banker"].house_edge_exact
    assert player == banker
    assert player is not None
    assert 0 < player < Fraction(3, 100)


@pytest.mark.parametrize("decks", [1, 2, 3, 8])
def test_weights_count_every_card_sequence(decks: int) -> None:
    n = 52 * decks
    six = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert int(total_weights(decks).sum()) == six
    assert int(bonus_weights(decks).sum()) == n * (n - 1) * (n - 2)


def _mask_of(cards: tuple[Card, ...]) -> int:
    found = bonus_categories(cards)
    return sum(1 << i for i, c in enumerate(CATEGORY_ORDER) if c in found)


def test_681a_3_kernel_bonus_masks_match_the_engine() -> None:
    for a, b in itertools.product(range(52), repeat=2):
        pair = (Card.from_code(a), Card.from_code(b))
        assert bonus_mask(a, b, -1) == _mask_of(pair)
        for c in range(0, 52, 1 if a % 7 == 0 else 13):
            assert bonus_mask(a, b, c) == _mask_of((*pair, Card.from_code(c)))


@pytest.mark.proves("681a.7(f)(2)")
def test_681a_7_f_2_bonus_weights_match_a_real_deck() -> None:
    """One deck, every ordered hand: two cards, a third under 17."""
    expected = [0] * 64
    for a, b in itertools.permutations(range(52), 2):
        cards = (Card.from_code(a), Card.from_code(b))
        if blackjack_total(cards).value >= 17:
            expected[_mask_of(cards)] += 50
            continue
        for c in range(52):
            if c not in (a, b):
                expected[_mask_of((*cards, Card.from_code(c)))] += 1
    assert bonus_weights(1).tolist() == expected


@pytest.mark.proves("681a.7(k)")
def test_681a_7_k_bonus_follows_the_paytable() -> None:
    rules = Baccarat21Rules(
        bonus_paytable=Paytable.parse({"pair": "2:1", "flush": "1:1"})
    )
    # a pair that is also a flush is paid at the better listed odds
    both = bonus_mask(0, 0, 4 * 5)  # 2c 2c 7c
    assert bonus_event(rules, both).pays == "2:1"
    report = analyze(rules)
    labels = {row["event"] for row in report.wagers["bonus_banker"].events}
    assert labels == {"pair", "flush", "No pair or better"}
    assert VALUE[48] == 1  # the ace of clubs counts 1 (or 11)


def test_681a_registered_analyzer_and_speed() -> None:
    analyzer = find_analyzer("21-baccarat")
    assert analyzer is not None
    rules = Baccarat21Rules(decks=3)
    analyzer(rules)  # warm: compile or load the cached kernels
    started = time.perf_counter()
    report = analyzer(rules)
    assert time.perf_counter() - started < 1
    assert report.seconds < 1
    assert set(report.wagers) == {
        "player",
        "banker",
        "tie",
        "bonus_player",
        "bonus_banker",
    }
