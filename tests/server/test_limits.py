"""The limits that keep one client from growing the server without bound (docs/security.md), each
against a real server process with small limits.  A second client address is a second loopback
address (127.0.0.2: Linux routes all of 127/8 to the loopback interface).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from rummy.server.limits import UnattendedGames
from rummy.server.storage.commit import Commit
from rummy.server.storage.database import migrate, normalize_db_url
from rummy.server.storage.sqlite_log import SqliteLog
from tests.server.conftest import LiveServer, Player, run, start_game

OTHER_ADDRESS = "127.0.0.2"


async def create_from(player: Player, address: str, **body: Any) -> httpx.Response:
    """``POST /api/tables`` as ``player`` from the local ``address``."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=player.server.base_url, transport=transport,
                                 cookies={"rummy_session": player.cookie}) as http:
        return await http.post("/api/tables", json=body)


def test_tables_per_player_and_per_address(server_factory: Callable[..., LiveServer]) -> None:
    server = server_factory(max_tables_per_player=2, max_tables_per_address=3, idle_table_seconds=0.5,
                            min_turn_seconds=5)

    async def scenario() -> None:
        ann, bob, cid = [await Player(server, name).login() for name in ("Ann", "Bob", "Cid")]
        for _ in range(2):
            await ann.create_table(variant="basic")
        refused = await ann.http("POST", "/api/tables", json={"variant": "basic"})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too-many-tables"
        assert "you host 2 unfinished tables" in refused.json()["error"]["message"]
        await bob.create_table(variant="basic")  # the address's third
        refused = await bob.http("POST", "/api/tables", json={"variant": "basic"})
        assert refused.status_code == 429 and "your address hosts 3" in refused.json()["error"]["message"]
        assert len((await ann.http("GET", "/api/tables")).json()) == 2
        assert (await create_from(cid, OTHER_ADDRESS, variant="basic")).status_code == 201  # another address
        # The limits count tables in use: unused waiting tables leave memory and stop counting.
        await asyncio.sleep(1.5)
        assert (await ann.http("POST", "/api/tables", json={"variant": "basic"})).status_code == 201

    run(scenario())


def test_turn_timers_have_a_minimum(server_factory: Callable[..., LiveServer]) -> None:
    """A host who never moves, with a turn timer of a blink, would have bots play at full speed."""
    server = server_factory(min_turn_seconds=5)

    async def scenario() -> None:
        ann = await Player(server, "Ann").login()
        refused = await ann.http("POST", "/api/tables", json={"variant": "basic", "turn_seconds": 0.01})
        assert refused.status_code == 400 and "at least 5" in refused.json()["error"]["message"]
        for seconds in (0, 5, 30):
            response = await ann.http("POST", "/api/tables", json={"variant": "basic", "turn_seconds": seconds})
            assert response.status_code == 201

    run(scenario())


async def bot_game_left_alone(server: LiveServer, name: str) -> tuple[Player, Player]:
    """A game of ``name`` against a bot, started, its player gone (a bot takes the seat after the
    grace); returns the player (who may come back) and a spectator watching the table."""
    host = await Player(server, name).login()
    table_id = await host.create_table(variant="basic", seats=2, bots={"1": "easy"}, claim_seconds=0,
                                       options={"target_by_players": {"2": 10_000}})  # a long game
    await host.connect(table_id)
    await start_game(host)
    spectator = await Player(server, f"{name}'s friend").connect(table_id)
    await host.close()
    return host, spectator


def log_rows(server: LiveServer, table_id: str) -> list[tuple[int, int]]:
    """(rowid, seq) of every event of ``table_id``, in the order the server wrote them."""
    with sqlite3.connect(server.db_path) as db:
        return db.execute("SELECT rowid, seq FROM events WHERE table_id = ? ORDER BY rowid", (table_id,)).fetchall()


