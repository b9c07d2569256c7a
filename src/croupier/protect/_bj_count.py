"""A card counter at Double Back Jack: real shoes, a bet ramp by true count.

The rounds are the simulator's own (:func:`croupier.odds.double_back_jack.
kernels.play_round`, the game's strategy tables, every option of the
Rules Submission); this kernel only keeps the running count of the
cards seen and sizes the bet of each round by the true count before it.

Conventions: every card of a round (shoe[pos:new], the dealer's hole
card included, which is turned or collected face up by the end of the
round) is seen when the round ends; the burnt card (591.7(c)) is not.
The true count is the running count per remaining deck (cards left
behind the current position, 52 to a deck), floored; the bet is
``ramp[true count - LOW]`` (clamped to the ramp's ends). One box, one
player, every round played (no wonging). Rounds of one shoe are
correlated, so the per-shoe totals are kept for confidence intervals.
"""

from __future__ import annotations

import numpy as np

from croupier.jit import jit
from croupier.odds.double_back_jack.kernels import (
    CODE_VALUES,
    N_OUT,
    N_WORK,
    play_round,
    shuffle,
)

__all__ = ["LOW", "N_BUCKETS", "count_shoes"]

LOW = -10
"""The lowest true count bucket (lower counts fall into it)."""
N_BUCKETS = 21
"""True count buckets ``LOW .. LOW + 20``."""


@jit
def _bucket(running: int, remaining: int) -> int:
    tc = np.floor(running * 52.0 / max(remaining, 1))
    b = int(tc) - LOW
    if b < 0:
        return 0
    if b >= N_BUCKETS:
        return N_BUCKETS - 1
    return b


@jit
def _shoe_totals(sums: np.ndarray, n: int, f: int, w: int) -> None:
    sums[5] += n * n
    sums[6] += f * f
    sums[7] += f * n
    sums[8] += w * w
    sums[9] += w * n


@jit
def count_shoes(
    rng: np.random.Generator,
    rounds: int,
    decks: int,
    cut: int,
    unit: int,
    ipar: np.ndarray,
    fd: np.ndarray,
    ins: np.ndarray,
    hs: np.ndarray,
    spd: np.ndarray,
    scd: np.ndarray,
    tags: np.ndarray,
    ramp: np.ndarray,
    sums: np.ndarray,
    by_count: np.ndarray,
) -> int:
    """Play ``rounds`` rounds with a count; return the rounds voided.

    A round the shoe runs out in is void (D69, as the engine and
    :func:`~croupier.odds.double_back_jack.kernels.play_round` have it)
    and the shoe's last.

    ``tags[v]``: the tag of value index ``v`` (1 ace ... 10). ``sums``
    gets, in minor units of an initial ``unit``: 0 rounds, 1 total bet,
    2 sum of bet times net, 3 sum of its squares, 4 shoes; then per shoe
    (rounds are correlated within a shoe, so confidence intervals come
    from shoe totals): 5 sum of N^2 (N a shoe's rounds), 6 sum of F^2
    and 7 sum of F N (F a shoe's flat net), 8 sum of W^2 and 9 sum of
    W N (W its bet-weighted net). ``by_count[b]`` (per true count
    bucket): rounds, flat net, flat net squared.
    """
    n = 52 * decks
    shoe = np.empty(n, dtype=np.int8)
    for i in range(n):
        shoe[i] = CODE_VALUES[i % 52]
    forced = np.empty(0, dtype=np.int8)
    dlog = np.empty(0, dtype=np.int8)
    out = np.zeros(N_OUT, dtype=np.int64)
    work = np.zeros(N_WORK, dtype=np.int64)
    shuffle(shoe, rng)
    pos = 1  # 591.7(c): the first card of the batch is burnt
    running = 0
    bets = 0
    won = 0
    won_sq = 0
    shoes = 1
    voided = 0
    shoe_n = 0
    shoe_f = 0
    shoe_w = 0
    for _ in range(rounds):
        b = _bucket(running, n - pos)
        bet = ramp[b]
        new = play_round(
            shoe, pos, unit, ipar, fd, ins, hs, spd, scd, forced, dlog,
            out, work,
        )  # fmt: skip
        if new < 0:  # void for want of cards: every card is out
            new = n
            voided += 1
        net = out[0] + out[1] + out[2] + out[3] + out[4]
        bets += bet
        won += bet * net
        won_sq += bet * net * bet * net
        by_count[b, 0] += 1
        by_count[b, 1] += net
        by_count[b, 2] += net * net
        shoe_n += 1
        shoe_f += net
        shoe_w += bet * net
        for i in range(pos, new):
            running += tags[shoe[i]]
        if new > cut:  # the cover card came out during this round (d)
            _shoe_totals(sums, shoe_n, shoe_f, shoe_w)
            shoe_n = 0
            shoe_f = 0
            shoe_w = 0
            shuffle(shoe, rng)
            pos = 1
            running = 0
            shoes += 1
        else:
            pos = new
    if shoe_n > 0:
        _shoe_totals(sums, shoe_n, shoe_f, shoe_w)
    else:
        shoes -= 1
    sums[0] += rounds
    sums[1] += bets
    sums[2] += won
    sums[3] += won_sq
    sums[4] += shoes
    return voided
