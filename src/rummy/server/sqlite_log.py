"""The SQLite fast path of the event-log writer: plain ``sqlite3`` on the event loop, checkpoints in a
thread.

A WAL commit without fsync takes about 0.2 ms through ``sqlite3`` (several times that through an ORM
layer or a thread hop per statement), so the writer commits inline.  The expensive part of WAL, the
checkpoint that copies the log into the database file and syncs it, runs in a worker thread every
few seconds instead of inside some commit on the event loop (``wal_autocheckpoint`` is off for the
writer).  ``synchronous=NORMAL``: a killed server loses nothing; a power cut may lose the last
commits but never corrupts the file.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummy.server.db import Commit

PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA busy_timeout=10000",
           "PRAGMA foreign_keys=ON")
INSERT_TABLE = ("INSERT INTO tables (id, variant, options, config, host, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
INSERT_SEAT = "INSERT INTO seats (table_id, seat, kind, player_id, name, level) VALUES (?, ?, ?, ?, ?, ?)"
UPDATE_SEAT = "UPDATE seats SET kind = ?, player_id = ?, name = ?, level = ? WHERE table_id = ? AND seat = ?"
INSERT_EVENT = "INSERT INTO events (table_id, seq, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)"
UPDATE_STATUS = "UPDATE tables SET status = ?, updated_at = ? WHERE id = ?"


def timestamp() -> str:
    """Now, as SQLAlchemy stores a ``DateTime`` in SQLite."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


class SqliteLog:
    """The writer's own ``sqlite3`` connection to the database file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        for pragma in (*PRAGMAS, "PRAGMA wal_autocheckpoint=0"):
            self.connection.execute(pragma)
        self.dirty = False

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

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        """Copy the WAL into the database file (run it in a thread: it syncs the disk)."""
        with closing(sqlite3.connect(self.path, timeout=10)) as connection:
            connection.execute(f"PRAGMA wal_checkpoint({mode})")

    def close(self) -> None:
        self.checkpoint("TRUNCATE")
        self.connection.close()
