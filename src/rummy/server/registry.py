"""Every live table of a server: creating tables, loading them from the database, stopping them.

At start-up every unfinished table is rebuilt from its event log and its owner started, so its
timers and bots run on even before anyone reconnects; a finished table is loaded when asked for.
A table nothing can move (no client, no timer, no bot) leaves memory after ``idle_table_seconds``.
The registry also enforces the table limits of :mod:`rummy.server.limits`.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets

from rummy.server.bot_runner import BotRunner
from rummy.server.catalog import TableConfig
from rummy.server.commit import Commit
from rummy.server.db import Database
from rummy.server.limits import LimitError, UnattendedGames
from rummy.server.seats import SeatState
from rummy.server.sessions import Session
from rummy.server.settings import ServerSettings
from rummy.server.tables import Table

log = logging.getLogger("rummy.server")

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class TableRegistry:
    """The tables of one server process (a table lives in exactly one process)."""

    def __init__(self, db: Database, bots: BotRunner, settings: ServerSettings) -> None:
        self.db, self.bots, self.settings = db, bots, settings
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self.unattended = UnattendedGames(settings.max_unattended_games_per_address, settings.max_unattended_games)

    async def restore_unfinished(self) -> int:
        """Rebuild and start every table whose game is not over; returns how many."""
        count = 0
        for table_id in await self.db.unfinished_table_ids():
            if await self.get(table_id) is not None:
                count += 1
        return count

    def check_table_limits(self, host: Session, address: str) -> None:
        """Raise :class:`LimitError` when ``host``, or the players of ``address``, host as many
        unfinished tables as the settings allow."""
        unfinished = [table for table in self.tables.values() if table.status != "finished"]
        minutes = max(1, round(self.settings.idle_table_seconds / 60))
        later = f"finish one, or try again once an unused one has closed (after {minutes} minutes without use)"
        limit = self.settings.max_tables_per_player
        if sum(table.host == host.player_id for table in unfinished) >= limit:
            raise LimitError("too-many-tables",
                             f"you host {limit} unfinished tables, the most this server allows: {later}")
        limit = self.settings.max_tables_per_address
        if sum(table.address == address for table in unfinished) >= limit:
            raise LimitError("too-many-tables",
                             f"your address hosts {limit} unfinished tables, the most this server allows: {later}")

    async def create(self, config: TableConfig, host: Session, address: str | None = None) -> Table:
        """A new table with the host in seat 0, written to the database, its owner started; ``address``
        (the client's, for the per-address limits) is checked first when given."""
        if address is not None:
            self.check_table_limits(host, address)
        seats = [SeatState(0, "human", host.name, host.player_id)]
        for index in range(1, config.seats):
            level = config.bots.get(index)
            seats.append(SeatState.bot(index, level) if level is not None else SeatState(index, "open"))
        table_id = secrets.token_urlsafe(6)
        table = Table(table_id, config, host.player_id, seats, db=self.db, bots=self.bots, settings=self.settings,
                      unattended=self.unattended, address=address)
        row = {"id": table_id, "variant": config.variant, "options": config.options, "config": config.to_json(),
               "host": host.player_id, "status": "waiting"}
        await self.db.commit(Commit(table_id, seats=[s.to_row() for s in seats], new_table=row))
        self.tables[table_id] = table
        table.start()
        return table

    async def get(self, table_id: str) -> Table | None:
        """The table ``table_id``, loaded from the database on first use; None if there is none."""
        if table_id in self.tables:
            return self.tables[table_id]
        if not TABLE_ID.match(table_id):
            return None
        if table_id in self._loading:
            return await self._loading[table_id]
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load(table_id)
            future.set_result(table)
            return table
        except BaseException as error:
            future.set_exception(error)
            raise
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: str) -> Table | None:
        stored = await self.db.load_table(table_id)
        if stored is None:
            return None
        config = TableConfig.from_json(stored.row["config"])
        seats = [SeatState.from_row(row) for row in stored.seats]
        table = Table(table_id, config, stored.row["host"], seats, db=self.db, bots=self.bots,
                      settings=self.settings, status=stored.row["status"], unattended=self.unattended)
        try:
            table.replay(stored.events)
        except Exception:
            log.exception("table %s: its event log does not replay; the table stays closed", table_id)
            return None
        self.tables[table_id] = table
        table.start()
        return table

    async def evict_idle_forever(self) -> None:
        """Drop tables nothing has moved for ``idle_table_seconds`` (:meth:`Table.idle_for`); they come
        back from the database when asked for."""
        loop = asyncio.get_running_loop()
        every = max(0.05, min(60.0, self.settings.idle_table_seconds / 2))
        while True:
            await asyncio.sleep(every)
            now = loop.time()
            idle = [t for t in self.tables.values() if t.idle_for(now) > self.settings.idle_table_seconds]
            for table in idle:  # no await between the check and the removal: no client can slip in
                del self.tables[table.id]
            for table in idle:
                await table.stop()

    async def close(self) -> None:
        """Stop every owner task (the event log already holds everything)."""
        await asyncio.gather(*(table.stop() for table in self.tables.values()), return_exceptions=True)
        self.tables.clear()
