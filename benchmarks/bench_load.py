"""Load benchmark of ``shengji serve``: many rooms playing at once over loopback websockets.

Starts a real server process (a temporary database, deal pace 0), opens ``--rooms`` Tractor
rooms of 4 scripted players and plays ``--rounds`` rounds in each, all rooms at once. Each
player is a computer player acting through the protocol: on its turn it waits a think time
(uniform in ``--think`` ± 50 %), asks the server for a ``suggest``ion and sends it as its
``action``. The players run in ``--workers`` client processes. Reports the latency from sending
an action to the moment the last of the room's four players has read the ``state`` showing it
(p50, p99, max; overall and once every room is open), errors, actions per second, the server's
memory (resident set) per room, and the CPU time of the server and of the clients.

    python3 benchmarks/bench_load.py --rooms 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    """The resident set of a process, KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Stats:
    """What the players measured."""

    latencies: list[tuple[float, float]] = field(default_factory=list)
    """(when the action was sent, seconds until the room's last player had it)"""
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    rounds: int = 0
    started: float = 0.0
    """Rounds finished (counted by each room's seat 0)."""


@dataclass
class Pending:
    """An action on its way: when it was sent, the (round, history length) of the state that
    shows it, and which players have seen it."""

    sent: float
    mark: tuple[int, int]
    seen: set[int] = field(default_factory=set)


class RoomRun:
    """One room's four players and the action in flight."""

    def __init__(self, code: str, stats: Stats, rounds: int) -> None:
        self.code = code
        self.stats = stats
        self.rounds = rounds
        self.pending: Pending | None = None
        self.ready = asyncio.Event()
        self.host_in = asyncio.Event()
        self.seated = 0


async def player(url: str, run: RoomRun, seat: int, think: float, rng: random.Random) -> None:
    """One scripted player: sit, play ``run.rounds`` rounds, leave."""
    stats = run.stats
    if seat:
        await run.host_in.wait()  # seat 0 joins first and hosts
    async with connect(url, max_size=2**22, open_timeout=60) as ws:
        await send(ws, "hello", name=f"player{seat}")
        await send(ws, "sit", seat=seat)
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "room" and message["you"]["seat"] == seat:
                break
            if message["type"] == "error":
                stats.errors.append(message["message"])
        run.host_in.set()
        run.seated += 1
        if run.seated == 4:
            run.ready.set()
        if seat == 0:
            await run.ready.wait()
            await send(ws, "start")
        done = 0
        acted: tuple[int, int] | None = None  # the mark at which this player last acted
        mark = (0, 0)
        while done < run.rounds:
            message = json.loads(await ws.recv())
            kind = message["type"]
            if kind == "error":
                stats.errors.append(f"seat {seat}: {message['code']}: {message['message']}")
                acted = None
                continue
            if kind == "suggestion":
                run.pending = Pending(time.perf_counter(), (mark[0], mark[1] + 1))
                await send(ws, "action", action=message["action"])
                continue
            if kind != "state":
                continue
            view, legal, info = message["view"], message["legal"], message["match"]
            mark = (info["round"], len(view["history"]))
            if acted is not None and mark > acted:
                acted = None
            pending = run.pending
            if pending is not None and mark >= pending.mark:
                pending.seen.add(seat)
                if len(pending.seen) == 4:
                    stats.latencies.append((pending.sent, time.perf_counter() - pending.sent))
                    run.pending = None
            if seat in info["waiting"]:
                done += 1
                stats.rounds += seat == 0
                if done < run.rounds:
                    await send(ws, "next_round")
                continue
            if legal is not None and legal["kind"] != "deal" and acted is None:
                acted = mark
                await asyncio.sleep(rng.uniform(think / 2, think * 1.5))
                stats.actions += 1
                await send(ws, "suggest")


async def send(ws: ClientConnection, kind: str, **fields: Any) -> None:
    """Send one protocol message."""
    await ws.send(json.dumps({"type": kind, **fields}))


