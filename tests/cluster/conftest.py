"""Fixtures of the cluster tests: one PostgreSQL and one Redis for the module, workers per test.

Skipped, saying why, where PostgreSQL or redis-server is not installed (``.ci/run`` installs both).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.services import ServiceMissing, Worker, migrate, postgres, redis_server
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


async def spread_table(workers: list[Worker], names: list[str], **body: Any) -> tuple[str, list[Player]]:
    """A table made on the first worker, its players' sockets spread over the workers in turn (the
    first name hosts), seated, not started."""
    players = [await Player(at(workers[i % len(workers)]), name).login() for i, name in enumerate(names)]  # type: ignore[arg-type]
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
