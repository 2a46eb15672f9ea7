"""A seat at a ``rummy serve`` table, reached by its invite link (``rummy play --join URL``).

The terminal speaks the browser's protocol (docs/protocol.md): it gets its identity cookie from
``POST /api/session`` as a browser does (kept in a small file, so the same player comes back to the same
seat), opens the table's WebSocket with that cookie, takes a free seat with ``join``, and sends its moves
as ``action`` messages in record notation.  It sees only what the server sends its seat.

>>> table_address("http://127.0.0.1:8000/table/AbC123")
('http://127.0.0.1:8000', 'AbC123', 'ws://127.0.0.1:8000/ws/tables/AbC123')
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

from rummy.engine import UsageError
from rummy.tui.entry import full_action
from rummy.tui.session import Publish, SeatError
from rummy.tui.snapshot import Snapshot

COOKIE = "rummy_session"  # the server's identity cookie (docs/protocol.md, Identity)
#: Close codes after which the browser reconnects (docs/protocol.md): abnormal, server error, restarting,
#: try again later, fell behind.  Any other code (4403 cross-site, 4404 no such table, 4429 too many
#: connections, 1009 too large) ends the game at this terminal with the server's reason.
RECONNECT_CODES = frozenset({1006, 1011, 1012, 1013, 4008})
RECONNECT_TRIES = 8


def table_address(invite_url: str) -> tuple[str, str, str]:
    """The server's base URL, the table id and the table's WebSocket URL from an invite link."""
    parts = urlsplit(invite_url.strip())
    pieces = [piece for piece in parts.path.split("/") if piece]
    if parts.scheme not in ("http", "https") or not parts.netloc or len(pieces) != 2 or pieces[0] != "table":
        raise UsageError(f"{invite_url!r} is not an invite link (http://HOST:PORT/table/TABLE_ID)")
    base = f"{parts.scheme}://{parts.netloc}"
    socket_scheme = "wss" if parts.scheme == "https" else "ws"
    return base, pieces[1], f"{socket_scheme}://{parts.netloc}/ws/tables/{pieces[1]}"


def default_cookie_file() -> Path:
    """Where identity cookies are kept, one per server: ``$XDG_STATE_HOME/rummy/sessions.json``."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "rummy" / "sessions.json"


