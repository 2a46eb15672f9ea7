"""A cluster worker's robustness (issue 31, second edition), in-process against the real PostgreSQL and
Redis of the module (tests/cluster/conftest.py):

* the lease is renewed by a thread of its own, so an event loop blocked longer than the lease (a table
  handler stuck in CPU work) keeps it; a lease that cannot be renewed (Redis away), or that the worker
  gives up (its loop stuck for good, or the database away while Redis answers), makes the worker stop
  serving its tables, and it joins again once the cause is gone;
* a dead worker's tables are replayed in a thread, a few at a time: the survivor answers its own table
  while their logs are being replayed;
* a commit whose outcome is unknown (the connection lost during the commit) is resolved by reading the
  log before the table's next write: saved, the table is rebuilt from the log; not saved, it writes on.

No test waits on a clock: each waits for a state (a number of renewals, a callback, a row).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

import asyncpg
import pytest
import redis

from rummy.search.playout import random_game
from rummy.server.cluster.membership import Cluster, owner_key, tables_key, worker_key
from rummy.server.cluster.registry import ADOPTING_AT_ONCE, TableRegistry
from rummy.server.events.log import game_events
from rummy.server.sessions import Session
from rummy.server.settings import ServerSettings
from rummy.server.storage.commit import Commit
from rummy.server.storage.database import Database, normalize_db_url
from rummy.server.tables.bot_runner import BotRunner
from rummy.server.tables.catalog import TableConfig
from rummy.server.tables.connections import Connection
from rummy.server.tables.inbox import ClientCommand, Connected
from rummy.server.tables.protocol import Command
from rummy.server.tables.table import Table
from tests.cluster.conftest import Services, until
from tests.cluster.services import Restartable, ServiceMissing, free_port, redis_server
from tests.server.conftest import run

pytestmark = pytest.mark.slow


@pytest.fixture
def own_redis() -> Iterator[Any]:
    """A Redis of this test alone (the test kills it)."""
    try:
        with redis_server() as server:
            yield server
    except ServiceMissing as missing:
        pytest.skip(str(missing))


#: The lease of a test that is not about losing it: long enough that a machine under any load renews it in time.
UNHURRIED_LEASE = 10.0


def small_cluster(url: str, **options: float) -> Cluster:
    """A cluster member with a heartbeat every tenth of a second and a lease of one second (the tests of a
    lease that lapses), or as ``options`` say."""
    return Cluster(url, **{"heartbeat_seconds": 0.1, "lease_seconds": 1.0, **options})


async def until_async(condition: Callable[[], bool]) -> None:
    await until(condition, timeout=30)


# -- the lease ------------------------------------------------------------------------------------


def test_the_lease_outlives_an_event_loop_blocked_longer_than_the_lease(services: Services) -> None:
    """The loop spins in CPU work (as a slow move would) until the lease thread has renewed the lease
    twelve times, longer than the lease: the key never lapsed, and the worker never lost its lease."""

    async def scenario() -> None:
        cluster = small_cluster(services.redis_url)
        lapses: list[int] = []

        async def lapsed() -> None:
            lapses.append(1)

        cluster.on_lapsed = lapsed
        await cluster.start()
        watcher = redis.Redis.from_url(services.redis_url)
        try:
            lease = cluster.lease
            first = lease.renewals
            blocked_at = time.monotonic()
            seen_alive = 0
            while lease.renewals < first + 12:  # the loop holds the GIL; the thread gets it between checks
                sum(range(10_000))
                if lease.renewals > first + seen_alive:
                    seen_alive += 1
                    assert watcher.exists(worker_key(cluster.worker_id)), "the lease lapsed while the loop was blocked"
            assert time.monotonic() - blocked_at > cluster.lease_seconds  # a loop-bound heartbeat would have lapsed
            await asyncio.sleep(0)  # whatever the thread told the loop runs now
            assert cluster.holds_lease() and lease.losses == 0 and not lapses
        finally:
            watcher.close()
            await cluster.close()

    run(scenario())


def test_a_worker_that_cannot_renew_its_lease_stops_serving(own_redis: Any) -> None:
    """Redis killed: once a lease has passed without a renewal, the worker holds no lease (it answers
    every request with the outage error) and its tables are let go (``on_lapsed``)."""

    async def scenario() -> None:
        cluster = small_cluster(own_redis.url)
        lapses: list[int] = []

        async def lapsed() -> None:
            lapses.append(1)

        cluster.on_lapsed = lapsed
        await cluster.start()
        try:
            assert cluster.holds_lease()
            os.kill(own_redis.pid, signal.SIGKILL)
            await until_async(lambda: bool(lapses))
            await until_async(lambda: cluster.lease.acknowledged == 1)
            cluster.lease.beat()  # Redis still away: the worker stays out, and loses nothing more
            assert not cluster.holds_lease() and cluster.lease.losses == 1 and lapses == [1]
            with pytest.raises(redis.exceptions.ConnectionError):
                cluster.require_lease()
        finally:
            await cluster.close()

    run(scenario())


def test_the_bus_says_when_it_listens_and_which_messages_nobody_heard(restartable_redis: Restartable) -> None:
    """Pub/sub keeps no message for a worker that is not subscribed: PUBLISH's count of listeners tells the
    sender (``on_undelivered``), and a worker whose bus lost Redis links no socket until its inbox is
    subscribed again (``require_listening``), which it is once Redis is back."""

    async def scenario() -> None:
        cluster = small_cluster(restartable_redis.url, lease_seconds=UNHURRIED_LEASE)
        lost: list[tuple[str, list[dict[str, Any]]]] = []
        cluster.on_undelivered = lambda worker, messages: lost.append((worker, messages))
        await cluster.start()
        try:
            await until_async(lambda: cluster.listening)
            cluster.send(cluster.worker_id, {"k": "joined", "w": "x"})  # heard: by this worker's own bus
            cluster.send("nobody", {"k": "cmd", "c": "w.1", "m": {"id": 1, "type": "ping"}})
            await until_async(lambda: bool(lost))
            assert lost == [("nobody", [{"k": "cmd", "c": "w.1", "m": {"id": 1, "type": "ping"}}])]
            restartable_redis.kill()
            await until_async(lambda: not cluster.listening)
            with pytest.raises(redis.exceptions.ConnectionError):
                cluster.require_listening()
            restartable_redis.start()
            await until_async(lambda: cluster.listening)
            cluster.require_listening()
        finally:
            await cluster.close()

    run(scenario())


def test_a_worker_cut_off_from_the_database_gives_its_lease_up(services: Services) -> None:
    """The worker's database probe fails (a database nothing listens for) for longer than
    ``db_grace_seconds`` while Redis answers: the worker deletes its heartbeat key (the others take its
    tables at once) and stops serving; the database back, it joins again."""

    async def scenario() -> None:
        away = Database(normalize_db_url(f"postgresql://rummy@127.0.0.1:{free_port()}/rummy"))
        good = Database(normalize_db_url(services.db_url))
        cluster = small_cluster(services.redis_url, db_grace_seconds=0.2)
        await cluster.start()
        registry = TableRegistry(away, BotRunner(0), ServerSettings(), cluster)
        watcher = redis.Redis.from_url(services.redis_url)
        registry._probe = asyncio.create_task(registry.probe_database_forever())  # as restore_unfinished does
        try:
            await until_async(lambda: cluster.lease.losses == 1 and not watcher.exists(worker_key(cluster.worker_id)))
            assert not cluster.holds_lease() and cluster.lease.cause == "the database"
            registry.db = good
            await until_async(lambda: cluster.holds_lease() and bool(watcher.exists(worker_key(cluster.worker_id))))
            assert cluster.lease.losses == 1
        finally:
            watcher.close()
            await registry.close()
            await cluster.close()
            await away.close()
            await good.close()

    run(scenario())


def test_a_worker_whose_loop_is_stuck_for_good_lets_its_lease_go(services: Services) -> None:
    """The loop blocked past ``stall_seconds``: the lease thread deletes the key while the loop is still
    blocked; once the loop runs, it lets its tables go, then the worker joins again."""

    async def scenario() -> None:
        cluster = small_cluster(services.redis_url, stall_seconds=0.5)
        events: list[str] = []

        async def lapsed() -> None:
            events.append("lapsed")

        async def regained() -> None:
            events.append("regained")

        cluster.on_lapsed, cluster.on_regained = lapsed, regained
        await cluster.start()
        watcher = redis.Redis.from_url(services.redis_url)
        try:
            while watcher.exists(worker_key(cluster.worker_id)):  # the loop is blocked here
                sum(range(10_000))
            await until_async(lambda: events == ["lapsed", "regained"])
            assert cluster.holds_lease() and watcher.exists(worker_key(cluster.worker_id))
        finally:
            watcher.close()
            await cluster.close()

    run(scenario())


# -- failover replay ------------------------------------------------------------------------------


Row = dict[str, Any]


def long_table(db_id: str, seed: int) -> tuple[Row, list[Row], list[tuple[int, str, Row]]]:
    """A may-i table of four whose log is a whole game (hundreds of events): its row, seats and events."""
    game = random_game("may-i", 4, seed=seed)
    config = TableConfig.from_request({"variant": "may-i", "seats": 4})
    row = {"id": db_id, "variant": "may-i", "options": config.options, "config": config.to_json(), "host": "p0",
           "status": "playing"}
    seats = [{"seat": i, "kind": "human", "player_id": f"p{i}", "name": name, "level": None}
             for i, name in enumerate(game.players)]
    return row, seats, game_events(game)


class Probe(Connection):
    """A client of a table in this process: its messages are read from the queue a socket's writer reads."""

    def __init__(self, session: Session | None) -> None:
        super().__init__(None, session, ServerSettings())
        self.serial = 0

    async def ask(self, table: Table, kind: str, **fields: Any) -> dict[str, Any]:
        """Post a command to the table and wait for its answer (states on the way are skipped)."""
        self.serial += 1
        command_id = self.serial
        table.post(ClientCommand(self, Command(command_id, kind, **fields)))
        while True:
            text = await self._outbox.get()
            assert text is not None, "the table closed the connection"
            message = json.loads(text)
            if message.get("id") == command_id:
                return dict(message)

    def drain(self) -> list[dict[str, Any] | None]:
        messages: list[dict[str, Any] | None] = []
        while not self._outbox.empty():
            text = self._outbox.get_nowait()
            messages.append(json.loads(text) if text is not None else None)
        return messages


