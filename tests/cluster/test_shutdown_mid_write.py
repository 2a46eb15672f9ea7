"""The PostgreSQL server terminates the event-log writer's backend in the middle of a write (as a
shutdown or ``pg_terminate_backend`` does; asyncpg raises ``AdminShutdownError``, SQLSTATE 57P01): the
write's outcome is unknown (:class:`CommitOutcomeUnknown`), never "nothing changed", and the table reads
its log before its next write.

Two moments, both real: the backend is terminated after its COMMIT was written locally (it waits for a
synchronous standby that never comes: the server of this module names one), or while its statement
waits for a row lock (nothing committed).  Either way the log ends with every seq once and the table
believes what the log holds.  No test waits on a clock: each waits for the backend's wait event.
(asyncpg reports such a backend's FATAL error as a lost connection; the last test covers the server's
shutdown errors raised as they are.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import asyncpg
import pytest

from rummy.server.cluster.registry import TableRegistry
from rummy.server.settings import ServerSettings
from rummy.server.storage.commit import Commit, CommitOutcomeUnknown
from rummy.server.storage.database import Database, normalize_db_url, now
from rummy.server.storage.postgres_log import PostgresLog
from rummy.server.tables.bot_runner import BotRunner
from rummy.server.tables.inbox import Connected
from tests.cluster.services import ServiceMissing, migrate, postgres
from tests.cluster.test_robustness import Probe, started_basic_table, until_async
from tests.server.conftest import run

#: What the writer's asyncpg connection raises when its backend is terminated mid-statement.
SHUTDOWN_MID_WRITE = (asyncpg.exceptions.ConnectionDoesNotExistError, asyncpg.exceptions.AdminShutdownError)


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    """A PostgreSQL whose commits wait for a synchronous standby that never connects, but only in a
    session that asks for it (``synchronous_commit = on``; every other session commits locally)."""
    try:
        with postgres("synchronous_standby_names=nobody", "synchronous_commit=local") as db:
            migrate(db.url)
            yield db.url
    except ServiceMissing as missing:
        pytest.skip(f"this test needs PostgreSQL: {missing}")


async def logged_seqs(db_url: str, table_id: str) -> list[int]:
    connection = await asyncpg.connect(db_url)
    try:
        rows = await connection.fetch("SELECT seq FROM events WHERE table_id = $1 ORDER BY seq", table_id)
    finally:
        await connection.close()
    return [row["seq"] for row in rows]


async def until_waiting(admin: Any, pid: int, wait_event_type: str) -> None:
    """Until the backend ``pid`` waits on ``wait_event_type`` (``IPC``: a synchronous standby; ``Lock``)."""
    query = "SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE pid = $1"
    while (row := await admin.fetchrow(query, pid)) is None or row["wait_event_type"] != wait_event_type:
        await asyncio.sleep(0.01)
    assert wait_event_type != "IPC" or row["wait_event"] == "SyncRep", row


@pytest.mark.slow
@pytest.mark.parametrize("committed", [True, False], ids=["after-commit", "before-commit"])
def test_a_backend_terminated_mid_write_leaves_an_unknown_outcome_the_log_settles(db_url: str,
                                                                                 committed: bool) -> None:
    """The writer's backend is terminated during a move's write: the write raises CommitOutcomeUnknown
    (the move is answered ``unavailable``, never "nothing changed") and the table is in doubt.  Its
    next write reads the log first: committed, the table is rebuilt from the log and the move is not
    made twice; not committed, the move is made under the same seq.  The log has every seq once."""

    async def scenario() -> None:
        db = Database(normalize_db_url(db_url))
        await db.start()
        registry = TableRegistry(db, BotRunner(0), ServerSettings(), None)
        admin = await asyncpg.connect(db_url)
        locker = await asyncpg.connect(db_url)
        try:
            table, clients = await started_basic_table(registry)  # the writer's connection is open now
            writer = db._postgres
            assert writer is not None and writer._connection is not None and table.game is not None
            pid = writer._connection.get_server_pid()
            raised: list[BaseException] = []
            append = writer.append

            async def recording_append(*args: Any) -> list[str]:
                try:
                    return await append(*args)
                except BaseException as error:
                    raised.append(error)
                    raise

            writer.append = recording_append  # type: ignore[method-assign]
            if committed:  # its COMMIT is written, then waits for the standby
                await writer._connection.execute("SET synchronous_commit = on")
            else:  # its UPDATE of the table's row waits for this lock: nothing is committed
                await locker.execute("BEGIN")
                await locker.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table.id)
            action = table.game.legal_actions()[0]
            mover, move = clients[action.seat], str(action)
            seq = table.seq
            asked = asyncio.create_task(mover.ask(table, "action", seq=seq, action=move))
            await asyncio.wait_for(until_waiting(admin, pid, "IPC" if committed else "Lock"), 30)
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
            reply = await asked
            if not committed:
                await locker.execute("ROLLBACK")
            assert len(raised) == 1 and isinstance(raised[0], CommitOutcomeUnknown), raised
            # asyncpg reports the server's FATAL error followed by the closed socket as a lost connection
            assert isinstance(raised[0].__cause__, SHUTDOWN_MID_WRITE), raised[0].__cause__
            assert (reply["type"], reply["code"]) == ("error", "unavailable"), reply
            assert "nothing changed" not in reply["message"]
            assert table.in_doubt and table.seq == seq
            assert await logged_seqs(db_url, table.id) == list(range(1, seq + 1 + committed))

            mover = Probe(clients[action.seat].session)  # the player reconnects and sends the move again
            table.post(Connected(mover))
            reply = await mover.ask(table, "action", seq=seq, action=move)  # the next write settles first
            if committed:  # the move is in the log: the table is rebuilt from it, the move not made again
                assert (reply["type"], reply["code"]) == ("error", "unavailable"), reply
                await until_async(lambda: table.id not in registry.tables)
                again = await registry.get(table.id)
                assert again is not None and again.seq == seq + 1 and not again.in_doubt
                assert again.game is not None
                action = again.game.legal_actions()[0]
                client = Probe(clients[action.seat].session)
                again.post(Connected(client))
                reply = await client.ask(again, "action", seq=again.seq, action=str(action))
                assert reply["type"] == "ack", reply
                assert await logged_seqs(db_url, table.id) == list(range(1, seq + 3))
            else:  # not in the log: the move is made now, under the same seq
                assert reply["type"] == "ack", reply
                assert not table.in_doubt and table.seq == seq + 1
                assert await logged_seqs(db_url, table.id) == list(range(1, seq + 2))
        finally:
            await locker.close()
            await admin.close()
            await registry.close()
            await db.close()

    run(scenario())


class Failing:
    """A writer's connection whose statement fails with ``error``."""

    def __init__(self, error: Exception) -> None:
        self.error, self.closed = error, False

    def is_closed(self) -> bool:
        return self.closed

    async def fetch(self, *args: Any) -> Any:
        raise self.error

    async def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("error, unknown", [
    (asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator command"), True),
    (asyncpg.exceptions.CrashShutdownError("terminating connection because of crash of another server process"),
     True),
    (asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation"), True),
    (ConnectionResetError(104, "Connection reset by peer"), True),
    (asyncpg.exceptions.UniqueViolationError("duplicate key value violates unique constraint"), False),
], ids=["admin-shutdown", "crash-shutdown", "connection-lost", "reset", "refused"])
def test_the_writer_reads_a_server_shutdown_as_an_unknown_outcome(error: Exception, unknown: bool) -> None:
    """A server shutting down (57P01, 57P02), as asyncpg may raise it, leaves the write's outcome unknown
    like a lost connection (the writer's connection is closed, a new one is opened for the next write);
    an error the server answered the statement with (a broken unique key) rolled it back: raised as it is."""

    async def scenario() -> None:
        writer = PostgresLog("postgresql://nobody@127.0.0.1:1/none")
        connection = writer._connection = Failing(error)
        with pytest.raises(CommitOutcomeUnknown if unknown else type(error)) as raised:
            await writer.append([Commit("t1", [(1, "move", {})])], now())
        assert (raised.value.__cause__ is error) if unknown else (raised.value is error)
        assert connection.closed == unknown and (writer._connection is None) == unknown

    run(scenario())
