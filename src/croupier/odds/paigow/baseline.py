"""Plain-Python baseline of a Six-Card Fortune Pai Gow Poker round.

The same round as :func:`croupier.odds.paigow.kernels.play_deck`, played
with the engine's pure functions (:mod:`croupier.hands.paigow` for the
hands and the house way, the game's ``wagers`` module for the payouts):
what the bench script measures the kernels against.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from croupier.cards import Card, full_deck
from croupier.games.six_card_fortune_pai_gow.rules import (
    Dealing,
    SixCardRules,
)
from croupier.games.six_card_fortune_pai_gow.wagers import (
    commission_on,
    envy_award,
    fortune_winnings,
    progressive_payout,
)
from croupier.hands.paigow import compare, evaluate, find_house_way
from croupier.rng import SeededRng, fisher_yates

from . import kernels as k
from .simulation import kernel_params

__all__ = ["double_down_python", "play_round_python", "run_python"]

_DEALER = 7


def _deal(
    deck: list[Card], start: int, *, stacks: bool
) -> dict[int, list[Card]]:
    order = [(start - 1 + i) % 7 + 1 for i in range(7)]
    hands: dict[int, list[Card]] = {p: [] for p in range(1, 8)}
    for index in range(42):
        position = order[index // 6] if stacks else order[index % 7]
        hands[position].append(deck[index])
    return hands


def play_round_python(
    rules: SixCardRules, deck: list[Card], start: int
) -> dict[int, dict[str, int]]:
    """One round, every seat betting everything, house way on both sides.

    Stakes as :func:`~croupier.odds.paigow.simulation.kernel_params`;
    returns the nets per seat and wager like
    :func:`~croupier.odds.paigow.simulation.play_round`.
    """
    params = kernel_params(rules)
    way = find_house_way(rules.house_way)
    hands = _deal(deck, start, stacks=rules.dealing is Dealing.AUTOMATED_SHOE)
    dealer = way.set_hand(hands[_DEALER])
    values = {p: evaluate(cards) for p, cards in hands.items()}
    fortune = params.fortune_stake
    qualifying = bool(params.iparams[k.P_QUALIFYING])
    meter = rules.progressive_meter
    out: dict[int, dict[str, int]] = {}
    for seat in range(6, 0, -1):
        result = compare(
            way.set_hand(hands[seat]),
            dealer,
            joker_low_beats_all=rules.joker_low_beats_all,
        ).result
        stake = params.pai_gow_stake
        if result == "win":
            pai_gow = stake - commission_on(stake, rules.commission)
        else:
            pai_gow = -stake if result == "lose" else 0
        won = fortune_winnings(
            fortune, values[seat], rules.fortune_bonus_paytable
        )
        net = -fortune if won is None else won
        if qualifying:
            for other, value in values.items():
                if other == seat or (
                    other == _DEALER and not rules.envy_counts_dealer
                ):
                    continue
                net += envy_award(
                    value, rules.envy_paytable, rules.envy_qualifying_minimum
                )
        amount = rules.progressive_wager_amount
        meter += int(amount * rules.progressive_contribution)
        payout = progressive_payout(
            amount,
            values[seat],
            meter,
            odds_table=rules.progressive_odds_paytable,
            meter_table=rules.progressive_meter_paytable,
            reset=rules.progressive_reset,
        )
        meter = payout.meter_after
        out[seat] = {
            "pai_gow": pai_gow,
            "fortune_bonus": net,
            "progressive": payout.net,
        }
    return dict(sorted(out.items()))


def run_python(rules: SixCardRules, rounds: int, seed: int) -> int:
    """Play ``rounds`` shuffled rounds; return the total Six-Card net."""
    rng = SeededRng(seed)
    deck = full_deck(jokers=1)
    total = 0
    for _ in range(rounds):
        fisher_yates(deck, rng)
        start = 8 - (rng.randbelow(7) + 1)
        nets = play_round_python(rules, deck, start)
        total += sum(seat["pai_gow"] for seat in nets.values())
    return total


_SCALE = 2**53


def _below(rng: np.random.Generator, n: int) -> int:
    """A uniform integer below ``n`` from 53-bit doubles (Lemire).

    Drawn as :func:`croupier.odds.paigow.kernels.shuffle_deck` documents.
    """
    product = int(rng.random() * _SCALE) * n
    if product % _SCALE < n:
        threshold = (_SCALE - n) % n
        while product % _SCALE < threshold:
            product = int(rng.random() * _SCALE) * n
    return product >> 53


def double_down_python(
    rules: SixCardRules, rounds: int, samples: int, seed: int
) -> list[tuple[int, int, int, int]]:
    """The rounds of :func:`~.double_down.double_down_rounds`, in Python.

    The same draws from ``PCG64(seed)``, the engine's house way and
    comparison: each round's ``(doubled, Six-Card net, wins, losses)``.
    """
    params = kernel_params(rules)
    stake = params.pai_gow_stake
    win_net = int(params.iparams[k.P_PAI_GOW_WIN])
    way = find_house_way(rules.house_way)
    rng = np.random.Generator(np.random.PCG64(seed))
    deck = list(range(53))

    def setting(codes: list[int]) -> Any:
        return way.set_hand([Card.from_code(c) for c in codes])

    def result(player: Any, codes: list[int]) -> str:
        return compare(
            player,
            setting(codes),
            joker_low_beats_all=rules.joker_low_beats_all,
        ).result

    out = []
    for _ in range(rounds):
        for i in range(52, 0, -1):
            j = _below(rng, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        player = setting(deck[:6])
        pool = deck[6:]
        wins = losses = 0
        for _ in range(samples):
            for i in range(6):
                j = i + _below(rng, 47 - i)
                pool[i], pool[j] = pool[j], pool[i]
            seen = result(player, pool[:6])
            wins += seen == "win"
            losses += seen == "lose"
        real = result(player, deck[6:12])
        net = {"win": win_net, "push": 0, "lose": -stake}[real]
        out.append((int(win_net * wins > stake * losses), net, wins, losses))
    return out
