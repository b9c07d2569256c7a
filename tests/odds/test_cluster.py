"""Simulations on a Dask cluster give the in-process sums (issue 8).

Every cluster listens on the loopback only and is closed by the test that
started it; an autouse fixture checks that no child process outlives a
test.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Iterator

import dask
import pytest
from distributed import Client, LocalCluster
from distributed.scheduler import Scheduler
from typer.testing import CliRunner

from croupier.cli import app
from croupier.odds.cluster import ClusterError, chunk_key, run_on_cluster
from croupier.odds.registry import Simulator, find_simulator
from croupier.odds.simulate import plan_chunks, simulate
from croupier.registry import find_game

pytestmark = pytest.mark.slow  # Dask clusters; left out of `make check`

runner = CliRunner()


def _simulator(game: str) -> Simulator:
    simulator = find_simulator(game)
    assert simulator is not None
    return simulator


def _own_children() -> set[int]:
    # A LocalCluster's nannies live in this process; its workers are our
    # multiprocessing children.
    children = multiprocessing.active_children()
    return {child.pid for child in children if child.pid is not None}


@pytest.fixture(autouse=True)
def _no_process_left_behind() -> Iterator[None]:
    before = _own_children()
    yield
    deadline = time.monotonic() + 10
    while (left := _own_children() - before) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"processes left behind: {sorted(left)}"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_cluster_local_two_workers_equals_single_process() -> None:
    game = "midibaccarat"
    simulator = _simulator(game)
    rules = find_game(game).rules_type()
    rounds, seed, chunk = 8 * 20_000, 11, 20_000
    here = simulate(
        game,
        simulator,
        rules,
        rounds=rounds,
        seed=seed,
        chunk_rounds=chunk,
        workers=1,
    )
    there = simulate(
        game,
        simulator,
        rules,
        rounds=rounds,
        seed=seed,
        chunk_rounds=chunk,
        cluster="local",
        cluster_workers=2,
    )
    assert there.wagers == here.wagers
    assert there.extra["running"] == here.extra["running"]
    assert there.extra["cluster"] == "local"
    assert there.extra["chunks"] == here.extra["chunks"] == 8
    assert there.extra["spawn_key"] == "(chunk index,)"
    assert 1 <= there.extra["workers"] <= 2
    assert len(there.extra["worker_addresses"]) == there.extra["workers"]
    assert all(
        address.startswith("tcp://127.0.0.1:")
        for address in there.extra["worker_addresses"]
    )


def _unfinished(prefix: str, dask_scheduler: Scheduler) -> int:
    return sum(
        task.state != "memory"
        for key, task in dask_scheduler.tasks.items()
        if str(key).startswith(prefix)
    )


def test_cluster_worker_killed_mid_run_changes_nothing() -> None:
    game = "midibaccarat"
    simulator = _simulator(game)
    rules = find_game(game).rules_type()
    seed = 23
    chunks = plan_chunks(24 * 250_000, 250_000)
    prefix = chunk_key(game, rules, seed, chunks[0]).rsplit("-", 2)[0]
    killed: list[dict[str, object]] = []
    with (
        LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        ) as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        pids: dict[str, int] = client.run(os.getpid)

        def progress(done: int, total: int) -> None:
            if killed:
                return
            busy = [w for w, keys in client.processing().items() if keys]
            victim = busy[0] if busy else sorted(pids)[0]
            unfinished = client.run_on_scheduler(_unfinished, prefix)
            os.kill(pids[victim], signal.SIGKILL)
            killed.append(
                {
                    "victim": victim,
                    "done": done,
                    "total": total,
                    "unfinished": unfinished,
                }
            )

        run = run_on_cluster(
            game,
            simulator,
            rules,
            chunks,
            seed=seed,
            address=cluster.scheduler_address,
            progress=progress,
        )
        workers_after = set(client.scheduler_info()["workers"])
    assert len(killed) == 1
    kill = killed[0]
    # The kill happened while chunks were still to run, and the scheduler
    # noticed that the worker was gone.
    assert kill["done"] == 1
    assert kill["total"] == len(chunks)
    assert isinstance(kill["unfinished"], int)
    assert kill["unfinished"] > 0
    assert kill["victim"] not in workers_after
    assert sorted(run.parts) == [chunk.index for chunk in chunks]
    for chunk in chunks:
        assert run.parts[chunk.index] == simulator.run_chunk(
            rules, chunk.rounds, seed, (chunk.index,)
        ), chunk


def test_cli_simulate_on_local_cluster_matches_one_process() -> None:
    args = ["simulate", "21-baccarat", "--rounds", "160000"]
    args += ["--chunk", "20000", "--seed", "3", "--json"]
    one = runner.invoke(app, [*args, "--workers", "1"])
    assert one.exit_code == 0, one.stderr
    two = runner.invoke(app, [*args, "--cluster", "local", "--workers", "2"])
    assert two.exit_code == 0, two.stderr
    alone, spread = json.loads(one.stdout), json.loads(two.stdout)
    assert spread["wagers"] == alone["wagers"]
    assert spread["cluster"] == "local"
    assert spread["chunks"] == alone["chunks"] == 8
    assert (spread["seed"], spread["chunk_rounds"]) == (3, 20_000)


def test_cli_unreachable_scheduler_is_a_one_line_error() -> None:
    address = f"tcp://127.0.0.1:{_closed_port()}"
    args = ["simulate", "21-baccarat", "--rounds", "1000"]
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = runner.invoke(
            app, [*args, "--cluster", address], prog_name="croupier"
        )
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("croupier simulate: cannot reach the Dask")
    assert address in lines[0]
    assert "Traceback" not in result.stderr


def test_malformed_scheduler_address_is_refused() -> None:
    game = "21-baccarat"
    with pytest.raises(ClusterError, match="missing port"):
        run_on_cluster(
            game,
            _simulator(game),
            find_game(game).rules_type(),
            plan_chunks(1000, 1000),
            seed=1,
            address="scheduler-without-port",
        )
