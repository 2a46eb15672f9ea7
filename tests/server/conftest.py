"""Fixtures of the server tests: a real uvicorn server on a loopback port, and scripted players.

``live_server`` runs ``create_app`` under uvicorn in a background thread, on a fresh migrated SQLite
file, with bots that answer at once.  ``Player`` is a WebSocket client that records every message it
receives (the leak test inspects them all) and can play by choosing among its view's legal actions.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from rummy.engine.actions import Verb, parse_action
from rummy.search.playout import random_choice
from rummy.server.storage.database import migrate, normalize_db_url

# One address (loopback) makes every table of the test session: the per-address limits are raised,
# and the tests of the limits start servers of their own with small ones.
FAST = {"bot_delay": 0, "round_pause": 0, "reconnect_grace": 60, "messages_per_second": 10_000,
        "message_burst": 10_000, "bot_processes": 0, "max_tables_per_player": 1000, "max_tables_per_address": 10_000,
        "max_unattended_games": 1000, "max_unattended_games_per_address": 1000, "max_sockets_per_address": 10_000,
        "min_turn_seconds": 0, "replays_per_minute": 10_000, "replay_burst": 10_000}

# The servers speak plain HTTP, but httpx builds a TLS context for every client it makes unless given one (a
# costly load of the certificate bundle, more than the requests a test client makes): every client shares this.
TLS = ssl.create_default_context()

# The server runs in its own process, as in production: in a thread it would fight the test clients
# for the GIL and every message would wait for the interpreter's switch interval.  Like `rummy serve`, it
# speaks WebSockets without per-message deflate (compressing every state costs both ends CPU).
LAUNCHER = """
import json, sys, uvicorn
from rummy.server.http.app import create_app
from rummy.server.http.request_deadline import request_deadline
from rummy.server.settings import ServerSettings
url, port, settings = sys.argv[1], int(sys.argv[2]), ServerSettings(**json.loads(sys.argv[3]))
app = create_app(url, secret="test-secret", settings=settings)
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536,
            ws_per_message_deflate=False, http=request_deadline(settings.request_seconds))
"""


@dataclass
class LiveServer:
    base_url: str
    db_path: Path

    @property
    def ws_url(self) -> str:
        return self.base_url.replace("http://", "ws://")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until_serving(base_url: str, process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode}")
        try:
            if httpx.get(f"{base_url}/healthz", timeout=1, verify=TLS).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the server did not start")


class ServerProcess:
    """``create_app`` under uvicorn in a child process, on a freshly migrated SQLite file."""

    def __init__(self, db_path: Path, **settings: Any) -> None:
        self.url = normalize_db_url(str(db_path))
        self.db_path = db_path
        self.settings = {**FAST, **settings}
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> LiveServer:
        asyncio.run(migrate(self.url))
        self.process = subprocess.Popen([sys.executable, "-c", LAUNCHER, self.url, str(self.port),
                                         json.dumps(self.settings)])
        base_url = f"http://127.0.0.1:{self.port}"
        wait_until_serving(base_url, self.process)
        return LiveServer(base_url, self.db_path)

    def __exit__(self, *_: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the session: tables are independent, so tests share it.

    No computer takes a seat its person left (``reconnect_grace``): tests close their players when they end,
    and a table whose every seat went to the computer would play on at ``bot_delay`` 0 for the rest of the
    session (a contract game between weak bots may never end), taking a core from every test after it.
    """
    with ServerProcess(tmp_path_factory.mktemp("server") / "rummy.db", reconnect_grace=24 * 3600) as server:
        yield server


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """A server of its own with other settings: ``server_factory(reconnect_grace=0.2)``."""
    running: list[ServerProcess] = []

    def start(**settings: Any) -> LiveServer:
        process = ServerProcess(tmp_path / f"rummy-{len(running)}.db", **settings)
        server = process.__enter__()
        running.append(process)
        return server

    yield start
    for process in running:
        process.__exit__()


