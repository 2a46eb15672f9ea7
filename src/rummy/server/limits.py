"""The limits that keep one client from growing a server without bound (docs/security.md).

* Tables: a player, and all the players of one client address, may host so many unfinished tables
  at once (:class:`~rummy.server.cluster.registry.TableRegistry` counts them; over the limit ``POST
  /api/tables`` answers 429 ``too-many-tables``).
* Unattended games (:class:`UnattendedGames`): a game nobody is connected to is played on by its bots
  and by bots taking dropped players' seats, as fast as the bot delay allows and writing every move.
  Only so many may run per address that made their tables and on the whole server; one past the
  limit waits, its bots and timers stopped, until a person connects to it or another one stops.
* WebSocket connections per address (:class:`SocketCount`).

>>> games = UnattendedGames(per_address=1, total=5)
>>> woken = []
>>> games.claim("t1", "192.0.2.1", lambda: woken.append("t1"))
True
>>> games.claim("t2", "192.0.2.1", lambda: woken.append("t2"))  # waits: the address has its one game
False
>>> games.release("t1"); woken
['t2']
>>> games.claim("t2", "192.0.2.1", lambda: None)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable


class LimitError(Exception):
    """A request over one of the limits: 429 with a stable ``code`` and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class UnattendedGames:
    """Which tables' games may run with no person connected, per address key and in total."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self._running: dict[str, str] = {}  # table id → address key
        self._per_key: Counter[str] = Counter()
        self._waiting: dict[str, tuple[str, Callable[[], None]]] = {}  # in arrival order

    def running(self, key: str | None = None) -> int:
        return len(self._running) if key is None else self._per_key[key]

    def _has_room(self, key: str) -> bool:
        return len(self._running) < self.total and self._per_key[key] < self.per_address

    def claim(self, table_id: str, key: str, wake: Callable[[], None]) -> bool:
        """True when table ``table_id`` may run on its own; else it waits and ``wake()`` is called once
        a place may have come free (the table then claims again)."""
        if table_id in self._running:
            return True
        if self._has_room(key):
            self._waiting.pop(table_id, None)
            self._running[table_id] = key
            self._per_key[key] += 1
            return True
        self._waiting[table_id] = (key, wake)
        return False

    def release(self, table_id: str) -> None:
        """The table has a person again, has finished or has stopped: a place it held, or one it was
        woken for, goes to the first waiting table that has room."""
        waited = self._waiting.pop(table_id, None) is not None
        key = self._running.pop(table_id, None)
        if key is not None:
            self._per_key[key] -= 1
            if not self._per_key[key]:
                del self._per_key[key]
        if key is None and not waited:
            return  # an attended table, as most are: nothing changed
        for waiting_key, wake in self._waiting.values():
            if self._has_room(waiting_key):
                wake()
                return


class SocketCount:
    """Open WebSocket connections per address key."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._open: Counter[str] = Counter()

    async def admit(self, key: str) -> bool:
        """:meth:`open`, as a handshake asks it (a cluster counts in Redis:
        :class:`rummy.server.cluster.shared_limits.SharedSocketCount`)."""
        return self.open(key)

    def open(self, key: str) -> bool:
        """Count one more connection of ``key``; False (nothing counted) when it has its limit already."""
        if self._open[key] >= self.per_address:
            return False
        self._open[key] += 1
        return True

    def close(self, key: str) -> None:
        self._open[key] -= 1
        if self._open[key] <= 0:
            del self._open[key]
