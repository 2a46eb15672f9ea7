"""``rummy serve`` as a real process: killed with SIGKILL mid-game and started again on the same
database, every table comes back where it was; plus the command's start-up and shutdown behaviour."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rummy.cli import main
from rummy.engine.game import Game
from rummy.record import loads, replay
from tests.server.conftest import LiveServer, Player, free_port, run, seated_table, start_game, wait_until_serving

RUMMY = [sys.executable, "-m", "rummy"]
FAST_FLAGS = ["--bot-delay", "0", "--round-pause", "0", "--rate-limit", "10000", "--log-level", "warning"]


def rummy_serve(db: str, port: int, *flags: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*RUMMY, "serve", "--db", db, "--port", str(port), *FAST_FLAGS, *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def logged_actions(db_path: Path, table_id: str) -> list[str]:
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT seq, kind, payload FROM events WHERE table_id = ? ORDER BY seq", (table_id,))
        events = list(rows)
    assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1)), "the event log has a gap"
    return [json.loads(payload)["action"] for _, kind, payload in events if kind == "action"]


def is_subsequence(items: list[str], sequence: list[str]) -> bool:
    position = iter(sequence)
    return all(item in position for item in items)


async def finish_and_replay(players: list[Player], table_id: str) -> Game:
    """Play the reconnected seats to the end; the table's record must replay to the finished game."""
    await asyncio.gather(*(p.play(random.Random(p.name + "2"), timeout=300) for p in players))
    response = await players[0].http("GET", f"/api/tables/{table_id}/record")
    result = replay(loads(response.text))
    assert result.ok and result.game is not None and result.game.game_over
    return result.game

def test_killed_server_restarts_with_every_game_where_it_was(tmp_path: Path) -> None:
    db_path = tmp_path / "games.db"
    db = f"sqlite:///{db_path}"
    assert subprocess.run([*RUMMY, "migrate", "--db", db], capture_output=True).returncode == 0
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = LiveServer(base, db_path)

    async def first_half() -> tuple[str, list[Player], dict[str, list[str]], int]:
        process = rummy_serve(db, port)
        wait_until_serving(base, process)
        table_id, players = await seated_table(server, ["Ann", "Bob"], variant="may-i", seats=3,
                                               bots={"2": "easy"}, claim_seconds=0)
        await start_game(players[0])
        acked: dict[str, list[str]] = {p.name: [] for p in players}

        async def play_and_note(player: Player) -> None:
            original = player.send

            async def noting_send(kind: str, **fields: object) -> str:
                command_id = await original(kind, **fields)
                if kind == "action":
                    asyncio.create_task(note(command_id, str(fields["action"])))
                return command_id

            async def note(command_id: str, action: str) -> None:
                try:
                    if (await player.reply_to(command_id, timeout=30))["type"] == "ack":
                        acked[player.name].append(action)
                except (TimeoutError, ConnectionError):
                    pass

            player.send = noting_send  # type: ignore[method-assign]
            try:
                await player.play(random.Random(player.name), timeout=120)
            except (ConnectionError, TimeoutError):
                pass  # the server was killed under the player's feet

        games = [asyncio.create_task(play_and_note(p)) for p in players]
        await players[0].wait_state(lambda m: m["seq"] >= 100, timeout=60)
        process.send_signal(signal.SIGKILL)  # in the middle of play: no chance to tidy up
        process.wait()
        await asyncio.gather(*games)
        last_seen = max(p.state["seq"] for p in players)
        for player in players:
            await player.close()
        return table_id, players, acked, last_seen

    table_id, players, acked, last_seen = run(first_half())
    logged = logged_actions(db_path, table_id)
    for name, actions in acked.items():
        assert actions and is_subsequence(actions, logged), f"an action acknowledged to {name} was lost"

    async def second_half() -> None:
        process = rummy_serve(db, port)
        try:
            wait_until_serving(base, process)
            back = [await Player(server, p.name, cookie=p.cookie).connect(table_id) for p in players]
            for old, new in zip(players, back, strict=True):
                assert new.seat == old.seat
                assert new.state["seq"] >= last_seen
                assert new.state["view"]["hand"], "the seat's hand is back"
                if new.state["seq"] == old.state["seq"]:
                    assert new.state["view"] == old.state["view"], "the restored view differs"
            assert any(m.get("history") for m in back[0].messages), "the move log comes back too"
            game = await finish_and_replay(back, table_id)
            final = back[0].state
            assert final["table"]["status"] == "finished"
            assert game.totals == final["view"]["totals"]
            assert [str(a) for a in game.log] == logged_actions(db_path, table_id)
            for player in back:
                await player.close()
        finally:
            process.terminate()
            process.wait(timeout=15)

    run(second_half())


