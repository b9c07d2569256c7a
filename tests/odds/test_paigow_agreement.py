"""The pai gow simulator's round agrees with the engine, wager by wager.

Seeded decks are played through the kernel (one round from 53 codes and
a starting position) and through the engine (``run_scenario`` with the
same stacked deck, the starting position given, every seat declining the
Double Down and asking for the house way); every settlement must match.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from croupier.cards import Card
from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.odds.paigow.baseline import play_round_python
from croupier.odds.paigow.simulation import kernel_params, play_round
from croupier.scenario import run_scenario

GAME = "six-card-fortune-pai-gow"


def _scenario(
    rules: dict[str, Any], deck: list[int], start: int
) -> dict[str, Any]:
    params = kernel_params(SixCardRules.from_mapping(rules))
    stakes = {
        "pai_gow": params.pai_gow_stake,
        "fortune_bonus": params.fortune_stake,
        "progressive": params.progressive_stake,
    }
    order = [(start - 1 + i) % 7 + 1 for i in range(7)]
    return {
        "game": GAME,
        # each seat declines the Double Down, offered here (D182)
        "rules": {**rules, "double_down_offered": True},
        "shoe": " ".join(str(Card.from_code(code)) for code in deck),
        "starting_position": start,
        "wagers": [
            {"seat": seat, "wager": wager, "amount": amount}
            for seat in range(1, 7)
            for wager, amount in stakes.items()
        ],
        "decisions": [
            {"seat": seat, "action": action}
            for seat in order
            if seat != 7
            for action in ("no_double_down", "house_way")
        ],
    }


def _engine_nets(
    rules: dict[str, Any], deck: list[int], start: int
) -> dict[int, dict[str, int]]:
    result = run_scenario(_scenario(rules, deck, start))
    assert result.exit_code == 0, result.stderr
    out: dict[int, dict[str, int]] = {}
    for row in json.loads(result.stdout)["settlements"]:
        out.setdefault(row["seat"], {})[row["wager"]] = row["net"]
    return dict(sorted(out.items()))


def _strong_hand(rng: np.random.Generator, free: set[int]) -> list[int]:
    """Six free codes holding quads, five aces, a straight flush or a
    full house (what the Envy, Fortune and meter tables pay most)."""
    kind = int(rng.integers(4))
    rank = int(rng.integers(13))
    suit = int(rng.integers(4))
    if kind == 0:
        core = [4 * rank + s for s in range(4)]
    elif kind == 1:
        core = [48, 49, 50, 51, 52]
    elif kind == 2:
        low = min(rank, 8)
        core = [4 * (low + i) + suit for i in range(5)]
        core[int(rng.integers(5))] = 52
    else:
        other = (rank + 1 + int(rng.integers(12))) % 13
        core = [4 * rank + s for s in range(3)] + [
            4 * other + s for s in range(2)
        ]
    core = [c for c in core if c in free]
    rest = sorted(free - set(core))
    extra = rng.choice(rest, 6 - len(core), replace=False)
    return core + [int(c) for c in extra]


def _deck_with_strong_hands(rng: np.random.Generator, start: int) -> list[int]:
    """A deck dealing strong hands to two to four random positions."""
    order = [(start - 1 + i) % 7 + 1 for i in range(7)]
    free = set(range(53))
    hands: dict[int, list[int]] = {}
    count = int(rng.integers(2, 5))
    for position in rng.choice(7, count, replace=False):
        hand = _strong_hand(rng, free)
        hands[int(position) + 1] = hand
        free -= set(hand)
    rest = [int(c) for c in rng.permutation(sorted(free))]
    deck: list[int] = []
    dealt = dict.fromkeys(range(1, 8), 0)
    for k in range(42):
        position = order[k % 7]
        if position in hands:
            deck.append(hands[position][dealt[position]])
            dealt[position] += 1
        else:
            deck.append(rest.pop())
    return deck + rest


def _agree(
    rules: dict[str, Any], rounds: int, seed: int, *, strong: bool = False
) -> int:
    rng = np.random.default_rng(seed)
    parsed = SixCardRules.from_mapping(rules)
    settled = 0
    for _ in range(rounds):
        start = int(rng.integers(1, 8))
        deck = (
            _deck_with_strong_hands(rng, start)
            if strong
            else [int(c) for c in rng.permutation(53)]
        )
        kernel = play_round(parsed, deck, start)
        engine = _engine_nets(rules, deck, start)
        assert kernel == engine, (deck, start)
        settled += sum(len(w) for w in engine.values())
    return settled


def test_kernel_settles_every_wager_like_the_engine() -> None:
    assert _agree({}, 200, seed=670) == 200 * 6 * 3


@pytest.mark.parametrize(
    "rules",
    [
        {"dealing": "automated_shoe", "commission": "1/20"},
        {
            "house_way": "best_high",
            "envy_counts_dealer": True,
            "joker_low_beats_all": False,
        },
        {
            "envy_qualifying_minimum": 300,
            "fortune_bonus_paytable": {
                "four_of_a_kind": "50:1",
                "full_house": "3:2",
                "two_pair": "1:2",
            },
            "progressive_meter_paytable": {"four_of_a_kind": "1:2"},
            "progressive_meter": 12_345,
        },
    ],
)
def test_kernel_agrees_under_other_rules(
    rules: dict[str, Any],
) -> None:
    assert _agree(rules, 70, seed=9) == 70 * 6 * 3


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {
            "progressive_meter": 5_000,
            "progressive_reset": 700,
            "progressive_meter_paytable": {
                "five_aces": "1:1",
                "royal_flush": "1:10",
                "straight_flush": "1:4",
                "four_of_a_kind": "1:20",
            },
            "envy_paytable": {"four_of_a_kind": "5:1", "full_house": "1:1"},
        },
    ],
)
def test_kernel_agrees_on_strong_hands(
    rules: dict[str, Any],
) -> None:
    """Envy from several positions, meter payouts and resets."""
    assert _agree(rules, 80, seed=23, strong=True) == 80 * 6 * 3


def test_python_baseline_agrees_with_the_kernel() -> None:
    rules = SixCardRules()
    rng = np.random.default_rng(5)
    for _ in range(80):
        deck = [int(c) for c in rng.permutation(53)]
        start = int(rng.integers(1, 8))
        cards = [Card.from_code(code) for code in deck]
        assert play_round_python(rules, cards, start) == play_round(
            rules, deck, start
        )


@pytest.mark.slow
def test_kernel_agrees_with_the_engine_over_1500_rounds() -> None:
    assert _agree({}, 1500, seed=2026) == 1500 * 6 * 3
