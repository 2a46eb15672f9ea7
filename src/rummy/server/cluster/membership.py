"""One game world on several server processes: who owns which table, and the messages between them.

``rummy serve --redis URL`` (with a PostgreSQL ``--db``) makes the process one *worker* of a cluster.
Redis holds:

* ``rummy:worker:{id}`` — the worker's heartbeat, renewed every ``heartbeat_seconds`` by a thread of
  its own (:mod:`rummy.server.cluster.lease`: the games on the event loop cannot starve it) and
  expiring after ``lease_seconds``: a worker whose key is gone is dead (killed, cut off from Redis,
  stuck, or unable to reach the database), and a worker that lost its lease stops serving its tables;
* ``rummy:workers`` — the workers that have been seen, so the others notice when one dies;
* ``rummy:owner:{table}`` — the worker that owns a table, and ``rummy:tables:{id}`` the tables a
  worker owns.  A table is claimed (:data:`CLAIM`, atomically) only when it has no owner or its
  owner is dead;
* one pub/sub channel per worker, ``rummy:inbox:{id}``, for the messages of :mod:`rummy.server.cluster.links`.

A worker is found dead when its key is gone: its lease lapsed (it was killed, cut off, or stuck), or
the supervisor that forked it saw it end (``rummy serve --workers N``: :func:`announce_dead`, called
the moment ``waitpid`` returns).  The supervisor deletes the key and tells every other worker
(``dead``), which looks at once instead of at its next heartbeat, so a killed worker's tables are
taken over within a fraction of a second rather than a lease; the lease remains the way a worker
whose whole host vanished is found.  The supervisor knows the id because it chose it (the worker
takes it as ``worker_id``).

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
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import redis
import redis.asyncio as aioredis
import redis.exceptions
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from rummy.server.cluster.lease import Lease

log = logging.getLogger("rummy.server")

PREFIX = "rummy:"
WORKERS = PREFIX + "workers"
CLOSE_SECONDS = 3.0  # the longest a closing worker waits for Redis at each step
#: Redis connections of a worker's event loop (calls beyond wait for one, at most POOL_WAIT_SECONDS, then
#: fail as Redis being away); the lease thread has one more of its own.
REDIS_CONNECTIONS = 50
POOL_WAIT_SECONDS = 5.0

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

#: A new table, placed where the load is least: KEYS are the owner keys of candidate table ids, one placed on
#: each live worker; ARGV the workers, then the ids, in the same order.  Claims the id of the worker owning the
#: fewest tables (the first of those tied) for it; returns its index, or -1 when that id is taken already.
CLAIM_NEW = """
local count = #KEYS
local best, fewest = 1, nil
for i = 1, count do
  local owned = redis.call('SCARD', 'rummy:tables:' .. ARGV[i])
  if fewest == nil or owned < fewest then
    best, fewest = i, owned
  end
end
if redis.call('EXISTS', KEYS[best]) == 1 then
  return -1
end
redis.call('SET', KEYS[best], ARGV[best])
redis.call('SADD', 'rummy:tables:' .. ARGV[best], ARGV[count + best])
return best - 1
"""

#: Give table ARGV[2], claimed by worker ARGV[1] but not loaded (the database failed), back to the dead
#: worker ARGV[3], so that the survivors try it again at their next heartbeat.
GIVE_BACK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[3])
  redis.call('SADD', 'rummy:tables:' .. ARGV[3], ARGV[2])
  redis.call('SREM', 'rummy:tables:' .. ARGV[1], ARGV[2])
end
return 1
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


#: Worker ARGV[1] has ended (its supervisor saw it): delete its heartbeat key KEYS[1] and publish
#: ARGV[2] (a ``dead`` message) to every other worker's inbox.
DEAD = """
redis.call('DEL', KEYS[1])
for _, worker in ipairs(redis.call('SMEMBERS', 'rummy:workers')) do
  if worker ~= ARGV[1] then
    redis.call('PUBLISH', 'rummy:inbox:' .. worker, ARGV[2])
  end
