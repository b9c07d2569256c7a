"""Perfect-play bounds of the pair wagers (issue 16 point 3, D49).

A player who knows the exact composition of the unseen cards (every
card dealt, and the exposed Midibaccarat burn card, seen) computes,
before every coup of a real shoe, the exact EV of the next Perfect
Pairs (Midibaccarat) or Bonus (21 Baccarat) wager from that composition
and bets one unit exactly when it is positive. The EV is computed
exactly at every coup (no count, no approximation); the gain per shoe
is the mean over shoes of the sum of the positive EVs, and the realized
win of those bets is reported beside it as a check. This bounds what
any count of the wager can win under these rules: no strategy that
bets one unit from what is seen does better.

Both hands' wagers have the same EV at every coup (exchangeability);
the figures are per wager (one hand), a player betting both gets twice.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import TypedDict

import numpy as np
import numpy.typing as npt

from croupier.odds.baccarat.shoe import random_block
from croupier.protect import _kernels as pk
from croupier.protect.model import (
    BACCARAT,
    GameModel,
    ProtectError,
    tables,
)

__all__ = ["CHUNK_SHOES", "PerfectRow", "perfect_play"]

CHUNK_SHOES = 5_000
"""Shoes per chunk (each its own ``SeedSequence`` spawn key)."""


class PerfectRow(TypedDict):
    """The perfect-play figures of one pair wager (per wager, one hand)."""

    wager: str
    shoes: int
    seed: int
    seconds: float
    coups_per_shoe: float
    bet_frequency: float
    bets_per_shoe: float
    gain_per_shoe: float
    gain_per_shoe_ci95: float
    edge_when_betting: float
    units_per_100_hands: float
    realized_per_shoe: float
    realized_per_shoe_ci95: float
    mean_ev_every_coup: float


_Task = tuple[int, int, int, npt.NDArray[np.int64], int, int, int, tuple[int]]
"""A chunk's arguments: game code, decks, cover, nets, unit, shoes, seed
and spawn key."""


def _chunk(args: _Task) -> npt.NDArray[np.float64]:
    code, decks, cover, pays, unit, shoes, seed, key = args
    gen = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))
    codes = np.repeat(np.arange(52, dtype=np.int64), decks)
    work = np.empty_like(codes)
    stats = np.zeros(8, dtype=np.float64)
    size = codes.shape[0] + 64
    done = 0
    while done < shoes:
        block = min(shoes - done, 512)
        done += pk.perfect_shoes(
            code,
            codes,
            work,
            random_block(gen, size * block),
            block,
            cover,
            tables(),
            pays,
            unit,
            stats,
        )
    return stats


def perfect_play(
    game: GameModel,
    wager: str,
    shoes: int,
    *,
    seed: int = 1,
    workers: int = 1,
) -> PerfectRow:
    """The perfect-play figures of a pair wager over ``shoes`` shoes."""
    model = game.wager(wager)
    if not model.pair:
        msg = f"perfect play is computed for the pair wagers, not {wager!r}"
        raise ProtectError(msg)
    if shoes < 1:
        msg = f"shoes must be at least 1, not {shoes}"
        raise ProtectError(msg)
    width = 4 if game.code == BACCARAT else 64
    pays = np.array(model.nets[:width], dtype=np.int64)
    tasks: list[_Task] = [
        (
            game.code,
            game.decks,
            game.cover,
            pays,
            game.unit,
            min(CHUNK_SHOES, shoes - start),
            seed,
            (i,),
        )
        for i, start in enumerate(range(0, shoes, CHUNK_SHOES))
    ]
    started = time.perf_counter()
    if workers > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
            parts = list(pool.map(_chunk, tasks))
    else:
        parts = [_chunk(t) for t in tasks]
    stats = np.sum(parts, axis=0)
    seconds = time.perf_counter() - started
    n = stats[6]
    coups = stats[0]
    bets = stats[1] / 2
    gain = stats[2] / 2 / n
    gain_sd = math.sqrt(max(stats[3] / 4 / n - gain**2, 0.0))
    real = stats[4] / 2 / n
    real_sd = math.sqrt(max(stats[5] / 4 / n - real**2, 0.0))
    return {
        "wager": wager,
        "shoes": int(n),
        "seed": seed,
        "seconds": seconds,
        "coups_per_shoe": coups / n,
        "bet_frequency": bets / coups if coups else 0.0,
        "bets_per_shoe": bets / n,
        "gain_per_shoe": gain,
        "gain_per_shoe_ci95": 1.96 * gain_sd / math.sqrt(n),
        "edge_when_betting": stats[2] / stats[1] if stats[1] else 0.0,
        "units_per_100_hands": 100 * gain * n / coups if coups else 0.0,
        "realized_per_shoe": real,
        "realized_per_shoe_ci95": 1.96 * real_sd / math.sqrt(n),
        "mean_ev_every_coup": stats[7] / coups if coups else 0.0,
    }