@dataclass
class Player:
    """A scripted client: a session cookie, one WebSocket, and every message it received."""

    server: LiveServer
    name: str
    cookie: str = ""
    player_id: str = ""
    messages: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] | None = None
    socket: Any = None
    counter: int = 0
    replies: dict[str, dict[str, Any]] = field(default_factory=dict)
    _reader: asyncio.Task[None] | None = None
    _news: asyncio.Event = field(default_factory=asyncio.Event)

    async def login(self) -> Player:
        async with httpx.AsyncClient(base_url=self.server.base_url, verify=TLS) as http:
            response = await http.post("/api/session", json={"name": self.name})
            response.raise_for_status()
            self.cookie = response.cookies["rummy_session"]
            self.player_id = response.json()["player_id"]
        return self

    async def http(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.server.base_url, cookies={"rummy_session": self.cookie},
                                     verify=TLS) as http:
            return await http.request(method, path, **kwargs)

    async def create_table(self, **body: Any) -> str:
        response = await self.http("POST", "/api/tables", json=body)
        assert response.status_code == 201, response.text
        table_id: str = response.json()["table_id"]
        return table_id

    async def connect(self, table_id: str) -> Player:
        headers = {"Cookie": f"rummy_session={self.cookie}"} if self.cookie else {}
        self.socket = await websockets.connect(f"{self.server.ws_url}/ws/tables/{table_id}",
                                               additional_headers=headers, max_size=2**22)
        self._reader = asyncio.create_task(self._read())
        await self.wait_for(lambda m: m["type"] == "state")
        return self

    async def _read(self) -> None:
        try:
            async for text in self.socket:
                message = json.loads(text)
                self.messages.append(message)
                if message["type"] == "state":
                    self.state = message
                elif "id" in message:
                    self.replies[str(message["id"])] = message
                self._news.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self._news.set()

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            await self._reader

    async def send(self, kind: str, **fields: Any) -> str:
        self.counter += 1
        command_id = f"{self.name}-{self.counter}"
        await self.send_raw({"v": 1, "id": command_id, "type": kind, **fields})
        return command_id

    async def send_raw(self, message: Any) -> None:
        try:
            await self.socket.send(message if isinstance(message, str) else json.dumps(message))
        except websockets.ConnectionClosed as closed:  # the server went away before the reader noticed
            raise ConnectionError(f"{self.name}: the connection closed") from closed

    async def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 20,
                       start: int = 0, reply: str | None = None) -> dict[str, Any]:
        """The first message from index ``start`` on that satisfies ``predicate``."""
        deadline = asyncio.get_running_loop().time() + timeout
        index = max(start, 0)
        while True:
            if reply is not None and reply in self.replies:
                return self.replies[reply]
            while index < len(self.messages):
                if predicate(self.messages[index]):
                    return self.messages[index]
                index += 1
            if self._reader is not None and self._reader.done():
                raise ConnectionError(f"{self.name}: the connection closed")
            self._news.clear()
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"{self.name}: no matching message; last: {self.messages[-3:]}")
            try:
                await asyncio.wait_for(self._news.wait(), remaining)
            except TimeoutError:
                pass

    async def reply_to(self, command_id: str, timeout: float = 20) -> dict[str, Any]:
        """The ack or error answering ``command_id``."""
        return await self.wait_for(lambda m: command_id in self.replies, timeout, start=len(self.messages) - 1,
                                   reply=command_id)

    async def wait_state(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        """The newest state if it satisfies ``predicate``, else the next state that does."""
        if self.state is not None and predicate(self.state):
            return self.state
        return await self.wait_for(lambda m: m["type"] == "state" and predicate(m), timeout, start=len(self.messages))

    async def state_after(self, seq: int) -> dict[str, Any]:
        """The first state newer than ``seq``."""
        return await self.wait_state(lambda m: m["seq"] > seq)

    async def state_from(self, seq: int) -> dict[str, Any]:
        """The newest state once it is at least ``seq``."""
        return await self.wait_state(lambda m: m["seq"] >= seq)

    async def finish_turn(self, rng: random.Random) -> None:
        """Play legal actions until this player's turn is over: another seat is active, or the round ended
        (going out deals the next round, whose opening window may make this player active again)."""
        assert self.state is not None
        round_number = self.state["view"]["round"]

        def over() -> bool:
            view = self.state["view"] if self.state is not None else None
            return view is None or view["active"] != self.seat or view["round"] != round_number
        await self.play(rng, until=over)

    @property
    def seat(self) -> int | None:
        return self.state["seat"] if self.state else None

    def my_turn(self) -> bool:
        state = self.state
        if not state or state["table"]["status"] != "playing" or not state["view"]:
            return False
        view = state["view"]
        return self.seat in view["to_act"] and bool(view["legal_actions"])

    async def play(self, rng: random.Random, *, until: Callable[[], bool] | None = None,
                   buy_chance: float = 0.1, timeout: float = 120, ready: bool = False) -> int:
        """Play legal actions until the game is over (or ``until()``); returns how many were accepted.
        ``ready``: say so at each round's end, so the next deal need not wait for the pause between rounds."""
        accepted = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        readied = 0
        while True:
            state = self.state
            if state is not None and state["table"]["status"] == "finished":
                return accepted
            if until is not None and until():
                return accepted
            if loop.time() > deadline:
                raise TimeoutError(f"{self.name}: the game did not end in {timeout} s")
            view = state["view"] if state is not None else None
            if ready and view is not None and view["phase"] == "round_over" and view["round"] > readied:
                readied = view["round"]
                await self.reply_to(await self.send("ready"))  # an error (the next deal came first) is fine
                continue
            if not self.my_turn():
                await self.wait_for(lambda m: m["type"] == "state", start=len(self.messages),
                                    timeout=deadline - loop.time())
                continue
            assert state is not None
            view = state["view"]
            actions = [parse_action(text, len(view["players"])) for text in view["legal_actions"]]
            choice = random_choice(actions, rng, buy_chance=buy_chance)
            command_id = await self.send("action", seq=state["seq"], action=str(choice))
            reply = await self.reply_to(command_id)
            if reply["type"] == "ack":
                accepted += 1
                await self.state_after(state["seq"])
            elif reply["code"] not in ("stale", "illegal", "not-started"):  # not-started: the game just ended
                raise AssertionError(f"{self.name}: {choice} refused: {reply}")
            elif reply["code"] == "illegal" and choice.verb not in (Verb.BUY, Verb.PASS):
                raise AssertionError(f"{self.name}: a listed legal action was refused: {choice} {reply}")


def playing(message: dict[str, Any]) -> bool:
    """A state message of a table with a game (its ``view`` is set)."""
    return message["type"] == "state" and message["view"] is not None


async def seated_table(server: LiveServer, names: list[str], **body: Any) -> tuple[str, list[Player]]:
    """A table whose first seats are taken by ``names`` (the first is the host), connected, not started."""
    players = [await Player(server, name).login() for name in names]
    table_id = await players[0].create_table(**body)
    await players[0].connect(table_id)
    for player in players[1:]:
        await player.connect(table_id)
        command_id = await player.send("join")
        reply = await player.reply_to(command_id)
        assert reply["type"] == "ack", reply
    return table_id, players


async def start_game(host: Player) -> None:
    command_id = await host.send("start")
    reply = await host.reply_to(command_id)
    assert reply["type"] == "ack", reply
    await host.wait_state(lambda m: m["table"]["status"] != "waiting")


def run(coroutine: Awaitable[Any]) -> Any:
    """Run an async test body (no asyncio plugin needed)."""
    async def main() -> Any:
        return await coroutine

    return asyncio.run(main())


async def open_window(players: list[Player]) -> dict[str, Any]:
    """Wait until a claim window is open and every client has seen it; return that state."""
    while True:
        state = players[0].state
        assert state is not None
        if state["view"] and state["view"]["phase"] == "claim":
            for player in players:
                await player.state_from(state["seq"])
            return state
        await players[0].wait_for(lambda m: m["type"] == "state", start=len(players[0].messages))
