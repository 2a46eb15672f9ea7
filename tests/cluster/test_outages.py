"""Redis or PostgreSQL away: every answer says so (503 ``unavailable`` with ``Retry-After``, a refused
handshake with ``unavailable`` and close code 1013), every connected client is told (an ``unavailable``
error, then 1013), and after a PostgreSQL restart the first request is served (issue 31, item 5).

Each test starts its own Redis (killed by the test) or stops and restarts the module's PostgreSQL.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from tests.cluster.conftest import Services, at, create_owned
from tests.cluster.services import ServiceMissing, Worker, postgres_bin, redis_server
from tests.server.conftest import Player, run

pytestmark = pytest.mark.slow


@pytest.fixture
def own_redis() -> Iterator[Any]:
    """A Redis of this test alone (the test kills it)."""
    try:
        with redis_server() as redis:
            yield redis
    except ServiceMissing as missing:
        pytest.skip(str(missing))


def pg_ctl(services: Services, action: str) -> None:
    """``pg_ctl stop`` or ``start`` on the module's PostgreSQL (its data folder is the postmaster's
    working directory; ``start`` reuses the options it was started with)."""
    data = Path(os.readlink(f"/proc/{services.pg_pid}/cwd")) if action == "stop" else services.pg_data
    services.pg_data = data
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    command = [*as_user, postgres_bin("pg_ctl"), "-D", str(data), "-w", "-m", "fast", action]
    if action == "start":
        words = shlex.split((data / "postmaster.opts").read_text())[1:]  # the program, then its options
        at_data = words.index("-D")
        options = words[:at_data] + words[at_data + 2:]
        command += ["-o", " ".join(options), "-l", str(data.parent / "log")]
    subprocess.run(command, check=True, capture_output=True)
    if action == "start":
        services.pg_pid = int((data / "postmaster.pid").read_text().split()[0])


async def handshake(worker: Worker, table_id: str, cookie: str) -> tuple[dict[str, Any], int | None]:
    """The one message and the close code of a handshake the server refuses."""
    async with websockets.connect(f"{worker.ws_url}/ws/tables/{table_id}",
                                  additional_headers={"Cookie": f"rummy_session={cookie}"}) as refused:
        message = json.loads(await refused.recv())
        await refused.wait_closed()
        return message, refused.close_code


def assert_unavailable(response: Any) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["error"]["code"] == "unavailable", response.text
    assert int(response.headers["Retry-After"]) > 0


def test_redis_away(services: Services, own_redis: Any) -> None:
    """Redis killed: a linked client gets ``unavailable`` and 1013; ``POST /api/tables`` answers 503
    with ``Retry-After``; a handshake is refused with ``unavailable`` and 1013."""
    owner = Worker(services.db_url, own_redis.url)
    gateway = Worker(services.db_url, own_redis.url)

    async def scenario() -> None:
        ann = await Player(at(owner), "Ann").login()  # type: ignore[arg-type]
        table_id = await create_owned(ann, owner, own_redis.url, 2, variant="basic", seats=2)
        await ann.connect(table_id)
        bob = await Player(at(gateway), "Bob").login()  # type: ignore[arg-type]
        await bob.connect(table_id)  # linked to the owner through Redis
        os.kill(own_redis.pid, signal.SIGKILL)
        told = await bob.wait_for(lambda m: m["type"] == "error", timeout=30)
        assert told["code"] == "unavailable", told
        assert bob._reader is not None
        await bob._reader
        assert bob.socket.close_code == 1013
        assert_unavailable(await bob.http("POST", "/api/tables", json={"variant": "basic", "seats": 2}))
        message, code = await handshake(gateway, table_id, bob.cookie)
        assert (message["type"], message["code"], code) == ("error", "unavailable", 1013)
        await ann.close()

    try:
        run(scenario())
    finally:
        owner.stop()
        gateway.stop()


def test_postgres_away_and_back(services: Services, workers: Any) -> None:
    """PostgreSQL stopped: an action is answered ``unavailable`` and the client then gets an
    ``unavailable`` error and 1013; ``POST /api/tables`` answers 503 with ``Retry-After``.  Started again:
    the very first request is served (the pool tests its connections), and so is a new socket."""
    worker = workers()

    async def scenario() -> None:
        ann = await Player(at(worker), "Ann").login()  # type: ignore[arg-type]
        table_id = await ann.create_table(variant="basic", seats=2, bots={"1": "easy"})
        await ann.connect(table_id)
        assert (await ann.http("GET", "/api/tables")).status_code == 200  # the pool holds a connection now
        pg_ctl(services, "stop")
        try:
            reply = await ann.reply_to(await ann.send("start"), timeout=30)
            assert (reply["type"], reply["code"]) == ("error", "unavailable"), reply
            told = await ann.wait_for(lambda m: m["type"] == "error" and "id" not in m, timeout=30)
            assert told["code"] == "unavailable", told
            assert ann._reader is not None
            await ann._reader
            assert ann.socket.close_code == 1013
            assert_unavailable(await ann.http("POST", "/api/tables", json={"variant": "basic", "seats": 2}))
        finally:
            pg_ctl(services, "start")
        created = await ann.http("POST", "/api/tables", json={"variant": "basic", "seats": 2})
        assert created.status_code == 201, created.text
        assert (await ann.http("GET", "/api/tables")).status_code == 200
        back = await Player(at(worker), "Ann", cookie=ann.cookie).connect(table_id)  # type: ignore[arg-type]
        reply = await back.reply_to(await back.send("start"))
        assert reply["type"] == "ack", reply
        await back.close()
        later = await ann.create_table(variant="basic", seats=2, bots={"1": "easy"})
        again = await Player(at(worker), "Ann", cookie=ann.cookie).connect(later)  # type: ignore[arg-type]
        pg_ctl(services, "stop")  # a restart with no request meanwhile: every connection held is dead
        pg_ctl(services, "start")
        for path in ("/api/tables", "/api/history"):
            first = await again.http("GET", path)
            assert first.status_code == 200, first.text
        reply = await again.reply_to(await again.send("start"))  # the event log's own connection too
        assert reply["type"] == "ack", reply
        await again.close()

    run(scenario())
