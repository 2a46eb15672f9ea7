"""A worker's lease in Redis, renewed by a thread of its own, so the games cannot starve it.

The heartbeat key ``rummy:worker:{id}`` says the worker is alive.  It used to be renewed by a task on
the event loop, beside the games, and a busy loop (0.15–0.25 cores of load were enough) renewed it
late: the worker was found dead while it was only slow, its tables were taken over and every client
reconnected.  Here a daemon thread with its own blocking Redis client renews the key every
``heartbeat_seconds`` (the design of ZooKeeper and etcd sessions and of Kubernetes' leader election:
liveness is proven by a component whose timing does not depend on the work it guards), so a loop
stalled by a long replay or a slow move costs nothing but that move's latency.

The lease still ends, and the worker stops serving its tables, when it should:

* **Redis cannot be reached**: a renewal that has not succeeded for ``lease_seconds`` after the last
  good one was sent means the others may already hold the tables.  The worker's own clock decides (the
  lease is counted from the moment the last successful renewal was *sent*, so it ends here no later
  than in Redis);
* **the event loop is stuck** (no tick for ``stall_seconds``, much longer than any stall a game
  causes): the thread lets the key go, so a deadlocked worker does not keep its tables for ever;
* **PostgreSQL cannot be reached** while Redis can (:attr:`Lease.db_failing_since`, set by the
  worker's probe, older than ``db_grace_seconds``): the worker cannot write a move, so it lets the key
  go and a worker that reaches the database takes its tables.

Each end is told to the event loop (``on_lost``, run there), which stops serving every table and then
acknowledges (:meth:`Lease.acknowledge`); only then, and once the cause is gone, does the thread register
the worker again (``on_regained``).  Ownership stays safe whatever the timing: the fencing token in
PostgreSQL refuses the writes of a worker whose table was taken over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable

import redis

log = logging.getLogger("rummy.server")


class Lease:
    """The heartbeat thread of one worker (start it from the event loop it reports to)."""

    def __init__(self, url: str, key: str, members_key: str, worker_id: str, *, heartbeat_seconds: float,
                 lease_seconds: float, stall_seconds: float, db_grace_seconds: float,
                 on_lost: Callable[[int, str], None], on_regained: Callable[[], None]) -> None:
        self.url, self.key, self.members_key, self.worker_id = url, key, members_key, worker_id
        self.heartbeat_seconds, self.lease_seconds = heartbeat_seconds, lease_seconds
        self.stall_seconds, self.db_grace_seconds = stall_seconds, db_grace_seconds
        self.on_lost, self.on_regained = on_lost, on_regained
        #: Monotonic time until which this worker may serve its tables (0: it holds no lease).
        self.valid_until = 0.0
        #: Successful renewals (and registrations) so far: a test waits on it, an operator may read it.
        self.renewals = 0
        #: How many times the lease was lost, and how many of those the event loop has dealt with.
        self.losses = 0
        self.acknowledged = 0
        #: Monotonic time the event loop last ticked (:meth:`tick`), and since when the database has failed
        #: (None: it answers), set by the worker on its loop.
        self.loop_seen = time.monotonic()
        self.db_failing_since: float | None = None
        #: What the clients are told when the lease is lost: the service that could not be reached.
        self.cause = "Redis"
        self.renewed = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client = redis.Redis.from_url(url, socket_timeout=heartbeat_seconds,
                                            socket_connect_timeout=heartbeat_seconds)

    def holds(self) -> bool:
        """Whether this worker may serve its tables now."""
        return time.monotonic() < self.valid_until

    async def start(self) -> None:
        """Register now (raises if Redis cannot be reached), then renew in the thread."""
        self._loop = asyncio.get_running_loop()
        await asyncio.to_thread(self._register, time.monotonic())
        self._thread = threading.Thread(target=self._run, name=f"rummy-lease-{self.worker_id}", daemon=True)
        self._thread.start()

    def tick(self) -> None:
        """The event loop is alive (called on the loop every heartbeat)."""
        self.loop_seen = time.monotonic()

    def acknowledge(self, loss: int) -> None:
        """The event loop stopped serving its tables after loss number ``loss``."""
        self.acknowledged = max(self.acknowledged, loss)

    def stop(self) -> None:
        """Stop renewing (the worker is leaving; it deletes its key itself)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2 * self.heartbeat_seconds + 1)
        with contextlib.suppress(Exception):
            self._client.close()

    # -- the thread -------------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.wait(self.heartbeat_seconds):
            try:
                self.beat()
            except Exception:  # noqa: BLE001 - the thread must outlive any surprise
                log.exception("worker %s: the heartbeat failed", self.worker_id)

    def beat(self) -> None:
        """One heartbeat: give the lease up, renew it, or register again, as the state asks."""
        sent = time.monotonic()
        reason = self._reason_to_let_go(sent)
        if reason is not None:
            if self.valid_until:
                self._lose(reason)
                with contextlib.suppress(redis.RedisError):
                    self._client.delete(self.key)  # the others take the tables over at their next beat
            return
        try:
            if not self.valid_until:
                if self.acknowledged == self.losses:  # the loop has let its tables go: join again
                    self._register(sent)
                    self._tell(self.on_regained)
                return
            if self._client.set(self.key, "1", xx=True, px=int(self.lease_seconds * 1000)):
                self._renewed(sent)
            else:
                self.cause = "Redis"
                self._lose("its heartbeat lapsed in Redis")
        except redis.RedisError as error:
            if not self.valid_until:
                log.warning("worker %s: cannot join the cluster again yet: %s", self.worker_id, error)
            elif sent >= self.valid_until:
                self.cause = "Redis"
                self._lose(f"Redis could not be reached for a whole lease ({error})")
            else:
                log.warning("worker %s: heartbeat not renewed: %s", self.worker_id, error)

    def _reason_to_let_go(self, now: float) -> str | None:
        if now - self.loop_seen > self.stall_seconds:
            self.cause = "this server"
            return f"its event loop has not run for {now - self.loop_seen:.1f} s"
        failing = self.db_failing_since
        if failing is not None and now - failing > self.db_grace_seconds:
            self.cause = "the database"
            return f"the database has not answered for {now - failing:.1f} s"
        return None

    def _register(self, sent: float) -> None:
        with self._client.pipeline(transaction=True) as pipe:
            pipe.set(self.key, "1", px=int(self.lease_seconds * 1000))
            pipe.sadd(self.members_key, self.worker_id)
            pipe.execute()
        self._renewed(sent)

    def _renewed(self, sent: float) -> None:
        if sent + self.lease_seconds > self.valid_until:
            self.valid_until = sent + self.lease_seconds
        with self.renewed:
            self.renewals += 1
            self.renewed.notify_all()

    def _lose(self, reason: str) -> None:
        self.valid_until = 0.0
        self.losses += 1
        log.warning("worker %s: lost its lease (%s): it stops serving its tables", self.worker_id, reason)
        loss = self.losses
        self._tell(lambda: self.on_lost(loss, reason))

    def _tell(self, callback: Callable[[], None]) -> None:
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed: the worker is gone
                self._loop.call_soon_threadsafe(callback)
