"""Monte Carlo simulation of Six-Card Fortune Pai Gow Poker (numba).

Every round the automated shuffler shuffles the 53-card deck (from the
chunk's numpy Generator), the starting position is drawn (D24), the
seven positions are dealt as the engine deals them, and every hand,
the dealer's and the six players', is set the house way. Each of the six
seats holds a Six-Card Wager (no Double Down), a Fortune Bonus Wager of
the smallest qualifying amount (so the Envy Bonus applies when offered)
and a Progressive Wager. The Fortune Bonus paytable part and the
Progressive depend on a seat's own six cards only, and every seat's is
an observation; the seats' Six-Card Wagers share the dealer's hand and
their Envy Bonuses the other hands (within a round they are correlated:
counting all six would understate the confidence interval by a design
effect of about 2.8 for ``pai_gow`` and 5 for ``envy_bonus``), so for
those wagers only seat 1's is recorded, one observation per round.

Reported wagers (nets per unit of the stake):

- ``pai_gow``: the Six-Card Wager (both hands win, one hand wins: a
  push, both hands lose, copies included), no commission by default and
  the ``commission`` option's on wins (D20);
- ``fortune_bonus``: the Fortune Bonus paytable alone (the wager's
  figure without Envy, as for a non-qualifying wager);
- ``fortune_bonus_with_envy``: the Fortune Bonus Wager as the engine
  settles a Qualifying Wager (paytable plus Envy from the other five
  seats' hands, and the dealer's only with ``envy_counts_dealer``);
- ``envy_bonus``: the Envy part alone (it has no stake of its own: its
  "edge" is minus the Envy paid per unit of the qualifying wager, and
  the frequency of ``envy paid`` is the chance that at least one other
  position holds a paying hand);
- ``progressive``: the Progressive Wager, meter entries paid from the
  meter, which starts every round at the rules' ``progressive_meter``
  and moves within the round as in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from croupier.games.six_card_fortune_pai_gow.rules import (
    Dealing,
    SixCardRules,
)
from croupier.hands.paigow import CATEGORY_KEYS
from croupier.hands.paigow_fast import five_card_table
from croupier.money import dollars
from croupier.odds.report import WagerSums
from croupier.rules import GameRules, Paytable

from . import kernels as k

__all__ = [
    "KernelParams",
    "kernel_params",
    "play_round",
    "run_chunk",
    "six_card_rules",
    "sums_from_stats",
    "warm_up",
]

_BINOM = k.binomials()
_WAYS = {"standard": k.STANDARD, "best_high": k.BEST_HIGH}
_RESULTS = ("both hands win", "one hand wins", "both hands lose")
"""Six-Card Wager outcome labels (kernel slots 0-2; copies lose)."""
_NETS = ("net win", "net zero", "net loss")
"""Fortune Bonus with Envy: the sign of the combined net."""
_LOSS = "loss"


@dataclass(frozen=True, slots=True)
class KernelParams:
    """The rules as the kernels read them (integer minor units)."""

    iparams: k.I64
    """Integer parameters (``kernels.P_*`` indices)."""
    fortune_net: k.I64
    """Fortune Bonus paytable net by category (stake ``fortune_stake``)."""
    envy_award: k.I64
    """Envy Bonus per other position by category."""
    fixed_net: k.I64
    """Progressive fixed-odds net by category (minus the stake if none)."""
    meter_num: k.I64
    """Meter share numerator by category."""
    meter_den: k.I64
    """Meter share denominator by category (0: not a meter entry)."""
    pai_gow_stake: int
    """Six-Card Wager stake (makes the commission exact)."""
    fortune_stake: int
    """Fortune Bonus stake: the smallest qualifying amount paid exactly."""
    progressive_stake: int
    """The Progressive Wager's fixed amount."""

    def arrays(
        self,
    ) -> tuple[k.I64, k.I64, k.I64, k.I64, k.I64, k.I64]:
        """The kernel arguments, in order."""
        return (
            self.iparams,
            self.fortune_net,
            self.envy_award,
            self.fixed_net,
            self.meter_num,
            self.meter_den,
        )


def _by_category(value: dict[str, int], default: int) -> k.I64:
    out = np.full(k.CATEGORIES, default, dtype=np.int64)
    for category, amount in value.items():
        out[CATEGORY_KEYS.index(category)] = amount
    return out


def _denominators(table: Paytable) -> int:
    return lcm(1, *(odds.denominator for _, odds in table))