def test_unattended_games_wait_for_a_place(server_factory: Callable[..., LiveServer]) -> None:
    """One unattended game per address: a second one waits, its log still, while the first plays on to
    the end of its round; when the first rests (docs/protocol.md, "Unattended games") the second gets
    the place and plays on; the first resumes when its player comes back."""
    server = server_factory(max_unattended_games_per_address=1, reconnect_grace=0.05)

    async def scenario() -> None:
        ann, first = await bot_game_left_alone(server, "Ann")
        bob, second = await bot_game_left_alone(server, "Bob")
        # Bob's grace is over: a bot has his seat, and would play at once but for the limit.
        taken = await second.wait_state(lambda m: m["table"]["seats"][0]["bot_playing"])
        waiting = taken["seq"]
        rest = await first.wait_state(lambda m: m["table"]["paused"])
        assert rest["view"]["phase"] == "round_over"
        # The second plays on: 20 moves, or to the end of its round when that comes sooner (then it rests too).
        await second.wait_state(lambda m: m["seq"] >= waiting + 20 or m["view"]["phase"] == "round_over")
        first_id, second_id = (p.state["table"]["id"] for p in (first, second))  # type: ignore[index]
        first_log = [row for row in log_rows(server, first_id) if row[1] <= rest["seq"]]
        second_moves = [row for row in log_rows(server, second_id) if row[1] > waiting]
        assert second_moves and max(first_log)[0] < min(second_moves)[0]  # the second moved once the first rested
        await ann.connect(first_id)
        await first.wait_state(lambda m: m["seq"] > rest["seq"] and m["view"]["phase"] != "round_over")
        for player in (ann, bob, first, second):
            await player.close()

    run(scenario())


def test_a_table_left_by_everyone_rests(server_factory: Callable[..., LiveServer]) -> None:
    """A game nobody is connected to plays on for at most ``max_unattended_turns`` turns (and never past
    its round's end), then writes nothing more and uses no slot, until a person comes back."""
    server = server_factory(max_unattended_turns=4, reconnect_grace=0.05)

    async def scenario() -> None:
        host = await Player(server, "Ann").login()
        table_id = await host.create_table(variant="progressive-buy-it", seats=3, bots={"1": "easy", "2": "easy"},
                                           claim_seconds=0)
        await host.connect(table_id)
        await start_game(host)
        watcher = await Player(server, "Ann's friend").connect(table_id)
        await host.close()
        rest = await watcher.wait_state(lambda m: m["table"]["paused"])
        states = [m for m in watcher.messages if m["type"] == "state" and m["view"] is not None]
        turns = sum(1 for before, after in zip(states, states[1:], strict=False)
                    if after["view"]["active"] != before["view"]["active"])
        assert turns <= 4 + 1  # the turns played after Ann left, and the one her leaving found
        await asyncio.sleep(1.0)  # a game still running would write dozens of moves a second (bot_delay 0)
        assert max(seq for _, seq in log_rows(server, table_id)) == rest["seq"]
        await host.connect(table_id)
        back = await host.wait_state(lambda m: m["seq"] >= rest["seq"])
        assert back["seq"] == rest["seq"]  # nothing was written while nobody was there
        await host.wait_state(lambda m: m["seq"] > rest["seq"])  # the game goes on with its player
        for player in (host, watcher):
            await player.close()

    run(scenario())


def test_unattended_games_on_the_whole_server() -> None:
    games = UnattendedGames(per_address=2, total=3)
    woken: list[str] = []
    assert [games.claim(f"t{i}", f"192.0.2.{i}", lambda: None) for i in range(3)] == [True, True, True]
    assert not games.claim("t3", "192.0.2.3", lambda: woken.append("t3"))
    assert games.running() == 3 and woken == []
    games.release("t0")
    assert woken == ["t3"] and games.claim("t3", "192.0.2.3", lambda: None)
    assert games.claim("t1", "192.0.2.1", lambda: None)  # a running game keeps its place


def test_sockets_per_address(server_factory: Callable[..., LiveServer]) -> None:
    server = server_factory(max_sockets_per_address=3)

    async def scenario() -> None:
        ann = await Player(server, "Ann").login()
        table_id = await ann.create_table(variant="basic")
        url = f"{server.ws_url}/ws/tables/{table_id}"
        watchers = [await Player(server, f"w{i}").connect(table_id) for i in range(3)]
        async with websockets.connect(url) as refused:
            assert json.loads(await refused.recv())["code"] == "too-many-connections"
            with pytest.raises(websockets.ConnectionClosed):
                await refused.recv()
            assert refused.close_code == 4429
        async with websockets.connect(url, local_addr=(OTHER_ADDRESS, 0)) as elsewhere:
            assert json.loads(await elsewhere.recv())["type"] == "state"
        await watchers[0].close()
        await asyncio.sleep(0.2)  # the server counts the closed connection off
        again = await Player(server, "again").connect(table_id)
        for watcher in [*watchers[1:], again]:
            await watcher.close()

    run(scenario())