end
return 1
"""
#: The longest the supervisor waits for Redis when it announces a death (the lease is the fallback).
ANNOUNCE_SECONDS = 1.0


def owner_key(table_id: str) -> str:
    return f"{PREFIX}owner:{table_id}"


def worker_key(worker_id: str) -> str:
    return f"{PREFIX}worker:{worker_id}"


def tables_key(worker_id: str) -> str:
    return f"{PREFIX}tables:{worker_id}"


def inbox(worker_id: str) -> str:
    return f"{PREFIX}inbox:{worker_id}"


Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


def new_worker_id() -> str:
    return secrets.token_hex(6)


def announce_dead(url: str, worker_id: str) -> None:
    """Called by a supervisor once worker ``worker_id``, which it forked, has ended (``waitpid``): the
    worker is gone for sure, so its lease ends now and the other workers are told to take its tables
    over at once.  Raises :class:`redis.exceptions.RedisError` when Redis cannot be reached (the lease
    then lapses by itself)."""
    client = redis.Redis.from_url(url, socket_timeout=ANNOUNCE_SECONDS, socket_connect_timeout=ANNOUNCE_SECONDS)
    try:
        client.eval(DEAD, 1, worker_key(worker_id), worker_id,
                    json.dumps([{"k": "dead", "w": worker_id}], separators=(",", ":")))
    finally:
        client.close()


class NoLease(redis.exceptions.ConnectionError):
    """This worker holds no lease just now (Redis or the database away, or it stalled): it serves no
    table until it has one again; a request meets the outage answer (503, close 1013)."""


class NotListening(redis.exceptions.ConnectionError):
    """This worker's message bus is not subscribed just now (Redis came back a moment ago): it links no
    socket to another worker's table, since the answers could not reach it (503, close 1013)."""


