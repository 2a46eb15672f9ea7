"""One game world on several server processes: who owns which table, and the messages between them.

``rummy serve --redis URL`` (with a PostgreSQL ``--db``) makes the process one *worker* of a cluster.
Redis holds:

* ``rummy:worker:{id}`` — the worker's heartbeat, renewed every ``heartbeat_seconds`` and expiring
  after ``lease_seconds``: a worker whose key is gone is dead (killed, or stalled that long);
* ``rummy:workers`` — the workers that have been seen, so the others notice when one dies;
* ``rummy:owner:{table}`` — the worker that owns a table, and ``rummy:tables:{id}`` the tables a
  worker owns.  A table is claimed (:data:`CLAIM`, atomically) only when it has no owner or its
  owner is dead;
* one pub/sub channel per worker, ``rummy:inbox:{id}``, for the messages of :mod:`rummy.server.cluster.links`.

Ownership in Redis decides who *should* run a table; the fencing token in PostgreSQL
(:meth:`rummy.server.storage.database.Database.take_over`) decides whose writes *count*: a worker that claims a table
raises its token before reading the log, and a write with an older token is refused, so a worker
that stalled past its lease and wakes up can never add an event behind the new owner's back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis

log = logging.getLogger("rummy.server")

PREFIX = "rummy:"
WORKERS = PREFIX + "workers"
CLOSE_SECONDS = 3.0  # the longest a closing worker waits for Redis at each step

#: Claim table ARGV[2] for worker ARGV[1] unless a live worker owns it; returns the owner after the call.
CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] and redis.call('EXISTS', 'rummy:worker:' .. owner) == 1 then
  return owner
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', 'rummy:tables:' .. ARGV[1], ARGV[2])
if owner and owner ~= ARGV[1] then
  redis.call('SREM', 'rummy:tables:' .. owner, ARGV[2])
end
return ARGV[1]
"""

#: The owner of table ARGV[2], if that worker is alive (else nil).
LIVE_OWNER = """
local owner = redis.call('GET', KEYS[1])
if owner and redis.call('EXISTS', 'rummy:worker:' .. owner) == 1 then
  return owner
end
return false
"""

