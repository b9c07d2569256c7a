"""The Double Back Jack shoe loop agrees with the engine, shoe by shoe.

Shoes are shuffled by the simulator's own kernel from seeded generators
(:func:`prepared_shoe`); the shoe loop (:func:`shoe_rounds`: the
591.7(c) burn, rounds by the analyzer's strategy, the reshuffle after
the round in which the cover card comes out, (d)) plays each one, and
the state-machine engine plays the same cards from a real
:class:`~croupier.shoe.Shoe` holding its cover card where the engine
puts it, a new batch (so it burns the first card itself), the same
decisions round after round. Every settlement, the cards each round
takes and the round in which the cover card comes out must agree.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from croupier.cards import Card, parse_cards
from croupier.events import CardBurned, CardDealt
from croupier.games.double_back_jack import DoubleBackJackRound
from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.odds.double_back_jack import kernels
from croupier.odds.double_back_jack.simulation import (
    UNIT,
    RoundPlayer,
    cover_position,
    play_one_round,
    prepared_shoe,
    run_chunk,
    shoe_rounds,
)
from croupier.round import Action
from croupier.shoe import COVER_CARD, Shoe, StackItem


def _engine_shoe(codes: list[int], cover: int) -> Shoe:
    """The stack with the cover card ``cover`` cards from the top (a)."""
    cards: list[StackItem] = [Card.from_code(code) for code in codes]
    cards.insert(cover, COVER_CARD)
    return Shoe(cards)


def _engine_round(
    rules: DoubleBackJackRules,
    shoe: Shoe,
    decisions: tuple[str, ...],
    *,
    first: bool,
) -> tuple[DoubleBackJackRound, dict[tuple[str, int], int]]:
    """One engine round from ``shoe``, taking ``decisions`` in order."""
    rnd = DoubleBackJackRound(rules=rules, shoe=shoe, new_shoe=first)
    rnd.place_wager(1, "blackjack", UNIT)
    rnd.deal()
    taken = list(decisions)
    while (pending := rnd.pending()) is not None:
        assert taken, "the engine asks for more decisions than the kernel"
        name = taken.pop(0)
        assert name in pending.legal, (name, pending.legal)
        decision: dict[str, Any] = {"seat": pending.seat, "action": name}
        if name == "insurance":
            decision["amount"] = int(UNIT * rules.insurance_max)
        rnd.apply(Action.from_dict(decision))
    assert not taken, "the kernel took decisions the engine never asked"
    nets: dict[tuple[str, int], int] = {}
    for settlement in rnd.settlements:
        row = settlement.to_dict()
        key = (str(row["wager"]), int(str(row.get("hand", 0))))
        assert key not in nets
        nets[key] = int(str(row["net"]))
    return rnd, nets


def _agree_on_shoe(
    rules: DoubleBackJackRules, codes: list[int], kinds: set[str]
) -> int:
    """Play one shoe through both; return the rounds played.

    ``kinds`` receives the wagers settled and the round categories.
    """
    cover = cover_position(rules)
    shoe = _engine_shoe(codes, cover)
    rounds = shoe_rounds(rules, codes)
    assert rounds, "a shoe plays at least one round"
    assert rounds[0].start == 1  # 591.7(c): one card burnt
    assert all(r.end <= cover for r in rounds[:-1])
    assert rounds[-1].end > cover  # (d): the last round took the card
    for index, played in enumerate(rounds):
        alone = play_one_round(codes[played.start :], rules)
        assert alone.nets == played.nets, index
        assert alone.cards_used == played.end - played.start, index
        assert alone.category == played.category, index
        rnd, nets = _engine_round(
            rules, shoe, alone.decisions, first=index == 0
        )
        burnt = sum(isinstance(e, CardBurned) for e in rnd.events)
        dealt = sum(isinstance(e, CardDealt) for e in rnd.events)
        assert burnt == (1 if index == 0 else 0), index
        assert dealt == played.end - played.start, index
        assert nets == played.nets, (index, alone.decisions)
        assert rnd.cover_card_reached == (index == len(rounds) - 1)
        kinds.update(key[0] for key in nets)
        kinds.add(played.category.split(": ")[-1])
    return len(rounds)


@pytest.mark.parametrize(
    ("rules_map", "shoes"),
    [
        ({}, 12),
        (
            {
                "decks": 2,
                "penetration": "2/3",
                "collect_busts_at_once": False,
                "blackjack_payout": "6:5",
                "rounding": "half_up",
                "surrender_refund": "1/3",
            },
            24,
        ),
        (
            {
                "decks": 8,
                "penetration": "9/10",
                "second_chance_on_split": False,
                "split_aces_may_draw": False,
                "insurance_max": "1",
            },
            3,
        ),
    ],
)
def test_shoe_loop_agrees_with_the_engine(
    rules_map: dict[str, Any], shoes: int
) -> None:
    """Whole shoes: burn, every round's settlements, the reshuffle."""
    rules = DoubleBackJackRules.from_mapping(rules_map)
    gen = np.random.default_rng(np.random.SeedSequence(591, spawn_key=(7,)))
    played = 0
    kinds: set[str] = set()
    codes: list[int] | None = None
    for _ in range(shoes):
        codes = [int(c) for c in prepared_shoe(rules, gen, codes)]
        assert sorted(codes) == sorted(list(range(52)) * rules.decks)
        played += _agree_on_shoe(rules, codes, kinds)
    assert played * 10 > shoes * cover_position(rules)
    assert {"blackjack", "second_chance", "split"} <= kinds
    assert {"dealer blackjack", "dealer 22 push", "21 paid at once"} <= kinds
    assert {"Second Chance win", "Second Chance 21", "lose"} <= kinds


