"""Six-Card Fortune Pai Gow Poker mathematics (issue 6).

Exact: the Fortune Bonus over all C(53,6) six-card hands, the Envy
figures and the Progressive Wager (:mod:`.exact`). Simulation: rounds
with the house way on both sides (:mod:`.simulation`, numba kernels in
:mod:`.kernels`). Importing the package registers both for
``six-card-fortune-pai-gow``.
"""

from __future__ import annotations

from croupier.odds.registry import (
    Simulator,
    register_analyzer,
    register_simulator,
)

from .exact import analyze
from .simulation import play_round, run_chunk, warm_up

__all__ = ["GAME", "analyze", "play_round", "run_chunk", "warm_up"]

GAME = "six-card-fortune-pai-gow"
"""The registry name of the game."""

register_analyzer(GAME, analyze)
register_simulator(GAME, Simulator(run_chunk=run_chunk, warm_up=warm_up))
