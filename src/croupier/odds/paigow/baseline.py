"""Plain-Python baseline of a Six-Card Fortune Pai Gow Poker round.

The same round as :func:`croupier.odds.paigow.kernels.play_deck`, played
with the engine's pure functions (:mod:`croupier.hands.paigow` for the
hands and the house way, the game's ``wagers`` module for the payouts):
what the bench script measures the kernels against.
"""

from __future__ import annotations

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

__all__ = ["play_round_python", "run_python"]

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
