"""Chaos (issue 31): ``rummy serve --workers 2`` over its own Redis and PostgreSQL while scripted
clients play, with a seeded schedule of faults in turn: a worker SIGKILLed (its supervisor starts
another), Redis killed and started again (empty: it keeps nothing), PostgreSQL stopped and started
again.  Each client asserts that while it is connected it is never silent longer than two seconds
(every handshake, command and table request is answered, by an ack, an error frame, a close or a
status, and the state after an acknowledged action comes, within 2 s; the computer player's move is
not owed: in an outage it waits too), and at the end no acknowledged action is missing from the
tables' logs in PostgreSQL, nor logged more often than it was sent.

Each client plays a two-seat table against a computer player that answers at once, connects through
the shared port, reconnects at once after a close (a short pause after ``unavailable``), and starts a
new table when its game ends.  Half are the browser (they name a worker, ``?worker=``, and follow
``moved`` to the owner); half name none, so the kernel's pick of a worker decides whether they are
linked to the owner through Redis (the relay, whose clients issue 31 found left silent).  The test
waits on states, never on a clock: Redis or PostgreSQL stays away until every client has been told
(a close, or ``unavailable``) and has tried to come back since; the next fault comes once both
workers serve and every client has had a few more actions acknowledged.  The 2 s is the issue's
bound, measured and asserted; the largest gaps are printed.  ``RUMMY_CHAOS_SEED`` replays another
schedule.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from rummy.engine import parse_action
from rummy.search.playout import random_choice
from tests.cluster.conftest import Endpoint, Services, until
from tests.cluster.services import Restartable, Worker
from tests.cluster.test_cluster import Tracked, event_log
from tests.cluster.test_outages import pg_ctl
from tests.cluster.test_routing import route_endpoint, serving
from tests.server.conftest import run

pytestmark = pytest.mark.slow

SILENCE_SECONDS = 2.0  # issue 31: no client is left without an answer longer than this
SEED = int(os.environ.get("RUMMY_CHAOS_SEED", "31"))
CLIENTS = 4  # every other one names no worker: on the shared port, linked to the owner through Redis
ROUNDS = 2  # each round: the three faults in a seeded order
TABLE = {"variant": "basic", "seats": 2, "bots": {"1": "easy"}, "claim_seconds": 0}
PACE_SECONDS = 0.03  # a client's think time after each acknowledged action (keeps the CPU used modest)
BACKOFF_SECONDS = 0.2  # a client's pause before trying again after "unavailable" or a refused connection
GIVE_UP_SECONDS = 30.0  # a wait this long is recorded as a silence of that length and the socket dropped
OTHER_SEAT = "the other seat's move"  # not owed to the client: in an outage the computer player waits too


def answers(player: Tracked, command_id: str) -> Callable[[dict[str, Any]], bool]:
    """A predicate: ``command_id`` is answered."""
    return lambda _: command_id in player.replies


@dataclass
class Silence:
    """How long a client waited for an answer it was owed, and what it waited for."""

    seconds: float
    what: str
    where: str = ""  # a handshake's URL


@dataclass
class Client:
    """One browser: a session, a ledger of every action sent, the tables it played and every wait."""

    name: str
    shared: Endpoint
    rng: random.Random
    follows: bool = True  # names a worker (?worker=) and follows `moved`; else linked through Redis if need be
    cookie: str = ""
    ledger: list[tuple[Tracked, str, str]] = field(default_factory=list)
    table_of: dict[int, str] = field(default_factory=dict)  # id(socket) -> its table
    tables: list[str] = field(default_factory=list)
    waits: list[Silence] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # answers the protocol does not allow (a 500, ...)
    socket: Tracked | None = None
    acked: int = 0
    closes: int = 0  # sockets that closed under it
    refusals: int = 0  # handshakes, commands or requests answered "unavailable"
    attempts: int = 0  # handshakes and table requests answered (or refused): tries to come back
    tells: list[int] = field(default_factory=list)  # at each close or refusal: the attempts so far
    doing: tuple[str, float] = ("", 0.0)  # what the client waits for now, since when
    stop: bool = False

    def waited(self, started: float, what: str, where: str = "") -> None:
        self.waits.append(Silence(asyncio.get_running_loop().time() - started, what, where))
        if what in ("handshake", "POST /api/tables"):
            self.attempts += 1

    def told(self, closed: bool = False) -> None:
        """The socket closed under the client, or an answer said ``unavailable``."""
        if closed:
            self.closes += 1
        else:
            self.refusals += 1
        self.tells.append(self.attempts)

    def came_back_since(self, tells: int) -> bool:
        """Told at least once since ``tells`` were counted, and a handshake or table request answered
        after that."""
        return len(self.tells) > tells and self.attempts > self.tells[tells]

    async def new_table(self) -> str:
        """A new table of this client's, asked through the shared port until it is made (503 meanwhile)."""
        while True:
            started = asyncio.get_running_loop().time()
            self.doing = ("POST /api/tables", started)
            try:
                async with httpx.AsyncClient(base_url=self.shared.base_url, cookies={"rummy_session": self.cookie},
                                             timeout=GIVE_UP_SECONDS) as http:
                    response = await http.post("/api/tables", json=TABLE)
            except httpx.TimeoutException:
                self.waited(started, "POST /api/tables")
                continue
            except httpx.TransportError:  # refused or reset: an answer
                self.waited(started, "POST /api/tables")
                await asyncio.sleep(BACKOFF_SECONDS)
                continue
            self.waited(started, "POST /api/tables")
            if response.status_code == 201:
                table_id: str = response.json()["table_id"]
                self.tables.append(table_id)
                return table_id
            if response.status_code == 503 and response.json()["error"]["code"] == "unavailable":
                self.told()
            else:
                self.problems.append(f"POST /api/tables answered {response.status_code}: {response.text}")
            await asyncio.sleep(BACKOFF_SECONDS)

    async def reach(self, table_id: str) -> Tracked:
        """A socket on the table as the browser opens one: the shared port with ``?worker=``, ``moved``
        followed; every handshake must be answered (a state, an error, a close or a refusal) in time."""
        headers = {"Cookie": f"rummy_session={self.cookie}"}
        endpoint, hint = self.shared, ""
        while True:
            started = asyncio.get_running_loop().time()
            try:
                query = f"?worker={hint}" if self.follows else ""
                url = f"{endpoint.ws_url}/ws/tables/{table_id}{query}"
                self.doing = (f"handshake {url}", started)
                socket = await websockets.connect(url,
                                                  additional_headers=headers, max_size=2**22,
                                                  open_timeout=GIVE_UP_SECONDS)
                first = json.loads(await asyncio.wait_for(socket.recv(), GIVE_UP_SECONDS))
            except websockets.InvalidStatus as refused:  # an HTTP answer instead of a socket: not allowed
                self.waited(started, "handshake", url)
                self.problems.append(f"handshake answered HTTP {refused.response.status_code}")
                endpoint, hint = self.shared, ""
                await asyncio.sleep(BACKOFF_SECONDS)
                continue
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake):  # refused or closed
                self.waited(started, "handshake", url)
                endpoint, hint = self.shared, ""
                await asyncio.sleep(BACKOFF_SECONDS)
                continue
            except TimeoutError:
                self.waited(started, "handshake", url)
                endpoint, hint = self.shared, ""
                continue
            self.waited(started, "handshake", url)
            if first["type"] == "error" and first["code"] == "moved" and self.follows:
                await socket.close()
                hint = first["worker"]
                endpoint = route_endpoint(hint)
                continue
            if first["type"] == "error":
                await socket.close()
                if first["code"] == "unavailable":
                    self.told()
                else:
                    self.problems.append(f"handshake refused: {first}")
                endpoint, hint = self.shared, ""
                await asyncio.sleep(BACKOFF_SECONDS)
                continue
            if first["type"] != "state":
                self.problems.append(f"first message of a socket: {first}")
            player = Tracked(endpoint, self.name, cookie=self.cookie)  # type: ignore[arg-type]
            player.ledger = self.ledger
            player.socket, player.state = socket, first
            player.messages.append(first)
            player._reader = asyncio.create_task(player._read())
            self.table_of[id(player)] = table_id
            return player

    async def owed(self, player: Tracked, predicate: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """The first message from now on that satisfies ``predicate``, timed (ConnectionError: closed)."""
        started = asyncio.get_running_loop().time()
        self.doing = (what, started)
        try:
            return await player.wait_for(predicate, timeout=GIVE_UP_SECONDS, start=len(player.messages))
        finally:
            self.waited(started, what)

    async def step(self, player: Tracked) -> None:
        """One action of this client's, or the next state it is owed (the computer player's move)."""
        state = player.state
        assert state is not None
        if not player.my_turn():
            await self.owed(player, lambda m: m["type"] == "state", OTHER_SEAT)
            return
        view = state["view"]
        choice = random_choice([parse_action(text, len(view["players"])) for text in view["legal_actions"]],
                               self.rng, buy_chance=0.1)
        command_id = await player.send("action", seq=state["seq"], action=str(choice))
        await self.owed(player, answers(player, command_id), "an action's answer")
        reply = player.replies[command_id]
        if reply["type"] == "ack":
            self.acked += 1
            if not (player.state is not None and player.state["seq"] > state["seq"]):
                await self.owed(player, lambda m: m["type"] == "state" and m["seq"] > state["seq"],
                                "the state after an acknowledged action")
            await asyncio.sleep(PACE_SECONDS)
        elif reply["code"] == "unavailable":  # nothing changed: try again after a pause (the table told
            self.told()                      # its clients once, with 1013, when the outage began)
            await asyncio.sleep(BACKOFF_SECONDS)
        elif reply["code"] not in ("stale", "illegal", "not-started"):
            self.problems.append(f"{choice} answered {reply}")

    async def play(self) -> None:
        """Play until told to stop: reconnect after every close, a new table after every game."""
        table_id = await self.new_table()
        while not self.stop:
            player = self.socket = await self.reach(table_id)
            try:
                while not self.stop:
                    if player.state is not None and player.state["table"]["status"] == "waiting":
                        await self.owed(player, answers(player, await player.send("start")), "the answer to start")
                        continue
                    if player.state is not None and player.state["table"]["status"] == "finished":
                        await player.close()
                        table_id = await self.new_table()
                        break
                    await self.step(player)
            except ConnectionError:
                self.told(closed=True)
            except TimeoutError:  # recorded as a silence of GIVE_UP_SECONDS: drop the socket, go on
                await player.close()
        if self.socket is not None:
            await self.socket.close()


def test_chaos(services: Services, restartable_redis: Restartable) -> None:
    """Faults in turn, seeded, while clients play; no silence over 2 s, no acknowledged action lost."""
    schedule_rng = random.Random(SEED)
    schedule = [fault for _ in range(ROUNDS)
                for fault in schedule_rng.sample(["worker", "redis", "postgres"], 3)]
    supervisor = Worker(services.db_url, restartable_redis.url, workers=2, lease_seconds=3.0)
    shared = Endpoint(supervisor.base_url, supervisor.ws_url)
    redis_services = Services(services.db_url, restartable_redis.url)

    async def scenario() -> None:
        await until(lambda: serving(redis_services, 2), timeout=60)
        clients = [Client(f"P{i}", shared, random.Random(SEED * 100 + i), follows=i % 2 == 0) for i in range(CLIENTS)]
        for client in clients:
            async with httpx.AsyncClient(base_url=shared.base_url) as http:
                response = await http.post("/api/session", json={"name": client.name})
                response.raise_for_status()
                client.cookie = response.cookies["rummy_session"]
        playing = [asyncio.create_task(client.play()) for client in clients]

        def failed() -> bool:
            """False, or the error of a client that stopped (raised)."""
            for task in playing:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            return False

        async def progress(actions: int) -> None:
            """Every client has ``actions`` more acknowledged actions."""
            targets = [client.acked + actions for client in clients]
            await until(lambda: failed() or all(c.acked >= t for c, t in zip(clients, targets, strict=True)),
                        timeout=60)

        async def all_told(told: list[int]) -> None:
            """Every client has been told of the outage (a socket closed under it, or an ``unavailable``
            answer) since ``told`` were counted, and has tried to come back since (a handshake or a table
            request answered)."""
            try:
                await until(lambda: failed() or all(c.came_back_since(n) for c, n in zip(clients, told, strict=True)),
                            timeout=60)
            except TimeoutError:
                now = asyncio.get_running_loop().time()
                raise AssertionError("not every client was told and came back: " + "; ".join(
                    f"{c.name} told {len(c.tells) - n} time(s), {c.attempts} attempts (at the tells: "
                    f"{c.tells[n:][:5]}), waiting {now - c.doing[1]:.1f} s for {c.doing[0]}"
                    for c, n in zip(clients, told, strict=True))) from None

        await progress(5)
        log = []
        for fault in schedule:
            told = [len(client.tells) for client in clients]
            began = asyncio.get_running_loop().time()
            seen = [len(client.waits) for client in clients]
            if fault == "worker":
                children = supervisor.children()
                victim = schedule_rng.choice(children)
                os.kill(victim, signal.SIGKILL)
                await until(lambda v=victim: len(supervisor.children()) == 2  # type: ignore[misc]
                            and v not in supervisor.children())
            elif fault == "redis":
                restartable_redis.kill()
                await all_told(told)
                restartable_redis.start()
            else:
                pg_ctl(services, "stop")
                try:
                    await all_told(told)
                finally:
                    pg_ctl(services, "start")
            await until(lambda: serving(redis_services, 2), timeout=60)
            await progress(schedule_rng.randint(3, 8))
            gaps = [w.seconds for c, n in zip(clients, seen, strict=True) for w in c.waits[n:] if w.what != OTHER_SEAT]
            log.append((fault, asyncio.get_running_loop().time() - began, max(gaps, default=0.0)))
        for client in clients:
            client.stop = True
        await asyncio.wait_for(asyncio.gather(*playing), GIVE_UP_SECONDS * 2)

        waits = [(w.seconds, c.name, w.what) for c in clients for w in c.waits if w.what != OTHER_SEAT]
        longest = sorted(waits, reverse=True)[:3]
        other = max((w.seconds for c in clients for w in c.waits if w.what == OTHER_SEAT), default=0.0)
        print(f"chaos seed {SEED}: faults {schedule}; {sum(c.acked for c in clients)} actions acknowledged, "
              f"{sum(c.closes for c in clients)} sockets closed under the clients, "
              f"{sum(c.refusals for c in clients)} unavailable answers, {len(waits)} waits; "
              f"largest gaps " + "; ".join(f"{gap:.3f} s ({what}, {name})" for gap, name, what in longest)
              + f"; longest wait for the other seat "
              f"{other:.3f} s; largest gap after each fault: "
              + ", ".join(f"{fault} {gap:.3f} (over in {took:.1f} s)" for fault, took, gap in log))
        problems = [f"{c.name}: {problem}" for c in clients for problem in c.problems]
        assert not problems, problems
        silent = sorted(((w.seconds, c.name, w.what, w.where) for c in clients for w in c.waits
                         if w.what != OTHER_SEAT and w.seconds > SILENCE_SECONDS), reverse=True)
        assert not silent, f"silent longer than {SILENCE_SECONDS} s: {silent[:10]}"
        for client in clients:
            for table_id in client.tables:
                logged = Counter(payload["action"] for _, kind, payload, _ in await event_log(services, table_id)
                                 if kind == "action" and payload["by"] == "player")
                mine = [(sock, command_id, action) for sock, command_id, action in client.ledger
                        if client.table_of[id(sock)] == table_id]
                acked = Counter(action for sock, command_id, action in mine
                                if sock.replies.get(command_id, {}).get("type") == "ack")
                sent = Counter(action for _, _, action in mine)
                assert not acked - logged, f"{client.name}: an acknowledged action is missing from {table_id}'s log"
                assert not logged - sent, f"{client.name}: {table_id}'s log holds an action more often than sent"

    try:
        run(scenario())
    finally:
        supervisor.stop()
        with contextlib.suppress(Exception):  # PostgreSQL left stopped by a failure: the fixture needs it back
            if not Path(f"/proc/{services.pg_pid}").exists():
                pg_ctl(services, "start")
