"""Load benchmark of the table server over loopback.

Measured 2026-11-29 on the project's 2-core machine (server and load
generator share both cores), SQLite in WAL mode, synchronous=NORMAL:

    .venv/bin/python bench/bench_server_load.py --tables T --seconds 20

    T  tables rounds/s req/s  p50 wager/deal/act  p99 wager/deal/act  load
    1     5     326     774   4.7 /  5.6 /  6.1   17.6 /  19.5 /  19.7  0.78
    2    10     312     746  10.8 / 11.8 / 12.2   34.7 /  35.9 /  37.3  1.06
    4    20     349     832  21.9 / 22.4 / 23.2   51.2 /  55.5 /  56.5  1.10
    8    40     326     779  45.7 / 52.1 / 49.7  108.6 / 109.1 / 118.9  1.07

(latencies in ms; load: 1-minute load average when the run started;
the ledger check passed in every run). The target of issue 7 -- at
least 300 rounds/s over all tables with p99 < 25 ms -- holds with one
player per game. Throughput stays above 300 rounds/s with more players,
but the server runs every table on one event loop, so each request
waits its turn: the mean latency is the number of players in flight
over the request rate (Little's law: 20 / 832 = 24 ms), and p99 grows
with it.

Before this work the same command with ``--tables 4`` gave 96 rounds/s,
p99 420-440 ms (the httpx client of that version; the old server with
this client: 128 rounds/s, p99 142-175 ms; ``--tables 1``: 106 rounds/s,
p99 61-66 ms).

With ``--workers 1,2`` the same load runs on PostgreSQL (a throwaway
server from Debian's binaries, or ``--postgres URL``) against 1, then 2
server processes behind one address, and the ratio to the first count is
printed. The ratio measures the machine as much as the server: on an
idle 2-core machine one process does 275-312 rounds/s with ``--tables 1``
and a second adds nothing (0.9x, the cores are full); on a loaded one
each round trip waits for the scheduler and a second process gets a
second share of the CPU (2.4-3.9x on 2026-12-01 at load averages 6-10).
See the README's table.

Starts ``croupier serve`` (uvicorn) on a temporary SQLite file, opens
TABLES tables per game (one player each), and lets simulated players
wager, deal and decide as fast as they can for DURATION seconds. The
players speak keep-alive HTTP/1.1 on asyncio streams (:class:`
Connection`): a general-purpose client such as httpx spends as much CPU
per request as the server and, sharing the two cores, halves what is
measured. Prints rounds/s over all tables, p50/p99 latency per action
(as the player sees it: send to last byte), and the ledger check
(balances + money on the layouts = deposits + the players' settled
nets; every balance = its transactions). It also prints the server
process's CPU time per round, which other jobs on the machine sway far
less than rounds/s: compare trees by it, alternating runs in one session
(``PYTHONPATH=<other tree>/src`` serves another tree).

    .venv/bin/python bench/bench_server_load.py [--seconds 20] [--tables 8]

With ``--spectators N`` (issue 12 point 4) the same server is loaded
in alternating phases of SECONDS each (``--pairs`` times: without
spectators, then with N anonymous WebSocket clients watching the first
table, each reading every message as it comes -- a minimal client on
asyncio streams that reads each frame and counts it, in a process of its
own). It prints the
rounds/s of the *other* tables in each phase, over all phases of each
kind and their ratio, the watched table's own rounds/s, and what the
spectators received (messages, clients dropped as too slow or refused).

    .venv/bin/python bench/bench_server_load.py --tables 1 --seconds 10 \
        --spectators 500
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
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
OP = {"Authorization": "Bearer bench-operator-0123456789abcdef0123"}
RULES: dict[str, dict[str, Any]] = {
    "six-card-fortune-pai-gow": {"double_down_offered": True},
}
"""Each game's table rules: pai gow's Double Down offered (off by
default since D182), declined each round as in the figures above."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    db_url: str, port: int, workers: int = 1, spectators: int = 0
) -> subprocess.Popen[bytes]:
    code = (
        "from croupier.cli.serve import serve; "
        f"serve(db={db_url!r}, host='127.0.0.1', port={port}, "
        f"operator_token='bench-operator-0123456789abcdef0123', "
        "register_rate='off', play_rate='off', "
        f"workers={workers})"
    )
    env = dict(os.environ)
    if spectators:
        # every spectator comes from 127.0.0.1: lift the per-address cap
        env["CROUPIER_WS_PER_ADDRESS"] = str(spectators + 16)
        env["CROUPIER_WS_PER_TABLE"] = str(spectators + 16)
    proc = subprocess.Popen(  # noqa: S603
        [sys.executable, "-c", code], start_new_session=True, env=env
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/tables").is_success:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


class Connection:
    """One keep-alive HTTP/1.1 connection, written and read by hand.

    The load generator runs on the same two cores as the server: a
    general-purpose client (httpx) spends about as much CPU per request
    as the server does, so the simulated players speak plain HTTP/1.1
    on asyncio streams instead (the server answers with Content-Length).
    """

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(
        self, path: str, headers: bytes, body: object = None
    ) -> tuple[int, bytes]:
        """POST ``body`` as JSON; the status and the raw response body."""
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                self.host, self.port
            )
        payload = b"" if body is None else json.dumps(body).encode()
        self.writer.write(
            b"POST %s HTTP/1.1\r\nhost: %s\r\n%scontent-type: "
            b"application/json\r\ncontent-length: %d\r\n\r\n%s"
            % (
                path.encode(),
                self.host.encode(),
                headers,
                len(payload),
                payload,
            )
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = None
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise SystemExit("the server sent no Content-Length")
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()


async def player(
    base: tuple[str, int],
    token: str,
    table: int,
    wager: str,
    until: float,
    latencies: dict[str, list[float]],
    rounds: list[int],
) -> None:
    headers = (
        f"authorization: Bearer {token}\r\nprefer: return=minimal\r\n"
    ).encode()
    conn = Connection(*base)

    async def post(
        kind: str, path: str, body: object = None
    ) -> dict[str, Any]:
        t0 = time.perf_counter()
        status, data = await conn.post(path, headers, body)
        latencies[kind].append(time.perf_counter() - t0)
        return dict(json.loads(data)) if status == 200 else {}

    base_path = f"/tables/{table}"
    try:
        while time.monotonic() < until:
            await post(
                "wager",
                base_path + "/wagers",
                {"seat": 1, "wager": wager, "amount": 100},
            )
            state = await post("deal", base_path + "/deal")
            for _ in range(20):
                pending = state.get("pending")
                if not pending:
                    break
                legal = pending["legal"]
                name = next((a for a in PASSIVE if a in legal), legal[0])
                state = await post(
                    "action",
                    base_path + "/actions",
                    {"seat": 1, "action": name},
                )
            rounds[0] += 1
    finally:
        conn.close()


class Spectator:
    """An anonymous WebSocket client that reads every frame as it comes.

    The handshake and the frame headers are read by hand on asyncio
    streams (the server's frames are not masked); payloads are read and
    counted, not decoded: the load generator shares the server's cores.
    """

    def __init__(self, host: str, port: int, table: int) -> None:
        self.host, self.port, self.table = host, port, table
        self.messages = 0
        self.bytes = 0
        self.closed: int | None = None
        self.first = asyncio.Event()

    async def run(self) -> None:
        """Connect, then read until the server closes or we are cancelled."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        key = base64.b64encode(os.urandom(16))
        writer.write(
            b"GET /ws/tables/%d HTTP/1.1\r\nhost: %s\r\n"
            b"upgrade: websocket\r\nconnection: Upgrade\r\n"
            b"sec-websocket-key: %s\r\nsec-websocket-version: 13\r\n\r\n"
            % (self.table, self.host.encode(), key)
        )
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            self.closed = -1
            self.first.set()
            writer.close()
            return
        try:
            while True:
                b0, b1 = await reader.readexactly(2)
                size = b1 & 0x7F
                if size == 126:
                    size = int.from_bytes(await reader.readexactly(2), "big")
                elif size == 127:
                    size = int.from_bytes(await reader.readexactly(8), "big")
                payload = await reader.readexactly(size)
                opcode = b0 & 0x0F
                if opcode == 8:
                    self.closed = int.from_bytes(payload[:2], "big")
                    break
                if opcode in (1, 2):
                    self.messages += 1
                    self.bytes += size
                    self.first.set()
        except (asyncio.IncompleteReadError, ConnectionError):
            self.closed = self.closed or 1006
        finally:
            self.first.set()
            writer.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def load(
    address: tuple[str, int],
    seats: list[tuple[str, int, str]],
    seconds: float,
) -> tuple[list[int], dict[str, list[float]], float]:
    """Let every seat play for ``seconds``: rounds per seat, latencies."""
    latencies: dict[str, list[float]] = defaultdict(list)
    counts = [[0] for _ in seats]
    start = time.monotonic()
    until = start + seconds
    await asyncio.gather(
        *(
            player(address, tok, table, wager, until, latencies, count)
            for (tok, table, wager), count in zip(seats, counts, strict=True)
        )
    )
    return [c[0] for c in counts], latencies, time.monotonic() - start


async def spectate(host: str, port: int, table: int, count: int) -> None:
    """The spectators' process: connect, say ``ready``, read until told.

    Prints ``ready`` once every spectator has its first message, then
    reads until a line arrives on stdin, and prints what was received
    meanwhile as JSON.
    """
    crowd = [Spectator(host, port, table) for _ in range(count)]
    tasks = [asyncio.create_task(s.run()) for s in crowd]
    await asyncio.wait_for(
        asyncio.gather(*(s.first.wait() for s in crowd)), 120
    )
    before = [(s.messages, s.bytes) for s in crowd]
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    got = [
        (s.messages - m, s.bytes - b)
        for s, (m, b) in zip(crowd, before, strict=True)
    ]
    closed = [s.closed for s in crowd]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(
        json.dumps(
            {
                "messages": [m for m, _b in got],
                "bytes": sum(b for _m, b in got),
                "dropped": sum(c == 4408 for c in closed),
                "refused": sum(c in (-1, 4429) for c in closed),
            }
        ),
        flush=True,
    )


class Crowd:
    """N spectators in a process of their own (their own event loop).

    The load generator's players and the spectators' reading would
    otherwise share one event loop, and the players would slow down for
    the bench's own sake, not the server's.
    """

    def __init__(self, address: tuple[str, int], table: int, count: int):
        where = f"{address[0]}:{address[1]}:{table}:{count}"
        self.proc = subprocess.Popen(  # noqa: S603
            [sys.executable, __file__, "--spectate", where],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ready(self) -> None:
        """Wait until every spectator has received the table."""
        stdout = self.proc.stdout
        line = "" if stdout is None else stdout.readline().strip()
        if line != "ready":
            raise SystemExit(f"the spectators did not connect: {line!r}")

    def stop(self) -> dict[str, Any]:
        """Stop reading; what was received since :meth:`ready`."""
        stdin, stdout = self.proc.stdin, self.proc.stdout
        if stdin is None or stdout is None:
            raise SystemExit("the spectators' process has no pipes")
        stdin.write("\n")
        stdin.flush()
        out = dict(json.loads(stdout.readline()))
        self.proc.wait(timeout=60)
        return out


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU time of process ``pid`` so far (Linux), or 0."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1]
    except OSError:
        return 0.0
    utime, stime = fields.split()[11:13]
    return (int(utime) + int(stime)) / os.sysconf("SC_CLK_TCK")


async def watched(
    address: tuple[str, int],
    seats: list[tuple[str, int, str]],
    seconds: float,
    spectators: int,
    pairs: int = 2,
    server_pid: int | None = None,
) -> None:
    """Other tables' rounds/s without, then with, spectators on one.

    The two phases alternate ``pairs`` times (``seconds`` each) so that
    a change of the machine's load during the run weighs on both.
    """
    table = seats[0][1]
    loop = asyncio.get_running_loop()
    totals = {False: [0, 0, 0.0], True: [0, 0, 0.0]}
    for _pair in range(pairs):
        for watching in (False, True):
            crowd = Crowd(address, table, spectators) if watching else None
            if crowd is not None:
                await loop.run_in_executor(None, crowd.ready)
            cpu = cpu_seconds(server_pid)
            crowd_cpu = 0.0 if crowd is None else cpu_seconds(crowd.proc.pid)
            counts, _lat, took = await load(address, seats, seconds)
            cpu = cpu_seconds(server_pid) - cpu
            total = totals[watching]
            total[0] += counts[0]
            total[1] += sum(counts[1:])
            total[2] += took
            print(
                f"  {'with' if watching else 'without'} spectators: other "
                f"tables {sum(counts[1:]) / took:7.1f} rounds/s, watched "
                f"table {counts[0] / took:6.1f}; server CPU "
                f"{cpu / took:4.2f} s/s, {1000 * cpu / sum(counts):5.2f} "
                f"ms per round"
            )
            if crowd is not None:
                reading = cpu_seconds(crowd.proc.pid) - crowd_cpu
                got = await loop.run_in_executor(None, crowd.stop)
                messages = got["messages"]
                print(
                    f"    spectators received {min(messages)}-"
                    f"{max(messages)} messages each "
                    f"({got['bytes'] / 1e6:.0f} MB in all); dropped as too "
                    f"slow: {got['dropped']}; refused: {got['refused']}; "
                    f"their process's CPU {reading / took:4.2f} s/s"
                )
    plain = totals[False][1] / totals[False][2]
    crowded = totals[True][1] / totals[True][2]
    print(
        f"\n{spectators} spectators on table {table}, {len(seats) - 1} "
        f"other tables, {pairs} x {seconds:.0f} s per phase:"
    )
    print(f"  other tables without spectators: {plain:7.1f} rounds/s")
    print(f"  other tables with spectators:    {crowded:7.1f} rounds/s")
    print(f"  ratio with/without: {crowded / plain:.2f}")


async def run(
    base: str,
    seconds: float,
    per_game: int,
    spectators: int = 0,
    pairs: int = 2,
    server_pid: int | None = None,
) -> dict[str, float]:
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
                            "rules": RULES.get(game["name"], {}),
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
        url = httpx.URL(base)
        address = (str(url.host), int(url.port or 80))
        if spectators:
            await watched(
                address, seats, seconds, spectators, pairs, server_pid
            )
            after = (await client.get("/ledger", headers=OP)).json()
            _check_ledger(before, after)
            return {}
        cpu_start = cpu_seconds(server_pid)
        counts, latencies, elapsed = await load(address, seats, seconds)
        cpu = cpu_seconds(server_pid) - cpu_start
        rounds = [sum(counts)]
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
    if cpu and rounds[0]:
        # the server's own CPU time: less swayed by other load on the
        # machine than rounds/s (with several workers, the master's)
        print(
            f"server CPU: {cpu:.2f} s, {cpu / rounds[0] * 1000:.3f} ms "
            "per round"
        )
    _check_ledger(before, after)
    every = [v for values in latencies.values() for v in values]
    return {"rounds_s": rounds[0] / elapsed, "p99_ms": pct(every, 0.99)}


def _check_ledger(before: dict[str, Any], after: dict[str, Any]) -> None:
    constant = after["balances"] + after["on_layout"] - after["players_net"]
    print(
        f"ledger: ok={after['ok']}  balances+layout-nets={constant} "
        f"deposits={after['deposits']} (before: {before['deposits']})"
    )
    if not after["ok"] or constant != after["deposits"]:
        raise SystemExit("ledger check FAILED")


def measure(
    db_url: str,
    workers: int,
    seconds: float,
    per_game: int,
    spectators: int = 0,
    pairs: int = 2,
) -> dict[str, float]:
    """Start a server on ``db_url`` with ``workers`` processes; load it."""
    port = free_port()
    proc = start_server(db_url, port, workers, spectators)
    try:
        return asyncio.run(
            run(
                f"http://127.0.0.1:{port}",
                seconds,
                per_game,
                spectators,
                pairs,
                proc.pid,
            )
        )
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=20)


def compare_workers(
    counts: list[int], seconds: float, per_game: int, server: str | None
) -> None:
    """PostgreSQL, 1 and more server processes, ratios to the first."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.server.postgres import TempPostgres, new_database

    pg = None
    if server is None:
        pg = TempPostgres()
        pg.start()
        server = pg.url
    try:
        results = []
        for workers in counts:
            print(f"== PostgreSQL, {workers} server process(es)")
            got = measure(new_database(server), workers, seconds, per_game)
            results.append((workers, got))
    finally:
        if pg is not None:
            pg.stop()
    base = results[0][1]["rounds_s"]
    print("\nprocesses  rounds/s  p99 ms  ratio")
    for workers, got in results:
        print(
            f"{workers:9d}  {got['rounds_s']:8.1f}  {got['p99_ms']:6.1f}  "
            f"{got['rounds_s'] / base:5.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument(
        "--tables", type=int, default=8, help="tables per game"
    )
    parser.add_argument(
        "--workers",
        help="compare server processes on PostgreSQL, e.g. 1,2 (a "
        "throwaway server from Debian's binaries unless --postgres)",
    )
    parser.add_argument(
        "--postgres", help="URL of a PostgreSQL server that may create DBs"
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="anonymous WebSocket clients on the first table: other "
        "tables' rounds/s without and with them, and the ratio",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=2,
        help="with --spectators: how many times the phases alternate",
    )
    parser.add_argument("--spectate", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spectate:  # the spectators' own process (see Crowd)
        host, port, table, count = args.spectate.split(":")
        asyncio.run(spectate(host, int(port), int(table), int(count)))
        return
    if args.workers:
        counts = [int(n) for n in args.workers.split(",")]
        compare_workers(counts, args.seconds, args.tables, args.postgres)
        return
    with tempfile.TemporaryDirectory() as tmp:
        measure(
            f"sqlite:///{Path(tmp) / 'bench.db'}",
            1,
            args.seconds,
            args.tables,
            args.spectators,
            args.pairs,
        )


if __name__ == "__main__":
    main()
