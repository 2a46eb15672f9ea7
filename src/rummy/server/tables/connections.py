"""One WebSocket client: who it is, which seat it sees, its outgoing queue, command ids and rate limit.

The table owner never waits for a client: it puts messages in the connection's queue and a writer
task sends them; a client that stops reading is dropped (it reconnects and gets a fresh state).  A
client that sends faster than its rate has the excess refused, and its frames are then read no faster
than the rate, so a flood costs the server no more than a client within the rate does.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from starlette.websockets import WebSocket

from rummy.server.sessions import Session
from rummy.server.settings import ServerSettings
from rummy.server.tables.protocol import encode

CLOSE_TOO_SLOW = 4008


class Connection:
    """A client socket at one table (``websocket`` None: a socket held by another server of a cluster,
    :class:`rummy.server.cluster.links.RemoteConnection`)."""

    def __init__(self, websocket: WebSocket | None, session: Session | None, settings: ServerSettings) -> None:
        self.websocket = websocket
        self.session = session
        self.seat: int | None = None
        self.closed = False
        self._settings = settings
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._seen_ids: set[str | int] = set()
        self._tokens = float(settings.message_burst)
        self._refilled = time.monotonic()
        self.over_rate = False
        self._close_code = 1000

    @property
    def player_id(self) -> str | None:
        return self.session.player_id if self.session is not None else None

    # -- incoming ---------------------------------------------------------------------------

    def first_use_of(self, command_id: str | int) -> bool:
        """True the first time ``command_id`` is seen on this connection."""
        if command_id in self._seen_ids:
            return False
        self._seen_ids.add(command_id)
        return True

    def within_rate(self) -> bool:
        """Token bucket: ``messages_per_second`` with bursts of ``message_burst``; a refusal marks the
        connection :attr:`over_rate` until its next message within the rate."""
        now = time.monotonic()
        rate, burst = self._settings.messages_per_second, self._settings.message_burst
        self._tokens = min(float(burst), self._tokens + (now - self._refilled) * rate)
        self._refilled = now
        self.over_rate = self._tokens < 1
        if self.over_rate:
            return False
        self._tokens -= 1
        return True

    def seconds_to_next_message(self) -> float:
        """How long until the bucket holds a message again (at most a second): the reader of a flooding
        client waits that long before reading on, so refusing a flood costs no more than the rate."""
        rate = self._settings.messages_per_second
        if rate <= 0:
            return 1.0
        missing = max(0.0, 1 - self._tokens)
        return min(1.0, missing / rate + 0.001)  # a millisecond more: the loop's timers may fire a little early

    # -- outgoing ---------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue ``text`` for the client; drop the client when it falls too far behind."""
        if self.closed:
            return
        if self._outbox.qsize() >= self._settings.send_queue_limit:
            self.close(CLOSE_TOO_SLOW)
            return
        self._outbox.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        """Stop sending: the writer closes the socket (with ``code``) after what is queued."""
        if not self.closed:
            self.closed = True
            self._close_code = code
            self._outbox.put_nowait(None)

    async def write_forever(self) -> None:
        """Send queued messages until :meth:`close` (run as a task beside the reader)."""
        assert self.websocket is not None, "a connection of another server has no socket here"
        while True:
            text = await self._outbox.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.websocket.close(self._close_code)
                return
            try:
                await self.websocket.send_text(text)
            except Exception:  # noqa: BLE001 - the client went away; the reader notices too
                self.closed = True
                return
