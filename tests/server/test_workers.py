"""Issue 12 point 9: ``--workers`` leaves no orphan when its master dies.

``croupier serve --workers 2`` on PostgreSQL; the uvicorn master alone
is killed with SIGKILL (not its process group). Its workers must stop
too, instead of serving on as orphans nobody supervises.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import httpx
import pytest
from tests.server.procs import Server

pytestmark = pytest.mark.slow


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie nobody reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def _answers(base: str) -> bool:
    try:
        httpx.get(base + "/health", timeout=1)
    except httpx.HTTPError:
        return False
    return True


def test_issue12_point9_workers_exit_when_the_master_is_killed(
    pg_url: str,
) -> None:
    server = Server(pg_url, workers=2)
    server.start()
    assert server.proc is not None
    master = server.proc.pid
    try:
        workers: set[int] = set()
        for _ in range(100):
            workers.add(httpx.get(server.base + "/health").json()["process"])
            if len(workers) == 2:
                break
        assert len(workers) == 2, workers
        assert master not in workers
        os.kill(master, signal.SIGKILL)  # the master alone
        server.proc.wait()
        for _ in range(300):  # each worker stops by itself
            if not any(_alive(pid) for pid in workers):
                break
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers), workers
        assert not _answers(server.base)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(master, signal.SIGKILL)
