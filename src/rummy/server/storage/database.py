"""The database: URLs, schema, Alembic migrations and the tables' event logs.

SQLAlchemy 2 async, SQLite by default (``rummy.db`` in the working directory) or PostgreSQL by URL.
The schema is created only by :func:`migrate` (``rummy migrate``, Alembic ``upgrade head``); a server
checks it with :func:`schema_status` and never creates it behind the user's back.

Writes (:meth:`Database.commit`) go to SQLite through one plain ``sqlite3`` connection on the event
loop (:mod:`rummy.server.storage.sqlite_log`: a commit takes a fraction of a millisecond, the slow WAL
checkpoints run in a thread), and to PostgreSQL through one writer task that groups the commits of
many tables into one transaction.  A PostgreSQL commit whose connection was lost, or whose server
shut down, once it was sent has an unknown outcome
(:class:`~rummy.server.storage.commit.CommitOutcomeUnknown`): the table reads its log before its next
write (:meth:`Database.settle`).

>>> normalize_db_url("postgresql://ann@localhost/rummy")
'postgresql+asyncpg://ann@localhost/rummy'
>>> normalize_db_url("sqlite:////tmp/games.db")
'sqlite+aiosqlite:////tmp/games.db'
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    JSON,
    Column,
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    event,
    func,
    insert,
    select,
    tuple_,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from rummy.server.outages import outage
from rummy.server.storage.commit import Commit, CommitOutcomeUnknown
from rummy.server.storage.postgres_log import PostgresLog, appendable
from rummy.server.storage.sqlite_log import SqliteLog, check_writable

log = logging.getLogger("rummy.server")

DEFAULT_DB_FILE = "rummy.db"
MIGRATIONS_DIR = Path(__file__).parent / "migrations"

# -- URLs -------------------------------------------------------------------------------------


class DatabaseURLError(ValueError):
    """A ``--db`` value that names no supported database."""


def default_db_url() -> str:
    """SQLite file ``rummy.db`` in the working directory."""
    return "sqlite+aiosqlite:///" + str(Path.cwd() / DEFAULT_DB_FILE)


def normalize_db_url(text: str) -> str:
    """The async-driver URL for ``text``: a SQLite or PostgreSQL URL, or a path to a SQLite file."""
    text = text.strip()
    if not text:
        raise DatabaseURLError("the database URL is empty")
    if "://" not in text:
        return "sqlite+aiosqlite:///" + str(Path(text).expanduser().resolve())
    try:
        url = make_url(text)
    except ArgumentError:
        raise DatabaseURLError(f"cannot parse the database URL {text!r}") from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        return text.replace(url.drivername, "sqlite+aiosqlite", 1)
    if backend in ("postgresql", "postgres"):
        return text.replace(url.drivername, "postgresql+asyncpg", 1)
    raise DatabaseURLError(f"unsupported database {backend!r}: use sqlite:///FILE or postgresql://…")


def display_url(url: str) -> str:
    """``url`` for messages: a SQLite file by its path, any other database with its password hidden."""
    path = sqlite_file(url)
    if path is not None:
        return str(path)
    return make_url(url).render_as_string(hide_password=True)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None for other databases and in-memory SQLite)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database)


def ensure_writable(url: str) -> None:
    """Raise :class:`~rummy.server.storage.sqlite_log.DatabaseNotWritable` when the SQLite file of ``url`` (or
    the folder its write-ahead log lives in) cannot be written; other databases are not probed."""
    path = sqlite_file(url)
    if path is not None:
        with closing(sqlite3.connect(path)) as connection:
            check_writable(connection, path)


# -- schema -----------------------------------------------------------------------------------

metadata = MetaData()

TABLES = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    Column("config", JSON, nullable=False),
    Column("host", String(64), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("fence", Integer, nullable=False, server_default="0"),
)

SEATS = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(8), nullable=False),
    Column("player_id", String(64), nullable=True, index=True),
    Column("name", String(64), nullable=False),
    Column("level", String(16), nullable=True),
)

EVENTS = Table(
    "events",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("payload", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("fence", Integer, nullable=False, server_default="0"),
)

SECRETS = Table(
    "secrets",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


def now() -> datetime:
    return datetime.now(UTC)


# -- migrations -------------------------------------------------------------------------------

SchemaState = Literal["current", "missing", "outdated", "unknown"]


@dataclass(frozen=True)
class SchemaStatus:
    """Where a database's schema stands against the migrations shipped with this version."""

    state: SchemaState
    current: str | None
    head: str


def _iso_utc(moment: datetime) -> str:
    """An ISO 8601 instant in UTC (SQLite hands back naive UTC datetimes)."""
    text = moment.isoformat(timespec="seconds")
    return text if moment.tzinfo is not None else text + "+00:00"


