"""Soak benchmark: one abusive client against a real ``rummy serve`` with its default limits, while
honest tables play.

Run: ``python bench/soak.py [--tables 50] [--seconds 180] [--every 15]``.  Starts ``rummy serve`` on a
temporary SQLite file with the default limits (bots answer at once unless ``--bot-delay``, a 5 s
reconnect grace, no pause between rounds).  Honest tables (four scripted people each, think time
uniform in [0, 2 s], playing progressive-buy-it over and over) each come from a loopback address of
their own, 127.0.1.k, like families at home.  The abuser comes from 127.0.0.2 and does, at once and as fast as it can:

* tables: each from a new session, may-i with the host and seven easy bots, started and left (a bot
  takes the host's seat after the grace) — the all-bot games that once filled the disk;
* sockets: opens connections until refused and floods each with bad frames (bad JSON, duplicate keys,
  5,000-digit ids, lone surrogates, 16 kB of junk), reading the errors back;
* HTTP: bad bodies (wrong content type, duplicate keys, huge numbers) and reads of its tables.

The abuser runs in a process of its own (niced: an attacker elsewhere does not use this machine's
CPU), after ``--calm`` seconds of honest play alone.  Every ``--every`` seconds the benchmark prints
the honest actions' latency (send to resulting state) in that interval, the server's CPU and resident
memory (with its bot workers), the share of time some task on the machine waited for a CPU (Linux
PSI: other work on the machine shows there), the database and WAL sizes, and the abuser's counts.
Asserts nothing: the figures should stay bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import (  # noqa: E402
    Figures,
    cpu_pressure,
    cpu_seconds,
    open_table,
    percentile_ms,
    running_server,
    session,
    table_arguments,
    wait_for_server,
)

ABUSER = "127.0.0.2"
BAD_FRAMES = ['{"v": 1, "id": ' + "9" * 5000 + ', "type": "ping"}', '{"v": 1, "id": "\\ud800", "type": "ping"}',
              '{"v": true, "id": 1, "type": "start"}', '{"v": 1, "id": 2, "type": "start", "type": "ping"}',
              "not json", "x" * 16_000, '{"v": 1, "id": 3, "type": "action", "seq": 0, "action": "p0 draw"}']
BAD_BODIES = [('{"variant": "basic", "seats": ' + "9" * 5000 + "}", "application/json"),
              ('{"variant":"=","variant":"basic"}', "application/json"),
              ('{"variant":"=","variant":"basic"}', "text/plain"), ("[" * 5000, "application/json")]


class Abuse:
    """What the abusive client did and what the server answered, in memory shared with the benchmark."""

    FIELDS = ("tables", "refused_tables", "started", "sockets", "refused_sockets", "frames", "requests",
              "server_errors")  # server_errors: 5xx answers and dropped requests, there should be none

    def __init__(self, counts: Any) -> None:
        self.counts = counts

    def add(self, field: str, number: int = 1) -> None:
        self.counts[self.FIELDS.index(field)] += number

    def __getitem__(self, field: str) -> int:
        count: int = self.counts[self.FIELDS.index(field)]
        return count


def abuser_client(base: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=ABUSER, limits=httpx.Limits(max_connections=8))
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=60)


async def make_bot_tables(base: str, abuse: Abuse, table_ids: list[str]) -> None:
    """Create 8-seat all-bot tables from fresh sessions, start each and leave; back off on 429."""
    async with abuser_client(base) as http:
        while True:
            cookie = await session(http, "Mallory")
            response = await http.post("/api/tables", json={"variant": "may-i", "seats": 8, "claim_seconds": 0,
                                                            "bots": {str(s): "easy" for s in range(1, 8)}},
                                       headers={"Cookie": f"rummy_session={cookie}"})
            http.cookies.clear()
            if response.status_code == 429:
                abuse.add("refused_tables")
                await asyncio.sleep(0.2)
                continue
            if response.status_code >= 500:
                abuse.add("server_errors")
            if response.status_code != 201:
                continue
            abuse.add("tables")
            table_id = response.json()["table_id"]
            table_ids.append(table_id)
            with contextlib.suppress(websockets.WebSocketException, OSError):
                async with websockets.connect(f"{base.replace('http', 'ws')}/ws/tables/{table_id}",
                                              additional_headers={"Cookie": f"rummy_session={cookie}"},
                                              local_addr=(ABUSER, 0), max_size=2**22) as ws:
                    await ws.send(json.dumps({"v": 1, "id": 1, "type": "start"}))
                    async for text in ws:
                        if json.loads(text).get("id") == 1:
                            abuse.add("started")
                            break


async def flood_socket(base: str, table_id: str, abuse: Abuse) -> None:
    """One connection sending bad frames as fast as it can, reading every answer."""
    try:
        async with websockets.connect(f"{base.replace('http', 'ws')}/ws/tables/{table_id}", local_addr=(ABUSER, 0),
                                      max_size=2**22) as ws:
            first = json.loads(await ws.recv())
            if first.get("code") == "too-many-connections":
                abuse.add("refused_sockets")
                return
            abuse.add("sockets")

            async def drain() -> None:
                async for _ in ws:
                    pass

            reader = asyncio.create_task(drain())
            try:
                while not reader.done():
                    await ws.send(random.choice(BAD_FRAMES))
                    abuse.add("frames")
                    await asyncio.sleep(0)
            finally:
                reader.cancel()
    except (websockets.WebSocketException, OSError):
        pass


async def flood_sockets(base: str, abuse: Abuse, table_ids: list[str]) -> None:
    while not table_ids:
        await asyncio.sleep(0.1)
    floods: set[asyncio.Task[None]] = set()
    while True:
        while len(floods) < 80:  # more than an address may hold
            task = asyncio.create_task(flood_socket(base, random.choice(table_ids), abuse))
            floods.add(task)
            task.add_done_callback(floods.discard)
        await asyncio.sleep(1)


async def flood_http(base: str, abuse: Abuse, table_ids: list[str]) -> None:
    async with abuser_client(base) as http:
        cookie = await session(http, "Mallory")
        while True:
            body, content_type = random.choice(BAD_BODIES)
            responses = [await http.post("/api/tables", content=body, headers={
                "Content-Type": content_type, "Cookie": f"rummy_session={cookie}"})]
            if table_ids:
                responses.append(await http.get(f"/api/tables/{random.choice(table_ids)}"))
                responses.append(await http.get(f"/api/tables/{random.choice(table_ids)}/record"))
            http.cookies.clear()
            abuse.add("requests", len(responses))
            abuse.add("server_errors", sum(r.status_code >= 500 for r in responses))


async def keep_going(attack: Any, abuse: Abuse, *args: Any) -> None:
    """Run ``attack`` again whenever the server drops it (counted as a server error)."""
    while True:
        try:
            await attack(*args)
        except (httpx.HTTPError, websockets.WebSocketException, OSError):
            abuse.add("server_errors")
            await asyncio.sleep(0.1)


async def abuse_all(base: str, abuse: Abuse) -> None:
    table_ids: list[str] = []
    await asyncio.gather(*(keep_going(attack, abuse, base, abuse, table_ids)
                           for attack in (make_bot_tables, flood_sockets, flood_http)))


def run_abuser(base: str, counts: Any) -> None:
    """The abuser's process (until it is terminated)."""
    os.nice(10)
    asyncio.run(abuse_all(base, Abuse(counts)))


