"""The simulation driver: seeded chunks, worker processes, exact merging.

Rounds are split into chunks of at most ``chunk_rounds``; chunk ``i``
draws from ``SeedSequence(seed, spawn_key=(i,))``, so a result depends
only on the seed and the chunking, never on the number of workers or the
order in which chunks finish (the plan: :mod:`croupier.odds.chunks`).
Sums are integers and merge exactly. The chunks run here (in-process or
on worker processes) or on a Dask cluster (:mod:`croupier.odds.cluster`,
imported only then: it needs the ``cluster`` extra); one report builder
serves both.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed

from croupier.odds.chunks import Chunk, ChunkRun, plan_chunks
from croupier.odds.registry import Simulator
from croupier.odds.report import GameReport, WagerReport, WagerSums
from croupier.rules import GameRules

__all__ = ["Chunk", "ChunkRun", "merge_sums", "plan_chunks", "simulate"]

DEFAULT_CHUNK_ROUNDS = 1_000_000


def merge_sums(
    parts: list[dict[str, WagerSums]],
) -> dict[str, WagerSums]:
    """Merge chunk results wager by wager (exact integer sums)."""
    merged: dict[str, WagerSums] = {}
    for part in parts:
        for wager, sums in part.items():
            if wager not in merged:
                merged[wager] = WagerSums(unit=sums.unit)
            merged[wager].merge(sums)
    return merged


def simulate(
    game: str,
    simulator: Simulator,
    rules: GameRules,
    *,
    rounds: int,
    seed: int,
    workers: int = 1,
    chunk_rounds: int = DEFAULT_CHUNK_ROUNDS,
    progress: Callable[[int, int], None] | None = None,
    cluster: str | None = None,
    cluster_workers: int = 0,
) -> GameReport:
    """Run ``rounds`` rounds and report every wager with its 95 % CI.

    ``progress(done, total)`` is called as chunks complete. The chunks run
    here on ``workers`` processes, or, given ``cluster`` (``"local"`` or a
    Dask scheduler address), on a Dask cluster
    (:func:`croupier.odds.cluster.run_on_cluster`; ``cluster_workers``
    sizes a local one, 0 = all cores). Either way the sums are the same.
    """
    chunks = plan_chunks(rounds, chunk_rounds)
    if cluster is None:
        run = _run_here(simulator, rules, chunks, seed, workers, progress)
    else:
        from croupier.odds.cluster import run_on_cluster

        run = run_on_cluster(
            game,
            simulator,
            rules,
            chunks,
            seed=seed,
            address=cluster,
            workers=cluster_workers,
            progress=progress,
        )
    ordered = [run.parts[chunk.index] for chunk in chunks]
    merged = merge_sums(ordered)
    return GameReport(
        game=game,
        rules=rules.to_dict(),
        method="simulation",
        seconds=run.seconds,
        rounds=rounds,
        compile_seconds=run.compile_seconds,
        wagers={k: WagerReport.simulated(v) for k, v in merged.items()},
        extra={
            "seed": seed,
            "chunk_rounds": chunk_rounds,
            "chunks": len(chunks),
            "spawn_key": "(chunk index,)",
            **run.extra,
            "running": running_edges(
                ordered, [chunk.rounds for chunk in chunks]
            ),
        },
    )


def _run_here(
    simulator: Simulator,
    rules: GameRules,
    chunks: list[Chunk],
    seed: int,
    workers: int,
    progress: Callable[[int, int], None] | None,
) -> ChunkRun:
    started = time.perf_counter()
    simulator.warm_up(rules)
    compiled = time.perf_counter()
    parts: dict[int, dict[str, WagerSums]] = {}
    if workers <= 1:
        for done, chunk in enumerate(chunks, start=1):
            parts[chunk.index] = simulator.run_chunk(
                rules, chunk.rounds, seed, (chunk.index,)
            )
            if progress is not None:
                progress(done, len(chunks))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {
                pool.submit(
                    simulator.run_chunk,
                    rules,
                    chunk.rounds,
                    seed,
                    (chunk.index,),
                ): chunk.index
                for chunk in chunks
            }
            for done, future in enumerate(as_completed(futures), start=1):
                parts[futures[future]] = future.result()
                if progress is not None:
                    progress(done, len(chunks))
    return ChunkRun(
        parts=parts,
        seconds=time.perf_counter() - compiled,
        compile_seconds=compiled - started,
        extra={"workers": workers},
    )


def running_edges(
    ordered: list[dict[str, WagerSums]],
    chunk_rounds: list[int] | None = None,
) -> dict[str, list[list[float]]]:
    """Per wager, ``[rounds, edge, ci_half_width]`` after each chunk.

    ``rounds`` counts rounds played (given ``chunk_rounds``, the rounds
    of each chunk); without it, the wagers settled.
    """
    out: dict[str, list[list[float]]] = {}
    merged: dict[str, WagerSums] = {}
    played = 0
    for index, part in enumerate(ordered):
        if chunk_rounds is not None:
            played += chunk_rounds[index]
        for wager, sums in part.items():
            merged.setdefault(wager, WagerSums(unit=sums.unit)).merge(sums)
            report = WagerReport.simulated(merged[wager])
            if report.ci95 is None:  # pragma: no cover - always set
                continue
            half = (report.ci95[1] - report.ci95[0]) / 2
            x = played if chunk_rounds is not None else merged[wager].count
            out.setdefault(wager, []).append(
                [float(x), report.house_edge, half]
            )
    return out
