"""Fixtures of the cluster tests: one PostgreSQL and one Redis for the module, workers per test.

Skipped, saying why, where PostgreSQL or redis-server is not installed (``.ci/run`` installs both).
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.cluster.services import (
    Restartable,
    ServiceMissing,
    Worker,
    migrate,
    postgres,
    redis_server,
    redis_server_bin,
)
from tests.server.conftest import Player


@dataclass
class Services:
    db_url: str
    redis_url: str
    pg_pid: int = 0  # PostgreSQL's postmaster (tests/cluster/test_outages.py stops and starts it)
    pg_data: Path = Path()


@pytest.fixture(scope="module")
def services() -> Iterator[Services]:
    try:
        with postgres() as db, redis_server() as redis:
            migrate(db.url)
            yield Services(db.url, redis.url, db.pid)
    except ServiceMissing as missing:
        pytest.skip(f"the cluster tests need PostgreSQL and Redis: {missing}")


@pytest.fixture
def restartable_redis() -> Iterator[Restartable]:
    """A Redis of the test alone, which it may kill and start again (empty) on the same port."""
    try:
        redis_server_bin()
    except ServiceMissing as missing:
        pytest.skip(str(missing))
    server = Restartable()
    server.start()
    try:
        yield server
    finally:
        server.kill()
        shutil.rmtree(server.root, ignore_errors=True)


@pytest.fixture
def workers(services: Services) -> Iterator[Callable[..., Worker]]:
    """``workers()`` starts one more ``rummy serve --redis`` worker; all are stopped after the test."""
    started: list[Worker] = []

    def start(*flags: str, **options: Any) -> Worker:
        worker = Worker(services.db_url, services.redis_url, *flags, **options)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


@dataclass
class Endpoint:
    """A worker as the test clients of tests/server see a server."""

    base_url: str
    ws_url: str
    db_path: Path = Path("unused")


def at(worker: Worker) -> Endpoint:
    return Endpoint(worker.base_url, worker.ws_url)


def live_routes(redis_url: str) -> dict[str, str]:
    """The routes of the live workers as Redis holds them: worker id -> route (its own port)."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        known = {str(worker): str(route) for worker, route in client.hgetall("rummy:routes").items()}
        return {worker: route for worker, route in known.items() if client.exists(f"rummy:worker:{worker}")}
    finally:
        client.close()


def owner_routes(redis_url: str, table_ids: list[str]) -> dict[str, str | None]:
    """The route of each table's owner (None: nobody owns it)."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        owners = client.mget([f"rummy:owner:{table_id}" for table_id in table_ids])
        known = {str(worker): str(route) for worker, route in client.hgetall("rummy:routes").items()}
    finally:
        client.close()
    return {table_id: known.get(str(owner)) if owner else None
            for table_id, owner in zip(table_ids, owners, strict=True)}


async def create_owned(player: Player, worker: Worker, redis_url: str, live: int, **body: Any) -> str:
    """A table made through ``worker`` (a single worker, whose route is its port) and placed on it, once
    Redis lists ``live`` live workers: a table placed on another is left and one more made (tables are
    spread over the workers by hashing their random ids).  For the tests that stop a table's owner."""
    await until(lambda: len(live_routes(redis_url)) >= live)
    for _ in range(64):
        response = await player.http("POST", "/api/tables", json=body)
        assert response.status_code == 201, response.text
        if response.json()["worker"] == str(worker.port):
            table_id: str = response.json()["table_id"]
            return table_id
    raise AssertionError(f"no table was placed on worker {worker.port}")


async def spread_table(workers: list[Worker], names: list[str], **body: Any) -> tuple[str, list[Player]]:
    """A table made on the first worker and owned by it (when it is a single worker), its players'
    sockets spread over the workers in turn (the first name hosts), seated, not started."""
    players = [await Player(at(workers[i % len(workers)]), name).login() for i, name in enumerate(names)]  # type: ignore[arg-type]
    if workers[0].count == 1:
        live = sum(w.count for w in {id(w): w for w in workers}.values())  # a worker may be listed twice
        table_id = await create_owned(players[0], workers[0], workers[0].redis_url, live, **body)
    else:
        table_id = await players[0].create_table(**body)
    await players[0].connect(table_id)
    for player in players[1:]:
        await player.connect(table_id)
        reply = await player.reply_to(await player.send("join"))
        assert reply["type"] == "ack", reply
    return table_id, players


async def until(condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("the condition did not come true")
        await asyncio.sleep(0.05)
