"""The chunks of a simulation on a Dask cluster, with the same sums.

:func:`run_on_cluster` runs the chunk plan of
:func:`croupier.odds.simulate.simulate` as one Dask task per chunk, on a
``LocalCluster`` started here (``address="local"``) or on the scheduler
at a given address. Chunk ``i`` still draws only from
``SeedSequence(seed, spawn_key=(i,))`` and the driver merges the integer
sums in chunk-index order, so the result equals the in-process one for
the same seed and chunking, whichever worker ran a chunk and whenever it
finished.

Each task has a key fixed by the game, the rules, the seed, the chunk
index and its rounds (:func:`chunk_key`), so a retried or rescheduled
chunk is the same task. A chunk that raises is retried (``retries``);
a chunk whose worker dies is rescheduled by the scheduler (up to its
``distributed.scheduler.allowed-failures``); a result held by a lost
worker is recomputed, identically.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import dask
from dask.utils import parse_timedelta
from distributed import (
    Client,
    KilledWorker,
    LocalCluster,
    as_completed,
    get_worker,
)

from croupier import __version__
from croupier.errors import CroupierError
from croupier.odds.chunks import Chunk, ChunkRun
from croupier.odds.registry import ChunkRunner, Simulator
from croupier.odds.report import WagerSums
from croupier.rules import GameRules

__all__ = [
    "DEFAULT_RETRIES",
    "LOCAL",
    "ClusterError",
    "chunk_key",
    "connect",
    "run_on_cluster",
]

LOCAL = "local"
"""The address that starts a ``LocalCluster`` on this machine."""
DEFAULT_RETRIES = 3
"""How many times a chunk that raised is run again."""


class ClusterError(CroupierError):
    """The Dask cluster cannot be reached, or it lost a chunk for good."""


def chunk_key(game: str, rules: GameRules, seed: int, chunk: Chunk) -> str:
    """The Dask key of a chunk: the same chunk always gets the same key.

    The rules and the croupier version enter as a digest, so that two
    runs with different rules or kernels on a shared scheduler never
    share a result.

    >>> from croupier.registry import find_game
    >>> rules = find_game("21-baccarat").rules_type()
    >>> key = chunk_key("21-baccarat", rules, 7, Chunk(3, 20_000))
    >>> key == chunk_key("21-baccarat", rules, 7, Chunk(3, 20_000))
    True
    >>> key.startswith("croupier-21-baccarat-"), key.endswith("-7-3-20000")
    (True, True)
    """
    text = json.dumps(
        {"rules": rules.to_dict(), "version": __version__},
        sort_keys=True,
        default=str,
    )
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return f"croupier-{game}-{digest}-{seed}-{chunk.index}-{chunk.rounds}"


def _connect_timeout() -> float:
    value = parse_timedelta(
        dask.config.get("distributed.comm.timeouts.connect"), default="s"
    )
    return float(value) if value is not None else 30.0


def _open_client(address: str) -> Client:
    problem = ""
    try:
        client = Client(address, set_as_default=False)
    except (OSError, ValueError, TimeoutError) as exc:
        problem = str(exc) or type(exc).__name__
    if problem:
        # Raised outside the handler: the half-built client is not kept
        # alive by the exception chain.
        msg = f"cannot reach the Dask scheduler at {address!r}: {problem}"
        raise ClusterError(msg)
    timeout = _connect_timeout()
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError):
        client.close()
        msg = f"no worker joined the scheduler at {address!r} in {timeout} s"
        raise ClusterError(msg) from None
    return client


@contextmanager
def connect(address: str, workers: int = 0) -> Iterator[Client]:
    """A client of the scheduler at ``address``, closed on exit.

    ``"local"`` starts (and then stops) a ``LocalCluster`` of ``workers``
    single-threaded worker processes (0 = all cores) listening on the
    loopback only, without a dashboard. Its workers are spawned, so a
    script that starts one needs the ``if __name__ == "__main__":`` guard.
    """
    if address == LOCAL:
        count = workers if workers > 0 else (os.cpu_count() or 1)
        with (
            LocalCluster(
                n_workers=count,
                processes=True,
                threads_per_worker=1,
                host="127.0.0.1",
                dashboard_address=None,
                # The scheduler's HTTP routes (health, metrics) on any free
                # loopback port rather than on 8787.
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster, set_as_default=False) as client,
        ):
            yield client
        return
    client = _open_client(address)
    try:
        yield client
    finally:
        client.close()


def _run_chunk_task(
    run_chunk: ChunkRunner,
    rules: GameRules,
    rounds: int,
    seed: int,
    spawn_key: tuple[int, ...],
) -> tuple[str, dict[str, WagerSums]]:
    return get_worker().address, run_chunk(rules, rounds, seed, spawn_key)


def run_on_cluster(
    game: str,
    simulator: Simulator,
    rules: GameRules,
    chunks: list[Chunk],
    *,
    seed: int,
    address: str = LOCAL,
    workers: int = 0,
    retries: int = DEFAULT_RETRIES,
    progress: Callable[[int, int], None] | None = None,
) -> ChunkRun:
    """Run ``chunks`` on a Dask cluster, one keyed task per chunk.

    ``address`` is ``"local"`` (a ``LocalCluster`` of ``workers``
    processes, 0 = all cores) or a scheduler address. The kernels are
    warmed up on every worker first; ``progress(done, total)`` is called
    as chunks complete. Raises :class:`ClusterError` when the scheduler
    cannot be reached or a chunk kept losing its worker.
    """
    started = time.perf_counter()
    with connect(address, workers) as client:
        connected = time.perf_counter()
        client.run(simulator.warm_up, rules)
        compiled = time.perf_counter()
        futures = {
            client.submit(
                _run_chunk_task,
                simulator.run_chunk,
                rules,
                chunk.rounds,
                seed,
                (chunk.index,),
                key=chunk_key(game, rules, seed, chunk),
                retries=retries,
            ): chunk.index
            for chunk in chunks
        }
        parts: dict[int, dict[str, WagerSums]] = {}
        seen: set[str] = set()
        finishing = as_completed(futures, loop=client.loop)
        for done, future in enumerate(finishing, start=1):
            try:
                worker, sums = future.result()
            except KilledWorker as exc:
                msg = f"chunk {futures[future]} kept losing its worker: {exc}"
                raise ClusterError(msg) from None
            parts[futures[future]] = sums
            seen.add(worker)
            if progress is not None:
                progress(done, len(chunks))
        finished = time.perf_counter()
    return ChunkRun(
        parts=parts,
        seconds=finished - compiled,
        compile_seconds=compiled - connected,
        extra={
            "cluster": address,
            "workers": len(seen),
            "worker_addresses": sorted(seen),
            "retries": retries,
            "connect_seconds": connected - started,
        },
    )
