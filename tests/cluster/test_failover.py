"""Failover on one host (issue 31): the worker that owns a table is SIGKILLed again and again, and each
time the table answers again within two seconds, with no acknowledged action lost.

``rummy serve --workers 2`` sees its worker end the moment it happens (``waitpid``): it closes that
worker's own port, deletes its heartbeat key and tells the survivor, which takes the table over at once
(:func:`rummy.server.cluster.membership.announce_dead`); the lease here is the default 3 s, so an answer
within 2 s cannot come from it lapsing.  The client is the browser's: it reconnects through the shared
port and follows ``moved``.  The supervisor starts another worker on the killed one's port, the table
goes back to it (its route wins it again), and the client follows it there before the next kill.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import statistics
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cluster.conftest import Endpoint, Services, owner_routes, until
from tests.cluster.services import Worker
from tests.cluster.test_cluster import Tracked, acked_actions, event_log
from tests.cluster.test_routing import follow, serving
from tests.server.conftest import run, start_game

pytestmark = pytest.mark.slow

KILLS = 10
ANSWER_SECONDS = 2.0  # issue 31's target: a killed owner's tables answer again within 2 s


def listening_pid(pids: list[int], port: int) -> int:
    """The process among ``pids`` listening on ``port`` (a worker holds its own port and the shared one)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                    inodes.add(f"socket:[{fields[9]}]")
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(fd) in inodes:
                    return pid
    raise AssertionError(f"no worker listens on port {port}")


async def one_action(player: Tracked, rng: random.Random) -> None:
    """One more acknowledged action of ``player`` (or the game's end)."""
    acked = len(acked_actions(player))
    await player.play(rng, until=lambda: len(acked_actions(player)) > acked, timeout=30)


def finished(player: Tracked) -> bool:
    return player.state is not None and player.state["table"]["status"] == "finished"


def test_a_killed_owner_s_table_answers_again_within_two_seconds(services: Services,
                                                                  workers: Callable[..., Worker]) -> None:
    """Ten times: the table's owner SIGKILLed, the client's next action acknowledged (by the survivor)
    within 2 s of the kill; then every acknowledged action is in the log, none more often than sent."""
    supervisor = workers(workers=2, lease_seconds=3.0)
    shared = Endpoint(supervisor.base_url, supervisor.ws_url)

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        rng = random.Random(31)
        await until(lambda: serving(services, 2))
        player = await Tracked(shared, "Ann").login()  # type: ignore[arg-type]
        player.ledger = []
        tables: list[str] = []
        home = ""
        table_of: dict[int, str] = {}  # id(socket) -> its table (every socket is kept in `sockets`)
        sockets: list[Tracked] = []

        async def connect(table_id: str) -> Tracked:
            """A new socket of the player (the same ledger), as the browser opens it: shared port, `moved`."""
            socket = Tracked(shared, "Ann", cookie=player.cookie)  # type: ignore[arg-type]
            socket.ledger = player.ledger
            await follow(socket, table_id, shared)
            sockets.append(socket)
            table_of[id(socket)] = table_id
            return socket

        async def new_game() -> Tracked:
            """A table with a bot placed on ``home`` (the first one's worker), its game started."""
            nonlocal home
            for _ in range(64):
                made = (await player.http("POST", "/api/tables", json={
                    "variant": "basic", "seats": 2, "bots": {"1": "easy"}, "claim_seconds": 0})).json()
                if made["worker"] == (home or made["worker"]):
                    home, table_id = made["worker"], made["table_id"]
                    tables.append(table_id)
                    await until(lambda t=table_id, r=home: owner_routes(services.redis_url, [t])[t] == r)  # type: ignore[misc]
                    fresh = await connect(tables[-1])
                    await start_game(fresh)
                    return fresh
            raise AssertionError("no table was placed on the first one's worker")

        socket = await new_game()
        answers: list[float] = []
        phases: list[tuple[float, float, float]] = []  # socket closed, state again, action acknowledged
        for _ in range(KILLS):
            # settled: two workers, the table back home, the player on it and acting there
            await until(lambda: serving(services, 2)
                        and owner_routes(services.redis_url, tables[-1:])[tables[-1]] == home)
            for _ in range(10):
                try:
                    if socket._reader is None or socket._reader.done():  # the table was handed back: follow it
                        socket = await connect(tables[-1])
                    await one_action(socket, rng)
                    if finished(socket):
                        socket = await new_game()
                        await one_action(socket, rng)
                    break
                except ConnectionError:  # closed as the table was handed back, a moment after it moved
                    continue
            killed_at = loop.time()
            os.kill(listening_pid(supervisor.children(), int(home)), signal.SIGKILL)
            await until(lambda s=socket: s._reader is not None and s._reader.done(), timeout=10)  # type: ignore[misc]
            closed_at = loop.time()
            socket = await connect(tables[-1])  # the browser: reconnect, follow `moved`
            state_at = loop.time()
            await one_action(socket, rng)
            answers.append(loop.time() - killed_at)
            phases.append((round(closed_at - killed_at, 3), round(state_at - killed_at, 3), round(answers[-1], 3)))
        ordered = sorted(answers)
        p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
        print(f"failover over {KILLS} kills: p50 {statistics.median(answers):.3f} s, p99 {p99:.3f} s, "
              f"max {max(answers):.3f} s")
        print("each kill: socket closed, state again, next action acknowledged (s):", phases)
        assert max(answers) <= ANSWER_SECONDS, phases
        await socket.close()
        for table_id in tables:  # every acknowledged action is in the log, none more often than sent
            log = await event_log(services, table_id)
            logged = Counter(payload["action"] for _, kind, payload, _ in log
                             if kind == "action" and payload["by"] == "player")
            acked = Counter(action for sock, command_id, action in player.ledger
                            if table_of[id(sock)] == table_id and sock.replies.get(command_id, {}).get("type") == "ack")
            sent = Counter(action for sock, _, action in player.ledger if table_of[id(sock)] == table_id)
            assert not acked - logged, "an acknowledged action is missing from the log"
            assert not logged - sent, "the log holds an action more often than it was sent"

    run(scenario())