def test_a_flood_is_read_no_faster_than_the_rate(server_factory: Callable[..., LiveServer]) -> None:
    """Past its burst, a client's messages are refused (``rate-limited``) but the server then waits for
    the next token before reading on: of a flood sent at once, after the burst every refused message
    is followed by an accepted one.  (Reading and refusing as fast as frames came let one flooding
    address keep the server's loop busy.)"""
    server = server_factory(messages_per_second=200, message_burst=20)

    async def scenario() -> None:
        watcher = await Player(server, "w").connect(await (await Player(server, "Ann").login()).create_table(
            variant="basic"))
        ids = [f"f{i}" for i in range(400)]
        await asyncio.gather(*(watcher.send_raw({"v": 1, "id": i, "type": "ping"}) for i in ids))
        def count(kind: str) -> int:  # a refusal for the rate names no id: the frame is not even parsed
            return sum(m["type"] == "ack" if kind == "ack" else m.get("code") == kind for m in watcher.messages)

        await watcher.wait_for(lambda _: count("ack") + count("rate-limited") >= len(ids))
        accepted, refused = count("ack"), count("rate-limited")
        assert accepted + refused == len(ids) and refused > 0
        assert refused <= accepted
        await watcher.close()

    run(scenario())


# -- the SQLite write-ahead log ----------------------------------------------------------------------


def test_the_wal_is_truncated_once_past_its_limit(tmp_path: Path) -> None:
    """A reader's snapshot keeps SQLite from rewinding the log, as a steady stream of commits does:
    a passive checkpoint leaves the file as large as it grew; past the limit the checkpoint truncates."""
    path = tmp_path / "wal.db"
    asyncio.run(migrate(normalize_db_url(str(path))))
    log = SqliteLog(path, wal_limit_bytes=64 * 1024)
    table = {"id": "t", "variant": "basic", "options": {}, "config": {}, "host": "p", "status": "waiting"}
    log.write([Commit("t", new_table=table)])
    reader = sqlite3.connect(path)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM events").fetchall()  # holds its snapshot
    for seq in range(1, 400):
        log.write([Commit("t", [(seq, "action", {"action": "p0 draw", "pad": "x" * 200})])])
    # While the reader stays, a TRUNCATE gives up after its short wait (it holds the writer back meanwhile).
    assert log.checkpoint("TRUNCATE", wait=0.05) is False
    log.write([Commit("t", [(400, "action", {"action": "p0 draw"})])])
    reader.rollback()
    log.checkpoint("PASSIVE")
    grown = log.wal_bytes()
    assert grown > 64 * 1024
    assert log.checkpoint_mode(now=0.0, truncate_seconds=1e9) == "TRUNCATE"
    assert log.checkpoint("TRUNCATE")
    assert log.wal_bytes() == 0
    assert log.checkpoint_mode(now=0.0, truncate_seconds=1e9) == "PASSIVE"
    log.close()


def test_slow_requests_are_dropped(server_factory: Callable[..., LiveServer]) -> None:
    """Slowloris: connections whose headers never end, or whose body stops short, are answered 408
    and closed once ``request_seconds`` pass; a kept-alive connection gets a new deadline for its next
    request; the server answers others all along."""
    server = server_factory(request_seconds=0.5)
    host, port = server.base_url.removeprefix("http://").split(":")

    async def scenario() -> None:
        half_sent = [b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ",
                     b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"name\": ",
                     b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\n"]
        streams = [await asyncio.open_connection(host, int(port)) for _ in range(30)]
        for index, (_, writer) in enumerate(streams):
            writer.write(half_sent[index % len(half_sent)])
            await writer.drain()
        async with httpx.AsyncClient(base_url=server.base_url) as http:
            assert (await http.get("/healthz")).status_code == 200
        for index, (reader, writer) in enumerate(streams):
            answer = await asyncio.wait_for(reader.read(), 30)  # read to the end: the server closes
            assert answer.split(b"\r\n")[0] == (b"HTTP/1.1 200 OK" if index % 3 == 2 else
                                                b"HTTP/1.1 408 Request Timeout"), answer[:80]
            assert answer.rstrip().endswith(b'"the request did not arrive in time"}}')
            writer.close()

    run(scenario())