def test_serve_shuts_down_gracefully_on_sigterm_and_sigint(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'x.db'}"
    subprocess.run([*RUMMY, "migrate", "--db", db], check=True, capture_output=True)
    for stop in (signal.SIGTERM, signal.SIGINT):
        port = free_port()
        process = rummy_serve(db, port)
        wait_until_serving(f"http://127.0.0.1:{port}", process)
        process.send_signal(stop)
        out, err = process.communicate(timeout=20)
        assert process.returncode == 0, err.decode()
        assert f"serving on http://127.0.0.1:{port}/" in out.decode()
        assert "stopped" in out.decode()
        assert b"Traceback" not in err


def test_serve_refuses_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Refusals happen before any server runs, so they are checked in this process."""
    assert main(["serve", "--db", f"sqlite:///{tmp_path / 'new.db'}", "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert "rummy migrate" in err and "Traceback" not in err
    db = f"sqlite:///{tmp_path / 'x.db'}"
    assert main(["migrate", "--db", db]) == 0
    assert "revision" in capsys.readouterr().out
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        assert main(["serve", "--db", db, "--port", str(busy.getsockname()[1])]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "already in use" in lines[0]
    assert main(["serve", "--db", "mysql://nowhere/x"]) == 2
    assert "unsupported database" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


def test_serve_without_the_server_extra_says_what_to_install() -> None:
    code = ("import sys; sys.modules['fastapi'] = None; from rummy.cli import main; "
            "sys.exit(main(['serve']))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert result.returncode == 2
    assert b"pip install 'rummy[server]'" in result.stderr and b"Traceback" not in result.stderr
    engine = subprocess.run([sys.executable, "-c", "import sys; sys.modules['fastapi'] = None; "
                             "from rummy.cli import main; sys.exit(main(['variants']))"], capture_output=True)
    assert engine.returncode == 0 and b"progressive-buy-it" in engine.stdout


def test_serve_creates_the_default_database_itself(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen([*RUMMY, "serve", "--port", str(port), *FAST_FLAGS], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "RUMMY_SECRET": "s3cret"})
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", process)
        assert (tmp_path / "rummy.db").exists()
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=20)
    assert b"created the database" in out
    time.sleep(0.1)


@pytest.mark.skipif(not os.environ.get("RUMMY_TEST_POSTGRES_URL"),
                    reason="set RUMMY_TEST_POSTGRES_URL=postgresql://USER@HOST/DB (an empty database) to run")
def test_postgres_killed_and_restarted() -> None:
    """The same restart on PostgreSQL (the database must be empty or already migrated)."""
    db = os.environ["RUMMY_TEST_POSTGRES_URL"]
    assert subprocess.run([*RUMMY, "migrate", "--db", db], capture_output=True).returncode == 0
    port = free_port()
    server = LiveServer(f"http://127.0.0.1:{port}", Path("unused"))

    async def first_half() -> tuple[str, list[Player], int]:
        process = rummy_serve(db, port)
        wait_until_serving(server.base_url, process)
        table_id, players = await seated_table(server, ["Ann", "Bob"], variant="basic", seats=3,
                                               bots={"2": "easy"}, claim_seconds=0)
        await start_game(players[0])
        await asyncio.gather(*(p.play(random.Random(p.name), until=lambda: players[0].state["seq"] > 80)
                               for p in players))
        process.send_signal(signal.SIGKILL)
        process.wait()
        for player in players:
            await player.close()
        return table_id, players, max(p.state["seq"] for p in players)

    table_id, players, last_seen = run(first_half())

    async def second_half() -> None:
        process = rummy_serve(db, port)
        try:
            wait_until_serving(server.base_url, process)
            back = [await Player(server, p.name, cookie=p.cookie).connect(table_id) for p in players]
            assert all(p.state["seq"] >= last_seen and p.state["view"]["hand"] for p in back)
            await finish_and_replay(back, table_id)
            for player in back:
                await player.close()
        finally:
            process.terminate()
            process.wait(timeout=15)

    run(second_half())
