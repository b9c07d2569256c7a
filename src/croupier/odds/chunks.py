"""The chunk plan of a simulation and the shape of its results.

A simulation of ``rounds`` rounds is split into chunks of at most
``chunk_rounds``; chunk ``i`` draws from ``SeedSequence(seed,
spawn_key=(i,))``, so a result depends only on the seed and the chunking.
These shapes are shared by the runners: in-process or on worker
processes (:mod:`croupier.odds.simulate`) and on a Dask cluster
(:mod:`croupier.odds.cluster`), which depends on them and not on the
driver.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from croupier.odds.report import WagerSums

__all__ = [
    "MAX_CHUNKS",
    "MAX_ROUNDS",
    "Chunk",
    "ChunkRun",
    "plan_chunks",
    "too_many_chunks",
]

MAX_ROUNDS = 10**12
"""Most rounds one simulation runs: days of every core at the kernels'
few million rounds a second, and the chunk plan stays small."""
MAX_CHUNKS = 10**6
"""Most chunks one simulation is split into (the plan is a list)."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """One seeded piece of a simulation."""

    index: int
    """Spawn key of the chunk's stream."""
    rounds: int
    """Rounds in the chunk."""


def too_many_chunks(rounds: int, chunk_rounds: int) -> bool:
    """Whether a run is past :data:`MAX_ROUNDS` or :data:`MAX_CHUNKS`.

    >>> too_many_chunks(10**6, 1), too_many_chunks(10**6 + 1, 1)
    (False, True)
    """
    return rounds > MAX_ROUNDS or -(-rounds // chunk_rounds) > MAX_CHUNKS


def plan_chunks(rounds: int, chunk_rounds: int) -> list[Chunk]:
    """Split ``rounds`` into chunks of at most ``chunk_rounds``.

    >>> [c.rounds for c in plan_chunks(25, 10)]
    [10, 10, 5]
    """
    if rounds <= 0 or chunk_rounds <= 0:
        msg = "rounds and chunk size must be positive"
        raise ValueError(msg)
    if too_many_chunks(rounds, chunk_rounds):
        msg = (
            f"{rounds:,} rounds in chunks of {chunk_rounds:,}: at most "
            f"{MAX_ROUNDS:,} rounds in {MAX_CHUNKS:,} chunks"
        )
        raise ValueError(msg)
    full, rest = divmod(rounds, chunk_rounds)
    sizes = [chunk_rounds] * full + ([rest] if rest else [])
    return [Chunk(i, n) for i, n in enumerate(sizes)]


@dataclass(frozen=True, slots=True)
class ChunkRun:
    """The chunk results of one run, by chunk index, and its timings."""

    parts: dict[int, dict[str, WagerSums]]
    """Each chunk's wager sums, keyed by chunk index."""
    seconds: float
    """Wall time of running the chunks."""
    compile_seconds: float
    """Wall time of warming up the kernels."""
    extra: dict[str, Any]
    """Where the chunks ran (``workers``, ``cluster``...), for the report."""
