"""Midibaccarat and commission-free Midibaccarat mathematics (issue 6).

:mod:`~croupier.odds.baccarat.model` holds the settlement of every
wager on a coup and the exact analysis (finite shoe, without
replacement, exact fractions); :mod:`~croupier.odds.baccarat.simulation`
the Monte Carlo through real shoes on the kernels of
:mod:`~croupier.odds.baccarat.kernels`. Both games are registered here.
"""

from __future__ import annotations

from croupier.odds.baccarat.model import analyze
from croupier.odds.baccarat.simulation import play_round, run_chunk, warm_up
from croupier.odds.registry import (
    Simulator,
    register_analyzer,
    register_simulator,
)

__all__ = ["GAMES", "analyze", "play_round", "run_chunk", "warm_up"]

GAMES = ("midibaccarat", "midibaccarat-commission-free")
"""The registry names this module serves."""

for _game in GAMES:
    register_analyzer(_game, analyze)
    register_simulator(_game, Simulator(run_chunk=run_chunk, warm_up=warm_up))
