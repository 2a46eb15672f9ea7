"""Sockets on one worker, tables on another: the two ends of a link through Redis.

A client's WebSocket stays on the worker that accepted it (the *gateway*).  When another worker owns
the table, the gateway's :class:`RemoteTable` forwards what the socket says (``open``, ``cmd``,
``close``) to the owner, whose :class:`RemoteConnection` stands for the socket at the table: what the
table sends it goes back (``out``, ``shut``) and the gateway writes it to the socket.  Messages of one
worker to another arrive in the order they were sent (:class:`rummy.server.cluster.membership.Cluster`).

When a worker dies, every gateway closes the sockets of its tables with 1012 (the client reconnects,
to any worker, and the table's new owner serves it), and every owner drops the connections whose
socket it held (a dropped player, as if they had closed the page).  When Redis cannot be reached, every
link is broken: the gateway tells its sockets so (``unavailable``, close code 1013) rather than leave
them waiting for answers that cannot come (:meth:`ClusterLinks.redis_away`).  Pub/sub keeps no message
for a worker that is not subscribed (it died, or its bus is reconnecting after Redis came back): PUBLISH's
count of listeners shows such a loss, and no client is left waiting for what the message would have brought
(:meth:`ClusterLinks.undelivered`); a worker whose own bus is not subscribed links no socket.

Links are the fallback: a client that follows ``moved`` (docs/protocol.md) is sent to the owner and
plays there without Redis in between (:mod:`rummy.server.cluster.placement`); a client that does not,
or one a proxy could not route, or one arriving while its table is handed over, is linked.  The other
messages are ``place`` (a worker tells another to start a table placed on it) and ``joined`` (a
worker that has just joined tells the others, which read the live workers again at once).
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from rummy.server.outages import CLOSE_TRY_AGAIN, UNAVAILABLE, outage, unavailable_message
from rummy.server.sessions import Session
from rummy.server.settings import ServerSettings
from rummy.server.tables.connections import Connection
from rummy.server.tables.inbox import ClientCommand, Connected, Disconnected, Item
from rummy.server.tables.protocol import Command, encode, error_message

if TYPE_CHECKING:  # redis is imported only by a server started with --redis
    from rummy.server.cluster.membership import Cluster

log = logging.getLogger("rummy.server")

CLOSE_MOVED = 1012  # "service restart": the table moved to another worker, reconnect
SUMMARY_TIMEOUT = 5.0


class LocalTable(Protocol):
    """What a link needs of a table this worker owns (:class:`rummy.server.tables.table.Table`)."""

    def post(self, item: Item) -> None: ...

    def summary(self) -> dict[str, Any]: ...


class RemoteConnection(Connection):
    """A socket held by another worker, as the owner's table sees it."""

    def __init__(self, links: ClusterLinks, link_id: str, gateway: str, session: Session | None,
                 settings: ServerSettings) -> None:
        super().__init__(None, session, settings)
        self.links, self.link_id, self.gateway = links, link_id, gateway

    def send_text(self, text: str) -> None:
        if not self.closed:
            self.links.cluster.send(self.gateway, {"k": "out", "c": self.link_id, "x": text})

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.links.cluster.send(self.gateway, {"k": "shut", "c": self.link_id, "code": code})


class RemoteTable:
    """A table another worker owns, as a socket on this worker posts to it."""

    def __init__(self, links: ClusterLinks, table_id: str, owner: str) -> None:
        self.links, self.id, self.owner = links, table_id, owner

    def post(self, item: Item) -> None:
        links = self.links
        if isinstance(item, Connected):
            link_id = f"{links.cluster.worker_id}.{next(links.serial)}"
            links.gateway[link_id] = (item.connection, self.owner)
            links.link_of[id(item.connection)] = link_id
            session = item.connection.session
            links.cluster.send(self.owner, {"k": "open", "c": link_id, "g": links.cluster.worker_id, "t": self.id,
                                            "s": [session.player_id, session.name] if session else None})
        elif isinstance(item, ClientCommand):
            known = links.link_of.get(id(item.connection))
            if known is not None:
                links.cluster.send(self.owner, {"k": "cmd", "c": known, "m": dataclasses.asdict(item.command)})
        elif isinstance(item, Disconnected):
            gone = links.link_of.pop(id(item.connection), None)
            if gone is not None:
                links.gateway.pop(gone, None)
                links.cluster.send(self.owner, {"k": "close", "c": gone})

    async def summary(self) -> dict[str, Any] | None:
        """The table's public summary, asked of its owner (None: no answer in time)."""
        return await self.links.ask(self.owner, self.id)


