"""The ``rummy serve`` and ``rummy migrate`` commands (wired into :mod:`rummy.cli` with lazy imports).

``--db`` and ``--redis`` may come from a file (``--db-file``, ``--redis-file``) or the environment
(``RUMMY_DB``, ``RUMMY_REDIS``), so no password shows in ``ps`` (:func:`rummy.server.flags.resolve_urls`).

``rummy migrate [--db URL]`` creates or upgrades the schema (Alembic ``upgrade head``).  ``rummy
serve`` checks the schema first: the default SQLite file is migrated on the spot (one process, so no
race); any other database must have been migrated, or the server refuses to start and says so.

``--redis URL`` makes the process a worker of a cluster (:mod:`rummy.server.cluster.membership`), and
``--workers N`` starts N such workers on one listening socket (the kernel spreads the connections
among them), restarting any that dies.  Worker *k* also listens alone on port ``--worker-ports`` + k − 1
(``--port`` + k by default): that port is its *route*, where the clients of the tables placed on it
are sent (:mod:`rummy.server.cluster.placement`); a single worker's route is its ``--port``.

The supervisor sees a worker end the moment it happens (``waitpid``): it closes that worker's own
port (a client or nginx sent there is refused, and nginx falls back to the shared port, rather than
wait in the backlog for the next worker), tells Redis the worker is gone
(:func:`rummy.server.cluster.membership.announce_dead`: the survivors take its tables over at once,
not a lease later), and starts another on the same port.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from rummy.server.flags import URLSourceError, resolve_urls, settings_from_args
from rummy.server.http.app import create_app
from rummy.server.http.request_deadline import request_deadline
from rummy.server.parent_watch import watch_parent
from rummy.server.storage.database import (
    DatabaseURLError,
    SchemaStatus,
    default_db_url,
    display_url,
    ensure_writable,
    migrate,
    normalize_db_url,
    schema_status,
)
from rummy.server.storage.sqlite_log import DatabaseNotWritable


def _fail(message: str, code: int = 1) -> int:
    print(f"rummy: {message}", file=sys.stderr)
    return code


def _database(args: argparse.Namespace) -> str:
    return normalize_db_url(args.db) if args.db else default_db_url()


def driver_message(error: BaseException) -> str:
    """The database driver's own words for ``error`` (SQLAlchemy wraps them in the SQL and a link)."""
    cause = error.orig if isinstance(error, DBAPIError) and error.orig is not None else error
    return " ".join(str(cause).split()) or type(cause).__name__


def _status(url: str) -> SchemaStatus:
    try:
        return asyncio.run(schema_status(url))
    except Exception as error:  # noqa: BLE001 - any driver error becomes one clear line
        raise ConnectionError(f"cannot open the database {display_url(url)}: {driver_message(error)}") from None


def migrate_command(args: argparse.Namespace) -> int:
    try:
        resolve_urls(args)
        url = _database(args)
        before = _status(url)
        if before.state == "unknown":
            return _fail(f"the database {display_url(url)} is at revision {before.current}, "
                         "which this version does not know (made by a newer rummy?)")
        asyncio.run(migrate(url))
    except (DatabaseURLError, ConnectionError, URLSourceError) as error:
        return _fail(str(error), 2)
    except Exception as error:  # noqa: BLE001
        return _fail(f"migration failed: {error}")
    if before.state == "current":
        print(f"rummy: the database {display_url(url)} is up to date (revision {before.head})")
    else:
        was = f" (was {before.current})" if before.current else ""
        print(f"rummy: the database {display_url(url)} is at revision {before.head}{was}")
    return 0


def _bind(host: str, port: int) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                         flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        # Listening at once: a client sent here (a worker's route is in Redis from the start of its
        # lifespan) waits in the backlog until the tables are rebuilt and uvicorn accepts, never refused.
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


