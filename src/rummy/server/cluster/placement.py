"""Which worker of a cluster should run each table, and how a client reaches that worker.

Every worker has a **route**: a short name the clients and the proxy in front know it by (by default
the port it alone listens on; ``rummy serve --workers N`` gives worker *k* its own port next to the
shared one).  The live workers' routes are kept in Redis (``rummy:routes``, worker id → route, an
entry counting only while the worker's heartbeat key lives), and every worker reads them once a
heartbeat into :attr:`Placement.routes`.

A table is **placed** by rendezvous hashing (highest random weight) of its id over the live routes:
each route scores ``blake2b(route/table)``, the highest wins.  Every worker computes the same answer
from the same set of routes without asking anyone; when a worker joins, only the tables it now wins
move (about 1/N of them), and when one leaves, only its own tables move, spread over the survivors.
Routes, not worker ids, are hashed, so a worker restarted on the same port gets its tables back.  A new
table's id is drawn until it is placed on the live worker owning the fewest tables
(:meth:`rummy.server.cluster.registry.TableRegistry.create`): new tables even out the load, while a
table's place still depends on nothing but its id and the live routes.

A view is only as fresh as its last read, and a worker that joins is serving (its route in Redis, its
port answering) before the workers already running have read it.  So the newcomer tells each of them
(a ``joined`` message, :meth:`Placement.start`), and they read the routes at once and hand over what
is placed on it now; and a worker asked about a live worker its view does not hold yet (a table's owner,
looked up in Redis) reads the routes again before it answers (:meth:`Placement.route_of_live`), rather
than answer from the old view: no worker route for the table in the lobby, or a socket relayed through
Redis instead of sent to the owner.  Reads are shared: a caller waits for one that began after it asked.

Placement says where a table *should* run; ownership in Redis (:mod:`rummy.server.cluster.membership`)
says where it *does*, and the fencing token in PostgreSQL whose writes count.  A worker that finds a
table it runs placed elsewhere hands it over (:meth:`rummy.server.cluster.registry.TableRegistry.hand_over`):
the table stops (everything acknowledged is already in the log), its ownership is released, and the
new place is told to load it; the new owner raises the fencing token before reading the log.

>>> rendezvous("t1", ["8001", "8002"]) in ("8001", "8002")
True
>>> rendezvous("t1", ["8002", "8001"]) == rendezvous("t1", ["8001", "8002"])
True
>>> rendezvous("t1", []) is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # redis is imported only by a server started with --redis; the HTTP layer imports HINT
    from rummy.server.cluster.membership import Cluster

log = logging.getLogger("rummy.server")

ROUTES = "rummy:routes"
#: The query parameter naming the worker a client believes serves the table (``?worker=8002``); a
#: proxy in front routes on it, and a client that sends it (even empty) is one that follows ``moved``.
HINT = "worker"


def score(route: str, table_id: str) -> bytes:
    return hashlib.blake2b(f"{route}/{table_id}".encode(), digest_size=8).digest()


def rendezvous(table_id: str, routes: Iterable[str]) -> str | None:
    """The route that wins ``table_id`` (highest score; ties, which need a hash collision, by name)."""
    return max(routes, key=lambda route: (score(route, table_id), route), default=None)


class Placement:
    """This worker's view of the live workers and their routes, refreshed every heartbeat."""

    def __init__(self, cluster: Cluster, route: str) -> None:
        self.cluster, self.route = cluster, route
        self.routes: dict[str, str] = {cluster.worker_id: route}  # live worker id -> route
        self._by_route: dict[str, str] = {route: cluster.worker_id}
        #: Called after each refresh (the registry hands over the tables placed elsewhere now).
        self.on_refresh: Callable[[], Awaitable[None]] | None = None
        self._task: asyncio.Task[None] | None = None
        self._left = False
        self._reading: asyncio.Task[bool] | None = None  # the read of the routes under way
        self._reads_begun = 0

    @property
    def me(self) -> str:
        return self.cluster.worker_id

    async def start(self, every: float) -> None:
        """Take this worker's route (from an earlier run of it on the same port, dead or dying now)."""
        known = await self.cluster.redis.hgetall(ROUTES)
        earlier = [str(worker) for worker, route in known.items() if route == self.route and worker != self.me]
        if earlier:
            await self.cluster.redis.hdel(ROUTES, *earlier)
        await self.refresh()
        for worker in self.routes:  # the workers already running learn of this one now, not a beat later
            if worker != self.me:
                self.cluster.send(worker, {"k": "joined", "w": self.me})
        self._task = asyncio.create_task(self._refresh_forever(every), name="rummy-placement")

    async def leave(self) -> None:
        """Stop taking tables (a graceful stop): from now on every table is placed on the other live
        workers, so :meth:`~rummy.server.cluster.registry.TableRegistry.rebalance` hands them all over."""
        self._left = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._by_route = {route: worker for worker, route in sorted(self.routes.items(), reverse=True)
                          if worker != self.me}
        await self.cluster.redis.hdel(ROUTES, self.me)

    async def _refresh_forever(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.refresh()
                if self.on_refresh is not None:
                    await self.on_refresh()
            except Exception as error:  # noqa: BLE001 - Redis away for a moment: the view stays as it was
                log.warning("placement: could not refresh the live workers: %s", error)

    async def refresh(self) -> bool:
        """Read the live workers' routes (a read that begins after this call; callers at the same time
        share one); True when the view changed."""
        wanted = self._reads_begun + 1
        while True:
            reading = self._reading
            if reading is None or reading.done():
                self._reads_begun += 1
                reading = self._reading = asyncio.create_task(self._read_routes(), name="rummy-placement-read")
                reading.add_done_callback(lambda task: task.cancelled() or task.exception())  # each caller sees it
            number = self._reads_begun
            changed = await asyncio.shield(reading)
            if number >= wanted:
                return changed

    async def route_of_live(self, worker_id: str) -> str | None:
        """The route of ``worker_id``, a worker Redis holds for alive (a table's live owner): a worker
        this view does not hold yet has joined since the last read, so the routes are read again first."""
        route = self.routes.get(worker_id)
        if route is None and not self._left:
            with contextlib.suppress(Exception):  # Redis away: no route known (the client is served here)
                await self.refresh()
            route = self.routes.get(worker_id)
        return route

    async def _read_routes(self) -> bool:
        from rummy.server.cluster.membership import worker_key
        redis = self.cluster.redis
        if self._left:
            return False
        await redis.hset(ROUTES, self.me, self.route)
        known = {str(worker): str(route) for worker, route in (await redis.hgetall(ROUTES)).items()}
        async with redis.pipeline(transaction=False) as pipe:
            for worker in known:
                pipe.exists(worker_key(worker))
            alive = await pipe.execute()
        live = {worker: route for (worker, route), up in zip(known.items(), alive, strict=True)
                if up or worker == self.me}
        gone = [worker for worker in known if worker not in live]
        if gone:  # a worker that merely lapsed writes its route again at its next refresh
            await redis.hdel(ROUTES, *gone)
        changed = live != self.routes
        if changed:
            log.info("placement: live workers now %s", ", ".join(sorted(live.values())))
        self.routes = live
        self._by_route = {route: worker for worker, route in sorted(live.items(), reverse=True)}
        self._by_route[self.route] = self.me
        return changed

    def place(self, table_id: str) -> str:
        """The live worker that should run ``table_id`` (this one when it knows of no other)."""
        route = rendezvous(table_id, self._by_route)
        return self._by_route[route] if route is not None else self.me

    def route_of(self, worker_id: str) -> str | None:
        return self.routes.get(worker_id)

    def placed_here(self, table_id: str) -> bool:
        return self.place(table_id) == self.me
