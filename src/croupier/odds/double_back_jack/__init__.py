"""Game mathematics of Double Back Jack (591.7, now 673a.7).

* :mod:`.dealer` - exact dealer outcome probabilities per up card;
* :mod:`.strategy` - the numba solver: composition-dependent first
  decision, total-dependent later decisions (see its docstring for the
  approximation), Second Chance and insurance decisions;
* :mod:`.analysis` - the exact report (house edge, return table);
* :mod:`.kernels` - numba rounds through real shoes;
* :mod:`.simulation` - the chunk runner and the one-round replay that
  the engine-agreement test uses;
* :mod:`.chart` - the strategy chart of ``croupier strategy``.

Importing the package registers the analyzer and the simulator.
"""

from __future__ import annotations

from typing import cast

from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.odds.registry import (
    Simulator,
    register_analyzer,
    register_simulator,
)
from croupier.odds.report import GameReport, WagerSums
from croupier.rules import GameRules

from . import simulation
from .analysis import GAME, Solution, analyze, solve
from .chart import StrategyChart, strategy_chart
from .simulation import RoundResult, play_one_round

__all__ = [
    "RoundResult",
    "Solution",
    "StrategyChart",
    "analyze",
    "analyze_rules",
    "play_one_round",
    "run_chunk",
    "solve",
    "strategy_chart",
    "warm_up",
]


def analyze_rules(rules: GameRules) -> GameReport:
    """The registered analyzer: :func:`.analysis.analyze`."""
    return analyze(cast("DoubleBackJackRules", rules))


def run_chunk(
    rules: GameRules, rounds: int, seed: int, spawn_key: tuple[int, ...]
) -> dict[str, WagerSums]:
    """The registered chunk runner: :func:`.simulation.run_chunk`."""
    return simulation.run_chunk(
        cast("DoubleBackJackRules", rules), rounds, seed, spawn_key
    )


def warm_up(rules: GameRules) -> None:
    """Solve the strategy and compile (or load) the kernels."""
    simulation.warm_up(cast("DoubleBackJackRules", rules))


register_analyzer(GAME, analyze_rules)
register_simulator(GAME, Simulator(run_chunk=run_chunk, warm_up=warm_up))
