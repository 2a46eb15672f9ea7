"""Short write transactions beside the event log's writer (history rows, identity codes).

The SQLite event-log writer (:mod:`rummy.server.storage.sqlite_log`) commits on the event loop and, while it
waits for SQLite's write lock, holds the loop.  An async (aiosqlite) transaction that awaited between
its statements while holding that lock could then never finish: the loop it needs is the one being
held, and both would wait for the busy timeout.  So on SQLite these writes are made the same way as the
log's, whole and synchronously on the event loop through a plain ``sqlite3`` connection (each takes a
fraction of a millisecond); on PostgreSQL they run through the async engine as one transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection, create_engine, event
from sqlalchemy.pool import NullPool

from rummy.server.storage.database import Database, sqlite_file

T = TypeVar("T")


def _pragmas(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # transactions are begun by _begin_immediate, not the driver
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _begin_immediate(connection: Connection) -> None:
    # Take the write lock at the start: a transaction that read first and then wanted to write could be
    # refused at once (SQLITE_BUSY) if another process wrote in between.
    connection.exec_driver_sql("BEGIN IMMEDIATE")


class SideWriter:
    """Runs ``write(connection)`` in one transaction of ``db``'s database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        path = sqlite_file(db.url)
        self._sqlite = None
        if path is not None:
            self._sqlite = create_engine(f"sqlite:///{path}", poolclass=NullPool)
            event.listen(self._sqlite, "connect", _pragmas)
            event.listen(self._sqlite, "begin", _begin_immediate)

    async def run(self, write: Callable[[Connection], T]) -> T:
        if self._sqlite is not None:
            with self._sqlite.begin() as connection:
                return write(connection)
        async with self.db.engine.begin() as connection:
            return await connection.run_sync(write)
