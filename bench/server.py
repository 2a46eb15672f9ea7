"""Server benchmark: N tables of scripted players over real WebSockets against a real ``rummy serve``.

Run: ``python bench/server.py [--tables 200] [--seats 4] [--think 1.0] [--seconds 60]``.  Starts
``rummy migrate`` and ``rummy serve`` on a temporary SQLite file, seats one scripted client per seat
(every seat a person, so every action crosses the network), and lets each client answer its own
decisions after a think time drawn uniformly from [0, 2·think] seconds (``--think 0``: at once,
which saturates the server).  Latency is measured from sending a command to receiving the state it
produced.  Prints actions per second, latency percentiles and the CPU the server used; asserts
nothing.  Target on a 2-core machine: 200 four-seat tables with p99 under 100 ms.

``--workers 1,2,4`` runs the same load against a cluster instead, once per worker count: throw-away
PostgreSQL and Redis servers (tests/cluster/services.py) and ``rummy serve --workers N --redis``.  The
clients connect to the shared port as the browser does (``?worker=``) and follow ``moved`` to the
owner's own port (no proxy in front: the route is the port), so each table's traffic stays on its
owner; ``--relay`` connects them as clients that do not follow (a table's four sockets land on any
worker; its commands reach its owner through Redis).  It prints the share of tables and the CPU of
each worker, and ends with one line per worker count: actions/s, latency, and CPU per action of the
workers and of PostgreSQL + Redis, then each worker's share of the tables and CPU per action of its
own tables, and each run against the first beside issue 31's targets (CPU per action ≤ 1.15×,
actions/s ≥ 1.6× with the cores for it, tables within ±10 %).  ``--pin`` (Linux) puts this load
generator on the first CPU and each worker on a CPU of its own, the next ones in turn, as ``taskset``
would; on two CPUs a second worker shares the generator's CPU, which the output says.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: tests/cluster/services.py
from rummy.engine import parse_action  # noqa: E402
from rummy.search.playout import random_choice  # noqa: E402
from tests.cluster.services import postgres, redis_server, tree_cpu_seconds  # noqa: E402

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    games: int = 0
    measuring: bool = False
    placed: Counter[str | None] = field(default_factory=Counter)  # tables per worker route (cluster)
    acted: Counter[str | None] = field(default_factory=Counter)  # measured actions per table's worker route


class ScriptedPlayer:
    """One seat: answers its decisions with a random legal action after a think time."""

    def __init__(self, base: str, cookie: str, think: float, figures: Figures, rng: random.Random,
                 local_address: str | None = None) -> None:
        self.ws_base = base.replace("http://", "ws://")
        self.local_address = local_address  # connect from this loopback address (another client)
        self.cookie = cookie
        self.think = think
        self.figures = figures
        self.rng = rng
        self.socket: Any = None
        self.state: dict[str, Any] | None = None
        self.counter = 0
        self.pending: tuple[str, int, float] | None = None  # id, seq, sent at
        self.acted_on = -1
        self.host = False
        self.started = asyncio.Event()
        self.route: str | None = None  # the route of the worker its table was placed on (cluster)

    async def connect(self, table_id: str, follow: bool = False) -> None:
        """Open the table's socket; with ``follow``, as the browser does: naming a worker (``?worker=``)
        and following ``moved`` to the route it names (the worker's own port)."""
        local = {"local_addr": (self.local_address, 0)} if self.local_address else {}
        base, hint = self.ws_base, ""
        for _ in range(5):
            query = f"?worker={hint}" if follow else ""
            self.socket = await websockets.connect(f"{base}/ws/tables/{table_id}{query}", max_size=2**22,
                                                   additional_headers={"Cookie": f"rummy_session={self.cookie}"},
                                                   compression=None, **local)
            if not follow:
                return
            first = json.loads(await self.socket.recv())
            if first["type"] != "error" or first.get("code") != "moved":
                return  # a state: the next ones follow
            await self.socket.close()
            hint = first["worker"]
            base = f"ws://127.0.0.1:{hint}"
        raise RuntimeError(f"table {table_id}: sent round in circles")

    def next_id(self) -> str:
        self.counter += 1
        return f"c{self.counter}"

    async def send(self, kind: str, command_id: str | None = None, **fields: Any) -> str:
        command_id = command_id or self.next_id()
        await self.socket.send(json.dumps({"v": 1, "id": command_id, "type": kind, **fields}))
        return command_id

    async def join(self) -> None:
        """Take a free seat and wait for the answer."""
        command_id = await self.send("join")
        async for text in self.socket:
            message = json.loads(text)
            if message.get("id") == command_id:
                if message["type"] != "ack":
                    raise RuntimeError(f"join refused: {message}")
                return

    async def run(self) -> None:
        decide: asyncio.Task[None] | None = None
        async for text in self.socket:
            message = json.loads(text)
            kind = message["type"]
            if kind == "error" and self.pending is not None and message.get("id") == self.pending[0]:
                self.figures.refused += 1
                self.pending = None
            if kind != "state":
                continue
            self.state = message
            if self.pending is not None and message["seq"] > self.pending[1]:
                if self.figures.measuring:
                    self.figures.latencies.append(time.perf_counter() - self.pending[2])
                    self.figures.acted[self.route] += 1
                self.pending = None
            status = message["table"]["status"]
            if status == "playing":
                self.started.set()
            if status == "finished" and self.host and self.acted_on != message["seq"]:
                self.acted_on = message["seq"]
                self.figures.games += 1
                await self.send("play_again")
            if decide is None or decide.done():
                decide = asyncio.create_task(self.decide())

    async def decide(self) -> None:
        while self.pending is None:
            state = self.state
            if state is None or state["view"] is None or state["table"]["status"] != "playing":
                return
            view = state["view"]
            if state["seat"] not in view["to_act"] or not view["legal_actions"] or state["seq"] == self.acted_on:
                return
            if self.think > 0:
                await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
                if self.state is not state:
                    continue  # the table moved while we thought: look again
            actions = [parse_action(text, len(view["players"])) for text in view["legal_actions"]]
            choice = random_choice(actions, self.rng)
            self.acted_on = state["seq"]
            command_id = self.next_id()
            self.pending = (command_id, state["seq"], time.perf_counter())
            await self.send("action", command_id, seq=state["seq"], action=str(choice))
            return


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any], **options: Any) -> httpx.Response:
    """POST, again when the server closed a kept-alive connection just as the request went out (on a
    loaded machine an idle connection may pass uvicorn's keep-alive timeout while a batch waits)."""
    for attempt in range(5):
        try:
            return await http.post(path, json=body, **options)
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.ConnectError):
            if attempt == 4:
                raise
            await asyncio.sleep(0.2)
    raise AssertionError("unreachable")