async def run_load(base: str, rooms: int, rounds: int, think: float, ramp: float,
                   stats: Stats) -> None:
    """Open the rooms (``ramp`` rooms per second) and play them all at once."""
    rng = random.Random(1)
    tasks = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for _ in range(rooms):
            answer = await http.post("/api/rooms", json={"preset": "tractor", "table": 4})
            answer.raise_for_status()
            run = RoomRun(answer.json()["room"], stats, rounds)
            url = base.replace("http", "ws") + f"/ws/{run.code}"
            for seat in range(4):
                tasks.append(asyncio.create_task(
                    player(url, run, seat, think, random.Random(rng.random()))))
            await asyncio.sleep(1 / ramp)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.errors += [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def worker(base: str, rooms: int, rounds: int, think: float, ramp: float, limit: float,
           progress: bool) -> dict[str, Any]:
    """One client process: its share of the rooms, played to the end (or ``limit`` seconds)."""
    stats = Stats()

    async def watch() -> None:
        start = time.perf_counter()
        while progress:
            await asyncio.sleep(10)
            print(f"[{os.getpid()}] {time.perf_counter() - start:.0f} s: {stats.actions} "
                  f"actions, {stats.rounds} rounds, {len(stats.errors)} errors",
                  file=sys.stderr, flush=True)

    async def everything() -> None:
        stats.started = time.perf_counter()
        watcher = asyncio.create_task(watch())
        try:
            await asyncio.wait_for(run_load(base, rooms, rounds, think, ramp, stats), limit)
        except TimeoutError:
            stats.errors.append(f"stopped after {limit:g} s: {stats.rounds} rounds finished")
        watcher.cancel()

    asyncio.run(everything())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {"latencies": [(t - stats.started, x) for t, x in stats.latencies],
            "errors": stats.errors, "actions": stats.actions, "rounds": stats.rounds,
            "cpu": usage.ru_utime + usage.ru_stime}


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=200, help="rooms of 4 (default 200)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds per room (default 1)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a player waits before acting (default 1.0)")
    parser.add_argument("--ramp", type=float, default=25.0,
                        help="rooms opened per second (default 25)")
    parser.add_argument("--workers", type=int, default=2,
                        help="client processes sharing the rooms (default 2)")
    parser.add_argument("--limit", type=float, default=500.0,
                        help="stop after this many seconds (default 500)")
    parser.add_argument("--progress", action="store_true", help="print progress to stderr")
    parser.add_argument("--json", help="write the figures as JSON to this file")
    parser.add_argument("--raw", help="write every (seconds since start, latency) to this file")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "load.sqlite3"
        server = subprocess.Popen(
            [sys.executable, "-m", "shengji", "serve", "--port", str(port), "--db", str(db),
             "--deal-pace", "0", "--bot-delay", "0", "--max-rooms", str(args.rooms + 10),
             "--rate", "1000", "--burst", "1000",
             "--rooms-per-minute", str(args.rooms + 10),  # every room from one address
             "--max-address-pending", "0"],  # every player from one address too
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(base + "/api/presets", timeout=1)
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            before = peak = rss_kib(server.pid)
            cpu_before = cpu_seconds(server.pid)
            shares = [args.rooms // args.workers + (k < args.rooms % args.workers)
                      for k in range(args.workers)]
            start = time.perf_counter()
            with ProcessPoolExecutor(args.workers) as pool:
                jobs = [pool.submit(worker, base, n, args.rounds, args.think,
                                    args.ramp / args.workers, args.limit, args.progress)
                        for n in shares if n]
                while not all(job.done() for job in jobs):
                    peak = max(peak, rss_kib(server.pid))
                    time.sleep(0.5)
                results = [job.result() for job in jobs]
            elapsed = time.perf_counter() - start
            cpu = cpu_seconds(server.pid) - cpu_before
        finally:
            server.terminate()
            _, err = server.communicate(timeout=30)
    lat = [x * 1000 for r in results for _, x in r["latencies"]]
    opened = args.rooms / args.ramp  # seconds until the last room is open
    steady = [x * 1000 for r in results for t, x in r["latencies"] if t > opened + 10]
    errors = [e for r in results for e in r["errors"]]
    actions = sum(r["actions"] for r in results)
    figures = {
        "rooms": args.rooms, "players": 4 * args.rooms,
        "rounds_finished": sum(r["rounds"] for r in results),
        "actions": actions, "seconds": round(elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "latency_ms": {"p50": round(percentile(lat, 50), 1),
                       "p99": round(percentile(lat, 99), 1),
                       "max": round(max(lat), 1),
                       "mean": round(statistics.fmean(lat), 1)} if lat else None,
        "latency_after_start_ms": {
            "after_seconds": round(opened + 10), "actions": len(steady),
            "p50": round(percentile(steady, 50), 1), "p99": round(percentile(steady, 99), 1),
            "max": round(max(steady), 1)} if steady else None,
        "errors": len(errors),
        "server_rss_mib": {"before": round(before / 1024, 1), "peak": round(peak / 1024, 1)},
        "memory_per_room_kib": round((peak - before) / max(1, args.rooms)),
        "server_cpu_seconds": round(cpu, 1),
        "client_cpu_seconds": round(sum(r["cpu"] for r in results), 1),
        "think_seconds": args.think, "client_processes": args.workers,
    }
    print(json.dumps(figures, indent=2))
    for line in errors[:10]:
        print("error:", line, file=sys.stderr)
    if err.strip():
        print(err.strip()[-2000:], file=sys.stderr)
    if args.raw:
        pairs = sorted(p for r in results for p in r["latencies"])
        Path(args.raw).write_text("".join(f"{t:.3f} {x * 1000:.1f}\n" for t, x in pairs),
                                  encoding="utf-8")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