#: Let table ARGV[2] go, if worker ARGV[1] still owns it.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
redis.call('SREM', 'rummy:tables:' .. ARGV[1], ARGV[2])
return 1
"""


def owner_key(table_id: str) -> str:
    return f"{PREFIX}owner:{table_id}"


def worker_key(worker_id: str) -> str:
    return f"{PREFIX}worker:{worker_id}"


def tables_key(worker_id: str) -> str:
    return f"{PREFIX}tables:{worker_id}"


def inbox(worker_id: str) -> str:
    return f"{PREFIX}inbox:{worker_id}"


Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


class Cluster:
    """This worker's place in the cluster: its heartbeat, its claims and its message bus.

    Messages to another worker are queued and published once per turn of the event loop, all those
    for one worker in one Redis message, in order (one publisher), so a broadcast to the four seats of
    a table costs one publish per worker that holds their sockets.
    """

    def __init__(self, url: str, *, heartbeat_seconds: float = 1.0, lease_seconds: float = 3.0) -> None:
        if lease_seconds <= 2 * heartbeat_seconds:
            raise ValueError("the lease must be longer than two heartbeats")
        self.url = url
        self.worker_id = secrets.token_hex(6)
        self.heartbeat_seconds = heartbeat_seconds
        self.lease_seconds = lease_seconds
        self.redis: aioredis.Redis = aioredis.from_url(url, decode_responses=True)
        self._claim = self.redis.register_script(CLAIM)
        self._live_owner = self.redis.register_script(LIVE_OWNER)
        self._release = self.redis.register_script(RELEASE)
        self._outbox: dict[str, list[dict[str, Any]]] = {}
        self._flush_scheduled = False
        self._flushing: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._dead_seen: set[str] = set()
        #: Set by the user of the cluster: a message for this worker; a worker found dead; this worker
        #: found presumed dead by the others (its heartbeat lapsed).
        self.on_message: Handler = lambda message: None
        self.on_worker_dead: Callable[[str], Awaitable[None]] | None = None
        self.on_lapsed: Callable[[], Awaitable[None]] | None = None
        #: Redis could not be reached (a heartbeat, a publish or the bus failed): the links are broken.
        self.on_unreachable: Callable[[BaseException], None] | None = None
        #: The workers this one has links with: watched even once the others forgot a dead one.
        self.peers: Callable[[], set[str]] = set

    async def start(self) -> None:
        """Register this worker and start listening (call before any claim)."""
        await self._register()
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(inbox(self.worker_id))
        self._tasks = [asyncio.create_task(self._listen(pubsub), name="rummy-cluster-listen"),
                       asyncio.create_task(self._watch_forever(), name="rummy-cluster-watch")]

    async def _register(self) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(worker_key(self.worker_id), "1", px=int(self.lease_seconds * 1000))
            pipe.sadd(WORKERS, self.worker_id)
            await pipe.execute()

    async def close(self) -> None:
        """Leave the cluster: the tables this worker owned are free to be claimed at once."""
        for task in self._tasks:
            task.cancel()
        if self._tasks:  # never hang a shutdown on Redis
            await asyncio.wait(self._tasks, timeout=CLOSE_SECONDS)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.flush(), CLOSE_SECONDS)
        with contextlib.suppress(Exception):  # Redis may be gone: the lease then lapses by itself
            owned = await self.redis.smembers(tables_key(self.worker_id))
            sha = await self.redis.script_load(RELEASE)
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id in owned:
                    pipe.evalsha(sha, 1, owner_key(str(table_id)), self.worker_id, str(table_id))
                pipe.delete(worker_key(self.worker_id), tables_key(self.worker_id))
                pipe.srem(WORKERS, self.worker_id)
                await asyncio.wait_for(pipe.execute(), CLOSE_SECONDS)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.aclose(), CLOSE_SECONDS)

    # -- ownership --------------------------------------------------------------------------

    async def claim(self, table_id: str) -> str:
        """The worker that owns ``table_id`` after claiming it for this one where no live worker does."""
        return str(await self._claim(keys=[owner_key(table_id)], args=[self.worker_id, table_id]))

    async def live_owner(self, table_id: str) -> str | None:
        owner = await self._live_owner(keys=[owner_key(table_id)], args=[table_id])
        return str(owner) if owner else None

    async def release(self, table_id: str) -> None:
        await self._release(keys=[owner_key(table_id)], args=[self.worker_id, table_id])

    async def tables_of(self, worker_id: str) -> list[str]:
        return sorted(str(member) for member in await self.redis.smembers(tables_key(worker_id)))

    # -- liveness -----------------------------------------------------------------------------

    async def _watch_forever(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            try:
                await self.watch_once()
            except Exception as error:  # noqa: BLE001 - Redis away for a moment: try again next beat
                log.warning("cluster heartbeat failed: %s", error)
                self._unreachable(error)

    def _unreachable(self, error: BaseException) -> None:
        if self.on_unreachable is not None:
            self.on_unreachable(error)

    async def watch_once(self) -> None:
        """Renew this worker's heartbeat, then deal with every worker found dead."""
        renewed = await self.redis.set(worker_key(self.worker_id), "1", xx=True, px=int(self.lease_seconds * 1000))
        if not renewed:
            log.warning("worker %s: the heartbeat lapsed; its tables may belong to others now", self.worker_id)
            await self._register()
            if self.on_lapsed is not None:
                await self.on_lapsed()
        workers = sorted({str(member) for member in await self.redis.smembers(WORKERS)} | self.peers())
        async with self.redis.pipeline(transaction=False) as pipe:
            for worker in workers:
                pipe.exists(worker_key(worker))
            alive = await pipe.execute()
        for worker, is_alive in zip(workers, alive, strict=True):
            if is_alive or worker == self.worker_id:
                self._dead_seen.discard(worker)
                continue
            if worker not in self._dead_seen:
                log.info("worker %s is dead: taking over its tables", worker)
                self._dead_seen.add(worker)
            if self.on_worker_dead is not None:
                await self.on_worker_dead(worker)
            if not await self.redis.scard(tables_key(worker)):
                await self.redis.srem(WORKERS, worker)

    # -- messages -------------------------------------------------------------------------------

    def send(self, worker_id: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``worker_id``; it leaves with this turn's batch, after every earlier one."""
        self._outbox.setdefault(worker_id, []).append(message)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._start_flush)

    def _start_flush(self) -> None:
        previous = self._flushing

        async def flush_after_previous() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            await self.flush()

        self._flushing = asyncio.create_task(flush_after_previous())

    async def flush(self) -> None:
        self._flush_scheduled = False
        batch, self._outbox = self._outbox, {}
        if not batch:
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for worker_id, messages in batch.items():
                    pipe.publish(inbox(worker_id), json.dumps(messages, separators=(",", ":")))
                await pipe.execute()
        except Exception as error:  # noqa: BLE001 - the clients of those messages reconnect
            log.error("cluster: could not publish %d message(s): %s", sum(map(len, batch.values())), error)
            self._unreachable(error)

    async def _listen(self, pubsub: Any) -> None:
        async with pubsub:
            while True:
                try:
                    message = await pubsub.get_message(timeout=None)
                except asyncio.CancelledError:
                    raise
                except Exception as error:  # noqa: BLE001 - a Redis hiccup: the link reconnects
                    log.warning("cluster: the message bus failed (%s); listening again", error)
                    self._unreachable(error)
                    await asyncio.sleep(0.5)
                    continue
                if message is None or message.get("type") != "message":
                    continue
                for item in json.loads(message["data"]):
                    try:
                        result = self.on_message(item)
                        if result is not None:
                            await result
                    except Exception:  # noqa: BLE001 - one bad message must not stop the bus
                        log.exception("cluster: failed on message %r", item.get("k"))