async def made(registry: TableRegistry, config: TableConfig, host: Session) -> Table:
    created: Any = await registry.create(config, host)
    return registry.tables[created if isinstance(created, str) else created.id]


async def started_basic_table(registry: TableRegistry) -> tuple[Table, list[Probe]]:
    """A two-seat basic table with Ann (seat 0) and Bob (seat 1) connected, joined and its game started (the
    database writer's connection is then open); the table and the two clients."""
    ann, bob = Session("p-ann", "Ann"), Session("p-bob", "Bob")
    table = await made(registry, TableConfig.from_request({"variant": "basic", "seats": 2}), ann)
    clients = [Probe(ann), Probe(bob)]
    for client in clients:
        table.post(Connected(client))
    assert (await clients[1].ask(table, "join"))["type"] == "ack"
    assert (await clients[0].ask(table, "start"))["type"] == "ack"
    return table, clients


def test_a_survivor_answers_its_own_table_while_it_replays_a_dead_worker_s(services: Services) -> None:
    """A dead worker owned six tables with whole games in their logs; the survivor finds it dead at its
    next heartbeat and replays them, at most ``ADOPTING_AT_ONCE`` at a time and in a thread: its own
    table answers commands while those logs are being replayed."""

    async def scenario() -> None:
        db = Database(normalize_db_url(services.db_url))
        await db.start()
        cluster = small_cluster(services.redis_url)
        await cluster.start()
        registry = TableRegistry(db, BotRunner(0), ServerSettings(), cluster)
        watcher = redis.Redis.from_url(services.redis_url, decode_responses=True)
        dead = "dead-" + cluster.worker_id
        orphans = [f"replay-{cluster.worker_id}-{i}" for i in range(6)]
        try:
            for i, table_id in enumerate(orphans):
                row, seats, events = long_table(table_id, seed=i)
                await db.commit(Commit(table_id, seats=seats, new_table=row, fence=1))
                await db.commit(Commit(table_id, events, fence=1))
            ann = Session("p-ann", "Ann")
            own = await made(registry, TableConfig.from_request({"variant": "basic", "seats": 2}), ann)
            client = Probe(ann)
            own.post(Connected(client))
            assert (await client.ask(own, "ping"))["type"] == "ack"
            answered_in_replay, most_at_once = 0, 0
            with watcher.pipeline() as pipe:  # the dead worker, as Redis remembers it
                for table_id in orphans:
                    pipe.set(owner_key(table_id), dead)
                    pipe.sadd(tables_key(dead), table_id)
                pipe.sadd("rummy:workers", dead)
                pipe.execute()
            while not all(table_id in registry.tables for table_id in orphans):
                reply = await client.ask(own, "ping")
                assert reply["type"] == "ack", reply
                most_at_once = max(most_at_once, registry.replaying)
                answered_in_replay += registry.replaying > 0
            assert answered_in_replay > 0, "the own table answered nothing while the dead worker's logs replayed"
            assert most_at_once <= ADOPTING_AT_ONCE
            assert all(registry.tables[t].status == "finished" and registry.tables[t].seq > 100 for t in orphans)
            assert not watcher.scard(tables_key(dead))
        finally:
            watcher.close()
            await registry.close()
            await cluster.close()
            await db.close()

    run(scenario())