class ClusterLinks:
    """Both ends of every link of this worker, and the dispatch of the cluster's messages."""

    def __init__(self, cluster: Cluster, settings: ServerSettings,
                 owned_table: Callable[[str], Awaitable[LocalTable | None]]) -> None:
        self.cluster, self.settings = cluster, settings
        self.owned_table = owned_table  # the table if this worker owns it (loading it if needed), else None
        self.serial = itertools.count(1)
        self.gateway: dict[str, tuple[Connection, str]] = {}  # link id -> (local socket, owner worker)
        self.link_of: dict[int, str] = {}  # id(local connection) -> link id
        self.owned: dict[str, tuple[RemoteConnection, LocalTable]] = {}  # link id -> (stand-in, table)
        self._questions: dict[str, asyncio.Future[dict[str, Any] | None]] = {}
        #: Links whose table is being opened here (it may have to be loaded): link id -> (gateway, the
        #: ``cmd`` and ``close`` messages that came meanwhile, handed to the table in order once it is open).
        self._opening: dict[str, tuple[str, list[dict[str, Any]]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: Set by the registry: start table ``t`` here (counted under address ``a`` by the limits).
        self.on_place: Callable[[str, str | None], None] = lambda table_id, address: None
        #: Set by the registry: a worker joined the cluster (read the live workers again, hand over).
        self.on_joined: Callable[[], None] = lambda: None
        cluster.on_message = self.receive
        cluster.on_undelivered = self.undelivered
        cluster.peers = self.peers

    def peers(self) -> set[str]:
        """The workers at the other end of a link of this one."""
        return {owner for _, owner in self.gateway.values()} | {remote.gateway for remote, _ in self.owned.values()}

    async def ask(self, owner: str, table_id: str) -> dict[str, Any] | None:
        question = f"{self.cluster.worker_id}.q{next(self.serial)}"
        future: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self._questions[question] = future
        self.cluster.send(owner, {"k": "ask", "r": question, "g": self.cluster.worker_id, "t": table_id})
        try:
            return await asyncio.wait_for(future, SUMMARY_TIMEOUT)
        except TimeoutError:
            return None
        finally:
            self._questions.pop(question, None)

    def place(self, worker: str, table_id: str, address: str | None) -> None:
        """Tell ``worker`` to start ``table_id``, which is placed on it."""
        self.cluster.send(worker, {"k": "place", "t": table_id, "a": address})

    def receive(self, message: dict[str, Any]) -> None:
        """Act on one message of another worker's.  Nothing here waits: opening a table (which may load
        it from the database) and answering a question run beside the bus, so one slow or failing load
        never holds up the messages of other links (a ``cmd`` or ``close`` of a link still being opened
        waits for it, in order)."""
        kind = message["k"]
        if kind == "place":  # started beside the bus, which must not wait for a table's log
            self.on_place(message["t"], message.get("a"))
        elif kind == "joined":
            self.on_joined()
        elif kind == "out":
            route = self.gateway.get(message["c"])
            if route is not None:
                route[0].send_text(message["x"])
        elif kind == "shut":
            route = self.gateway.get(message["c"])
            if route is not None:
                route[0].close(message["code"])
        elif kind == "answer":
            future = self._questions.get(message["r"])
            if future is not None and not future.done():
                future.set_result(message["x"])
        elif kind == "open":
            self._opening[message["c"]] = (message["g"], [])
            self._beside(self._open(message))
        elif kind in ("cmd", "close"):
            opening = self._opening.get(message["c"])
            if opening is not None:
                opening[1].append(message)
            else:
                self._to_table(message)
        elif kind == "ask":
            self._beside(self._answer(message))

    def _to_table(self, message: dict[str, Any]) -> None:
        """A linked socket's command or close, to its table here."""
        if message["k"] == "cmd":
            owned = self.owned.get(message["c"])
            if owned is not None:
                owned[1].post(ClientCommand(owned[0], Command(**message["m"])))
            else:  # the link ended here (the table moved, or a message to the gateway was lost): close the
                gateway = message["c"].rsplit(".", 1)[0]  # socket, should the gateway not have been told
                self.cluster.send(gateway, {"k": "shut", "c": message["c"], "code": CLOSE_MOVED})
        else:
            gone = self.owned.pop(message["c"], None)
            if gone is not None:
                gone[1].post(Disconnected(gone[0]))

    def _beside(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:  # noqa: BLE001 - one bad message must not go unnoticed, nor stop the others
                log.exception("cluster: failed on a message")

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, message: dict[str, Any]) -> None:
        summary = None  # also when the table cannot be loaded: the asker answers 503 now, not after a wait
        try:
            table = await self.owned_table(message["t"])
            summary = table.summary() if table is not None else None
        finally:
            self.cluster.send(message["g"], {"k": "answer", "r": message["r"], "x": summary})

    async def _open(self, message: dict[str, Any]) -> None:
        gateway, link_id = message["g"], message["c"]
        try:
            table = await self.owned_table(message["t"])
        except Exception as error:
            # The table could not be loaded here (the database away, or a bug): the gateway's client was
            # accepted and waits for its first message, so it is told and closed, never left silent.
            self._opening.pop(link_id, None)
            service = outage(error)
            told = (error_message(UNAVAILABLE, unavailable_message(service)) if service is not None
                    else error_message("internal", "the table could not be opened here: try again later"))
            self.cluster.send(gateway, {"k": "out", "c": link_id, "x": encode(told)})
            self.cluster.send(gateway, {"k": "shut", "c": link_id, "code": CLOSE_TRY_AGAIN})
            if service is None:
                raise
            log.warning("table %s: could not open it for a linked client: %s", message["t"], error)
            return
        opening = self._opening.pop(link_id, None)
        if opening is None:  # the link was dropped meanwhile (its gateway died, or Redis went away)
            return
        if table is None:  # the table moved on meanwhile: the client reconnects and finds its owner
            self.cluster.send(gateway, {"k": "shut", "c": link_id, "code": CLOSE_MOVED})
            return
        session = Session(*message["s"]) if message["s"] is not None else None
        connection = RemoteConnection(self, link_id, gateway, session, self.settings)
        self.owned[link_id] = (connection, table)
        table.post(Connected(connection))
        for waiting in opening[1]:
            self._to_table(waiting)

    def undelivered(self, worker: str, messages: list[dict[str, Any]]) -> None:
        """Nobody heard ``messages`` for ``worker`` (it died, or its bus was reconnecting): no client may
        wait for what they would have brought.  A socket here whose ``open`` or ``cmd`` was lost is closed
        with 1012, as when the owner is found dead (the client reconnects and is led to the table's owner
        now; a lost command changed nothing); links whose ``out`` or ``shut`` was lost end here (the
        gateway closed their sockets when its bus failed); a question is answered "none" now."""
        for message in messages:
            kind = message["k"]
            if kind in ("open", "cmd"):
                route = self.gateway.pop(message["c"], None)
                if route is not None:
                    self.link_of.pop(id(route[0]), None)
                    route[0].close(CLOSE_MOVED)
            elif kind in ("out", "shut"):
                owned = self.owned.pop(message["c"], None)
                if owned is not None:
                    owned[0].closed = True
                    owned[1].post(Disconnected(owned[0]))
            elif kind == "ask":
                future = self._questions.get(message["r"])
                if future is not None and not future.done():
                    future.set_result(None)

    def forget_table(self, table: LocalTable) -> None:
        """The table stopped here (it closed its connections): forget the links to it."""
        for link_id in [link for link, (_, owned) in self.owned.items() if owned is table]:
            del self.owned[link_id]

    def worker_dead(self, worker: str) -> None:
        """Close the sockets of the dead worker's tables; drop the connections whose socket it held."""
        for link_id, (connection, owner) in list(self.gateway.items()):
            if owner == worker:
                connection.close(CLOSE_MOVED)
                self.gateway.pop(link_id, None)
        for link_id, (remote, table) in list(self.owned.items()):
            if remote.gateway == worker:
                remote.closed = True
                del self.owned[link_id]
                table.post(Disconnected(remote))
        for link_id in [link for link, (gateway, _) in self._opening.items() if gateway == worker]:
            del self._opening[link_id]

    def redis_away(self) -> None:
        """Redis cannot be reached: tell every linked socket (``unavailable``, then 1013) and drop the
        connections linked here (their gateway cannot reach this worker either)."""
        for connection, _ in self.gateway.values():
            connection.send(error_message(UNAVAILABLE, unavailable_message("Redis")))
            connection.close(CLOSE_TRY_AGAIN)
        self.gateway.clear()
        for remote, table in self.owned.values():
            remote.closed = True
            table.post(Disconnected(remote))
        self.owned.clear()
        self._opening.clear()

    def drop_all(self) -> None:
        """This worker lost its place (its heartbeat lapsed): every link ends, the clients reconnect."""
        for connection, _ in self.gateway.values():
            connection.close(CLOSE_MOVED)
        self.gateway.clear()
        for remote, table in self.owned.values():
            remote.close(CLOSE_MOVED)
            table.post(Disconnected(remote))
        self.owned.clear()
        for link_id, (gateway, _) in self._opening.items():
            self.cluster.send(gateway, {"k": "shut", "c": link_id, "code": CLOSE_MOVED})
        self._opening.clear()