def six_card_rules(rules: GameRules) -> SixCardRules:
    """``rules`` as :class:`SixCardRules` (``TypeError`` otherwise)."""
    if not isinstance(rules, SixCardRules):
        msg = f"expected SixCardRules, got {type(rules).__name__}"
        raise TypeError(msg)
    return rules


def kernel_params(any_rules: GameRules) -> KernelParams:
    """Translate the Rules Submission into kernel parameters.

    Raises ``ValueError`` for a house way the kernels do not implement.
    """
    rules = six_card_rules(any_rules)
    if rules.house_way not in _WAYS:
        msg = f"the simulator has no kernel for house way {rules.house_way!r}"
        raise ValueError(msg)
    commission = Fraction(rules.commission)
    pai_gow_stake = lcm(100, commission.denominator)
    pai_gow_win = pai_gow_stake - int(pai_gow_stake * commission)
    fortune = rules.fortune_bonus_paytable
    minimum = rules.envy_qualifying_minimum
    fortune_stake = lcm(minimum, _denominators(fortune))
    qualifying = rules.envy_bonus_offered and fortune_stake >= minimum
    fortune_net = _by_category(
        {c: odds.winnings(fortune_stake) for c, odds in fortune},
        -fortune_stake,
    )
    envy_award = _by_category(
        {c: odds.winnings(minimum) for c, odds in rules.envy_paytable},
        0,
    )
    stake = rules.progressive_wager_amount
    fixed_net = _by_category(
        {
            c: odds.winnings(stake)
            for c, odds in rules.progressive_odds_paytable
        },
        -stake,
    )
    meter = rules.progressive_meter_paytable
    meter_num = _by_category({c: o.numerator for c, o in meter}, 0)
    meter_den = _by_category({c: o.denominator for c, o in meter}, 0)
    iparams = np.zeros(k.PARAMS, dtype=np.int64)
    iparams[k.P_PAI_GOW_STAKE] = pai_gow_stake
    iparams[k.P_PAI_GOW_WIN] = pai_gow_win
    iparams[k.P_QUALIFYING] = int(qualifying)
    iparams[k.P_ENVY_DEALER] = int(rules.envy_counts_dealer)
    iparams[k.P_CONTRIBUTION] = int(stake * rules.progressive_contribution)
    iparams[k.P_METER] = rules.progressive_meter
    iparams[k.P_RESET] = rules.progressive_reset
    iparams[k.P_STACKS] = int(rules.dealing is Dealing.AUTOMATED_SHOE)
    iparams[k.P_HOUSE_WAY] = _WAYS[rules.house_way]
    iparams[k.P_JOKER_LOW] = int(rules.joker_low_beats_all)
    return KernelParams(
        iparams=iparams,
        fortune_net=fortune_net,
        envy_award=envy_award,
        fixed_net=fixed_net,
        meter_num=meter_num,
        meter_den=meter_den,
        pai_gow_stake=pai_gow_stake,
        fortune_stake=fortune_stake,
        progressive_stake=stake,
    )


def play_round(
    rules: GameRules, deck: list[int] | k.I64, start: int
) -> dict[int, dict[str, int]]:
    """Play one round from 53 card codes (top first) and a start position.

    Returns, per seat 1-6, the net in minor units of each wager as the
    engine settles it (``pai_gow``, ``fortune_bonus`` with Envy for the
    qualifying stake, ``progressive``); the stakes are
    :func:`kernel_params`'s.
    """
    params = kernel_params(rules)
    codes = np.ascontiguousarray(deck, dtype=np.int64)
    if codes.shape != (53,) or sorted(codes.tolist()) != list(range(53)):
        msg = "a round is played from the 53 distinct card codes 0-52"
        raise ValueError(msg)
    if not 1 <= start <= k.POSITIONS:
        msg = f"no position {start}: seats are 1-6 and the dealer is 7"
        raise ValueError(msg)
    nets = np.zeros((k.SEATS, 5), dtype=np.int64)
    categories = np.zeros(k.POSITIONS, dtype=np.int64)
    k.play_deck(
        five_card_table(),
        _BINOM,
        k.LOW_RANK,
        codes,
        start,
        *params.arrays(),
        nets,
        categories,
        np.zeros(k.SCRATCH, dtype=np.int64),
    )
    return {
        seat + 1: {
            "pai_gow": int(nets[seat, k.PAI_GOW]),
            "fortune_bonus": int(nets[seat, k.FORTUNE]),
            "progressive": int(nets[seat, k.PROGRESSIVE]),
        }
        for seat in range(k.SEATS)
    }