def family(pid: int) -> list[int]:
    """``pid`` and every process below it (Linux /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    found, frontier = [pid], [pid]
    while frontier:
        frontier = [child for child, parent in parents.items() if parent in frontier]
        found += frontier
    return found


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def size_mb(path: Path) -> float:
    return path.stat().st_size / 2**20 if path.exists() else 0.0


async def soak(args: argparse.Namespace, base: str, server: Any, db: Path) -> None:
    await wait_for_server(base, server)
    figures, rng = Figures(), random.Random(args.seed)
    tables = []
    for index in range(args.tables):
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.1.{index + 1}")
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as http:
            tables.append(await open_table(http, base, args, figures, rng, local_address=f"127.0.1.{index + 1}"))
    readers = [asyncio.create_task(p.run()) for players in tables for p in players]
    for players in tables:
        await players[0].send("start")
    await asyncio.gather(*(players[0].started.wait() for players in tables))
    figures.measuring = True
    context = multiprocessing.get_context("spawn")
    abuse = Abuse(context.Array("q", len(Abuse.FIELDS), lock=False))
    abuser = context.Process(target=run_abuser, args=(base, abuse.counts), daemon=True)
    print(f"{args.tables} honest tables × {args.seats} people ({args.variant}, think {args.think:g} s) from "
          f"{args.tables} addresses; after {args.calm:g} s one abuser from {ABUSER}; server with its default limits")
    print(f"{'t s':>5} {'honest':>7} {'p50 ms':>7} {'p99 ms':>7} {'server CPU':>10} {'CPU wait':>8} {'RSS MB':>7} "
          f"{'db MB':>6} {'WAL MB':>7} {'abuser: tables':>15} {'refused':>8} {'sockets':>8} {'refused':>8} "
          f"{'frames':>8} {'HTTP':>7} {'5xx':>4}")
    started, seen = time.perf_counter(), 0
    cpu_before, pressure_before, rss, wal, all_latencies = cpu_seconds(server.pid), cpu_pressure(), [], [], []
    while time.perf_counter() - started < args.calm + args.seconds:
        if abuser.pid is None and time.perf_counter() - started >= args.calm:
            abuser.start()
        await asyncio.sleep(args.every)
        now_latencies = sorted(figures.latencies[seen:])
        seen = len(figures.latencies)
        if abuser.pid is not None:
            all_latencies += now_latencies
        cpu_now, pressure_now = cpu_seconds(server.pid), cpu_pressure()
        waiting = (f"{(pressure_now - pressure_before) / 1e4 / args.every:7.0f}%"
                   if pressure_now is not None and pressure_before is not None else "       -")
        rss.append(rss_mb(family(server.pid)))
        wal.append(size_mb(Path(f"{db}-wal")))
        p50 = percentile_ms(now_latencies, 50) if now_latencies else float("nan")
        p99 = percentile_ms(now_latencies, 99) if now_latencies else float("nan")
        print(f"{time.perf_counter() - started:5.0f} {len(now_latencies):7d} {p50:7.1f} {p99:7.1f} "
              f"{(cpu_now - cpu_before) / args.every:10.2f} {waiting} {rss[-1]:7.1f} {size_mb(db):6.1f} {wal[-1]:7.2f} "
              + " ".join(f"{abuse[name]:{width}d}" for name, width in zip(
                  ("tables", "refused_tables", "sockets", "refused_sockets", "frames", "requests", "server_errors"),
                  (15, 8, 8, 8, 8, 7, 4), strict=True)), flush=True)
        cpu_before, pressure_before = cpu_now, pressure_now
    abuser.terminate()
    abuser.join()
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    all_latencies.sort()
    if all_latencies:
        print(f"under abuse, honest actions: {len(all_latencies)} (in all {figures.refused} refused, "
              f"{figures.games} games finished); latency p50 {percentile_ms(all_latencies, 50):.1f} ms, "
              f"p99 {percentile_ms(all_latencies, 99):.1f} ms, max {all_latencies[-1] * 1000:.0f} ms")
    print(f"server: RSS max {max(rss):.1f} MB, WAL max {max(wal):.2f} MB, database {size_mb(db):.1f} MB at the end")


def main() -> None:
    parser = table_arguments(__doc__.splitlines()[0], tables=50)
    parser.add_argument("--calm", type=float, default=30, help="seconds of honest play before the abuse")
    parser.add_argument("--seconds", type=float, default=180, help="how long the abuse lasts")
    parser.add_argument("--every", type=float, default=15, help="seconds between printed lines")
    parser.add_argument("--bot-delay", default="0", help="the server's bot delay (0, the default here: bots as "
                        "fast as they can, the worst case; the server's own default is 0.8)")
    args = parser.parse_args()
    flags = ("--bot-delay", args.bot_delay, "--round-pause", "0", "--reconnect-grace", "5", "--log-level", "warning")
    with running_server(flags) as (base, server, db):
        asyncio.run(soak(args, base, server, db))


if __name__ == "__main__":
    main()
