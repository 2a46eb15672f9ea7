"""The SQLite fast path of the event-log writer: plain ``sqlite3`` on the event loop, checkpoints in a
thread.

A WAL commit without fsync takes about 0.2 ms through ``sqlite3`` (several times that through an ORM
layer or a thread hop per statement), so the writer commits inline.  The expensive part of WAL, the
checkpoint that copies the log into the database file and syncs it, runs in a worker thread every
few seconds instead of inside some commit on the event loop (``wal_autocheckpoint`` is off for the
writer).  ``synchronous=NORMAL``: a killed server loses nothing; a power cut may lose the last
commits but never corrupts the file.

A passive checkpoint never waits for the writer, so under a steady stream of commits it never
catches up with the end of the log, and SQLite only rewinds a log that was copied whole: the file
grows for ever (nearly a gigabyte in a minute and a half of flooding).  So once the log passes
``wal_limit_bytes``, or every ``wal_truncate_seconds``, the checkpoint is ``TRUNCATE``: it holds the
writer back for the few pages the passive ones left and empties the file (waiting at most 50 ms for
readers to leave the log, or trying again at the next checkpoint); ``journal_size_limit`` trims a
rewound log to the same size.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
from collections.abc import Sequence
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from rummy.server.storage.commit import Commit

log = logging.getLogger("rummy.server")

PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA busy_timeout=10000",
           "PRAGMA foreign_keys=ON")
INSERT_TABLE = ("INSERT INTO tables (id, variant, options, config, host, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
INSERT_SEAT = "INSERT INTO seats (table_id, seat, kind, player_id, name, level) VALUES (?, ?, ?, ?, ?, ?)"
UPDATE_SEAT = "UPDATE seats SET kind = ?, player_id = ?, name = ?, level = ? WHERE table_id = ? AND seat = ?"
INSERT_EVENT = "INSERT INTO events (table_id, seq, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)"
UPDATE_STATUS = "UPDATE tables SET status = ?, updated_at = ? WHERE id = ?"
TRUNCATE_WAIT_SECONDS = 0.05


def timestamp() -> str:
    """Now, as SQLAlchemy stores a ``DateTime`` in SQLite."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


class DatabaseNotWritable(RuntimeError):
    """The SQLite file (or its folder, where the log lives) cannot be written by this process."""


def check_writable(connection: sqlite3.Connection, path: Path) -> None:
    """Write to the file once (its ``user_version``, to the value it has): a read-only file or folder
    is refused at start-up with one sentence, not found out by every move failing later."""
    try:
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        connection.execute(f"PRAGMA user_version={version}")
    except sqlite3.Error as error:
        raise DatabaseNotWritable(f"the database {path} cannot be written ({error}): "
                                  "check the permissions of the file and of its folder") from None


class SqliteLog:
    """The writer's own ``sqlite3`` connection to the database file."""

    def __init__(self, path: Path, wal_limit_bytes: int = 32 * 2**20) -> None:
        self.path = path
        self.wal_limit_bytes = wal_limit_bytes
        self.connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            for pragma in (*PRAGMAS, "PRAGMA wal_autocheckpoint=0", f"PRAGMA journal_size_limit={wal_limit_bytes}"):
                self.connection.execute(pragma)
            check_writable(self.connection, path)
        except BaseException:
            self.connection.close()
            raise
        self.dirty = False
        self._truncated_at = time.monotonic()

    def write(self, units: Sequence[Commit]) -> None:
        """Write every unit in one transaction (all or nothing)."""
        stamp = timestamp()
        db = self.connection
        db.execute("BEGIN IMMEDIATE")
        try:
            for unit in units:
                if unit.new_table is not None:
                    row = unit.new_table
                    db.execute(INSERT_TABLE, (row["id"], row["variant"], json.dumps(row["options"]),
                                              json.dumps(row["config"]), row["host"], row["status"], stamp, stamp))
                    db.executemany(INSERT_SEAT, [(unit.table_id, s["seat"], s["kind"], s["player_id"], s["name"],
                                                  s["level"]) for s in unit.seats])
                else:
                    db.executemany(UPDATE_SEAT, [(s["kind"], s["player_id"], s["name"], s["level"], unit.table_id,
                                                  s["seat"]) for s in unit.seats])
                db.executemany(INSERT_EVENT, [(unit.table_id, seq, kind, json.dumps(payload), stamp)
                                              for seq, kind, payload in unit.events])
                if unit.status is not None:
                    db.execute(UPDATE_STATUS, (unit.status, stamp, unit.table_id))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self.dirty = True

    def checkpoint(self, mode: str = "PASSIVE", wait: float = 10.0) -> bool:
        """Copy the WAL into the database file (run it in a thread: it syncs the disk); True when it was
        all copied.  ``wait``: how long a ``TRUNCATE`` may wait for readers, holding writers back."""
        with closing(sqlite3.connect(self.path, timeout=wait)) as connection:
            connection.execute(f"PRAGMA journal_size_limit={self.wal_limit_bytes}")
            busy, _, _ = connection.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
            return not busy

    def wal_bytes(self) -> int:
        """The size of the write-ahead log file now (0 when there is none)."""
        try:
            return os.path.getsize(f"{self.path}-wal")
        except OSError:
            return 0

    def checkpoint_mode(self, now: float, truncate_seconds: float) -> str:
        """``TRUNCATE`` when the log is past its limit or the periodic truncation is due, else ``PASSIVE``."""
        if self.wal_bytes() > self.wal_limit_bytes or now - self._truncated_at >= truncate_seconds:
            return "TRUNCATE"
        return "PASSIVE"

    async def checkpoint_forever(self, every: float, truncate_seconds: float) -> None:
        """Checkpoint in a thread every ``every`` seconds while there are new commits (cancel to stop)."""
        while True:
            await asyncio.sleep(every)
            if not self.dirty:
                continue
            self.dirty = False
            mode = self.checkpoint_mode(time.monotonic(), truncate_seconds)
            try:
                if mode == "TRUNCATE":  # copy most pages without holding the writer back, then the rest
                    await asyncio.to_thread(self.checkpoint, "PASSIVE")
                # While a TRUNCATE waits for readers it holds back the writer, which commits on the event
                # loop: it waits briefly, and when readers stay it gives up until the next checkpoint.
                done = await asyncio.to_thread(self.checkpoint, mode, TRUNCATE_WAIT_SECONDS)
            except sqlite3.Error as error:
                self.dirty = True
                log.warning("SQLite checkpoint failed (it will be retried): %s", error)
                continue
            if mode == "TRUNCATE" and done:
                self._truncated_at = time.monotonic()
            elif mode == "TRUNCATE":
                self.dirty = True

    def close(self) -> None:
        self.checkpoint("TRUNCATE")
        self.connection.close()
