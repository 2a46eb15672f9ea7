"""A cluster worker's lease and failover replay under a busy event loop, in one process, against
throw-away PostgreSQL and Redis servers (tests/cluster/services.py).

Run: ``python bench/lease.py [--block 3] [--tables 12]``.  Two measurements, printed; asserts nothing.

1. **The lease while the loop is blocked**: the event loop spins in CPU work for ``--block`` seconds
   (a slow move, a long replay); the lease thread (:mod:`rummy.server.cluster.lease`) renews the key
   meanwhile.  Prints the longest gap between two renewals and the key's shortest remaining lifetime
   seen by another Redis client, against the lease (3 s, the heartbeat every second, as by default).
2. **Failover replay beside the survivor's own table**: ``--tables`` tables of a dead worker, each a
   whole four-player may-i game (hundreds of events), are taken over while a client of the survivor's
   own table sends commands back to back.  Prints the time to take them all over, how many of the
   client's commands were answered while logs were being replayed, and the client's answer times
   (median and worst), for the replay in a thread two at a time (as the server does), one at a time,
   and, for comparison, on the event loop two and sixteen at a time (as it did).  Wall-clock times of
   one process on a shared machine: compare the rows of one run, not runs.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummy.search.playout import random_game  # noqa: E402
from rummy.server.cluster import registry as registry_module  # noqa: E402
from rummy.server.cluster.membership import Cluster, owner_key, tables_key, worker_key  # noqa: E402
from rummy.server.cluster.registry import TableRegistry  # noqa: E402
from rummy.server.events.log import game_events  # noqa: E402
from rummy.server.sessions import Session  # noqa: E402
from rummy.server.settings import ServerSettings  # noqa: E402
from rummy.server.storage.commit import Commit  # noqa: E402
from rummy.server.storage.database import Database, normalize_db_url  # noqa: E402
from rummy.server.tables.bot_runner import BotRunner  # noqa: E402
from rummy.server.tables.catalog import TableConfig  # noqa: E402
from tests.cluster.services import migrate, postgres, redis_server  # noqa: E402
from tests.cluster.test_robustness import Probe, made  # noqa: E402


async def blocked_loop(redis_url: str, seconds: float) -> None:
    cluster = Cluster(redis_url, heartbeat_seconds=1.0, lease_seconds=3.0)
    await cluster.start()
    watcher = redis.Redis.from_url(redis_url)
    renewals: list[float] = []
    shortest_ttl = cluster.lease_seconds * 1000
    seen = cluster.lease.renewals
    began = time.monotonic()
    while time.monotonic() - began < seconds:  # the loop is blocked: only the lease thread runs
        sum(range(20_000))
        if cluster.lease.renewals != seen:
            seen = cluster.lease.renewals
            renewals.append(time.monotonic())
        ttl = watcher.pttl(worker_key(cluster.worker_id))
        shortest_ttl = min(shortest_ttl, ttl if ttl >= 0 else -1)
    points = [began, *renewals, time.monotonic()]
    gaps = [b - a for a, b in zip(points, points[1:], strict=False)]
    await asyncio.sleep(0)
    print(f"loop blocked {seconds:.1f} s: {len(renewals)} renewals, longest gap {max(gaps):.2f} s, "
          f"key's shortest remaining life {shortest_ttl / 1000:.2f} s (lease {cluster.lease_seconds:.0f} s); "
          f"lease lost {cluster.lease.losses} time(s)")
    watcher.close()
    await cluster.close()


async def failover(db_url: str, redis_url: str, tables: int, threaded: bool, at_once: int) -> None:
    db = Database(normalize_db_url(db_url))
    await db.start()
    cluster = Cluster(redis_url, heartbeat_seconds=0.2, lease_seconds=3.0)
    await cluster.start()
    registry = TableRegistry(db, BotRunner(0), ServerSettings(), cluster)
    watcher = redis.Redis.from_url(redis_url, decode_responses=True)
    dead = "dead-" + cluster.worker_id
    orphans = [f"bench-{cluster.worker_id}-{i}" for i in range(tables)]
    config = TableConfig.from_request({"variant": "may-i", "seats": 4})
    events = 0
    for i, table_id in enumerate(orphans):
        game = random_game("may-i", 4, seed=i)
        row = {"id": table_id, "variant": "may-i", "options": config.options, "config": config.to_json(),
               "host": "p0", "status": "playing"}
        seats = [{"seat": s, "kind": "human", "player_id": f"p{s}", "name": name, "level": None}
                 for s, name in enumerate(game.players)]
        log = game_events(game)
        events += len(log)
        await db.commit(Commit(table_id, seats=seats, new_table=row, fence=1))
        await db.commit(Commit(table_id, log, fence=1))
    original, original_at_once = registry_module.asyncio.to_thread, registry_module.ADOPTING_AT_ONCE
    registry_module.ADOPTING_AT_ONCE = at_once
    if not threaded:  # the replay on the event loop, as before
        async def inline(function: Any, *args: Any) -> Any:
            return function(*args)

        registry_module.asyncio.to_thread = inline  # type: ignore[assignment]
    try:
        ann = Session("p-ann", "Ann")
        own = await made(registry, TableConfig.from_request({"variant": "basic", "seats": 2}), ann)
        client = Probe(ann)
        from rummy.server.tables.inbox import Connected

        own.post(Connected(client))
        await client.ask(own, "ping")
        with watcher.pipeline() as pipe:
            for table_id in orphans:
                pipe.set(owner_key(table_id), dead)
                pipe.sadd(tables_key(dead), table_id)
            pipe.sadd("rummy:workers", dead)
            pipe.execute()
        began = time.monotonic()
        waits: list[float] = []
        during = 0
        while not all(table_id in registry.tables for table_id in orphans):
            sent = time.monotonic()
            await client.ask(own, "ping")
            waits.append(time.monotonic() - sent)
            during += registry.replaying > 0
        took = time.monotonic() - began
        where = "in a thread" if threaded else "on the loop"
        print(f"replay {where}, {at_once} at a time: {tables} tables ({events} events) taken "
              f"over in {took:.2f} s; own table answered {len(waits)} commands meanwhile, {during} while a log "
              f"was being replayed; answer time median {1000 * statistics.median(waits):.1f} ms, "
              f"worst {1000 * max(waits):.1f} ms")
    finally:
        registry_module.asyncio.to_thread = original  # type: ignore[assignment]
        registry_module.ADOPTING_AT_ONCE = original_at_once
        watcher.close()
        await registry.close()
        await cluster.close()
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--block", type=float, default=3.0, help="seconds the event loop is blocked")
    parser.add_argument("--tables", type=int, default=12, help="tables of the dead worker")
    args = parser.parse_args()
    with postgres() as db, redis_server() as server:
        migrate(db.url)
        asyncio.run(blocked_loop(server.url, args.block))
        for threaded, at_once in ((True, registry_module.ADOPTING_AT_ONCE), (True, 1), (False, 2), (False, 16)):
            asyncio.run(failover(db.url, server.url, args.tables, threaded, at_once))


if __name__ == "__main__":
    main()
