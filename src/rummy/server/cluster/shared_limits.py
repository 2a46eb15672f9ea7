"""The per-player and per-address limits of :mod:`rummy.server.limits`, counted in Redis for a whole
cluster (``rummy serve --redis``): unfinished tables per host and per address, table WebSockets per
address.

Each counted thing is a member of a sorted set whose score is the moment it stops counting (Redis's own
clock, in milliseconds): ``rummy:limit:tables:player:{id}``, ``rummy:limit:tables:address:{address}``
(member: the table id) and ``rummy:limit:sockets:{address}`` (member: the worker and a serial).  A
worker adds a member only through :data:`TAKE`, which drops the expired members, checks every limit
and adds to every set in one atomic step, so two workers cannot both take the last place.  Each worker
renews its members every heartbeat (:meth:`SharedLimits.renew_forever`) for ``ttl_seconds`` (two
leases); a socket's member is removed when it closes; a killed worker's members lapse by themselves,
and a finished or unloaded table stops counting within ``ttl_seconds``.  The unattended-game limits
stay per worker (docs/security.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Callable, Iterable
from typing import Any

from rummy.server.limits import SocketCount

log = logging.getLogger("rummy.server")

PREFIX = "rummy:limit:"

#: Drop the expired members of KEYS, then add ARGV[1] to each for ARGV[2] ms unless a set (not holding it
#: yet) has its limit (ARGV[3 ...], one per key): returns 0 when added, else the number of the full key.
TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if not redis.call('ZSCORE', key, ARGV[1]) and redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then
    return i
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ttl, ARGV[1])
  redis.call('PEXPIRE', key, ttl)
end
return 0
"""

#: Renew member ARGV[i + 1] of KEYS[i] for ARGV[1] ms.
RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ttl, ARGV[i + 1])
  redis.call('PEXPIRE', key, ttl)
end
return 0
"""


def player_tables_key(player_id: str) -> str:
    return f"{PREFIX}tables:player:{player_id}"


def address_tables_key(address: str) -> str:
    return f"{PREFIX}tables:address:{address}"


def sockets_key(address: str) -> str:
    return f"{PREFIX}sockets:{address}"


class SharedLimits:
    """The cluster's counts in Redis, and this worker's members of them."""

    def __init__(self, redis: Any, worker_id: str, ttl_seconds: float) -> None:
        self.redis = redis
        self.worker_id = worker_id
        self.ttl_ms = max(1, int(ttl_seconds * 1000))
        self._take = redis.register_script(TAKE)
        self._renew = redis.register_script(RENEW)
        self._chores: set[asyncio.Task[None]] = set()

    async def take(self, member: str, limits: Iterable[tuple[str, int]]) -> int:
        """Count ``member`` in every set of ``limits`` (key, limit); 0, or the 1-based number of the
        first set that is full (nothing counted then)."""
        keys, counts = zip(*limits, strict=True)
        return int(await self._take(keys=list(keys), args=[member, self.ttl_ms, *counts]))

    async def take_table(self, table_id: str, player_id: str, address: str, per_player: int,
                         per_address: int) -> str | None:
        """Count a new table; None, or ``"player"`` / ``"address"``: whose limit is reached."""
        full = await self.take(table_id, [(player_tables_key(player_id), per_player),
                                          (address_tables_key(address), per_address)])
        return (None, "player", "address")[full]

    async def drop_table(self, table_id: str, player_id: str, address: str) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(player_tables_key(player_id), table_id)
            pipe.zrem(address_tables_key(address), table_id)
            await pipe.execute()

    def drop_later(self, key: str, member: str) -> None:
        """Remove ``member`` of ``key`` without waiting (it lapses by itself if Redis is away)."""
        async def drop() -> None:
            with contextlib.suppress(Exception):
                await self.redis.zrem(key, member)

        task = asyncio.create_task(drop())
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def renew(self, members: Iterable[tuple[str, str]]) -> None:
        """Renew each (key, member) for ``ttl_seconds`` more."""
        pairs = list(members)
        for start in range(0, len(pairs), 500):  # one script call per 500: Redis stays responsive
            chunk = pairs[start:start + 500]
            await self._renew(keys=[key for key, _ in chunk], args=[self.ttl_ms, *(member for _, member in chunk)])

    async def renew_forever(self, members: Callable[[], Iterable[tuple[str, str]]], every: float) -> None:
        """Renew what ``members()`` lists every ``every`` seconds (a heartbeat)."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.renew(members())
            except Exception as error:  # noqa: BLE001 - Redis away: the members lapse, counted again later
                log.warning("cluster limits: could not renew the counts: %s", error)


class SharedSocketCount(SocketCount):
    """:class:`SocketCount` for a cluster: this worker's count, and the cluster's in Redis."""

    def __init__(self, per_address: int, shared: SharedLimits) -> None:
        super().__init__(per_address)
        self.shared = shared
        self._serial = itertools.count(1)
        self._members: dict[str, list[str]] = {}  # address key -> this worker's members, oldest first

    async def admit(self, key: str) -> bool:
        if not self.open(key):
            return False
        member = f"{self.shared.worker_id}.{next(self._serial)}"
        try:
            full = await self.shared.take(member, [(sockets_key(key), self.per_address)])
        except BaseException:
            super().close(key)
            raise
        if full:
            super().close(key)
            return False
        self._members.setdefault(key, []).append(member)
        return True

    def close(self, key: str) -> None:
        super().close(key)
        members = self._members.get(key)
        if members:
            self.shared.drop_later(sockets_key(key), members.pop(0))
            if not members:
                del self._members[key]

    def members(self) -> Iterable[tuple[str, str]]:
        """This worker's open sockets as (key, member) pairs (renewed every heartbeat)."""
        return [(sockets_key(key), member) for key, members in self._members.items() for member in members]