class _Server(uvicorn.Server):
    """uvicorn, announcing the address once the tables are rebuilt and the socket listens, and ending
    with exit code 0 after a graceful shutdown on SIGINT or SIGTERM (uvicorn would re-raise the signal)."""

    announce = ""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            print(self.announce, flush=True)


def serve_command(args: argparse.Namespace) -> int:
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    try:
        resolve_urls(args)
        url = _database(args)
        problem = _cluster_problem(args, url)
        if problem is not None:
            return _fail(problem, 2)
        status = _status(url)
    except (DatabaseURLError, ConnectionError, URLSourceError) as error:
        return _fail(str(error), 2)
    if status.state != "current":
        if args.db is None and status.state in ("missing", "outdated"):
            asyncio.run(migrate(url))
            print(f"rummy: {'created' if status.state == 'missing' else 'upgraded'} the database {display_url(url)}")
        elif status.state == "unknown":
            return _fail(f"the database {display_url(url)} is at revision {status.current}, unknown to this version")
        else:
            state = "has no rummy schema" if status.state == "missing" else f"is at revision {status.current}"
            return _fail(f"the database {display_url(url)} {state} (this version needs {status.head}): "
                         "run `rummy migrate` on it first (with the same --db, --db-file or $RUMMY_DB)")
    try:
        ensure_writable(url)
    except DatabaseNotWritable as error:
        return _fail(str(error), 2)
    if not 0 <= args.port <= 65535:
        return _fail(f"--port must be 0–65535, not {args.port}", 2)
    try:
        sock = _bind(args.host, args.port)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return _fail(f"port {args.port} on {args.host} is already in use: stop the other server or "
                         "choose another port with --port")
        return _fail(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}")
    host, port = sock.getsockname()[:2]
    shown = socket.gethostname() if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    announce = f"rummy: serving on http://{shown}:{port}/ (database {display_url(url)}"
    announce += f", Redis {_display_redis(args.redis)})" if args.redis else ")"

    def make_server(worker: str, route: str, worker_id: str | None = None) -> _Server:
        settings = settings_from_args(args)
        app = create_app(url, secret=args.secret, settings=settings, redis_url=args.redis, route=route,
                         worker_id=worker_id)
        # No per-message deflate: a state is a few kB, and compressing every one costs more CPU than the
        # bandwidth it saves on a family game server.
        config = uvicorn.Config(app, log_level=args.log_level, access_log=args.access_log, ws_max_size=65_536,
                                ws_per_message_deflate=False, timeout_graceful_shutdown=5, lifespan="on",
                                http=request_deadline(settings.request_seconds))
        server = _Server(config)
        server.announce = f"{announce}{worker}; Ctrl+C stops"
        return server

    if args.workers > 1:
        first = args.port + 1 if args.worker_ports is None else args.worker_ports
        own: list[socket.socket] = []
        try:
            for number in range(args.workers):
                own.append(_bind(args.host, first + number if first else 0))
        except OSError as error:
            for opened in (sock, *own):
                opened.close()
            return _fail(f"cannot listen on the workers' own ports (--worker-ports {first}): "
                         f"{error.strerror or error}")
        from rummy.server.cluster.membership import announce_dead  # redis only for a cluster

        return _run_workers(args.workers, args.host, sock, own, make_server,
                            lambda worker_id: announce_dead(args.redis, worker_id))
    server = make_server("", str(port))
    server.run(sockets=[sock])
    if not server.started:
        return _fail("the server did not start (see the messages above)")
    print("rummy: stopped")
    return 0


def _display_redis(url: str) -> str:
    """``url`` for messages: without its password."""
    parts = urlsplit(url)
    return url.replace(f":{parts.password}@", ":***@", 1) if parts.password else url


