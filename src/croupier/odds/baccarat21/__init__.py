"""21 Baccarat mathematics (issue 6): exact analysis and simulation.

:mod:`~croupier.odds.baccarat21.model` holds the settlement of every
wager and the exact analysis (Player, Banker, Tie over point classes,
the Bonus over the hand's own cards with suits);
:mod:`~croupier.odds.baccarat21.simulation` the Monte Carlo through real
shoes on the kernels of :mod:`~croupier.odds.baccarat21.kernels`.
"""

from __future__ import annotations

from croupier.odds.baccarat21.model import GAME, analyze
from croupier.odds.baccarat21.simulation import (
    play_round,
    run_chunk,
    warm_up,
)
from croupier.odds.registry import (
    Simulator,
    register_analyzer,
    register_simulator,
)

__all__ = ["GAME", "analyze", "play_round", "run_chunk", "warm_up"]

register_analyzer(GAME, analyze)
register_simulator(GAME, Simulator(run_chunk=run_chunk, warm_up=warm_up))
