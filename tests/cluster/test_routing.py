"""Owner-affine routing (issue 31): tables are placed over the live workers by rendezvous hashing, a
client that follows ``moved`` plays on the worker running its table, and tables move when a worker
leaves or comes back, with no acknowledged action lost (real servers: tests/cluster/services.py).

The clients here connect as the browser does (``?worker=``, following ``moved``); with no proxy in
front, a ``moved`` is followed to the worker's own port, which is its route; behind nginx configured
as docs/deploy.md says, through nginx.  That no game message crosses Redis is read from the workers'
inboxes: a subscriber records every message published to them (the cluster's own messages, a worker that
joined, a table placed, may cross; a socket's traffic may not).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import redis
import websockets

from rummy.server.cluster.membership import PREFIX
from rummy.server.cluster.placement import rendezvous
from tests.cluster.conftest import Endpoint, Services, live_routes, owner_routes, until
from tests.cluster.services import Worker, free_port, wait_for_port
from tests.cluster.test_cluster import Tracked, acked_actions, event_log
from tests.cluster.test_deploy_docs import nginx_block, program, write_nginx_conf
from tests.server.conftest import Player, run, start_game

pytestmark = pytest.mark.slow


def routes(services: Services) -> dict[str, str]:
    return live_routes(services.redis_url)


def serving(services: Services, count: int) -> bool:
    """``count`` workers have their route in Redis and answer on it (their start-up is over: a table
    placed on a worker still starting may wait for its first client to be started)."""
    live = routes(services).values()
    if len(live) != count:
        return False
    try:
        return all(httpx.get(f"http://127.0.0.1:{route}/healthz", timeout=1).status_code == 200 for route in live)
    except httpx.HTTPError:
        return False


def owners(services: Services, table_ids: list[str]) -> dict[str, str | None]:
    return owner_routes(services.redis_url, table_ids)


def route_endpoint(route: str) -> Endpoint:
    return Endpoint(f"http://127.0.0.1:{route}", f"ws://127.0.0.1:{route}")


#: The messages that carry a linked socket's traffic (rummy.server.cluster.links).
GAME_MESSAGES = frozenset({"open", "cmd", "out", "close", "shut"})


@contextlib.contextmanager
def crossing(services: Services) -> Iterator[list[dict[str, object]]]:
    """Every message published to a worker's inbox inside the block, in order (read once the block
    ends: its last publishes are waited for by publishing a marker of its own)."""
    client = redis.Redis.from_url(services.redis_url, decode_responses=True)
    pubsub = client.pubsub()
    marker = f"{PREFIX}inbox:test-marker-{os.getpid()}"
    seen: list[dict[str, object]] = []
    done = False

    def record(message: dict[str, str]) -> None:
        nonlocal done
        if message["channel"] == marker:
            done = True
        else:
            data = json.loads(message["data"])
            seen.extend(data if isinstance(data, list) else [data])

    pubsub.psubscribe(**{f"{PREFIX}inbox:*": record})
    while (pubsub.get_message(timeout=1.0) or {}).get("type") != "psubscribe":  # subscribed before the block
        pass
    reader = pubsub.run_in_thread(sleep_time=0.01, daemon=True)
    try:
        yield seen
        client.publish(marker, "[]")
        for _ in range(500):  # every message published before the marker has been read when it has
            if done:
                break
            reader.join(0.01)
    finally:
        reader.stop()
        reader.join(5)
        pubsub.close()
        client.close()


def game_messages(seen: list[dict[str, object]]) -> list[dict[str, object]]:
    return [message for message in seen if message.get("k") in GAME_MESSAGES]


async def follow(player: Player, table_id: str, start: Endpoint,
                 to: Callable[[str], Endpoint] = route_endpoint) -> list[str]:
    """Connect ``player`` as the browser does, from ``start``: naming a worker and following ``moved`` to
    the route it names; returns the routes it was sent to.  A refused connection or a close before the
    first state (the table being handed over meanwhile) starts again from ``start``."""
    headers = {"Cookie": f"rummy_session={player.cookie}"}
    endpoint, hint, sent = start, "", []
    for _ in range(20):
        try:
            socket = await websockets.connect(f"{endpoint.ws_url}/ws/tables/{table_id}?worker={hint}",
                                              additional_headers=headers, max_size=2**22)
            first = json.loads(await socket.recv())
        except (OSError, websockets.ConnectionClosed):  # a worker handing the table over, or going: again,
            await asyncio.sleep(0.1)                      # from the start, as the browser does
            endpoint, hint = start, ""
            continue
        if first["type"] == "error" and first["code"] == "moved":
            await socket.wait_closed()
            assert socket.close_code == 4307
            hint = first["worker"]
            sent.append(hint)
            endpoint = to(hint)
            continue
        assert first["type"] == "state", first
        player.server = endpoint  # type: ignore[assignment]
        player.socket, player.state = socket, first
        player.messages.append(first)
        player._reader = asyncio.create_task(player._read())
        return sent
    raise AssertionError(f"{player.name}: never reached the table {table_id}")


def test_tables_are_spread_and_a_socket_is_sent_to_the_owner(services: Services,
                                                              workers: Callable[..., Worker]) -> None:
    """``--workers 2``: the tables made through the shared port are placed over both workers as
    rendezvous hashing says, evenly, also when made at once (each new id is chosen for the worker with
    fewer tables and claimed for it in one step), each started by its own worker; a socket opened on
    the other worker is sent to the owner (``moved``, 4307) and the game is played there; HTTP asked of
    the other worker answers 307 to the owner."""
    server = workers(workers=2)
    shared = Endpoint(server.base_url, server.ws_url)

    async def scenario() -> None:
        await until(lambda: serving(services, 2))
        live = sorted(routes(services).values())
        ann = await Tracked(shared, "Ann").login()  # type: ignore[arg-type]
        ann.ledger = []
        made: dict[str, str] = {}
        async with httpx.AsyncClient(base_url=server.base_url, cookies={"rummy_session": ann.cookie}) as http:

            async def make() -> None:
                answer = (await http.post("/api/tables", json={"variant": "basic", "seats": 2,
                                                               "bots": {"1": "easy"}, "claim_seconds": 0})).json()
                made[answer["table_id"]] = answer["worker"]

            for _ in range(6):  # one after another
                await make()
            await asyncio.gather(*(make() for _ in range(6)))  # at once, over both workers
        assert all(route == rendezvous(table_id, live) for table_id, route in made.items())
        assert sorted(Counter(made.values()).values()) == [6, 6], "new tables even out the load"
        await until(lambda: owners(services, list(made)) == made)  # each started by its own worker
        lobby = (await ann.http("GET", "/api/tables")).json()
        assert {table["table_id"]: table["worker"] for table in lobby} == made  # the lobby names the owners too

        table_id, owner = next(iter(made.items()))
        other = next(route for route in live if route != owner)
        assert await follow(ann, table_id, route_endpoint(other)) == [owner]
        assert ann.server.base_url.endswith(f":{owner}")
        async with httpx.AsyncClient(base_url=route_endpoint(other).base_url) as http:
            asked = await http.get(f"/api/tables/{table_id}?worker=")
            assert asked.status_code == 307 and asked.headers["location"].endswith(f"?worker={owner}")
            assert (await http.get(f"/api/tables/{table_id}")).status_code == 200  # a client that does not follow
        await start_game(ann)
        with crossing(services) as seen:
            await ann.play(random.Random(1), until=lambda: len(acked_actions(ann)) >= 2)  # on the owner
        assert not game_messages(seen), f"a game message crossed Redis: {seen}"
        await ann.close()

    run(scenario())


def test_tables_move_when_a_worker_leaves_and_come_back_when_it_returns(
        services: Services, workers: Callable[..., Worker]) -> None:
    """Two workers; one is killed mid-game: the survivor takes its tables over and their games go on.
    It comes back on its port (its route): the tables placed on it move back.  Every acknowledged
    action is in the log."""
    first, second = workers(), workers()

    async def scenario() -> None:
        await until(lambda: serving(services, 2))
        players: dict[str, Tracked] = {}
        on_second = 0
        for number in range(40):  # until each worker has two (the ids are random, their place too)
            if on_second >= 2 and len(players) - on_second >= 2:
                break
            player = await Tracked(Endpoint(first.base_url, first.ws_url), f"P{number}").login()  # type: ignore[arg-type]
            player.ledger = []
            table_id = await player.create_table(variant="basic", seats=2, bots={"1": "easy"}, claim_seconds=0)
            sent = await follow(player, table_id, Endpoint(first.base_url, first.ws_url))
            on_second += sent == [str(second.port)]
            await start_game(player)
            players[table_id] = player
        placed = owners(services, list(players))
        moved = [t for t, route in placed.items() if route == str(second.port)]
        assert moved and len(moved) < len(players), placed

        async def play_a_turn(table_id: str, seed: int) -> None:
            """One more acknowledged action of the table's player (unless the game is over)."""
            player = players[table_id]
            acked = len(acked_actions(player))
            await player.play(random.Random(seed), until=lambda: len(acked_actions(player)) > acked)

        for seed, table_id in enumerate(players):
            await play_a_turn(table_id, seed)
        second.kill()
        await until(lambda: set(owners(services, list(players)).values()) == {str(first.port)})
        for seed, table_id in enumerate(moved):  # their clients were closed: they come back and play on
            player = players[table_id]
            await until(lambda p=player: p._reader is not None and p._reader.done())  # type: ignore[misc]
            await follow(player, table_id, Endpoint(first.base_url, first.ws_url))
            await play_a_turn(table_id, 10 + seed)

        back = workers(port=second.port)
        await until(lambda: owners(services, list(players)) == placed)  # the same route wins the same tables
        for seed, table_id in enumerate(moved):
            player = players[table_id]
            await until(lambda p=player: p._reader is not None and p._reader.done())  # type: ignore[misc]
            sent = await follow(player, table_id, Endpoint(first.base_url, first.ws_url))
            assert sent[-1:] == [str(back.port)], sent
            await play_a_turn(table_id, 20 + seed)

        for table_id, player in players.items():
            log = await event_log(services, table_id)
            logged = Counter(payload["action"] for _, kind, payload, _ in log
                             if kind == "action" and payload["by"] == "player")
            assert not Counter(acked_actions(player)) - logged, "an acknowledged action is missing from the log"
            await player.close()

    run(scenario())



