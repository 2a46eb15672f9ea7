"""``rummy serve`` as a process an operator runs: a database it cannot write or read is refused with
one clear line, and a server killed outright (SIGKILL, the out-of-memory killer) leaves no bot worker
and no multiprocessing resource tracker behind."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import LiveServer, Player, free_port, run, start_game, wait_until_serving

RUMMY = [sys.executable, "-m", "rummy"]


def serve_once(db: Path, timeout: float = 30) -> tuple[int, str, str]:
    """Run ``rummy serve`` on ``db``; a server that starts instead of refusing fails the test."""
    process = subprocess.Popen([*RUMMY, "serve", "--db", str(db), "--port", "0", "--log-level", "warning"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"the server started instead of refusing: {out} {err}")
    return process.returncode, out, err


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` read-only for this process: its mode, and for root (whom modes do not stop) the
    immutable attribute."""
    path.chmod(0o444)
    immutable = False
    try:
        if os.geteuid() == 0:
            if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
                pytest.skip("running as root without chattr: a file cannot be made read-only here")
            immutable = True
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(0o644)


def test_a_read_only_database_is_refused_at_start(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    subprocess.run([*RUMMY, "migrate", "--db", str(db)], check=True, capture_output=True)
    with read_only(db):
        code, out, err = serve_once(db)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "cannot be written" in lines[0] and str(db) in lines[0], err
    assert "serving" not in out


def test_a_corrupt_database_is_one_clear_line(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    db.write_bytes(b"this is no database" + bytes(range(256)) * 20)
    code, out, err = serve_once(db)
    assert code == 2
    lines = err.strip().splitlines()
    assert lines == [f"rummy: cannot open the database {db}: file is not a database"], err


def child_pids(parent: int) -> set[int]:
    """The processes whose parent is ``parent`` (Linux /proc)."""
    children = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == parent:
                    children.add(int(entry.name))
    return children


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_killed_server_takes_its_bot_workers_along(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    subprocess.run([*RUMMY, "migrate", "--db", str(db)], check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen([*RUMMY, "serve", "--db", str(db), "--port", str(port), "--bot-delay", "0",
                               "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: set[int] = set()
    try:
        live = LiveServer(f"http://127.0.0.1:{port}", db)
        wait_until_serving(live.base_url, server)

        async def play_until_a_worker_runs() -> None:
            ann = await Player(live, "Ann").login()
            table_id = await ann.create_table(variant="basic", seats=2, bots={"1": "medium"}, claim_seconds=0)
            await ann.connect(table_id)
            await start_game(ann)
            # the search bot thinks in a worker process; the pool's semaphores start the resource tracker
            await ann.play(random.Random(1), until=lambda: len(child_pids(server.pid)) >= 2)
            await ann.close()

        run(play_until_a_worker_runs())
        children = child_pids(server.pid)
        assert len(children) >= 2
        server.send_signal(signal.SIGKILL)
        server.wait()
        deadline = time.monotonic() + 15
        while any(alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in children if alive(pid)], "bot workers or the resource tracker outlived the server"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