def _cluster_problem(args: argparse.Namespace, url: str) -> str | None:
    """Why ``--redis`` / ``--workers`` cannot work with these arguments (None: they can)."""
    if args.workers > 1 and not args.redis:
        return "--workers needs --redis URL: the workers share their tables through Redis"
    if args.workers < 1:
        return "--workers must be 1 or more"
    if not args.redis:
        return None
    if make_url(url).get_backend_name() != "postgresql":
        return "--redis needs a PostgreSQL --db (every worker writes the same event log)"
    if args.lease_seconds < 0.3:
        return "--lease-seconds must be at least 0.3"
    import redis  # only for a cluster

    try:
        client = redis.Redis.from_url(args.redis, socket_connect_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError) as error:
        return f"cannot reach Redis at {_display_redis(args.redis)}: {error}"
    return None


def _bind_again(host: str, port: int) -> socket.socket:
    """The own port of a worker that ended, for the next one (retried for a few seconds)."""
    for _ in range(20):
        try:
            return _bind(host, port)
        except OSError:
            time.sleep(0.25)
    return _bind(host, port)


def _run_workers(count: int, host: str, sock: socket.socket, own: list[socket.socket],
                 make_server: Callable[[str, str, str], _Server], announce_dead: Callable[[str], None]) -> int:
    """Fork ``count`` workers serving ``sock``, worker k also on ``own[k - 1]`` (its route), each with a
    cluster worker id chosen here; when one dies, close its port, ``announce_dead`` its id and start
    another in its place; SIGINT or SIGTERM stops them all."""
    from rummy.server.cluster.membership import new_worker_id

    children: dict[int, tuple[int, float, str]] = {}  # pid -> (worker number, started at, worker id)
    stopping = False

    supervisor = os.getpid()

    def spawn(number: int) -> None:
        worker_id = new_worker_id()
        pid = os.fork()
        if pid == 0:  # the worker
            code = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                watch_parent(supervisor)  # a killed supervisor's workers stop too, gracefully
                for index, other in enumerate(own):  # only the supervisor holds another worker's port
                    if index != number - 1:
                        other.close()
                mine = own[number - 1]
                route = str(mine.getsockname()[1])
                server = make_server(f", worker {number} pid {os.getpid()} (own port {route})", route, worker_id)
                server.run(sockets=[sock, mine])
                code = 0 if server.started else 1
            finally:
                os._exit(code)
        children[pid] = (number, time.monotonic(), worker_id)

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        for number in range(1, count + 1):
            spawn(number)
        failed = False
        while children:
            pid, status = os.wait()
            if pid not in children:
                continue
            number, started, worker_id = children.pop(pid)
            if stopping:
                continue
            port = own[number - 1].getsockname()[1]
            own[number - 1].close()  # refused from now on, until the next worker listens there
            try:
                announce_dead(worker_id)  # the survivors take its tables over now, not a lease later
            except Exception as error:  # noqa: BLE001 - Redis away: its lease lapses by itself
                print(f"rummy: could not tell Redis that worker {number} ended: {error}", file=sys.stderr, flush=True)
            how = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"code {os.WEXITSTATUS(status)}"
            if not os.WIFSIGNALED(status) and time.monotonic() - started < 10:
                print(f"rummy: worker {number} did not start ({how}); stopping", file=sys.stderr, flush=True)
                failed = True
                stop(signal.SIGTERM, None)
                continue
            print(f"rummy: worker {number} ended ({how}); starting another", file=sys.stderr, flush=True)
            time.sleep(0.5)
            if stopping:  # SIGINT or SIGTERM came meanwhile: a worker started now would never be told to stop
                continue
            try:
                own[number - 1] = _bind_again(host, port)
            except OSError as error:
                print(f"rummy: cannot listen on worker {number}'s port {port} again ({error.strerror or error}); "
                      "stopping", file=sys.stderr, flush=True)
                failed = True
                stop(signal.SIGTERM, None)
                continue
            spawn(number)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if failed:
        return _fail("the workers did not start, or one could not be started again (see the messages above)")
    print("rummy: stopped")
    return 0
