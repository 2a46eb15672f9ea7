"""Owner-affine routing (issue 31): tables are placed over the live workers by rendezvous hashing, a
client that follows ``moved`` plays on the worker running its table, and tables move when a worker
leaves or comes back, with no acknowledged action lost (real servers: tests/cluster/services.py).

The clients here connect as the browser does (``?worker=``, following ``moved``); with no proxy in
front, a ``moved`` is followed to the worker's own port, which is its route.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import Callable

import httpx
import pytest
import websockets

from rummy.server.cluster.placement import rendezvous
from tests.cluster.conftest import Endpoint, Services, live_routes, owner_routes, until
from tests.cluster.services import Worker
from tests.cluster.test_cluster import Tracked, acked_actions, event_log
from tests.server.conftest import Player, run, start_game

pytestmark = pytest.mark.slow


def routes(services: Services) -> dict[str, str]:
    return live_routes(services.redis_url)


def owners(services: Services, table_ids: list[str]) -> dict[str, str | None]:
    return owner_routes(services.redis_url, table_ids)


def route_endpoint(route: str) -> Endpoint:
    return Endpoint(f"http://127.0.0.1:{route}", f"ws://127.0.0.1:{route}")


async def follow(player: Player, table_id: str, start: Endpoint) -> list[str]:
    """Connect ``player`` as the browser does, from ``start``: naming a worker and following ``moved`` to
    the route it names; returns the routes it was sent to.  A close before the first state (the
    table being handed over meanwhile) is tried again."""
    headers = {"Cookie": f"rummy_session={player.cookie}"}
    endpoint, hint, sent = start, "", []
    for _ in range(20):
        socket = await websockets.connect(f"{endpoint.ws_url}/ws/tables/{table_id}?worker={hint}",
                                          additional_headers=headers, max_size=2**22)
        try:
            first = json.loads(await socket.recv())
        except websockets.ConnectionClosed:
            await asyncio.sleep(0.1)  # the worker was handing the table over: ask again
            continue
        if first["type"] == "error" and first["code"] == "moved":
            await socket.wait_closed()
            assert socket.close_code == 4307
            hint = first["worker"]
            sent.append(hint)
            endpoint = route_endpoint(hint)
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
    """``--workers 2``: the tables made through the shared port are placed over both workers (as
    rendezvous hashing says, each started by its own worker); a socket opened on the other worker is
    sent to the owner (``moved``, 4307) and the game is played there; HTTP asked of the other
    worker answers 307 to the owner."""
    server = workers(workers=2)
    shared = Endpoint(server.base_url, server.ws_url)

    async def scenario() -> None:
        await until(lambda: len(routes(services)) == 2)
        live = sorted(routes(services).values())
        ann = await Tracked(shared, "Ann").login()  # type: ignore[arg-type]
        ann.ledger = []
        made: dict[str, str] = {}
        async with httpx.AsyncClient(base_url=server.base_url, cookies={"rummy_session": ann.cookie}) as http:
            for _ in range(12):
                answer = (await http.post("/api/tables", json={"variant": "basic", "seats": 2,
                                                               "bots": {"1": "easy"}, "claim_seconds": 0})).json()
                made[answer["table_id"]] = answer["worker"]
        assert all(route == rendezvous(table_id, live) for table_id, route in made.items())
        assert set(made.values()) == set(live), "both workers were given tables"
        await until(lambda: owners(services, list(made)) == made)  # each started by its own worker

        table_id, owner = next(iter(made.items()))
        other = next(route for route in live if route != owner)
        assert await follow(ann, table_id, route_endpoint(other)) == [owner]
        assert ann.server.base_url.endswith(f":{owner}")
        async with httpx.AsyncClient(base_url=route_endpoint(other).base_url) as http:
            asked = await http.get(f"/api/tables/{table_id}?worker=")
            assert asked.status_code == 307 and asked.headers["location"].endswith(f"?worker={owner}")
            assert (await http.get(f"/api/tables/{table_id}")).status_code == 200  # a client that does not follow
        await start_game(ann)
        await ann.play(random.Random(1), until=lambda: len(acked_actions(ann)) >= 2)  # on the owner
        await ann.close()

    run(scenario())


def test_tables_move_when_a_worker_leaves_and_come_back_when_it_returns(
        services: Services, workers: Callable[..., Worker]) -> None:
    """Two workers; one is killed mid-game: the survivor takes its tables over and their games go on.
    It comes back on its port (its route): the tables placed on it move back.  Every acknowledged
    action is in the log."""
    first, second = workers(), workers()

    async def scenario() -> None:
        await until(lambda: len(routes(services)) == 2)
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