def _sums(
    stats: k.I64,
    row: int,
    unit: int,
    labels: dict[int, str],
    pays: dict[str, str],
    stake_basis: str | None = None,
) -> WagerSums:
    sums = WagerSums(unit=unit, pays=dict(pays), stake_basis=stake_basis)
    for slot in range(k.LABELS):
        count = int(stats[row, slot])
        if not count:
            continue
        label = labels.get(slot, _LOSS)
        sums.outcomes[label] = sums.outcomes.get(label, 0) + count
        sums.outcome_nets[label] = sums.outcome_nets.get(label, 0) + int(
            stats[row, k.LABELS + slot]
        )
        sums.count += count
    sums.total = int(stats[row, 2 * k.LABELS])
    sums.total_sq = int(stats[row, 2 * k.LABELS + 1])
    return sums


def sums_from_stats(
    rules: SixCardRules, params: KernelParams, stats: k.I64
) -> dict[str, WagerSums]:
    """Turn the kernel's statistics into the offered wagers' sums."""
    win = Fraction(params.iparams[k.P_PAI_GOW_WIN], params.pai_gow_stake)
    main_pays = dict(
        zip(_RESULTS, (_odds_text(win), "push", _LOSS), strict=True)
    )
    out = {
        "pai_gow": _sums(
            stats,
            k.PAI_GOW,
            params.pai_gow_stake,
            dict(enumerate(_RESULTS)),
            main_pays,
        )
    }
    if rules.fortune_bonus_offered:
        table = rules.fortune_bonus_paytable
        paying = {CATEGORY_KEYS.index(c): _label(c) for c, _ in table}
        pays = {_label(c): str(odds) for c, odds in table}
        out["fortune_bonus"] = _sums(
            stats,
            k.FORTUNE_ONLY,
            params.fortune_stake,
            paying,
            {**pays, _LOSS: _LOSS},
        )
        if params.iparams[k.P_QUALIFYING]:
            basis = (
                "per unit of a Qualifying Wager of "
                f"{dollars(params.fortune_stake)}: the Envy Bonus pays "
                "fixed amounts, so at a larger wager it is a smaller share "
                "(D134)"
            )
            out["fortune_bonus_with_envy"] = _sums(
                stats,
                k.FORTUNE,
                params.fortune_stake,
                dict(enumerate(_NETS)),
                {},
                basis,
            )
            out["envy_bonus"] = _sums(
                stats,
                k.ENVY,
                params.fortune_stake,
                {0: "no envy", 1: "envy paid"},
                {"no envy": "nothing"},
                basis,
            )
    if rules.progressive_offered:
        paying = {
            CATEGORY_KEYS.index(c): _label(c)
            for table in (
                rules.progressive_odds_paytable,
                rules.progressive_meter_paytable,
            )
            for c, _ in table
        }
        pays = {_label(c): str(o) for c, o in rules.progressive_odds_paytable}
        for c, share in rules.progressive_meter_paytable:
            pays[_label(c)] = (
                "meter" if share.fraction == 1 else f"{share} of meter"
            )
        out["progressive"] = _sums(
            stats,
            k.PROGRESSIVE,
            params.progressive_stake,
            paying,
            {**pays, _LOSS: _LOSS},
        )
    return out


def _label(category: str) -> str:
    return category.replace("_", " ")


def _odds_text(net: Fraction) -> str:
    return f"{net.numerator}:{net.denominator}"


def run_chunk(
    rules: GameRules, rounds: int, seed: int, spawn_key: tuple[int, ...]
) -> dict[str, WagerSums]:
    """Play ``rounds`` rounds from ``SeedSequence(seed, spawn_key)``."""
    params = kernel_params(rules)
    rng = np.random.default_rng(
        np.random.SeedSequence(seed, spawn_key=spawn_key)
    )
    stats = np.zeros((k.WAGER_ROWS, k.STAT_COLUMNS), dtype=np.int64)
    k.play_chunk(
        rng,
        rounds,
        five_card_table(),
        _BINOM,
        k.LOW_RANK,
        *params.arrays(),
        stats,
    )
    return sums_from_stats(six_card_rules(rules), params, stats)


def warm_up(rules: GameRules) -> None:
    """Build the five-card table and compile the kernels (one round)."""
    run_chunk(rules, 1, 0, (0,))
    play_round(rules, list(range(53)), 1)