async def session(http: httpx.AsyncClient, name: str) -> str:
    """A new player's session cookie (sent without the client's cookies, which would reuse a session)."""
    response = await post(http, "/api/session", {"name": name}, headers={"Cookie": ""})
    response.raise_for_status()
    http.cookies.clear()
    return response.cookies["rummy_session"]


async def open_table(http: httpx.AsyncClient, base: str, args: argparse.Namespace, figures: Figures,
                     rng: random.Random, local_address: str | None = None) -> list[ScriptedPlayer]:
    """A table of ``args.seats`` scripted people, every seat taken, not started; ``http`` (and the
    sockets, from ``local_address``) come from one client address."""
    cookies = [await session(http, NAMES[i]) for i in range(args.seats)]
    response = await post(http, "/api/tables", {"variant": args.variant, "seats": args.seats, "claim_seconds": 5},
                          cookies={"rummy_session": cookies[0]})
    response.raise_for_status()
    table_id = response.json()["table_id"]
    figures.placed[response.json().get("worker")] += 1
    players = [ScriptedPlayer(base, c, args.think, figures, random.Random(rng.random()), local_address)
               for c in cookies]
    players[0].host = True
    for index, player in enumerate(players):
        player.route = response.json().get("worker")
        await player.connect(table_id, follow=not getattr(args, "relay", True))
        if index:
            await player.join()
    return players


