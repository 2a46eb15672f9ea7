"""Every live table of a server: creating tables, loading them from the database, stopping them.

At start-up every unfinished table is rebuilt from its event log and its owner started, so its
timers and bots run on even before anyone reconnects; a finished table is loaded when asked for.
A table nothing can move (no client, no timer, no bot) leaves memory after ``idle_table_seconds``.
The registry also enforces the table limits of :mod:`rummy.server.limits`: on a cluster, in Redis for
every worker at once (:mod:`rummy.server.cluster.shared_limits`).

With a :class:`~rummy.server.cluster.membership.Cluster` the registry holds the tables this worker owns: a table
is loaded here only once claimed (no live worker owned it), its fencing token raised before its log
is read (:meth:`~rummy.server.storage.database.Database.take_over`); any other table is reached through
:class:`~rummy.server.cluster.links.RemoteTable` (:meth:`TableRegistry.locate`).  Where a table *should*
run is :mod:`rummy.server.cluster.placement`'s: a new table is made for the worker it is placed on, a
worker starts only the tables placed on it, and one that finds a table it runs placed elsewhere hands
it over (:meth:`TableRegistry.hand_over`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from rummy.server.cluster.links import ClusterLinks, LocalTable, RemoteTable
from rummy.server.cluster.shared_limits import SharedLimits, address_tables_key, player_tables_key
from rummy.server.events.log import rebuild
from rummy.server.limits import LimitError, UnattendedGames
from rummy.server.sessions import Session
from rummy.server.settings import ServerSettings
from rummy.server.storage.commit import Commit
from rummy.server.storage.database import Database
from rummy.server.tables.bot_runner import BotRunner
from rummy.server.tables.catalog import TableConfig
from rummy.server.tables.core import TableCore
from rummy.server.tables.seats import SeatState
from rummy.server.tables.table import Table

if TYPE_CHECKING:  # redis is imported only by a server started with --redis
    from rummy.server.cluster.membership import Cluster
    from rummy.server.cluster.placement import Placement

log = logging.getLogger("rummy.server")

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
#: Tables of a dead worker loaded at once.  Each load waits on Redis and PostgreSQL, then rebuilds the
#: game in a thread (:meth:`TableRegistry._load`), so two keep the round trips overlapped while this
#: worker's own tables are answered between them; more would only queue CPU work ahead of them.
ADOPTING_AT_ONCE = 2
#: Seconds between two probes of the database by a cluster worker (its lease ends when the database has
#: failed for ``db_grace_seconds``: :mod:`rummy.server.cluster.lease`), and the longest one may take.
PROBE_SECONDS = 1.0
#: Ids drawn at most for a new table, to find one placed on each live worker (about 3 draws for 2 workers, 9
#: for 4, 55 for 16); past this, the workers no draw landed on get none of this table.
ID_DRAWS = 64


class TableRegistry:
    """The tables of one server process (a table lives in exactly one process at a time)."""

    def __init__(self, db: Database, bots: BotRunner, settings: ServerSettings,
                 cluster: Cluster | None = None) -> None:
        self.db, self.bots, self.settings = db, bots, settings
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self.unattended = UnattendedGames(settings.max_unattended_games_per_address, settings.max_unattended_games)
        self.cluster = cluster
        self.links: ClusterLinks | None = None
        #: The table limits counted in Redis for the whole cluster (set with a cluster).
        self.shared: SharedLimits | None = None
        self._chores: set[asyncio.Task[None]] = set()
        self._probe: asyncio.Task[None] | None = None
        self._let_go: set[str] = set()  # the tables stopped when the lease was lost
        #: Tables whose log is being replayed now (in a thread).
        self.replaying = 0
        #: Where tables should run (set with a cluster); the tables this worker made for another or is
        #: handing over, and to whom (:meth:`_send_away`).
        self.placement: Placement | None = None
        self.leaving: dict[str, str] = {}
        if cluster is not None:
            self.links = ClusterLinks(cluster, settings, self._owned_table)
            self.links.on_place = lambda table_id, address: self._later(self._take_placed(table_id, address))
            self.links.on_joined = lambda: self._later(self._worker_joined())
            cluster.on_worker_dead = self._worker_dead
            cluster.on_lapsed = self._lapsed
            cluster.on_regained = self._regained
            cluster.on_unreachable = lambda error: self.links.redis_away() if self.links is not None else None

    async def restore_unfinished(self) -> int:
        """Rebuild and start every table whose game is not over (on a cluster: that no live worker
        owns); returns how many.  A cluster worker starts probing the database here."""
        if self.cluster is not None and self._probe is None:
            self._probe = asyncio.create_task(self.probe_database_forever(), name="rummy-db-probe")
        count = 0
        for table_id in await self.db.unfinished_table_ids():
            if self.placement is not None and not self.placement.placed_here(table_id):
                continue  # its own worker starts it (or takes it over from a dead one)
            table = await self.adopt(table_id) if self.cluster is not None else await self.get(table_id)
            if table is not None:
                count += 1
        return count

    # -- a cluster's tables ---------------------------------------------------------------------

    async def adopt(self, table_id: str, dead: str | None = None) -> Table | None:
        """The table, claimed and loaded here if no live worker owns it; None if another does.  A table
        of the ``dead`` worker that cannot be loaded (the database failed) is given back to it, so the
        survivors try again at their next heartbeat."""
        assert self.cluster is not None
        if table_id in self.tables:
            return self.tables[table_id]
        self.cluster.require_lease()
        if await self.cluster.claim(table_id) != self.cluster.worker_id:
            return None
        try:
            table = await self.get(table_id)
        except Exception:
            if dead is not None:
                with contextlib.suppress(Exception):
                    await self.cluster.give_back(table_id, dead)
            raise
        if table is None:
            await self.cluster.release(table_id)
        return table

    async def locate(self, table_id: str) -> Table | RemoteTable | None:
        """Where the table runs: here (loaded and claimed if nobody runs it), on another worker, or
        nowhere (no such table)."""
        if table_id in self.tables or self.cluster is None or self.links is None:
            return await self.get(table_id)
        if not TABLE_ID.match(table_id):
            return None
        if table_id in self.leaving:  # sent to another worker, which serves it in a moment: never taken back here
            return self._remote(table_id, self.leaving[table_id])
        self.cluster.require_lease()  # a worker without a lease serves nothing (503, close 1013)
        for _ in range(3):  # a claim may lose a race; the winner is then alive
            owner = await self.cluster.live_owner(table_id)
            if owner is not None and owner != self.cluster.worker_id:
                return self._remote(table_id, owner)
            table = await self.adopt(table_id)
            if table is not None or await self.cluster.live_owner(table_id) is None:
                return table
        return None

    def _remote(self, table_id: str, owner: str) -> RemoteTable:
        """The table on ``owner``, for a link through Redis: only while this worker's inbox is subscribed
        (else the owner's answers would be lost; NotListening meets the outage answer)."""
        assert self.cluster is not None and self.links is not None
        self.cluster.require_listening()
        return RemoteTable(self.links, table_id, owner)

    async def _owned_table(self, table_id: str) -> LocalTable | None:
        table = await self.locate(table_id)
        return table if isinstance(table, Table) else None

    async def read_only(self, table_id: str) -> TableCore | None:
        """The table to read its rules or finished game: the live one here, else rebuilt from the log
        (never started; on a cluster the table may run on another worker)."""
        table = await self.locate(table_id)
        if table is None or isinstance(table, Table):
            return table
        stored = await self.db.load_table(table_id)
        if stored is None:
            return None
        copy = TableCore(table_id, TableConfig.from_json(stored.row["config"]), stored.row["host"],
                         [SeatState.from_row(row) for row in stored.seats], db=self.db, bots=self.bots,
                         settings=self.settings, status=stored.row["status"])
        copy.replay(stored.events)
        return copy

    def _lost(self, table: TableCore) -> None:
        """A write showed that another worker took ``table`` over: stop it here (its clients reconnect)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        self._later(self._stop(table))

    async def _stop(self, table: TableCore) -> None:
        if isinstance(table, Table):
            await table.stop()
        if self.links is not None and isinstance(table, Table):
            self.links.forget_table(table)
        if self.cluster is not None:
            await self.cluster.release(table.id)

    def _later(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(job)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _worker_dead(self, worker: str) -> None:
        """Close the links through a dead worker and take over its tables (with the other survivors)."""
        assert self.cluster is not None and self.links is not None
        self.links.worker_dead(worker)
        # Tables this worker handed to the dead one: no longer sent there (a client would be linked to a
        # worker that cannot answer); taken over like its own (it may have died before claiming them).
        abandoned = [table_id for table_id, heir in self.leaving.items() if heir == worker]
        for table_id in abandoned:
            del self.leaving[table_id]
        mine = await self._placed_here_now()
        limit = asyncio.Semaphore(ADOPTING_AT_ONCE)

        async def adopt(table_id: str) -> None:
            async with limit:
                try:
                    await self.adopt(table_id, dead=worker)
                except Exception:  # noqa: BLE001 - the next heartbeat tries again
                    log.exception("table %s: could not take it over", table_id)

        theirs = set(await self.cluster.tables_of(worker)) | set(abandoned)
        await asyncio.gather(*(adopt(table_id) for table_id in sorted(theirs) if mine(table_id)))

    async def _lapsed(self) -> None:
        """This worker lost its lease (:mod:`rummy.server.cluster.lease`): it stops serving every table at
        once (its clients are told ``unavailable`` and closed with 1013; they reconnect, to whoever owns
        the table next).  Its claims stay in Redis: the others take the tables over as a dead worker's,
        and what nobody took is taken back here once the lease is renewed (:meth:`_regained`)."""
        assert self.cluster is not None and self.links is not None
        self.links.drop_all()
        tables, self.tables = list(self.tables.values()), {}
        self._let_go.update(table.id for table in tables)
        for table in tables:
            table.tell_outage(self.cluster.lease.cause)
            await table.stop()
            self.links.forget_table(table)

    async def _regained(self) -> None:
        """This worker holds a lease again: load the tables still claimed for it, and those it let go that
        nobody claimed (bounded, as a dead worker's are), so their timers and bots run on before anyone
        reconnects."""
        assert self.cluster is not None
        limit = asyncio.Semaphore(ADOPTING_AT_ONCE)

        async def take_back(table_id: str) -> None:
            async with limit:
                try:
                    await self.adopt(table_id)
                except Exception:  # noqa: BLE001 - its first client loads it
                    log.exception("table %s: could not take it back", table_id)

        mine = set(await self.cluster.tables_of(self.cluster.worker_id)) | self._let_go  # Redis may have restarted
        self._let_go = set()
        await asyncio.gather(*(take_back(table_id) for table_id in sorted(mine)))

    async def probe_database_forever(self) -> None:
        """Tell the cluster every second whether the database answers: a worker that reaches Redis but
        not PostgreSQL gives its lease up after ``db_grace_seconds`` (:mod:`rummy.server.cluster.lease`)."""
        assert self.cluster is not None
        while True:
            try:
                await asyncio.wait_for(self.db.ping(), PROBE_SECONDS)
                self.cluster.database_answered(True)
            except Exception as error:  # noqa: BLE001 - any failure counts as the database away
                log.warning("the database did not answer: %s", error or type(error).__name__)
                self.cluster.database_answered(False)
            await asyncio.sleep(PROBE_SECONDS)

    def check_table_limits(self, host: Session, address: str) -> None:
        """Raise :class:`LimitError` when ``host``, or the players of ``address``, host as many
        unfinished tables here as the settings allow."""
        unfinished = [table for table in self.tables.values() if table.status != "finished"]
        if sum(table.host == host.player_id for table in unfinished) >= self.settings.max_tables_per_player:
            raise self._too_many_tables("player")
        if sum(table.address == address for table in unfinished) >= self.settings.max_tables_per_address:
            raise self._too_many_tables("address")

    def _too_many_tables(self, whose: str) -> LimitError:
        minutes = max(1, round(self.settings.idle_table_seconds / 60))
        later = f"finish one, or try again once an unused one has closed (after {minutes} minutes without use)"
        if whose == "player":
            return LimitError("too-many-tables", f"you host {self.settings.max_tables_per_player} unfinished "
                                                 f"tables, the most this server allows: {later}")
        return LimitError("too-many-tables", f"your address hosts {self.settings.max_tables_per_address} "
                                             f"unfinished tables, the most this server allows: {later}")

    def hosted(self) -> list[tuple[str, str]]:
        """The unfinished tables of this worker as members of the cluster's counts (renewed every beat)."""
        unfinished = [table for table in self.tables.values() if table.status != "finished"]
        return ([(player_tables_key(table.host), table.id) for table in unfinished]
                + [(address_tables_key(table.address), table.id) for table in unfinished])

    async def create(self, config: TableConfig, host: Session, address: str | None = None) -> str:
        """A new table with the host in seat 0, written to the database, its owner started (here, or on
        the worker it is placed on); its id.  ``address`` (the client's, for the per-address limits) is
        checked first when given."""
        if address is not None:
            self.check_table_limits(host, address)
        seats = [SeatState(0, "human", host.name, host.player_id)]
        for index in range(1, config.seats):
            level = config.bots.get(index)
            seats.append(SeatState.bot(index, level) if level is not None else SeatState(index, "open"))
        table_id, placed = await self._new_table()
        counted = False
        try:
            if address is not None and self.shared is not None:
                full = await self.shared.take_table(table_id, host.player_id, address,
                                                    self.settings.max_tables_per_player,
                                                    self.settings.max_tables_per_address)
                if full is not None:
                    raise self._too_many_tables(full)
                counted = True
            if placed is not None and placed != self.placement_me:
                await self._make_elsewhere(table_id, config, host, seats, address, placed)
            else:
                await self._make(table_id, config, host, seats, address)
            return table_id
        except BaseException:
            with contextlib.suppress(Exception):
                if counted:
                    assert address is not None and self.shared is not None
                    await self.shared.drop_table(table_id, host.player_id, address)
                if placed is not None and self.cluster is not None:
                    await self.cluster.release(table_id, placed)
            raise

    async def _new_table(self) -> tuple[str, str | None]:
        """A new table's id and, on a cluster, the live worker it is placed on, which owns it from now on: of
        one random id placed on each live worker (by rendezvous hashing), the id of the worker owning the
        fewest tables, chosen and claimed in one Redis step (:meth:`Cluster.claim_new`).  New tables thus even
        out the load, also when made at once on several workers, while every worker still places every table
        by its id alone (docs/deploy.md, "New tables even out the load")."""
        if self.placement is None or self.cluster is None:
            return secrets.token_urlsafe(6), None
        await self.placement.refresh()  # the live workers as Redis has them now: a join counts at once
        while True:  # again only if the chosen id was taken already (one chance in 2**48)
            candidates: dict[str, str] = {}
            for _ in range(ID_DRAWS):
                table_id = secrets.token_urlsafe(6)
                candidates.setdefault(self.placement.place(table_id), table_id)
                if len(candidates) == len(self.placement.routes):
                    break
            chosen = await self.cluster.claim_new(candidates)
            if chosen is not None:
                return chosen, self.placement.place(chosen)

    async def _make(self, table_id: str, config: TableConfig, host: Session, seats: list[SeatState],
                    address: str | None) -> Table:
        table = Table(table_id, config, host.player_id, seats, db=self.db, bots=self.bots, settings=self.settings,
                      unattended=self.unattended, address=address)
        table.on_lost = self._lost  # a write lost to another owner, or an unknown outcome found committed
        if self.cluster is not None:
            self.cluster.require_lease()
            if await self.cluster.claim(table_id) != self.cluster.worker_id:
                raise RuntimeError(f"the new table id {table_id} is taken")
            table.fence = 1
        row = {"id": table_id, "variant": config.variant, "options": config.options, "config": config.to_json(),
               "host": host.player_id, "status": "waiting"}
        await self.db.commit(Commit(table_id, seats=[s.to_row() for s in seats], new_table=row, fence=table.fence))
        self.tables[table_id] = table
        table.start()
        return table

    async def _make_elsewhere(self, table_id: str, config: TableConfig, host: Session, seats: list[SeatState],
                              address: str | None, worker: str) -> None:
        """Write the new table (claimed for ``worker`` already, fencing token 0 until it raises it) and tell
        ``worker``, where it is placed, to start it; should that message be lost, the first client the
        table's route brings there starts it."""
        assert self.cluster is not None and self.links is not None
        self.cluster.require_lease()
        row = {"id": table_id, "variant": config.variant, "options": config.options, "config": config.to_json(),
               "host": host.player_id, "status": "waiting"}
        await self.db.commit(Commit(table_id, seats=[s.to_row() for s in seats], new_table=row))
        self._send_away(table_id, worker, address)

    # -- placement (rummy.server.cluster.placement) ---------------------------------------------

    @property
    def placement_me(self) -> str | None:
        return self.cluster.worker_id if self.cluster is not None else None

    async def _placed_here_now(self) -> Callable[[str], bool]:
        """Whether a table is placed on this worker, by the live workers as Redis has them now."""
        placement = self.placement
        if placement is None:
            return lambda table_id: True
        with contextlib.suppress(Exception):  # Redis away: the view of the last heartbeat
            await placement.refresh()
        return placement.placed_here

    async def runs_at(self, table_id: str) -> str | None:
        """The worker that runs ``table_id`` or will (its live owner, else where it is placed); None
        off a cluster."""
        if self.cluster is None or self.placement is None:
            return None
        if table_id in self.tables:
            return self.cluster.worker_id
        if table_id in self.leaving:
            return self.leaving[table_id]
        owner = await self.cluster.live_owner(table_id)
        if owner is not None:
            return owner
        placed = self.placement.place(table_id)
        if placed != self.placement_me:  # a client is sent there: not to a worker that died since the last read
            await self.placement.refresh()
            placed = self.placement.place(table_id)
        return placed

    async def rebalance(self) -> None:
        """Hand over every table this worker runs that is placed on another live worker now."""
        if self.placement is None:
            return
        moving = [(table, self.placement.place(table.id)) for table in list(self.tables.values())]
        moving = [(table, worker) for table, worker in moving if worker != self.placement_me]
        if not moving:
            return
        log.info("placement: handing over %d table(s)", len(moving))
        limit = asyncio.Semaphore(ADOPTING_AT_ONCE)

        async def one(table: Table, worker: str) -> None:
            async with limit:
                try:
                    await self.hand_over(table, worker)
                except Exception:  # noqa: BLE001 - the next refresh tries again
                    log.exception("table %s: could not hand it over", table.id)

        await asyncio.gather(*(one(table, worker) for table, worker in moving))

    async def hand_over(self, table: Table, worker: str) -> None:
        """Give ``table`` to ``worker``: stop it here (every acknowledged action is already in the log;
        its clients are closed with 1012 and reconnect), release its ownership, tell ``worker`` to start
        it.  Meanwhile a client that comes here is linked to ``worker``; the new owner raises the
        fencing token before it reads the log, so a write of this worker could not count any more."""
        assert self.cluster is not None and self.links is not None
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        self.leaving[table.id] = worker
        try:
            await table.stop()
            self.links.forget_table(table)
            await self.cluster.release(table.id)
        except BaseException:
            self.leaving.pop(table.id, None)  # still claimed here: served here again when asked
            raise
        self._send_away(table.id, worker, table.address)

    def _send_away(self, table_id: str, worker: str, address: str | None) -> None:
        """Tell ``worker`` to start ``table_id`` (nobody owns it now), and for a lease send the clients
        that come here for it there (linked, or told ``moved``) rather than claim it back before
        ``worker`` did; after that, a table ``worker`` never claimed is claimed by whoever is asked."""
        assert self.links is not None
        self.leaving[table_id] = worker
        self.links.place(worker, table_id, address)

        def forget() -> None:
            if self.leaving.get(table_id) == worker:
                del self.leaving[table_id]

        asyncio.get_running_loop().call_later(self.settings.lease_seconds, forget)

    async def _worker_joined(self) -> None:
        """A worker has just joined: read the live workers now and hand over what is placed on it (the
        next refresh would, a heartbeat later; meanwhile this worker would answer from the old view)."""
        if self.placement is None:
            return
        try:
            await self.placement.refresh()
            await self.rebalance()
        except Exception as error:  # noqa: BLE001 - Redis away for a moment: the next refresh does it
            log.warning("placement: could not read the live workers: %s", error)

    async def _take_placed(self, table_id: str, address: str | None) -> None:
        """Another worker placed ``table_id`` here (a new table, or a handed-over one): start it."""
        try:
            table = await self.adopt(table_id)
        except Exception:  # noqa: BLE001 - its first client starts it instead
            log.exception("table %s: could not start it here", table_id)
            return
        if table is not None and address is not None:  # the per-address limits count it as before
            table.address = address

    def turn_words(self, table_id: str, seat: int) -> str | None:
        """Where a table this server holds stands for ``seat`` (:meth:`TableCore.turn_words`); None for a
        table not in memory (nothing moves there until someone opens it) or held by another server."""
        table = self.tables.get(table_id)
        return table.turn_words(seat) if table is not None else None

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
            future.exception()  # the callers waiting on it get the error; none waiting is no error of asyncio's
            raise
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: str) -> Table | None:
        fence = await self.db.take_over(table_id) if self.cluster is not None else None
        if self.cluster is not None and fence is None:
            return None
        stored = await self.db.load_table(table_id)
        if stored is None:
            return None
        config = TableConfig.from_json(stored.row["config"])
        seats = [SeatState.from_row(row) for row in stored.seats]
        table = Table(table_id, config, stored.row["host"], seats, db=self.db, bots=self.bots,
                      settings=self.settings, status=stored.row["status"], unattended=self.unattended)
        table.fence, table.on_lost = fence, self._lost
        self.replaying += 1
        try:  # in a thread: this worker's other tables are answered meanwhile (a long log takes a while)
            table.restore(await asyncio.to_thread(rebuild, table.rules, stored.events))
        except Exception:
            log.exception("table %s: its event log does not replay; the table stays closed", table_id)
            return None
        finally:
            self.replaying -= 1
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
                await self._stop(table)

    async def close(self) -> None:
        """Stop every owner task (the event log already holds everything)."""
        if self._probe is not None:
            self._probe.cancel()
            await asyncio.gather(self._probe, return_exceptions=True)
        await asyncio.gather(*(table.stop() for table in self.tables.values()), return_exceptions=True)
        self.tables.clear()
        await asyncio.gather(*self._chores, return_exceptions=True)