class CookieFile:
    """The identity cookie of each server, by base URL, in a JSON file only its owner may read."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _all(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def get(self, base: str) -> str | None:
        return self._all().get(base)

    def put(self, base: str, cookie: str) -> None:
        data = self._all()
        data[base] = cookie
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.touch(mode=0o600, exist_ok=True)
        self.path.write_text(json.dumps(data, indent=1), encoding="utf-8")


async def identity_cookie(base: str, name: str, cookies: CookieFile) -> str:
    """The session cookie for ``base``: the kept one while the server still honours it, else a new one
    from ``POST /api/session`` (the display name ``name``)."""
    kept = cookies.get(base)
    async with httpx.AsyncClient(base_url=base, timeout=15) as http:
        if kept is not None:
            http.cookies.set(COOKIE, kept)
            answer = await http.get("/api/session")
            if answer.status_code == 200 and answer.json().get("player_id"):
                return kept
            http.cookies.clear()
        answer = await http.post("/api/session", json={"name": name})
        if answer.status_code != 200:
            raise SeatError(_http_error(answer, "the server refused the name"))
        cookie = answer.cookies.get(COOKIE)
        if not cookie:
            raise SeatError("the server sent no session cookie")
    cookies.put(base, cookie)
    return cookie


def _http_error(answer: httpx.Response, fallback: str) -> str:
    try:
        return str(answer.json()["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return f"{fallback} (HTTP {answer.status_code})"


class RemoteSeat:
    """A seat at a server table, played over the table's WebSocket."""

    def __init__(self, invite_url: str, name: str, cookie_file: Path | None = None) -> None:
        self.base, self.table_id, self.socket_url = table_address(invite_url)
        self.name = name
        self.cookies = CookieFile(cookie_file or default_cookie_file())
        self.cookie: str | None = None
        self.latest: Snapshot | None = None
        self._socket: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._join_sent = False
        self._closing = False
        self._last_error: str | None = None
        self._got_state = False

    async def run(self, publish: Publish) -> None:
        """Play at the table until the connection is closed: reconnect, as the browser does, after a server
        restart (1012), a lag (4008) or a dropped network; stop with a :class:`SeatError` on a refusal."""
        self.cookie = await identity_cookie(self.base, self.name, self.cookies)
        failures = 0
        while True:
            try:
                await self._connect_and_read(publish)
                return
            except (ConnectionClosed, OSError, InvalidHandshake) as error:
                code = error.rcvd.code if isinstance(error, ConnectionClosed) and error.rcvd is not None else None
                if self._closing:
                    return
                failures = 0 if self._got_state else failures + 1
                if (code is not None and code not in RECONNECT_CODES) or self.latest is None \
                        or failures > RECONNECT_TRIES:
                    said = self._last_error or str(error) or type(error).__name__
                    reason = f"{said} (close code {code})" if code is not None else said
                    raise SeatError(f"the table closed the connection: {reason}") from None
                self._got_state = False
                await asyncio.sleep(min(30.0, 0.5 * 2 ** failures))

    async def _connect_and_read(self, publish: Publish) -> None:
        headers = {"Cookie": f"{COOKIE}={self.cookie}"}
        async with connect(self.socket_url, additional_headers=headers, origin=Origin(self.base),
                           max_size=2**20) as socket:
            self._socket = socket
            try:
                async for raw in socket:
                    message = json.loads(raw)
                    if message.get("type") == "state":
                        self._got_state = True
                        await self._on_state(message, publish)
                    elif message.get("type") in ("ack", "error"):
                        self._answer(message)
            finally:
                for future in self._waiting.values():
                    if not future.done():
                        future.set_exception(SeatError("the connection to the table closed"))
                self._waiting.clear()
                self._socket = None

    async def _on_state(self, message: dict[str, Any], publish: Publish) -> None:
        table = message.get("table") or {}
        snapshot = Snapshot(message.get("seat"), message.get("view"), table, tuple(message.get("events") or ()),
                            message.get("deadline"), int(message.get("seq") or 0), bool(message.get("history")),
                            message.get("notice"))
        self.latest = snapshot
        publish(snapshot)
        free = any(seat.get("kind") == "open" and not seat.get("name") for seat in table.get("seats", []))
        if snapshot.seat is None and table.get("status") == "waiting" and free and not self._join_sent:
            self._join_sent = True
            await self._command({"type": "join"}, wait=False)

    def _answer(self, message: dict[str, Any]) -> None:
        if message["type"] == "error" and message.get("id") is None:  # a refusal of the connection itself
            self._last_error = str(message.get("message") or message.get("code"))
        future = self._waiting.pop(str(message.get("id")), None)
        if future is not None and not future.done():
            future.set_result(message)

    async def _command(self, body: dict[str, Any], *, wait: bool = True) -> None:
        socket = self._socket
        if socket is None:
            raise SeatError("not connected to the table")
        ident = f"t-{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        await socket.send(json.dumps({"v": 1, "id": ident, **body}))
        if not wait:
            return
        answer = await asyncio.wait_for(future, 30)
        if answer["type"] == "error":
            raise SeatError(str(answer.get("message") or answer.get("code")))

    async def send(self, text: str) -> None:
        snapshot = self.latest
        words = text.strip().lower()
        if words == "start":
            await self._command({"type": "start"})
            return
        if words == "join":
            await self._command({"type": "join"})
            return
        if snapshot is None or snapshot.seat is None:
            raise SeatError("you have no seat at this table")
        await self._command({"type": "action", "seq": snapshot.seq, "action": full_action(text, snapshot.seat)})

    async def ready(self) -> None:
        if self.latest is not None and self.latest.phase == "round_over":
            await self._command({"type": "ready"})

    async def suggest(self) -> str | None:
        return None

    async def save_record(self, path: str) -> str:
        """Download the finished game's record (the server serves none of a live game)."""
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as http:
            if self.cookie:
                http.cookies.set(COOKIE, self.cookie)
            answer = await http.get(f"/api/tables/{self.table_id}/record")
        if answer.status_code != 200:
            raise SeatError(_http_error(answer, "no record"))
        Path(path).write_bytes(answer.content)
        return path

    async def close(self) -> None:
        self._closing = True
        if self._socket is not None:
            await self._socket.close()