def _alembic_config(url: str, connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["url"] = url
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest migration shipped with this version."""
    head = ScriptDirectory.from_config(_alembic_config("")).get_current_head()
    assert head is not None
    return head


def _engine(url: str, **options: Any) -> AsyncEngine:
    engine = create_async_engine(url, **options)
    if make_url(url).get_backend_name() == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL keeps readers off the writer's back; NORMAL sync survives a killed process (not a power cut).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


async def schema_status(url: str) -> SchemaStatus:
    """Compare the database's Alembic revision with :func:`head_revision` (never creates anything)."""
    head = head_revision()
    path = sqlite_file(url)
    if path is not None and not path.exists():
        return SchemaStatus("missing", None, head)
    engine = _engine(url, poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            current = await connection.run_sync(
                lambda sync: MigrationContext.configure(sync).get_current_revision()
            )
    finally:
        await engine.dispose()
    if current is None:
        return SchemaStatus("missing", None, head)
    if current == head:
        return SchemaStatus("current", current, head)
    known = {script.revision for script in ScriptDirectory.from_config(_alembic_config(url)).walk_revisions()}
    return SchemaStatus("outdated" if current in known else "unknown", current, head)


async def migrate(url: str) -> None:
    """Bring the schema to the newest revision (Alembic ``upgrade head``)."""
    engine = _engine(url, poolclass=NullPool)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(lambda sync: command.upgrade(_alembic_config(url, sync), "head"))
    finally:
        await engine.dispose()


# -- the event log ----------------------------------------------------------------------------


@dataclass
class StoredTable:
    """A table as the database holds it: its row, its seats and its whole event log."""

    row: dict[str, Any]
    seats: list[dict[str, Any]]
    events: list[tuple[int, str, dict[str, Any]]]


class StaleOwnerError(RuntimeError):
    """A write made with an old fencing token: another server took the table over (nothing was written)."""

    def __init__(self, table_ids: list[str]) -> None:
        super().__init__(f"table(s) {', '.join(table_ids)} now belong to another server")
        self.table_ids = table_ids


@dataclass(frozen=True)
class Settled:
    """A table's log as :meth:`Database.settle` found it: the writer's fencing token from now on (None
    when it has none), and the last ``seq`` written."""

    fence: int | None
    last_seq: int


class Database:
    """The server's connection to its database; call :meth:`start` before use and :meth:`close` after.

    Reads go through SQLAlchemy (aiosqlite or asyncpg).  Writes go to SQLite through
    :class:`~rummy.server.storage.sqlite_log.SqliteLog`, to PostgreSQL through one writer task and asyncpg.
    """

    def __init__(self, url: str, *, checkpoint_seconds: float = 2.0, wal_limit_bytes: int = 32 * 2**20,
                 wal_truncate_seconds: float = 60.0) -> None:
        self.url = url
        self.checkpoint_seconds = checkpoint_seconds
        self.wal_truncate_seconds = wal_truncate_seconds
        path = sqlite_file(url)
        self._sqlite = SqliteLog(path, wal_limit_bytes) if path is not None else None
        parsed = make_url(url)
        # PostgreSQL: each connection taken from the pool is tested first (a cheap ping), so the first
        # request after a database restart reconnects instead of failing on a closed connection.  The
        # pool holds 5 connections and opens up to 10 more under load (SQLAlchemy's defaults), and the
        # event log writer has one of its own: up to 16 connections a worker (docs/deploy.md).
        self.engine = _engine(url, pool_pre_ping=True) if parsed.get_backend_name() == "postgresql" else _engine(url)
        self._postgres = (PostgresLog(parsed.set(drivername="postgresql").render_as_string(hide_password=False))
                          if parsed.get_backend_name() == "postgresql" else None)
        self._pending: list[tuple[Commit, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False

    async def start(self) -> None:
        self._tasks.append(asyncio.create_task(self._write_forever(), name="rummy-db-writer"))
        if self._sqlite is not None:
            checkpoints = self._sqlite.checkpoint_forever(self.checkpoint_seconds, self.wal_truncate_seconds)
            self._tasks.append(asyncio.create_task(checkpoints, name="rummy-db-checkpoint"))

    async def close(self) -> None:
        self._closing = True
        self._wake.set()
        if self._tasks:
            await self._tasks[0]
            for task in self._tasks[1:]:
                task.cancel()
            await asyncio.gather(*self._tasks[1:], return_exceptions=True)
        if self._sqlite is not None:
            self._sqlite.close()
        if self._postgres is not None:
            await self._postgres.close()
        await self.engine.dispose()

    # -- reads ------------------------------------------------------------------------------

    async def secret(self, name: str, make: Callable[[], str] = lambda: secrets.token_urlsafe(32)) -> str:
        """The stored secret ``name``, created on first use (two racing servers agree on one)."""
        async with self.engine.begin() as connection:
            value = await connection.scalar(select(SECRETS.c.value).where(SECRETS.c.name == name))
            if value is not None:
                return str(value)
        try:
            async with self.engine.begin() as connection:
                await connection.execute(insert(SECRETS).values(name=name, value=make(), created_at=now()))
        except IntegrityError:
            pass
        async with self.engine.connect() as connection:
            value = await connection.scalar(select(SECRETS.c.value).where(SECRETS.c.name == name))
        assert value is not None
        return str(value)

    async def unfinished_table_ids(self) -> list[str]:
        async with self.engine.connect() as connection:
            result = await connection.execute(
                select(TABLES.c.id).where(TABLES.c.status != "finished").order_by(TABLES.c.created_at)
            )
            return [row[0] for row in result]

    async def load_table(self, table_id: str) -> StoredTable | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(TABLES).where(TABLES.c.id == table_id))).mappings().first()
            if row is None:
                return None
            seats = (
                await connection.execute(select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat))
            ).mappings().all()
            events = await connection.execute(
                select(EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.payload)
                .where(EVENTS.c.table_id == table_id)
                .order_by(EVENTS.c.seq)
            )
            return StoredTable(dict(row), [dict(s) for s in seats], [(e[0], e[1], e[2]) for e in events])

    async def tables_of_player(self, player_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The newest tables where ``player_id`` has a seat: each with the names at its seats (null for an
        open seat) and when it last changed (``last_move_at``: its latest event, else its own row)."""
        last_event = (select(EVENTS.c.created_at).where(EVENTS.c.table_id == TABLES.c.id)
                      .order_by(EVENTS.c.seq.desc()).limit(1).correlate(TABLES).scalar_subquery())
        query = (
            select(TABLES.c.id, TABLES.c.variant, TABLES.c.status, SEATS.c.seat, TABLES.c.updated_at,
                   last_event.label("last_event_at"))
            .join(SEATS, SEATS.c.table_id == TABLES.c.id)
            .where(SEATS.c.player_id == player_id)
            .order_by(TABLES.c.updated_at.desc())
            .limit(limit)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).mappings().all()
            players: dict[str, list[str | None]] = {}
            if rows:
                seats = await connection.execute(
                    select(SEATS.c.table_id, SEATS.c.seat, SEATS.c.kind, SEATS.c.name)
                    .where(SEATS.c.table_id.in_({r["id"] for r in rows})).order_by(SEATS.c.table_id, SEATS.c.seat))
                for table_id, _, kind, name in seats:
                    players.setdefault(table_id, []).append(None if kind == "open" else name)
        return [
            {"table_id": r["id"], "variant": r["variant"], "status": r["status"], "seat": r["seat"],
             "players": players.get(r["id"], []), "last_move_at": _iso_utc(r["last_event_at"] or r["updated_at"])}
            for r in rows
        ]

    async def take_over(self, table_id: str) -> int | None:
        """Raise the fencing token of ``table_id`` and return it (None: no such table).  Every write made
        with an older token fails from now on, so the log read after this call is the whole log."""
        async with self.engine.begin() as connection:
            fence = await connection.scalar(
                update(TABLES).where(TABLES.c.id == table_id).values(fence=TABLES.c.fence + 1).returning(TABLES.c.fence)
            )
        return int(fence) if fence is not None else None

    async def ping(self) -> None:
        """Ask the database for nothing (raises when it cannot be reached)."""
        async with self.engine.connect() as connection:
            await connection.execute(select(1))

    async def settle(self, table_id: str, fence: int | None) -> Settled | None:
        """After a commit of unknown outcome: the table's last ``seq`` as the log holds it, read once no
        write of that commit can still land.  A fenced writer raises its own token (waiting for the row
        lock that a write in flight holds to its end; a write still on its way is refused by the new
        token); an unfenced one waits for that lock.  None: the token is no longer the writer's (another
        server took the table over)."""
        async with self.engine.begin() as connection:
            if fence is not None:
                raised = await connection.scalar(
                    update(TABLES).where((TABLES.c.id == table_id) & (TABLES.c.fence == fence))
                    .values(fence=TABLES.c.fence + 1).returning(TABLES.c.fence))
                if raised is None:
                    return None
            else:
                await connection.execute(select(TABLES.c.id).where(TABLES.c.id == table_id).with_for_update())
            last = await connection.scalar(select(func.max(EVENTS.c.seq)).where(EVENTS.c.table_id == table_id))
        return Settled(int(raised) if fence is not None else None, int(last or 0))

    # -- writes -----------------------------------------------------------------------------

    async def commit(self, unit: Commit) -> None:
        """Write ``unit`` durably; returns once it is in the database (raises if it could not be).

        SQLite commits at once, on the caller's turn of the event loop (no hand-over to a writer
        task: each hop would cost a turn of a busy loop); PostgreSQL commits of many tables are
        grouped by the writer task into one transaction.
        """
        if self._closing:
            raise RuntimeError("the database is closing")
        if self._sqlite is not None:
            self._sqlite.write([unit])
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((unit, future))
        self._wake.set()
        await future

    async def _write_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if batch:
                await self._write_batch(batch)
            if self._closing and not self._pending:
                return

    async def _write_batch(self, batch: list[tuple[Commit, asyncio.Future[None]]]) -> None:
        units = [unit for unit, _ in batch]
        try:
            if self._sqlite is not None:
                self._sqlite.write(units)
            elif self._postgres is not None and appendable(units):
                stale = await self._postgres.append(units, now())
                if stale:
                    self._refuse(batch, stale)
                    batch = [item for item in batch if item[0].table_id not in stale]
            else:
                await self._write_orm(units)
        except Exception as error:  # noqa: BLE001 - any failure must reach the waiting tables
            if isinstance(error, CommitOutcomeUnknown):  # never written again: the batch may be in the log
                log.error("database write of %d table(s) has an unknown outcome: %s", len(batch), error)
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                return
            if len(batch) > 1:  # find the bad unit: write each alone
                for item in batch:
                    await self._write_batch([item])
                return
            if not isinstance(error, StaleOwnerError):
                log.error("database write for table %s failed: %s", batch[0][0].table_id, error)
            if not batch[0][1].done():
                batch[0][1].set_exception(error)
            return
        for _, future in batch:
            if not future.done():
                future.set_result(None)

    async def _write_orm(self, units: list[Commit]) -> None:
        """Write through SQLAlchemy: a connection lost once the transaction began is an unknown outcome."""
        async with self.engine.connect() as async_connection:  # a failure here wrote nothing
            try:
                async with async_connection.begin():
                    await async_connection.run_sync(_write_units, units)
            except Exception as error:
                if self._postgres is not None and outage(error) is not None:
                    raise CommitOutcomeUnknown(f"the connection to the database was lost during a write: "
                                               f"{error}") from error
                raise

    @staticmethod
    def _refuse(batch: list[tuple[Commit, asyncio.Future[None]]], stale: list[str]) -> None:
        error = StaleOwnerError(stale)
        for unit, future in batch:
            if unit.table_id in stale and not future.done():
                future.set_exception(error)


def _write_units(connection: Connection, units: list[Commit]) -> None:
    """Write ``units`` in the caller's transaction: the owners' fences first (their rows stay locked to
    the end, so a take-over waits for this transaction), new tables and seats, events, then table updates."""
    stamp = now()
    fenced = sorted((unit.table_id, unit.fence) for unit in units if unit.fence is not None and unit.new_table is None)
    if fenced:
        kept = connection.execute(
            update(TABLES).where(tuple_(TABLES.c.id, TABLES.c.fence).in_(fenced)).values(updated_at=stamp)
            .returning(TABLES.c.id)
        ).scalars().all()
        stale = sorted({table_id for table_id, _ in fenced} - set(kept))
        if stale:
            raise StaleOwnerError(stale)
    events: list[dict[str, Any]] = []
    for unit in units:
        if unit.new_table is not None:
            connection.execute(insert(TABLES).values(**unit.new_table, fence=unit.fence or 0, created_at=stamp,
                                                     updated_at=stamp))
            if unit.seats:
                connection.execute(insert(SEATS), [{"table_id": unit.table_id, **s} for s in unit.seats])
        elif unit.seats:
            for seat in unit.seats:
                values = {k: v for k, v in seat.items() if k != "seat"}
                where = (SEATS.c.table_id == unit.table_id) & (SEATS.c.seat == seat["seat"])
                connection.execute(update(SEATS).where(where).values(**values))
        events.extend(
            {"table_id": unit.table_id, "seq": seq, "kind": kind, "payload": payload, "created_at": stamp,
             "fence": unit.fence or 0}
            for seq, kind, payload in unit.events
        )
    if events:
        connection.execute(insert(EVENTS), events)
    for unit in units:
        if unit.new_table is None and unit.status is not None:
            connection.execute(update(TABLES).where(TABLES.c.id == unit.table_id).values(status=unit.status,
                                                                                         updated_at=stamp))
