"""Simulation of Double Back Jack: chunk runner and one-round replay.

:func:`run_chunk` is the registered simulator's chunk runner (the box's
whole net per round, wager ``blackjack``); :func:`play_one_round` plays
one round from a given stack of cards, by the strategy or by a given
sequence of decisions, and returns every wager's net, so that the kernel
can be checked settlement by settlement against the engine;
:func:`prepared_shoe` and :func:`shoe_rounds` expose the shoe loop (the
shuffle, the 591.7(c) burn, the rounds up to the cover card) for the
same check over whole shoes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from croupier.cards import Card
from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.odds.report import SHOE_RAN_OUT_EVENT, WagerSums

from .analysis import Solution, solve
from .kernels import (
    CODE_VALUES,
    N_CATEGORIES,
    N_OUT,
    N_TRACE,
    N_WORK,
    O_CATEGORY,
    O_DECISIONS,
    O_FLAGS,
    O_INS,
    O_MAIN,
    O_SC,
    integer_parameters,
    play_round,
    play_shoe,
    shuffle,
    simulate_shoes,
)

__all__ = [
    "DECISION_NAMES",
    "UNIT",
    "RoundPlayer",
    "RoundResult",
    "ShoeRound",
    "category_label",
    "cover_position",
    "integer_parameters",
    "play_one_round",
    "prepared_shoe",
    "run_chunk",
    "shoe_rounds",
    "warm_up",
]

UNIT = 1000
"""Initial Blackjack Wager of simulated rounds, in minor units."""

DECISION_NAMES = (
    "stand",
    "hit",
    "double",
    "split",
    "surrender",
    "insurance",
    "no_insurance",
    "second_chance",
    "no_second_chance",
)
"""Engine action name of each decision code."""

_BASE_LABELS = {
    0: "blackjack",
    1: "dealer blackjack",
    2: "surrender",
    3: "split",
    4: "21 paid at once",
    5: "win",
    6: "push",
    7: "lose",
    8: "dealer 22 push",
    9: "bust, Second Chance declined",
    10: "bust, dealer 22 push",
    11: "Second Chance over 21",
    12: "Second Chance 21",
    13: "Second Chance win",
    14: "Second Chance push",
    15: "Second Chance lose",
    16: "Second Chance, dealer 22 push",
    17: "void: " + SHOE_RAN_OUT_EVENT,
}


def category_label(code: int) -> str:
    """The return-table label of a kernel outcome category.

    >>> category_label(5), category_label(32 + 7), category_label(64 + 3)
    ('win', 'double: lose', 'insured: split')
    """
    label = _BASE_LABELS[code % 32]
    if code & 32:
        label = "double: " + label
    if code & 64:
        label = "insured: " + label
    return label


def cover_position(rules: DoubleBackJackRules) -> int:
    """Cards above the cover card in a full shoe (the engine's rounding)."""
    return int(52 * rules.decks * rules.penetration)


def _strategy(
    solution: Solution,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (
        solution.fd,
        solution.ins,
        solution.hs,
        solution.spd,
        solution.scd,
    )


def run_chunk(
    rules: DoubleBackJackRules,
    rounds: int,
    seed: int,
    spawn_key: tuple[int, ...],
) -> dict[str, WagerSums]:
    """Play ``rounds`` rounds; randomness from ``SeedSequence`` only."""
    rng = np.random.default_rng(
        np.random.SeedSequence(seed, spawn_key=spawn_key)
    )
    fd, ins, hs, spd, scd = _strategy(solve(rules))
    sums = np.zeros(3, dtype=np.int64)
    cat_count = np.zeros(N_CATEGORIES, dtype=np.int64)
    cat_net = np.zeros(N_CATEGORIES, dtype=np.int64)
    simulate_shoes(
        rng,
        rounds,
        np.tile(CODE_VALUES, rules.decks),
        cover_position(rules),
        UNIT,
        integer_parameters(rules),
        fd,
        ins,
        hs,
        spd,
        scd,
        sums,
        cat_count,
        cat_net,
    )
    outcomes = {
        category_label(int(code)): int(cat_count[code])
        for code in np.nonzero(cat_count)[0]
    }
    outcome_nets = {
        category_label(int(code)): int(cat_net[code])
        for code in np.nonzero(cat_count)[0]
    }
    return {
        "blackjack": WagerSums(
            unit=UNIT,
            count=int(sums[0]),
            total=int(sums[1]),
            total_sq=int(sums[2]),
            outcomes=outcomes,
            outcome_nets=outcome_nets,
        )
    }


def warm_up(rules: DoubleBackJackRules) -> None:
    """Solve the strategy and compile (or load) the kernels."""
    run_chunk(rules, 10, 0, (0,))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round as the kernel played it."""

    nets: dict[tuple[str, int], int]
    """Net per wager, keyed ``(wager, hand)`` (hand 0 or 1), minor units."""
    cards_used: int
    """Cards taken from the stack."""
    decisions: tuple[str, ...]
    """The decisions taken, as engine action names."""
    category: str
    """The return-table category of the round."""


class RoundPlayer:
    """Plays single rounds with the kernel for one set of rules.

    The strategy is solved, the rules' parameters packed and the
    kernel's buffers made once, so that a caller playing many rounds
    (the math report's average stake: 200,000 of them) pays for the
    round alone: some 45 µs where :func:`play_one_round`, which makes
    them afresh, takes 270 (2026-12-06).
    """

    def __init__(self, rules: DoubleBackJackRules) -> None:
        self._strategy = _strategy(solve(rules))
        self._parameters = integer_parameters(rules)
        self._decisions = np.zeros(64, dtype=np.int8)
        self._out = np.zeros(N_OUT, dtype=np.int64)
        self._work = np.zeros(N_WORK, dtype=np.int64)

    def play(
        self,
        codes: npt.NDArray[np.int64],
        *,
        amount: int = UNIT,
        forced: npt.NDArray[np.int8] | None = None,
    ) -> int:
        """Play a round from the card ``codes`` (top first, no burn).

        ``forced`` are decision codes taken first; returns the cards
        used, negative when the stack ran out. The round's figures are
        read with :meth:`decision_codes` and :meth:`result`.
        """
        fd, ins, hs, spd, scd = self._strategy
        self._decisions[:] = 0
        self._out[:] = 0
        self._work[:] = 0
        return int(
            play_round(
                CODE_VALUES[codes],
                0,
                amount,
                self._parameters,
                fd,
                ins,
                hs,
                spd,
                scd,
                _NO_DECISIONS if forced is None else forced,
                self._decisions,
                self._out,
                self._work,
            )
        )

    def decision_codes(self) -> npt.NDArray[np.int8]:
        """The last round's decisions, as codes of :data:`DECISION_NAMES`."""
        return self._decisions[: int(self._out[O_DECISIONS])]

    def result(self, used: int, cards: int) -> RoundResult:
        """The last round as a :class:`RoundResult`.

        ``cards``: the cards :meth:`play` was given; ``used``: what it
        returned.
        """
        return RoundResult(
            nets=_nets(self._out),
            cards_used=cards if used < 0 else used,
            decisions=tuple(
                DECISION_NAMES[int(c)] for c in self.decision_codes()
            ),
            category=category_label(int(self._out[O_CATEGORY])),
        )


_NO_DECISIONS = np.zeros(0, dtype=np.int8)
"""No decision forced."""


def play_one_round(
    cards: Sequence[Card | int],
    rules: DoubleBackJackRules,
    *,
    amount: int = UNIT,
    decisions: Sequence[str] = (),
) -> RoundResult:
    """Play one round from ``cards`` (top first, no burn) with the kernel.

    ``decisions`` (engine action names) are taken first, in order; the
    analyzer's strategy decides whatever they leave open. Only wagers
    that were placed appear in ``nets``. A stack the round runs out of
    voids it (D69): the category says so, the wagers settled before
    stand, the others net 0, and every card is used.
    """
    codes = np.array(
        [c.code if isinstance(c, Card) else int(c) for c in cards],
        dtype=np.int64,
    )
    forced = np.array(
        [DECISION_NAMES.index(name) for name in decisions], dtype=np.int8
    )
    player = RoundPlayer(rules)
    used = player.play(codes, amount=amount, forced=forced)
    return player.result(used, len(codes))


def _nets(out: npt.NDArray[np.int64]) -> dict[tuple[str, int], int]:
    """The placed wagers' nets of a kernel round's ``out``."""
    flags = int(out[O_FLAGS])
    nets: dict[tuple[str, int], int] = {("blackjack", 0): int(out[O_MAIN])}
    if flags & 1:
        nets[("blackjack", 1)] = int(out[O_MAIN + 1])
    for hand in range(2):
        if flags & (2 << hand):
            nets[("second_chance", hand)] = int(out[O_SC + hand])
    if flags & 8:
        nets[("insurance", 0)] = int(out[O_INS])
    return nets


def prepared_shoe(
    rules: DoubleBackJackRules,
    rng: np.random.Generator,
    previous: Sequence[int] | None = None,
) -> npt.NDArray[np.int64]:
    """A full shoe of card codes shuffled by the simulator's kernel.

    Top first; the cover card belongs at :func:`cover_position` and the
    first card is the one the 591.7(c) burn takes. The kernel shuffles
    ``previous`` (the last shoe, in its order, as the simulator
    reshuffles) or, for the first shoe, the codes in order. The shuffle
    moves cards by position only, so :func:`run_chunk` (which shuffles
    value indices) deals the values of exactly these codes from the
    same generator state.
    """
    if previous is None:
        codes = np.tile(np.arange(52, dtype=np.int64), rules.decks)
    else:
        codes = np.array(previous, dtype=np.int64)
    shuffle(codes, rng)
    return codes


@dataclass(frozen=True, slots=True)
class ShoeRound:
    """One round of a shoe as the simulator's shoe loop played it."""

    start: int
    """Index in the shoe of the round's first card."""
    end: int
    """Index of the first card after the round."""
    nets: dict[tuple[str, int], int]
    """Net per placed wager, keyed ``(wager, hand)``, minor units."""
    category: str
    """The return-table category of the round."""


def shoe_rounds(
    rules: DoubleBackJackRules,
    codes: Sequence[int],
    *,
    amount: int = UNIT,
) -> list[ShoeRound]:
    """The rounds the shoe loop plays from a prepared shoe, in order.

    ``codes`` as :func:`prepared_shoe` returns them: one card is burnt,
    then rounds (by the strategy) until the cover card comes out.
    """
    shoe = CODE_VALUES[np.asarray(codes, dtype=np.int64)]
    trace = np.zeros((shoe.shape[0], N_TRACE), dtype=np.int64)
    fd, ins, hs, spd, scd = _strategy(solve(rules))
    played = play_shoe(
        shoe,
        1,
        cover_position(rules),
        shoe.shape[0],
        amount,
        integer_parameters(rules),
        fd,
        ins,
        hs,
        spd,
        scd,
        np.zeros(3, dtype=np.int64),
        np.zeros(N_CATEGORIES, dtype=np.int64),
        np.zeros(N_CATEGORIES, dtype=np.int64),
        trace,
    )
    rounds: list[ShoeRound] = []
    start = 1
    for row in trace[:played]:
        end = int(row[N_OUT])
        rounds.append(
            ShoeRound(
                start=start,
                end=end,
                nets=_nets(row[:N_OUT]),
                category=category_label(int(row[O_CATEGORY])),
            )
        )
        start = end
    return rounds