class Cluster:
    """This worker's place in the cluster: its heartbeat, its claims and its message bus.

    Messages to another worker are queued and published once per turn of the event loop, all those
    for one worker in one Redis message, in order (one publisher), so a broadcast to the four seats of
    a table costs one publish per worker that holds their sockets.
    """

    def __init__(self, url: str, *, heartbeat_seconds: float = 1.0, lease_seconds: float = 3.0,
                 stall_seconds: float | None = None, db_grace_seconds: float | None = None,
                 worker_id: str | None = None) -> None:
        if lease_seconds <= 2 * heartbeat_seconds:
            raise ValueError("the lease must be longer than two heartbeats")
        self.url = url
        self.worker_id = worker_id or new_worker_id()  # a supervisor chooses it (announce_dead)
        self.heartbeat_seconds = heartbeat_seconds
        self.lease_seconds = lease_seconds
        # A blocking pool: a burst of Redis calls (a hundred tables claimed at once) waits for a free
        # connection instead of failing with "Too many connections" (redis-py's pool holds at most 100).
        # A pooled connection left from before Redis restarted fails at its next use ("Connection closed by
        # server"): that call is made once more, on a new connection.  Else a batch of messages published on it
        # would be lost while Redis is back, and the sockets they answer, held by other workers, would wait
        # unanswered (only this worker would take Redis for away).  A Redis really away refuses the new
        # connection at once, and the call fails as before.
        pool = aioredis.BlockingConnectionPool.from_url(url, decode_responses=True, max_connections=REDIS_CONNECTIONS,
                                                        timeout=POOL_WAIT_SECONDS, retry=Retry(NoBackoff(), 1))
        self.redis: aioredis.Redis = aioredis.Redis.from_pool(pool)  # closed with the client
        self._claim = self.redis.register_script(CLAIM)
        self._claim_new = self.redis.register_script(CLAIM_NEW)
        self._live_owner = self.redis.register_script(LIVE_OWNER)
        self._release = self.redis.register_script(RELEASE)
        self._give_back = self.redis.register_script(GIVE_BACK)
        self._outbox: dict[str, list[dict[str, Any]]] = {}
        self._flush_scheduled = False
        self._flushing: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._dead_seen: set[str] = set()
        self._lease_jobs: asyncio.Task[None] | None = None
        self._look_now = asyncio.Event()  # a worker was announced dead: look before the next heartbeat
        #: The lease, renewed by its own thread; a stuck loop or an unreachable database ends it after
        #: ``stall_seconds`` or ``db_grace_seconds`` (ten leases each by default).
        self.lease = Lease(url, worker_key(self.worker_id), WORKERS, self.worker_id,
                           heartbeat_seconds=heartbeat_seconds, lease_seconds=lease_seconds,
                           stall_seconds=stall_seconds if stall_seconds is not None else 10 * lease_seconds,
                           db_grace_seconds=db_grace_seconds if db_grace_seconds is not None else 10 * lease_seconds,
                           on_lost=self._lease_lost, on_regained=self._lease_regained)
        #: Set by the user of the cluster: a message for this worker; a worker found dead; this worker
        #: lost its lease (stop serving every table), and holds one again (take back what it still owns).
        self.on_message: Handler = lambda message: None
        self.on_worker_dead: Callable[[str], Awaitable[None]] | None = None
        self.on_lapsed: Callable[[], Awaitable[None]] | None = None
        self.on_regained: Callable[[], Awaitable[None]] | None = None
        #: Redis could not be reached (a heartbeat, a publish or the bus failed): the links are broken.
        self.on_unreachable: Callable[[BaseException], None] | None = None
        #: Messages published to a worker that nobody heard (PUBLISH counted no subscriber: its bus is
        #: reconnecting, or it died): pub/sub does not keep them, so their sockets must not wait for them.
        self.on_undelivered: Callable[[str, list[dict[str, Any]]], None] = lambda worker_id, messages: None
        #: Whether this worker's inbox is subscribed (confirmed by Redis; not while the bus reconnects).
        self.listening = False
        #: The workers this one has links with: watched even once the others forgot a dead one.
        self.peers: Callable[[], set[str]] = set

    async def start(self) -> None:
        """Register this worker and start listening (call before any claim)."""
        await self.lease.start()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(inbox(self.worker_id))
        self._tasks = [asyncio.create_task(self._listen(pubsub), name="rummy-cluster-listen"),
                       asyncio.create_task(self._watch_forever(), name="rummy-cluster-watch")]

    def holds_lease(self) -> bool:
        """Whether this worker may serve tables now (its lease is renewed; see :mod:`rummy.server.cluster.lease`)."""
        return self.lease.holds()

    def require_lease(self) -> None:
        """Raise :class:`NoLease` unless this worker may serve tables now."""
        if not self.lease.holds():
            raise NoLease("this worker holds no lease just now")

    def require_listening(self) -> None:
        """Raise :class:`NotListening` unless this worker's inbox is subscribed now."""
        if not self.listening:
            raise NotListening("this worker's message bus is reconnecting")

    def database_answered(self, ok: bool) -> None:
        """The worker's database probe: ``ok`` or not (a long failure ends the lease)."""
        if ok:
            self.lease.db_failing_since = None
        elif self.lease.db_failing_since is None:
            self.lease.db_failing_since = time.monotonic()

    def _lease_lost(self, loss: int, _reason: str) -> None:
        """On the loop: the lease ended; stop serving, then let the thread register again."""
        previous = self._lease_jobs

        async def let_go() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            try:
                if self.on_lapsed is not None:
                    await self.on_lapsed()
            finally:
                self.lease.acknowledge(loss)

        self._lease_jobs = asyncio.create_task(let_go(), name="rummy-lease-lost")

    def _lease_regained(self) -> None:
        previous = self._lease_jobs

        async def take_back() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            if self.on_regained is not None and self.lease.holds():
                await self.on_regained()

        self._lease_jobs = asyncio.create_task(take_back(), name="rummy-lease-regained")

    async def close(self) -> None:
        """Leave the cluster: the tables this worker owned are free to be claimed at once."""
        await asyncio.to_thread(self.lease.stop)
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

    async def claim_new(self, candidates: dict[str, str]) -> str | None:
        """Of ``candidates`` (worker id -> a new table id placed on it), claim the id of the worker that owns
        the fewest tables for that worker (a random one of those tied), in one step, so that tables made at
        once on several workers still even out; returns the id (None: it was taken, draw others)."""
        pairs = list(candidates.items())
        random.shuffle(pairs)  # ties go to the first: no worker is favoured
        chosen = int(await self._claim_new(keys=[owner_key(table_id) for _, table_id in pairs],
                                           args=[worker for worker, _ in pairs] + [table_id for _, table_id in pairs]))
        return pairs[chosen][1] if chosen >= 0 else None

    async def live_owner(self, table_id: str) -> str | None:
        owner = await self._live_owner(keys=[owner_key(table_id)], args=[table_id])
        return str(owner) if owner else None

    async def release(self, table_id: str, worker_id: str | None = None) -> None:
        """Let ``table_id`` go, if ``worker_id`` (default: this one) still owns it."""
        await self._release(keys=[owner_key(table_id)], args=[worker_id or self.worker_id, table_id])

    async def give_back(self, table_id: str, dead: str) -> None:
        """Undo the claim of a dead worker's table this worker could not load: it stays the dead one's."""
        await self._give_back(keys=[owner_key(table_id)], args=[self.worker_id, table_id, dead])

    async def tables_of(self, worker_id: str) -> list[str]:
        return sorted(str(member) for member in await self.redis.smembers(tables_key(worker_id)))

    # -- liveness -----------------------------------------------------------------------------

    async def _watch_forever(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._look_now.wait(), self.heartbeat_seconds)
            self._look_now.clear()
            self.lease.tick()
            if not self.lease.holds():
                continue  # a worker that may serve nothing takes nothing over
            try:
                await self.watch_once()
            except Exception as error:  # noqa: BLE001 - Redis away for a moment: try again next beat
                log.warning("cluster: could not watch the other workers: %s", error)
                self._unreachable(error)

    def _unreachable(self, error: BaseException) -> None:
        if self.on_unreachable is not None:
            self.on_unreachable(error)

    async def watch_once(self) -> None:
        """Deal with every worker found dead (this worker's own heartbeat is the lease thread's)."""
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
                heard = await pipe.execute()
        except Exception as error:  # noqa: BLE001 - the clients of those messages reconnect
            log.error("cluster: could not publish %d message(s): %s", sum(map(len, batch.values())), error)
            self._unreachable(error)
            return
        for (worker_id, messages), listeners in zip(batch.items(), heard, strict=True):
            if not listeners:
                log.info("cluster: worker %s heard none of %d message(s) (not subscribed)", worker_id,
                            len(messages))
                self.on_undelivered(worker_id, messages)

    async def _listen(self, pubsub: Any) -> None:
        async with pubsub:
            while True:
                try:
                    message = await pubsub.get_message(timeout=None)
                except asyncio.CancelledError:
                    raise
                except Exception as error:  # noqa: BLE001 - a Redis hiccup: the link reconnects
                    log.warning("cluster: the message bus failed (%s); listening again", error)
                    self.listening = False
                    self._unreachable(error)
                    await asyncio.sleep(0.5)
                    continue
                if message is not None and message.get("type") == "subscribe":  # also after a reconnect
                    self.listening = True
                if message is None or message.get("type") != "message":
                    continue
                for item in json.loads(message["data"]):
                    if item.get("k") == "dead":  # from a supervisor (announce_dead): look at the workers now
                        self._look_now.set()
                        continue
                    try:
                        result = self.on_message(item)
                        if result is not None:
                            await result
                    except Exception:  # noqa: BLE001 - one bad message must not stop the bus
                        log.exception("cluster: failed on message %r", item.get("k"))
