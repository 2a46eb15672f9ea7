"""The ``rummy serve`` and ``rummy migrate`` commands (wired into :mod:`rummy.cli` with lazy imports).

``rummy migrate [--db URL]`` creates or upgrades the schema (Alembic ``upgrade head``).  ``rummy
serve`` checks the schema first: the default SQLite file is migrated on the spot (one process, so no
race); any other database must have been migrated, or the server refuses to start and says so.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import logging
import signal
import socket
import sys
import threading
from collections.abc import Iterator

import uvicorn
from sqlalchemy.exc import DBAPIError

from rummy.server.app import create_app
from rummy.server.db import (
    DatabaseURLError,
    SchemaStatus,
    default_db_url,
    display_url,
    ensure_writable,
    migrate,
    normalize_db_url,
    schema_status,
)
from rummy.server.flags import settings_from_args
from rummy.server.sqlite_log import DatabaseNotWritable


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
        url = _database(args)
        before = _status(url)
        if before.state == "unknown":
            return _fail(f"the database {display_url(url)} is at revision {before.current}, "
                         "which this version does not know (made by a newer rummy?)")
        asyncio.run(migrate(url))
    except (DatabaseURLError, ConnectionError) as error:
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
        url = _database(args)
        status = _status(url)
    except (DatabaseURLError, ConnectionError) as error:
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
                         f"run `rummy migrate --db {args.db}` first")
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
    app = create_app(url, secret=args.secret, settings=settings_from_args(args))
    # No per-message deflate: a state is a few kB, and compressing every one costs more CPU than the
    # bandwidth it saves on a family game server.
    config = uvicorn.Config(app, log_level=args.log_level, access_log=args.access_log, ws_max_size=65_536,
                            ws_per_message_deflate=False, timeout_graceful_shutdown=5, lifespan="on")
    server = _Server(config)
    host, port = sock.getsockname()[:2]
    shown = socket.gethostname() if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    server.announce = f"rummy: serving on http://{shown}:{port}/ (database {display_url(url)}); Ctrl+C stops"
    server.run(sockets=[sock])
    if not server.started:
        return _fail("the server did not start (see the messages above)")
    print("rummy: stopped")
    return 0