def documented_site(shared: int, own: list[int], listen: int) -> str:
    """docs/deploy.md's nginx site with this test's ports, on plain HTTP (no certificate, no port 80)."""
    ports = {"8000": shared, "8001": own[0], "8002": own[1], "8003": free_port(), "8004": free_port()}
    site = re.sub(r"\b800[0-4]\b", lambda m: str(ports[m.group(0)]), nginx_block())
    site = site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{listen};")
    site = "\n".join(line for line in site.splitlines() if "ssl_certificate" not in line)
    return re.sub(r"\nserver \{\n    listen 80;.*?\n\}\n", "\n", site, flags=re.DOTALL)


@contextlib.contextmanager
def documented_nginx(services: Services, server: Worker, folder: Path) -> Iterator[int]:
    """docs/deploy.md's nginx in front of ``server`` (``--workers 2``, serving), its files in ``folder``:
    yields the port it listens on, and stops it afterwards."""
    nginx = program("nginx")
    listen = free_port()
    site = documented_site(server.port, sorted(int(route) for route in routes(services).values()), listen)
    write_nginx_conf(folder, site, as_root=os.geteuid() == 0)
    process = subprocess.Popen([nginx, "-p", str(folder), "-e", str(folder / "logs" / "error.log"),
                                "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(listen, process)
        yield listen
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_behind_the_documented_nginx_a_table_s_sockets_all_reach_its_owner(
        services: Services, workers: Callable[..., Worker], tmp_path: Path) -> None:
    """``--workers 2`` behind docs/deploy.md's nginx: both players of a table open their socket through
    nginx, are sent to the owner (``moved``) and nginx takes them there (``?worker=``): their game
    runs without one message through Redis."""
    server = workers(workers=2)
    run(until(lambda: serving(services, 2)))

    async def scenario(front: Endpoint) -> None:
        await until(lambda: serving(services, 2))
        ann, bob = [await Tracked(front, name).login() for name in ("Ann", "Bob")]  # type: ignore[arg-type]
        ann.ledger, bob.ledger = [], []
        table_id = await ann.create_table(variant="basic", seats=2, claim_seconds=0)
        await until(lambda: owners(services, [table_id])[table_id] is not None)
        for player in (ann, bob):
            await follow(player, table_id, front, to=lambda route: front)
        assert (await bob.reply_to(await bob.send("join")))["type"] == "ack"
        await start_game(ann)
        for player in (ann, bob):
            await player.wait_state(lambda m: m["view"] is not None)
        rng = random.Random(1)
        with crossing(services) as seen:
            while len(acked_actions(ann)) < 3 or len(acked_actions(bob)) < 3:  # turn by turn
                assert ann.state is not None
                mover = ann if ann.state["view"]["active"] == ann.seat else bob
                await mover.finish_turn(rng)
                assert mover.state is not None
                seq = mover.state["seq"]
                await ann.state_from(seq)
                await bob.state_from(seq)
        assert not game_messages(seen), f"a game message crossed Redis: {seen}"
        await ann.close()
        await bob.close()

    with documented_nginx(services, server, tmp_path) as listen:
        run(scenario(Endpoint(f"http://127.0.0.1:{listen}", f"ws://127.0.0.1:{listen}")))


async def play_following(player: Tracked, table_id: str, start: Endpoint, current: dict[str, Tracked],
                         stop: Callable[[], bool], seed: int) -> None:
    """Play until ``stop()``, following the table wherever it moves: a closed socket (1012, the table
    handed over) connects again from ``start`` and follows ``moved``.  A player whose game is over stays
    at the table, as the browser does, and follows it too when it is handed over."""
    rng = random.Random(seed)
    while True:
        try:
            await player.play(rng, until=stop, timeout=120)
            while not stop():  # the game is over: the socket stays open until the table moves
                if player._reader is None or player._reader.done():
                    raise ConnectionError(f"{player.name}: the connection closed")
                await asyncio.sleep(0.05)
            return
        except ConnectionError:
            again = Tracked(start, player.name, cookie=player.cookie)  # type: ignore[arg-type]
            again.ledger = player.ledger
            await follow(again, table_id, start)
            player = current[table_id] = again


def where(player: Tracked, first: Tracked) -> str:
    """Where a table's player is, for a failure's message: its table's status, its server, its socket."""
    state = player.state
    status = state["table"]["status"] if state is not None else None
    socket = player.socket
    closed = socket.close_code if socket is not None else None
    return (f"status {status}, on {player.server.base_url}, {'first' if player is first else 'a new'} socket "
            f"(close code {closed}), {len(acked_actions(player))} actions acknowledged")


def test_a_joining_worker_takes_its_share_while_games_are_played(
        services: Services, workers: Callable[..., Worker]) -> None:
    """One worker runs every table while its players play on; a second joins: the tables placed on it
    are handed over (stopped after the actions already taken, rebuilt from the log by the new owner)
    with actions in flight; the players follow and play on there (one whose game ended before follows
    too, as the browser does); every acknowledged action is in the log, and none more often than it was
    sent."""
    first = workers()
    coming = free_port()  # the joining worker's port, so its route, known before it starts

    async def scenario() -> None:
        start = Endpoint(first.base_url, first.ws_url)
        await until(lambda: len(routes(services)) == 1)
        current: dict[str, Tracked] = {}
        moving: set[str] = set()
        for number in range(40):  # until two tables will move (placement is known from the routes)
            if len(moving) >= 2 and len(current) >= 4:
                break
            player = await Tracked(start, f"P{number}").login()  # type: ignore[arg-type]
            player.ledger = []
            table_id = await player.create_table(variant="basic", seats=2, bots={"1": "easy"}, claim_seconds=0)
            await follow(player, table_id, start)
            await start_game(player)
            current[table_id] = player
            if rendezvous(table_id, [str(first.port), str(coming)]) == str(coming):
                moving.add(table_id)
        stopping = False
        first_sockets = dict(current)
        games = [asyncio.create_task(play_following(player, table_id, start, current, lambda: stopping, seed))
                 for seed, (table_id, player) in enumerate(list(current.items()))]

        def over(table_id: str) -> bool:
            state = current[table_id].state
            return state is not None and state["table"]["status"] == "finished"

        def over_where_it_runs(table_id: str) -> bool:
            """The game is over and its player is on the worker the table is placed on (one whose game
            ended before the hand-over follows the table there too)."""
            return over(table_id) and (table_id not in moving
                                       or current[table_id].server.base_url.endswith(f":{coming}"))

        await until(lambda: all(len(acked_actions(p)) >= 2 or over(t) for t, p in current.items()))
        second = await asyncio.to_thread(workers, port=coming)
        await until(lambda: list(owners(services, list(current)).values()).count(str(second.port)) == len(moving))
        counts = {table_id: len(acked_actions(player)) for table_id, player in current.items()}
        await until(lambda: all(len(acked_actions(p)) >= counts[t] + 3 or over_where_it_runs(t)
                                for t, p in current.items()), timeout=120)
        stopping = True
        await asyncio.gather(*games)
        moved = [t for t, route in owners(services, list(current)).items() if route == str(second.port)]
        stayed = {t: where(current[t], first_sockets[t]) for t in moved
                  if current[t] is first_sockets[t] or not current[t].server.base_url.endswith(f":{second.port}")}
        assert not stayed, f"the players of tables handed over to {second.port} did not follow them: {stayed}"
        for table_id, player in current.items():
            log = await event_log(services, table_id)
            logged = Counter(payload["action"] for _, kind, payload, _ in log
                             if kind == "action" and payload["by"] == "player")
            sent = Counter(action for _, _, action in player.ledger)
            assert not Counter(acked_actions(player)) - logged, "an acknowledged action is missing from the log"
            assert not logged - sent, "the log holds an action more often than it was sent"
            await player.close()

    run(scenario())
