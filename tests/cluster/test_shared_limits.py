"""The per-player and per-address limits hold for the whole cluster, not per worker: counted in
Redis (rummy.server.cluster.shared_limits; issue 31, item 6)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from tests.cluster.conftest import Services, at
from tests.cluster.services import Worker
from tests.server.conftest import Player, run

pytestmark = pytest.mark.slow

LIMITS = ("--max-tables-per-player", "2", "--max-tables-per-address", "3", "--max-sockets-per-address", "4")


async def create(player: Player) -> Any:
    return await player.http("POST", "/api/tables", json={"variant": "basic", "seats": 2})


async def handshake(worker: Worker, table_id: str) -> tuple[dict[str, Any] | None, int | None, Any]:
    """A socket to the table: (None, None, socket) when accepted (a state came), else the error and the
    close code."""
    socket = await websockets.connect(f"{worker.ws_url}/ws/tables/{table_id}")
    message = json.loads(await socket.recv())
    if message["type"] == "state":
        return None, None, socket
    await socket.wait_closed()
    return message, socket.close_code, None


def test_table_and_socket_limits_hold_across_workers(services: Services, workers: Callable[..., Worker]) -> None:
    one, two = workers(*LIMITS), workers(*LIMITS)

    async def scenario() -> None:
        ann = await Player(at(one), "Ann").login()  # type: ignore[arg-type]
        on_two = Player(at(two), "Ann", cookie=ann.cookie)  # type: ignore[arg-type]
        first = await create(ann)
        assert first.status_code == 201, first.text
        assert (await create(on_two)).status_code == 201
        for player in (ann, on_two):  # two tables, one on each worker: the player's limit is reached
            refused = await create(player)
            assert refused.status_code == 429, refused.text
            assert refused.json()["error"]["code"] == "too-many-tables"
            assert "you host 2 unfinished tables" in refused.json()["error"]["message"]
        bob = await Player(at(two), "Bob").login()  # type: ignore[arg-type]
        assert (await create(bob)).status_code == 201  # the address's third table
        carl = await Player(at(one), "Carl").login()  # type: ignore[arg-type]
        refused = await create(carl)
        assert refused.status_code == 429 and "your address hosts 3" in refused.json()["error"]["message"]

        table_id = first.json()["table_id"]
        sockets = []
        for worker in (one, two, one, two):
            error, code, socket = await handshake(worker, table_id)
            assert error is None, error
            sockets.append(socket)
        for worker in (one, two):
            error, code, _ = await handshake(worker, table_id)
            assert error is not None and (error["code"], code) == ("too-many-connections", 4429)
        await sockets.pop(0).close()  # one place is free again, on either worker
        for _ in range(100):
            error, code, socket = await handshake(two, table_id)
            if error is None:
                sockets.append(socket)
                break
            await asyncio.sleep(0.1)
        assert error is None, "the closed socket's place did not come free"
        for socket in sockets:
            await socket.close()

    run(scenario())