def cpu_pressure() -> float | None:
    """Linux PSI: the total microseconds some task waited for a CPU (None where unavailable)."""
    try:
        line = Path("/proc/pressure/cpu").read_text().splitlines()[0]
    except OSError:
        return None
    return float(line.rsplit("total=", 1)[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# One address makes every table here: the per-address limits (docs/security.md) are lifted.
SATURATING = ("--bot-delay", "0", "--round-pause", "0", "--rate-limit", "1000", "--log-level", "warning",
              "--max-tables-per-address", "100000", "--max-sockets-per-address", "100000")


def start_server(port: int, db: str, flags: tuple[str, ...] = SATURATING) -> subprocess.Popen[bytes]:
    rummy = [sys.executable, "-m", "rummy"]
    subprocess.run([*rummy, "migrate", "--db", db], check=True, capture_output=True)
    if os.environ.get("RUMMY_BENCH_SERVER"):  # e.g. a profiling wrapper around the rummy command
        rummy = [sys.executable, os.environ["RUMMY_BENCH_SERVER"]]
    return subprocess.Popen([*rummy, "serve", "--db", db, "--port", str(port), *flags])


def _prepare_for_clients(port: int) -> int:
    """Raise this process's file-descriptor limit to its hard limit (one per client socket, and the server
    inherits it) and give ``port``, or a free one when it is 0."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if not port:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
    return port


@contextlib.contextmanager
def running_server(flags: tuple[str, ...], port: int = 0) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """``rummy serve`` with ``flags`` on a temporary SQLite file and ``port`` (0: a free one), with as
    many file descriptors as the clients may have; yields its base URL, its process and the database
    file, and stops it at the end."""
    port = _prepare_for_clients(port)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        server = start_server(port, f"sqlite:///{db}", flags)
        try:
            yield f"http://127.0.0.1:{port}", server, db
        finally:
            server.terminate()
            server.wait(timeout=30)


async def wait_for_server(base: str, server: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        for _ in range(300):
            if server.poll() is not None:
                raise RuntimeError(f"the server exited with code {server.returncode}")
            try:
                if (await http.get("/healthz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


async def wait_for_workers(redis_url: str, count: int) -> None:
    """Until ``count`` workers have their route in Redis with a live heartbeat, each answering on it (a
    table made before a worker joins is placed on another, then handed over under its clients)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        async with httpx.AsyncClient() as http:
            for _ in range(600):
                known = await client.hgetall("rummy:routes")
                live = [str(route) for worker, route in known.items()
                        if await client.exists(f"rummy:worker:{worker!s}")]
                if len(live) >= count:
                    with contextlib.suppress(httpx.HTTPError):
                        answers = [await http.get(f"http://127.0.0.1:{route}/healthz") for route in live]
                        if all(answer.status_code == 200 for answer in answers):
                            return
                await asyncio.sleep(0.1)
    finally:
        await client.aclose()
    raise RuntimeError(f"{count} workers did not all start")


@dataclass
class Outcome:
    """One run's figures, for the summary of a ``--workers`` run."""

    label: str
    actions_per_second: float = 0.0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    server_cpu: float = 0.0
    services_cpu: float = 0.0
    workers: list[WorkerFigures] = field(default_factory=list)
    pinning: str = ""


@dataclass
class WorkerFigures:
    """One worker of a cluster run: its route, the tables placed on it, the actions measured at them, its CPU."""

    route: str
    tables: int
    actions_per_second: float  # at its tables
    cores: float

    def ms_per_action(self) -> float:
        """CPU per action of the worker's own tables, in milliseconds."""
        return self.cores * 1000 / self.actions_per_second if self.actions_per_second else float("nan")


async def bench(args: argparse.Namespace, base: str, server: subprocess.Popen[bytes],
                services: tuple[int, ...] = (), label: str = "", redis_url: str | None = None,
                worker_count: int = 0) -> Outcome:
    figures = Figures()
    rng = random.Random(args.seed)
    server_pid = server.pid
    await wait_for_server(base, server)
    if redis_url is not None:  # every worker serving before the first table: none is placed, then moved
        await wait_for_workers(redis_url, worker_count)
    pinning = pin(server_pid, cluster=bool(services)) if getattr(args, "pin", False) else ""
    if pinning:
        print(f"pinned          {pinning}")
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        tables = []
        for first in range(0, args.tables, 20):
            batch = range(first, min(first + 20, args.tables))
            tables += await asyncio.gather(*(open_table(http, base, args, figures, rng) for _ in batch))
    readers = [asyncio.create_task(p.run()) for players in tables for p in players]
    for players in tables:
        await players[0].send("start")
    await asyncio.gather(*(players[0].started.wait() for players in tables))
    print(f"{args.tables} tables × {args.seats} seats of {args.variant} playing; warming up {args.warmup:g} s")
    await asyncio.sleep(args.warmup)
    figures.measuring = True
    workers = worker_pids(server_pid) if services else []
    worker_before = [tree_cpu_seconds(pid) for pid in workers]
    cpu_before, started = tree_cpu_seconds(server_pid), time.perf_counter()
    services_before = sum(tree_cpu_seconds(pid) for pid in services)
    client_before, pressure_before = time.process_time(), cpu_pressure()
    await asyncio.sleep(args.seconds)
    figures.measuring = False
    elapsed = time.perf_counter() - started
    server_cpu = (tree_cpu_seconds(server_pid) - cpu_before) / elapsed
    services_cpu = (sum(tree_cpu_seconds(pid) for pid in services) - services_before) / elapsed
    client_cpu = (time.process_time() - client_before) / elapsed
    pressure_after = cpu_pressure()
    for reader in readers:
        reader.cancel()
    report(args, figures, elapsed, server_cpu, client_cpu)
    if pinning:
        unpin()
    per_worker: list[WorkerFigures] = []
    if services:
        print(f"CPU (cores)     PostgreSQL + Redis {services_cpu:.2f}")
        routes = worker_routes(workers, int(base.rsplit(":", 1)[1]))
        per_worker = [WorkerFigures(routes[pid], figures.placed[routes[pid]], figures.acted[routes[pid]] / elapsed,
                                    (tree_cpu_seconds(pid) - before) / elapsed)
                      for pid, before in zip(workers, worker_before, strict=True)]
        per_worker.sort(key=lambda w: w.route)
        rate = figures.acted.total() / elapsed or 1.0
        for worker in per_worker:
            print(f"worker {worker.route:>6}  {worker.tables} tables ({share(worker, per_worker)}), "
                  f"{worker.actions_per_second:.1f} actions/s, {worker.cores:.2f} cores: "
                  f"{worker.ms_per_action():.2f} ms per action of its tables ({worker.cores * 1000 / rate:.2f} ms "
                  "per action of all)")
        elsewhere = {route: count for route, count in figures.placed.items() if route not in routes.values()}
        if elsewhere:
            print(f"tables placed on no worker measured: {elsewhere}")
    machine = f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    if pressure_before is not None and pressure_after is not None:
        waiting = (pressure_after - pressure_before) / 1e6 / elapsed * 100
        machine += f"; some task waited for a CPU {waiting:.0f}% of the time (PSI)"
    print(f"machine         {machine}")
    latencies = sorted(figures.latencies) or [0.0]
    return Outcome(label, len(figures.latencies) / elapsed, percentile_ms(latencies, 50), percentile_ms(latencies, 99),
                   latencies[-1] * 1000, server_cpu, services_cpu, per_worker, pinning)


def share(worker: WorkerFigures, workers: list[WorkerFigures]) -> str:
    """A worker's share of the tables and how far it is from an even share, e.g. ``52 % (+4 %)``."""
    total = sum(w.tables for w in workers) or 1
    even = total / len(workers)
    return f"{worker.tables / total * 100:.0f} % ({(worker.tables - even) / even * 100:+.0f} % of an even share)"


def _tasks_of_tree(pid: int) -> list[int]:
    """Every thread of a process and of its descendants (Linux /proc)."""
    try:
        tasks = [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []
    return tasks + [tid for child in _children(pid) for tid in _tasks_of_tree(int(child))]


def pin(server_pid: int, cluster: bool) -> str:
    """``--pin``: this load generator on the first CPU it may use, and each worker (every thread of it and
    of its children) on a CPU of its own, the next ones in turn; returns what was done, with the caveat
    when a worker shares the generator's CPU (more workers than CPUs left).  PostgreSQL and Redis are
    left where the kernel puts them."""
    cpus = sorted(os.sched_getaffinity(0))
    workers = worker_pids(server_pid) if cluster else [server_pid]
    os.sched_setaffinity(0, {cpus[0]})
    placed = []
    for index, pid in enumerate(sorted(workers)):
        cpu = cpus[(1 + index) % len(cpus)]
        for tid in _tasks_of_tree(pid):
            with contextlib.suppress(OSError):  # a thread that ended meanwhile
                os.sched_setaffinity(tid, {cpu})
        placed.append((pid, cpu))
    words = f"load generator on CPU {cpus[0]}; " + ", ".join(
        f"{'worker' if cluster else 'server'} pid {pid} on CPU {cpu}" for pid, cpu in placed)
    words += "; PostgreSQL and Redis unpinned"
    shared = [pid for pid, cpu in placed if cpu == cpus[0]]
    if shared:
        words += (f" (caveat: {len(cpus)} CPUs, so {len(shared)} worker(s) share CPU {cpus[0]} with the load "
                  "generator: this run cannot show what a worker with a core of its own does)")
    return words


def unpin() -> None:
    """The load generator may use every CPU again (the next run's PostgreSQL and Redis inherit it)."""
    os.sched_setaffinity(0, range(os.cpu_count() or 1))


def worker_routes(pids: list[int], shared_port: int) -> dict[int, str]:
    """Each worker's route (its own port: the one it listens on besides the shared one), from /proc."""
    listening: dict[str, int] = {}  # socket inode -> port
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A":  # LISTEN
                    listening[f"socket:[{fields[9]}]"] = int(fields[1].rsplit(":", 1)[1], 16)
    routes = {}
    for pid in pids:
        ports = set()
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                port = listening.get(os.readlink(fd))
                if port is not None and port != shared_port:
                    ports.add(port)
        # one worker alone (``--workers 1``) serves on the shared port, which is then its route
        routes[pid] = str(min(ports)) if ports else str(shared_port) if len(pids) == 1 else f"pid {pid}"
    return routes


def worker_pids(server_pid: int) -> list[int]:
    """The worker processes of ``rummy serve --workers N`` (a supervisor's children; with one worker the
    process itself serves, its children being helpers such as the bots' processes)."""
    children = [int(pid) for pid in _children(server_pid)]
    listens = [pid for pid in children if _listens(pid)]
    return listens or [server_pid]


def _listens(pid: int) -> bool:
    """Whether the process holds a listening TCP socket (a worker does; a bot process does not)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError):
            inodes |= {f"socket:[{line.split()[9]}]" for line in Path(table).read_text().splitlines()[1:]
                       if line.split()[3] == "0A"}
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(fd) in inodes:
                    return True
    return False


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


def percentile_ms(latencies: list[float], p: float) -> float:
    """The ``p``-th percentile of sorted ``latencies`` (seconds), in milliseconds."""
    return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000


def report(args: argparse.Namespace, figures: Figures, elapsed: float, server_cpu: float, client_cpu: float) -> None:
    latencies = sorted(figures.latencies)
    if not latencies:
        print("no action completed while measuring")
        return

    def percentile(p: float) -> float:
        return percentile_ms(latencies, p)

    print(f"think time {args.think:g} s (uniform 0–{2 * args.think:g} s), measured {elapsed:.1f} s")
    print(f"actions/s       {len(latencies) / elapsed:10.1f}   ({len(latencies)} actions, {figures.refused} refused, "
          f"{figures.games} games finished)")
    print(f"latency ms      p50 {percentile(50):.1f}   p90 {percentile(90):.1f}   p99 {percentile(99):.1f}   "
          f"max {latencies[-1] * 1000:.1f}   mean {statistics.fmean(latencies) * 1000:.1f}")
    print(f"CPU (cores)     server {server_cpu:.2f}   bench clients {client_cpu:.2f}")
    print(f"server CPU      {server_cpu * elapsed / len(latencies) * 1000:.3f} ms per action")


def table_arguments(description: str, tables: int) -> argparse.ArgumentParser:
    """A parser with the flags of the scripted tables (how many, seats, variant, think time, seed)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--tables", type=int, default=tables)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--variant", default="progressive-buy-it")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time of a player, seconds")
    parser.add_argument("--seed", type=int, default=1)
    return parser


def main() -> None:
    parser = table_arguments(__doc__.splitlines()[0], tables=200)
    parser.add_argument("--seconds", type=float, default=60, help="measuring time")
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--port", type=int, default=0, help="port for the server (default: a free one)")
    parser.add_argument("--workers", metavar="N,N,…", help="worker counts of a PostgreSQL + Redis cluster to "
                        "measure in turn (e.g. 1,2,4); default: one process on SQLite")
    parser.add_argument("--relay", action="store_true", help="with --workers: clients that do not follow `moved` "
                        "(sockets land on any worker and are linked to the owner through Redis)")
    parser.add_argument("--pin", action="store_true", help="Linux: this load generator on the first CPU, each "
                        "worker (or the one server) on a CPU of its own, the next ones in turn (sched_setaffinity, "
                        "as taskset does); with fewer CPUs than workers + 1, a worker shares the generator's")
    args = parser.parse_args()
    try:
        from uvloop import run as run_loop  # the clients need less CPU on uvloop
    except ImportError:
        run_loop = asyncio.run
    if not args.workers:
        with running_server(SATURATING, args.port) as (base, server, _):
            run_loop(bench(args, base, server))
        return
    outcomes = []
    durability = "unknown settings"
    for count in [int(n) for n in args.workers.split(",")]:
        with postgres() as db, redis_server() as redis, running_cluster(db.url, redis.url, count, args.port) as (
                base, server):
            durability = postgres_durability(db.url)
            print(f"--- {count} worker(s), PostgreSQL ({durability}) + Redis")
            outcomes.append(run_loop(bench(args, base, server, (db.pid, redis.pid), f"{count} worker(s)",
                                           redis.url, count)))
    print(f"\n{args.tables} tables × {args.seats} seats, think {args.think:g} s; CPU per action in ms "
          "(workers | PostgreSQL + Redis); the machine is shared, so figures vary from run to run")
    print(f"PostgreSQL ran with {durability}: a throw-away database that never waits for the disk; a real one "
          "syncs every commit (fsync=on), so its latency and CPU are higher than these")
    for o in outcomes:
        per_action = 1000 / o.actions_per_second if o.actions_per_second else 0.0
        print(f"{o.label:12} {o.actions_per_second:8.1f} actions/s   p50 {o.p50_ms:6.1f}   p99 {o.p99_ms:7.1f}   "
              f"max {o.max_ms:7.1f} ms   CPU {o.server_cpu * per_action:.2f} | {o.services_cpu * per_action:.2f} ms "
              f"({o.server_cpu:.2f} + {o.services_cpu:.2f} cores)")
        for worker in o.workers:
            print(f"{'':12}   worker {worker.route}: {worker.tables} tables, {share(worker, o.workers)}; "
                  f"{worker.ms_per_action():.2f} ms CPU per action of its tables")
        if o.pinning:
            print(f"{'':12}   pinned: {o.pinning}")
    compare(outcomes)


def compare(outcomes: list[Outcome]) -> None:
    """Each run against the first (one worker, if listed first): CPU per action of the workers, actions/s
    and the spread of tables, beside issue 31's targets."""
    first = outcomes[0] if outcomes else None
    if first is None or not first.actions_per_second or first.server_cpu <= 0:
        return
    base_cpu = first.server_cpu / first.actions_per_second
    for o in outcomes[1:]:
        if not o.actions_per_second:
            continue
        cpu_ratio = o.server_cpu / o.actions_per_second / base_cpu
        even = sum(w.tables for w in o.workers) / len(o.workers) if o.workers else 0
        spread = max((abs(w.tables - even) / even * 100 for w in o.workers), default=0.0) if even else 0.0
        print(f"{o.label} against {first.label}: CPU per action ×{cpu_ratio:.2f} (target ≤ 1.15), actions/s "
              f"×{o.actions_per_second / first.actions_per_second:.2f} (target ≥ 1.6 where the machine has a core for "
              f"each worker and the load), tables within ±{spread:.0f} % of an even share (target ±10 %)")


def postgres_durability(url: str) -> str:
    """How the PostgreSQL at ``url`` writes, e.g. ``fsync=off, synchronous_commit=on`` (the bench's own
    throw-away server runs without fsync: its figures are not those of a durable database)."""
    import asyncpg

    async def read() -> list[str]:
        connection = await asyncpg.connect(url)
        try:
            return [str(await connection.fetchval(f"SHOW {name}")) for name in ("fsync", "synchronous_commit")]
        finally:
            await connection.close()

    fsync, synchronous_commit = asyncio.run(read())
    return f"fsync={fsync}, synchronous_commit={synchronous_commit}"


@contextlib.contextmanager
def running_cluster(db: str, redis: str, workers: int, port: int = 0) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``rummy serve --workers N --redis`` on a migrated PostgreSQL; yields its base URL and supervisor."""
    port = _prepare_for_clients(port)
    rummy = [sys.executable, "-m", "rummy"]
    subprocess.run([*rummy, "migrate", "--db", db], check=True, capture_output=True)
    server = subprocess.Popen([*rummy, "serve", "--db", db, "--redis", redis, "--workers", str(workers),
                               "--worker-ports", "0", "--port", str(port), *SATURATING])
    try:
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a starved machine: the next run must not wait for this one
            print("the cluster did not stop within 60 s: killed", file=sys.stderr)
            with contextlib.suppress(OSError):
                for child in Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split():
                    os.kill(int(child), 9)
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