@pytest.mark.parametrize(
    "rules_map",
    [
        {"decks": 1, "penetration": "19/20"},
        {"decks": 1, "penetration": "19/20", "collect_busts_at_once": False},
    ],
)
def test_591_7_a_a_round_the_shoe_runs_out_in_is_void_in_both(
    rules_map: dict[str, Any],
) -> None:
    """One deck cut at 19/20: three cards behind the cover card.

    The round that takes the cover card often needs more than the shoe
    holds; the engine voids it (D69): what it settled before the draw
    that found the shoe empty stands, every other wager nets 0. The
    shoe loop must void the same rounds with the same nets, and the
    simulator count them (it raised an internal error before).
    """
    rules = DoubleBackJackRules.from_mapping(rules_map)
    gen = np.random.default_rng(np.random.SeedSequence(69, spawn_key=(1,)))
    kinds: set[str] = set()
    codes: list[int] | None = None
    voided = 0
    for _ in range(60):
        codes = [int(c) for c in prepared_shoe(rules, gen, codes)]
        _agree_on_shoe(rules, codes, kinds)
        last = shoe_rounds(rules, codes)[-1]
        if last.category.endswith("void: the shoe ran out (D69)"):
            voided += 1
            assert last.end == len(codes)
    assert voided > 10
    sums = run_chunk(rules, 3000, 5, (1,))["blackjack"]
    assert sums.count == 3000
    void = "void: the shoe ran out (D69)"
    assert sum(n for k, n in sums.outcomes.items() if k.endswith(void)) > 0


def test_shoe_loop_is_the_simulators() -> None:
    """``run_chunk`` plays exactly the rounds of the prepared shoes.

    The simulator shuffles value indices, :func:`prepared_shoe` card
    codes, with the same kernel and generator: the shoe loop's nets over
    the same shoes, summed, are the chunk's.
    """
    rules = DoubleBackJackRules.from_mapping({"decks": 2})
    key = (3,)
    gen = np.random.default_rng(np.random.SeedSequence(11, spawn_key=key))
    nets: list[int] = []
    codes: list[int] | None = None
    while len(nets) < 400:
        codes = [int(c) for c in prepared_shoe(rules, gen, codes)]
        nets += [sum(r.nets.values()) for r in shoe_rounds(rules, codes)]
    nets = nets[:400]
    sums = run_chunk(rules, 400, 11, key)["blackjack"]
    assert sums.count == 400
    assert sums.total == sum(nets)
    assert sums.total_sq == sum(n * n for n in nets)


def test_shuffle_moves_cards_by_position_only() -> None:
    """The values of the shuffled codes are the shuffled values."""
    codes = np.tile(np.arange(52, dtype=np.int64), 6)
    values = kernels.CODE_VALUES[codes]
    kernels.shuffle(codes, np.random.default_rng(5))
    kernels.shuffle(values, np.random.default_rng(5))
    assert values.tolist() == kernels.CODE_VALUES[codes].tolist()
    assert sorted(codes.tolist()) == sorted(list(range(52)) * 6)


def test_591_7_a_a_21_paid_before_the_shoe_ran_out_stands() -> None:
    """Split aces, the first reaches 21, the second finds no card.

    ``As 6d Ac 9h Kd``: the box holds As Ac against the dealer's 6d
    (hole 9h) and splits; the first ace takes Kd, 21, paid at once at
    the rules' 21 odds; the second ace's card is not there, so the round
    is void (D69): the 21 stands and the second hand's wager nets 0.
    """
    rules = DoubleBackJackRules()
    stack = [c.code for c in parse_cards("As 6d Ac 9h Kd")]
    alone = play_one_round(stack, rules, decisions=("split",))
    paid = int(rules.twenty_one_payout.winnings(UNIT))
    assert alone.nets == {("blackjack", 0): paid, ("blackjack", 1): 0}
    assert alone.category == "void: the shoe ran out (D69)"
    assert alone.cards_used == 5
    shoe = Shoe([Card.from_code(c) for c in stack])
    rnd, nets = _engine_round(rules, shoe, alone.decisions, first=False)
    assert rnd.shoe_ran_out
    assert nets == alone.nets


def test_a_reused_round_player_plays_each_round_as_a_fresh_one() -> None:
    """:class:`RoundPlayer` keeps its buffers between rounds: each round
    must come out as from a player made for it alone (a buffer left
    from the round before, a decision log or a split's work, would
    show in the next round's nets or decisions)."""
    rules = DoubleBackJackRules()
    rng = np.random.default_rng(17)
    shoe = np.tile(np.arange(52, dtype=np.int64), rules.decks)
    reused = RoundPlayer(rules)
    seen: set[str] = set()
    for _ in range(400):
        rng.shuffle(shoe)
        codes = shoe[:40].copy()
        used = reused.play(codes)
        again = reused.result(used, len(codes))
        fresh = RoundPlayer(rules)
        alone = fresh.result(fresh.play(codes), len(codes))
        assert again == alone
        seen.update(alone.decisions)
    # the rounds went through splits, doubles and Second Chances
    assert {"split", "double", "second_chance"} <= seen
