"""The PostgreSQL fast path of the event-log writer: a batch of moves in one statement, one round trip.

Most commits are a few events of one table, perhaps a status change, checked against the writer's
fencing token.  Through the ORM such a batch costs five round trips (begin, fence check, events,
status, commit); on a busy machine each round trip waits for the database process to be scheduled,
and the waits add up to most of a move's latency.  Here the whole batch is one statement (one
implicit transaction): the fenced ``UPDATE`` of the tables keeps the rows whose token still holds
(locking them until the end, so a take-over waits), and only their events are inserted.  A table
whose token no longer holds writes nothing and is reported back.

A connection lost once the statement was sent, or the server shutting down under it (asyncpg's
``AdminShutdownError``, 57P01, or ``CrashShutdownError``, 57P02: :func:`rummy.server.outages.outage`
classifies them), leaves its outcome unknown: PostgreSQL may have committed it just before (a backend
terminated while it waits for a synchronous standby has committed locally; asyncpg reports a FATAL
error followed by the closed socket as a lost connection, the server's error as its cause).  That is
:class:`CommitOutcomeUnknown`, never "nothing changed"; the table finds out by reading its log before
its next write (:meth:`rummy.server.storage.database.Database.settle`).  A shutdown met before the
commit wrote nothing, but the error does not say which: the log settles it the same way.  An error
the server answers the statement with (a broken constraint) rolled it back: it is raised as it is.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import asyncpg

from rummy.server.outages import outage
from rummy.server.storage.commit import Commit, CommitOutcomeUnknown

APPEND = """
WITH units AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::text[]) AS u(id, fence, status)
), kept AS (
    UPDATE tables t SET updated_at = $4, status = COALESCE(u.status, t.status)
    FROM units u
    WHERE t.id = u.id AND (u.fence IS NULL OR t.fence = u.fence)
    RETURNING t.id
), written AS (
    INSERT INTO events (table_id, seq, kind, payload, created_at, fence)
    SELECT e.table_id, e.seq, e.kind, e.payload::json, $4, e.fence
    FROM unnest($5::text[], $6::int[], $7::text[], $8::text[], $9::int[]) AS e(table_id, seq, kind, payload, fence)
    WHERE e.table_id IN (SELECT id FROM kept)
    RETURNING 1
)
SELECT id FROM kept
"""


def appendable(units: Sequence[Commit]) -> bool:
    """Whether the batch suits :class:`PostgresLog`: events and status changes only, one unit a table."""
    return (all(unit.new_table is None and not unit.seats for unit in units)
            and len({unit.table_id for unit in units}) == len(units))


class PostgresLog:
    """The writer's own asyncpg connection (opened on first use, again after a failure)."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._connection: Any = None  # asyncpg.Connection

    async def append(self, units: Sequence[Commit], stamp: datetime) -> list[str]:
        """Write the units (see :func:`appendable`); returns the tables refused for an old fencing token."""
        if self._connection is None or self._connection.is_closed():
            self._connection = await asyncpg.connect(self.dsn)
        events = [(unit.table_id, seq, kind, json.dumps(payload), unit.fence or 0)
                  for unit in units for seq, kind, payload in unit.events]
        try:
            rows = await self._connection.fetch(
                APPEND, [u.table_id for u in units], [u.fence for u in units], [u.status for u in units], stamp,
                [e[0] for e in events], [e[1] for e in events], [e[2] for e in events], [e[3] for e in events],
                [e[4] for e in events])
        except Exception as error:
            if outage(error) is None and not isinstance(error, OSError):
                raise  # the server refused the statement: it was rolled back
            await self.close()
            raise CommitOutcomeUnknown(f"the database went away during a write: {error}") from error
        kept = {row["id"] for row in rows}
        return sorted(unit.table_id for unit in units if unit.table_id not in kept)

    async def close(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            try:
                await connection.close()
            except (OSError, asyncpg.exceptions.InterfaceError, asyncpg.exceptions.ConnectionDoesNotExistError):
                connection.terminate()
