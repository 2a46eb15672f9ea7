"""Throw-away PostgreSQL and Redis servers, and ``rummy serve`` workers, for the cluster tests and
``bench/server.py --workers``.

Each service runs from the Debian packages (``postgresql``, ``redis-server``) on a free loopback port
with its files in a temporary folder, and is stopped at the end.  PostgreSQL refuses to run as root:
as root, its folder belongs to the ``postgres`` user and its programs run through ``runuser``.  The
commands are the ones docs/deploy.md gives, with the throw-away settings a test wants (no fsync).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

RUMMY = [sys.executable, "-m", "rummy"]
# RUMMY_TEST_LOG_LEVEL=info and RUMMY_TEST_SERVER_OUTPUT=1 show what the workers say.
FAST_FLAGS = ["--bot-delay", "0", "--round-pause", "0", "--rate-limit", "10000",
              "--log-level", os.environ.get("RUMMY_TEST_LOG_LEVEL", "warning"),
              "--max-tables-per-player", "100000", "--max-tables-per-address", "100000",
              "--max-sockets-per-address", "100000", "--max-unattended-games", "100000",
              "--max-unattended-games-per-address", "100000"]


@dataclass(frozen=True)
class Service:
    """A running server: its URL and the process id of its main process."""

    url: str
    pid: int


class ServiceMissing(RuntimeError):
    """A program the cluster needs is not installed (the tests skip, saying which)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def postgres_bin(program: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{program}"))
    if found:
        return found[-1]
    path = shutil.which(program)
    if path is None:
        raise ServiceMissing(f"PostgreSQL's {program} is not installed (apt-get install postgresql)")
    return path


def redis_server_bin() -> str:
    path = shutil.which("redis-server")
    if path is None:
        raise ServiceMissing("redis-server is not installed (apt-get install redis-server)")
    return path


def wait_for_port(port: int, process: subprocess.Popen[bytes] | None = None, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the process exited with code {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


@contextlib.contextmanager
def postgres(*settings: str) -> Iterator[Service]:
    """A fresh PostgreSQL cluster with an empty database ``rummy``; ``settings`` are more ``name=value``."""
    initdb, pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
    root = Path(tempfile.mkdtemp(prefix="rummy-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres", "postgres")
    port = free_port()
    data = root / "data"
    url = f"postgresql://rummy@127.0.0.1:{port}/rummy"
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    options += "".join(f" -c {setting}" for setting in settings)
    try:
        subprocess.run([*as_user, initdb, "-D", str(data), "-A", "trust", "-U", "rummy", "--no-sync"],
                       check=True, capture_output=True)
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"],
                       check=True, capture_output=True)
        subprocess.run([*as_user, postgres_bin("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "rummy",
                        "rummy"], check=True, capture_output=True)
        yield Service(url, int((data / "postmaster.pid").read_text().split()[0]))
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def redis_server() -> Iterator[Service]:
    """A fresh Redis without persistence."""
    root = Path(tempfile.mkdtemp(prefix="rummy-redis-"))
    port = free_port()
    process = subprocess.Popen([redis_server_bin(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--dir", str(root)], stdout=subprocess.DEVNULL)
    try:
        wait_for_port(port, process)
        yield Service(f"redis://127.0.0.1:{port}/0", process.pid)
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and of its descendants alive now (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(tree_cpu_seconds(int(child)) for child in children)


def migrate(db_url: str) -> None:
    subprocess.run([*RUMMY, "migrate", "--db", db_url], check=True, capture_output=True)


class Worker:
    """One ``rummy serve --redis`` process (``workers`` > 1: a supervisor forking that many)."""

    def __init__(self, db_url: str, redis_url: str, *flags: str, workers: int = 1, lease_seconds: float = 1.5,
                 quiet: bool = not os.environ.get("RUMMY_TEST_SERVER_OUTPUT"), port: int | None = None) -> None:
        self.port = port or free_port()  # a port again: the same worker back (its route, docs/deploy.md)
        self.count = workers
        self.redis_url = redis_url
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        command = [*RUMMY, "serve", "--db", db_url, "--redis", redis_url, "--port", str(self.port),
                   "--workers", str(workers), "--worker-ports", "0",  # each worker's own port: any free one
                   "--lease-seconds", str(lease_seconds), "--secret", "test-secret",
                   *FAST_FLAGS, *flags]
        output = subprocess.DEVNULL if quiet else None
        self.process = subprocess.Popen(command, stdout=output, stderr=output)
        self.wait_until_serving()

    def wait_until_serving(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"rummy serve exited with code {self.process.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base_url}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.05)
        raise RuntimeError("rummy serve did not start")

    def children(self) -> list[int]:
        """The worker processes of a supervisor."""
        text = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text()
        return [int(pid) for pid in text.split()]

    def kill(self) -> None:
        """SIGKILL, a supervisor's workers first (a worker whose supervisor is gone stops gracefully): no
        goodbye to Redis, no flush: the others must notice by themselves."""
        for pid in self.children() if self.count > 1 else ():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Restartable:
    """A Redis without persistence on a fixed port, which the test kills and starts again (empty)."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="rummy-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen([redis_server_bin(), "--port", str(self.port), "--bind", "127.0.0.1",
                                         "--save", "", "--appendonly", "no", "--dir", str(self.root)],
                                        stdout=subprocess.DEVNULL)
        wait_for_port(self.port, self.process)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
