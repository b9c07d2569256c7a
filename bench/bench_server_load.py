"""Load benchmark of the table server over loopback.

Starts ``croupier serve`` (uvicorn) on a temporary SQLite file, opens
TABLES tables per game (one player each), and lets simulated players
wager, deal and decide as fast as they can for DURATION seconds with an
httpx AsyncClient. Prints rounds/s over all tables, p50/p99 latency per
action, and the ledger check (balances + money on the layouts = deposits
+ the players' settled nets; every balance = its transactions).

    .venv/bin/python bench/bench_server_load.py [--seconds 20] [--tables 12]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

PASSIVE = (
    "stand",
    "no_insurance",
    "no_second_chance",
    "no_double_down",
    "house_way",
)
OP = {"Authorization": "Bearer bench-operator"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db_url: str, port: int) -> subprocess.Popen[bytes]:
    code = (
        "from croupier.cli.serve import serve; "
        f"serve(db={db_url!r}, host='127.0.0.1', port={port}, "
        "operator_token='bench-operator')"
    )
    proc = subprocess.Popen([sys.executable, "-c", code])  # noqa: S603
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/tables").is_success:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


async def player(
    client: httpx.AsyncClient,
    token: str,
    table: int,
    wager: str,
    until: float,
    latencies: dict[str, list[float]],
    rounds: list[int],
) -> None:
    headers = {"Authorization": f"Bearer {token}", "Prefer": "return=minimal"}

    async def post(
        kind: str, path: str, body: object = None
    ) -> dict[str, Any]:
        t0 = time.perf_counter()
        r = await client.post(path, json=body, headers=headers)
        latencies[kind].append(time.perf_counter() - t0)
        return dict(r.json()) if r.status_code == 200 else {}

    base = f"/tables/{table}"
    while time.monotonic() < until:
        await post(
            "wager",
            base + "/wagers",
            {"seat": 1, "wager": wager, "amount": 100},
        )
        state = await post("deal", base + "/deal")
        for _ in range(20):
            pending = state.get("pending")
            if not pending:
                break
            legal = pending["legal"]
            name = next((a for a in PASSIVE if a in legal), legal[0])
            state = await post(
                "action", base + "/actions", {"seat": 1, "action": name}
            )
        rounds[0] += 1


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run(base: str, seconds: float, per_game: int) -> None:
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(
        base_url=base, limits=limits, timeout=30
    ) as client:
        games = (await client.get("/games")).json()
        seats = []
        for game in games:
            for i in range(per_game):
                t = (
                    await client.post(
                        "/tables",
                        headers=OP,
                        json={
                            "game": game["name"],
                            "name": f"bench {i}",
                            "min_bet": 100,
                            "max_bet": 10_000,
                        },
                    )
                ).json()
                p = (
                    await client.post(
                        "/players",
                        headers=OP,
                        json={"name": f"bot{t['id']}", "balance": 10_000_000},
                    )
                ).json()
                await client.post(
                    f"/tables/{t['id']}/seats",
                    json={"seat": 1},
                    headers={"Authorization": f"Bearer {p['token']}"},
                )
                seats.append((p["token"], t["id"], game["wagers"][0]))
        before = (await client.get("/ledger", headers=OP)).json()
        latencies: dict[str, list[float]] = defaultdict(list)
        rounds = [0]
        start = time.monotonic()
        until = start + seconds
        await asyncio.gather(
            *(
                player(client, tok, table, wager, until, latencies, rounds)
                for tok, table, wager in seats
            )
        )
        elapsed = time.monotonic() - start
        after = (await client.get("/ledger", headers=OP)).json()
    total = sum(len(v) for v in latencies.values())
    print(
        f"tables: {len(seats)} ({per_game} per game, 1 player each), "
        f"{elapsed:.1f} s"
    )
    print(
        f"rounds: {rounds[0]}  ->  {rounds[0] / elapsed:.1f} rounds/s; "
        f"{total / elapsed:.0f} requests/s"
    )
    for kind, values in sorted(latencies.items()):
        print(
            f"  {kind:7s} n={len(values):6d}  p50={pct(values, 0.5):6.2f} ms"
            f"  p99={pct(values, 0.99):6.2f} ms  "
            f"mean={statistics.mean(values) * 1000:6.2f} ms"
        )
    constant = after["balances"] + after["on_layout"] - after["players_net"]
    print(
        f"ledger: ok={after['ok']}  balances+layout-nets={constant} "
        f"deposits={after['deposits']} (before: {before['deposits']})"
    )
    if not after["ok"] or constant != after["deposits"]:
        raise SystemExit("ledger check FAILED")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument(
        "--tables", type=int, default=8, help="tables per game"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(f"sqlite:///{Path(tmp) / 'bench.db'}", port)
        try:
            asyncio.run(
                run(f"http://127.0.0.1:{port}", args.seconds, args.tables)
            )
        finally:
            os.kill(proc.pid, signal.SIGINT)
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