# -- unknown commit outcomes ----------------------------------------------------------------------


class LostDuringCommit:
    """The event-log writer's asyncpg connection, once: the statement is sent and runs to its end (or is
    never sent), then the connection is found lost, as when the network fails during COMMIT."""

    def __init__(self, connection: Any, *, committed: bool) -> None:
        self.connection, self.committed = connection, committed

    def is_closed(self) -> bool:
        return bool(self.connection.is_closed())

    async def fetch(self, *args: Any) -> Any:
        if self.committed:
            await self.connection.fetch(*args)
        raise asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    async def close(self) -> None:
        await self.connection.close()


async def logged(services: Services, table_id: str) -> list[tuple[int, int]]:
    """The table's events as (seq, the writer's fencing token)."""
    connection = await asyncpg.connect(services.db_url)
    try:
        rows = await connection.fetch("SELECT seq, fence FROM events WHERE table_id = $1 ORDER BY seq", table_id)
    finally:
        await connection.close()
    return [(row["seq"], row["fence"]) for row in rows]


async def logged_seqs(services: Services, table_id: str) -> list[int]:
    return [seq for seq, _ in await logged(services, table_id)]


@pytest.mark.parametrize("fenced", [False, True], ids=["one-server", "cluster"])
@pytest.mark.parametrize("committed", [True, False], ids=["committed", "not-committed"])
def test_an_unknown_commit_outcome_is_read_from_the_log_before_the_next_write(services: Services, committed: bool,
                                                                              fenced: bool) -> None:
    """A move whose commit lost its connection is answered ``unavailable`` (never "nothing changed"),
    and the table's next write reads the log first: if the move is there, the table is rebuilt from
    the log (its clients reconnect and find the move made); if not, the move is made again under the
    same seq (on a cluster, under the fencing token the owner raised before reading).  Either way the
    log has every seq once, with no gap."""

    async def scenario() -> None:
        db = Database(normalize_db_url(services.db_url))
        await db.start()
        cluster = small_cluster(services.redis_url, lease_seconds=UNHURRIED_LEASE) if fenced else None
        if cluster is not None:
            await cluster.start()
        registry = TableRegistry(db, BotRunner(0), ServerSettings(), cluster)
        try:
            table, clients = await started_basic_table(registry)  # the writer's connection is open now
            game = table.game
            assert game is not None and db._postgres is not None
            action = game.legal_actions()[0]
            mover, move = clients[action.seat], str(action)
            seq = table.seq
            db._postgres._connection = LostDuringCommit(db._postgres._connection, committed=committed)
            reply = await mover.ask(table, "action", seq=seq, action=move)
            assert (reply["type"], reply["code"]) == ("error", "unavailable"), reply
            assert "nothing changed" not in reply["message"]
            assert table.in_doubt and table.seq == seq
            assert await logged_seqs(services, table.id) == list(range(1, seq + 1 + committed))
            told = mover.drain()  # every client was told (the database went away), then closed: 1013
            assert told[-1] is None and told[-2] is not None and told[-2]["code"] == "unavailable", told
            mover = Probe(clients[action.seat].session)  # the player reconnects
            table.post(Connected(mover))
            reply = await mover.ask(table, "action", seq=seq, action=move)  # the next write settles first
            if committed:
                assert (reply["type"], reply["code"]) == ("error", "unavailable"), reply
                await until_async(lambda: table.id not in registry.tables)
                again = await registry.get(table.id)  # as a client reconnecting finds it
                assert again is not None and again is not table and again.seq == seq + 1 and not again.in_doubt
                game = again.game
                assert game is not None
                action = game.legal_actions()[0]
                client = Probe(clients[action.seat].session)
                again.post(Connected(client))
                reply = await client.ask(again, "action", seq=again.seq, action=str(action))
                assert reply["type"] == "ack", reply
                assert await logged_seqs(services, table.id) == list(range(1, seq + 3))
            else:
                assert reply["type"] == "ack", reply
                assert not table.in_doubt and table.seq == seq + 1
                assert await logged_seqs(services, table.id) == list(range(1, seq + 2))
                if fenced:
                    assert table.fence == 2 and (await logged(services, table.id))[-1] == (seq + 1, 2)
        finally:
            await registry.close()
            if cluster is not None:
                await cluster.close()
            await db.close()

    run(scenario())
