"""Which game has which exact analyzer and which simulator.

An *analyzer* maps rules to a :class:`~croupier.odds.report.GameReport`.
A *simulator* is a :class:`Simulator`: a picklable, top-level
``run_chunk(rules, rounds, seed, spawn_key)`` returning per-wager
:class:`~croupier.odds.report.WagerSums`; the driver in
:mod:`croupier.odds.simulate` splits rounds into seeded chunks and merges
the sums exactly.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from croupier.odds.report import GameReport, WagerSums
from croupier.rules import GameRules

__all__ = [
    "Analyzer",
    "ChunkRunner",
    "Simulator",
    "find_analyzer",
    "find_simulator",
    "register_analyzer",
    "register_simulator",
]

Analyzer = Callable[[GameRules], GameReport]
ChunkRunner = Callable[
    [GameRules, int, int, tuple[int, ...]], dict[str, WagerSums]
]


@dataclass(frozen=True, slots=True)
class Simulator:
    """A game's simulator: the chunk runner and how to warm it up."""

    run_chunk: ChunkRunner
    """``run_chunk(rules, rounds, seed, spawn_key)`` -> wager sums."""
    warm_up: Callable[[GameRules], None]
    """Compile the kernels (timed separately from the run)."""


_ANALYZERS: dict[str, Analyzer] = {}
_SIMULATORS: dict[str, Simulator] = {}
_MODULES = (
    "croupier.odds.baccarat",
    "croupier.odds.baccarat21",
    "croupier.odds.double_back_jack",
    "croupier.odds.paigow",
)


def register_analyzer(game: str, analyzer: Analyzer) -> Analyzer:
    """Register the exact analyzer of ``game``."""
    _ANALYZERS[game] = analyzer
    return analyzer


def register_simulator(game: str, simulator: Simulator) -> Simulator:
    """Register the simulator of ``game``."""
    _SIMULATORS[game] = simulator
    return simulator


def _load() -> None:
    for name in _MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def find_analyzer(game: str) -> Analyzer | None:
    """The exact analyzer of ``game``, if it has one."""
    _load()
    return _ANALYZERS.get(game)


def find_simulator(game: str) -> Simulator | None:
    """The simulator of ``game``, if it has one."""
    _load()
    return _SIMULATORS.get(game)
