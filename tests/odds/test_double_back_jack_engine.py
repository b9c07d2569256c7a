"""The Double Back Jack kernel agrees with the engine, wager by wager.

Seeded shoes are dealt round after round; each round is played by the
state-machine engine (through ``croupier.scenario.run_scenario`` with the
same stack, ``new_shoe: false`` and the same decisions) and by the numba
kernel (:func:`croupier.odds.double_back_jack.simulation.play_one_round`),
and every wager's net and the number of cards used must match. Half the
rounds follow the analyzer's strategy, half take random legal decisions
(so splits, doubles, Second Chances taken and declined, insurance and
surrender all occur).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from croupier.cards import Card
from croupier.games.double_back_jack import DoubleBackJackRound
from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.odds.double_back_jack.simulation import play_one_round
from croupier.round import Action
from croupier.scenario import run_scenario
from croupier.shoe import Shoe

AMOUNT = 1000
STACK = 40


def _random_decisions(
    cards: list[Card], rules: DoubleBackJackRules, pick: random.Random
) -> list[dict[str, Any]]:
    """Drive the engine's round API with random legal decisions."""
    rnd = DoubleBackJackRound(
        rules=rules,
        shoe=Shoe.stacked(" ".join(map(str, cards))),
        new_shoe=False,
    )
    rnd.place_wager(1, "blackjack", AMOUNT)
    rnd.deal()
    decisions: list[dict[str, Any]] = []
    while (pending := rnd.pending()) is not None:
        name = pick.choice(pending.legal)
        decision: dict[str, Any] = {"seat": pending.seat, "action": name}
        if name == "insurance":
            decision["amount"] = int(AMOUNT * rules.insurance_max)
        rnd.apply(Action.from_dict(decision))
        decisions.append(decision)
    return decisions


def _engine(
    cards: list[Card],
    rules_map: Mapping[str, Any],
    decisions: list[dict[str, Any]],
) -> tuple[dict[tuple[str, int], int], int]:
    result = run_scenario(
        {
            "game": "double-back-jack",
            "rules": dict(rules_map),
            "shoe": " ".join(map(str, cards)),
            "new_shoe": False,
            "wagers": [{"seat": 1, "wager": "blackjack", "amount": AMOUNT}],
            "decisions": decisions,
        }
    )
    assert result.exit_code == 0, result.stderr
    assert result.round is not None
    nets: dict[tuple[str, int], int] = {}
    for row in json.loads(result.stdout)["settlements"]:
        key = (str(row["wager"]), int(row.get("hand", 0)))
        assert key not in nets
        nets[key] = int(row["net"])
    return nets, len(cards) - len(result.round.shoe)


def _agree(rules_map: Mapping[str, Any], rounds: int, seed: int) -> None:
    rules = DoubleBackJackRules.from_mapping(dict(rules_map))
    gen = np.random.default_rng(seed)
    pick = random.Random(seed)
    shoe = [
        Card.from_code(int(c) % 52) for c in gen.permutation(52 * rules.decks)
    ]
    pos = 1
    kinds: set[str] = set()
    for index in range(rounds):
        if pos + STACK > len(shoe):
            shoe = [
                Card.from_code(int(c) % 52)
                for c in gen.permutation(52 * rules.decks)
            ]
            pos = 1
        cards = shoe[pos : pos + STACK]
        if index % 2:
            decisions = _random_decisions(cards, rules, pick)
            names = [d["action"] for d in decisions]
        else:
            names = list(play_one_round(cards, rules).decisions)
            decisions = [
                {"seat": 1, "action": name}
                | (
                    {"amount": int(AMOUNT * rules.insurance_max)}
                    if name == "insurance"
                    else {}
                )
                for name in names
            ]
        kernel = play_one_round(cards, rules, decisions=names)
        assert list(kernel.decisions) == names
        nets, used = _engine(cards, rules_map, decisions)
        assert kernel.nets == nets, (index, cards[:12], names)
        assert kernel.cards_used == used, (index, cards[:12], names)
        kinds.update(key[0] for key in nets)
        kinds.add(kernel.category.split(": ")[-1])
        pos += used
    assert {"blackjack", "second_chance", "insurance", "split"} <= kinds
    assert {"surrender", "Second Chance 21", "Second Chance win"} <= kinds


def test_kernel_agrees_with_engine_default_rules() -> None:
    """D1-D8 defaults: 1,500 rounds, every settlement equal."""
    _agree({}, 1500, 2024)


@pytest.mark.parametrize(
    "rules_map",
    [
        {
            "collect_busts_at_once": False,
            "split_aces_may_draw": False,
            "second_chance_on_doubled": False,
            "blackjack_payout": "6:5",
            "rounding": "half_up",
        },
        {
            "second_chance_on_split": False,
            "double_after_split": False,
            "surrender_refund": "1/3",
            "insurance_payout": "5:2",
            "insurance_max": "1",
            "second_chance_21_payout": "3:2",
            "second_chance_win_payout": "1:2",
            "decks": 2,
        },
    ],
)
def test_kernel_agrees_with_engine_other_rules(
    rules_map: dict[str, Any],
) -> None:
    """Options off their defaults: 700 rounds each, every settlement."""
    _agree(rules_map, 700, 7)
