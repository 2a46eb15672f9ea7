"""The two ends of a link through Redis (:mod:`rummy.server.cluster.links`), with the bus played by the
test: what one worker's messages do at another, in order, and that no client waits for a message that was
lost or for a table that loads slowly elsewhere (issue 31: never a silent socket)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from rummy.server.cluster.links import CLOSE_MOVED, ClusterLinks, RemoteConnection
from rummy.server.outages import CLOSE_TRY_AGAIN
from rummy.server.settings import ServerSettings
from rummy.server.tables.inbox import ClientCommand, Connected, Disconnected, Item
from tests.server.conftest import run


class Bus:
    """The worker's side of the cluster that links use: its id, and what it sends (recorded)."""

    def __init__(self, worker_id: str) -> None:
        self.worker_id = worker_id
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.on_message: Any = None
        self.on_undelivered: Any = None
        self.peers: Any = None

    def send(self, worker_id: str, message: dict[str, Any]) -> None:
        self.sent.append((worker_id, message))


class FakeTable:
    def __init__(self) -> None:
        self.items: list[Item] = []

    def post(self, item: Item) -> None:
        self.items.append(item)

    def summary(self) -> dict[str, Any]:
        return {"table_id": "t"}


class Socket:
    """A client socket on the gateway: what it was sent, and its close code."""

    session = None

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed_with: int | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int = 1000) -> None:
        self.closed_with = code


def owner_end(tables: dict[str, Any]) -> tuple[Bus, ClusterLinks]:
    """The owner ``w2``: ``tables`` maps an id to a table, or to an awaitable giving one (a slow load)."""
    bus = Bus("w2")

    async def owned_table(table_id: str) -> Any:
        found = tables[table_id]
        return await found if asyncio.isfuture(found) else found

    return bus, ClusterLinks(bus, ServerSettings(), owned_table)  # type: ignore[arg-type]


def opening(link: str, table_id: str) -> dict[str, Any]:
    return {"k": "open", "c": link, "g": "w1", "t": table_id, "s": None}


def command(link: str, command_id: str) -> dict[str, Any]:
    return {"k": "cmd", "c": link, "m": {"id": command_id, "type": "ping"}}


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_table_that_loads_slowly_holds_up_no_other_link_and_its_own_commands_wait_in_order() -> None:
    async def scenario() -> None:
        loaded: asyncio.Future[FakeTable] = asyncio.get_running_loop().create_future()
        quick, slow = FakeTable(), FakeTable()
        bus, links = owner_end({"quick": quick, "slow": loaded})
        links.receive(opening("w1.1", "quick"))
        await settle()
        links.receive(opening("w1.2", "slow"))  # its table is still being loaded from the database
        links.receive(command("w1.2", "a"))
        links.receive(command("w1.1", "b"))  # another link's command is not held up behind that load
        links.receive(command("w1.2", "c"))
        await settle()
        assert [type(item) for item in quick.items] == [Connected, ClientCommand]
        assert slow.items == []
        loaded.set_result(slow)
        await settle()
        assert [type(item) for item in slow.items] == [Connected, ClientCommand, ClientCommand]
        assert [item.command.id for item in slow.items if isinstance(item, ClientCommand)] == ["a", "c"]
        links.receive({"k": "close", "c": "w1.2"})
        assert isinstance(slow.items[-1], Disconnected)
        assert bus.sent == []

    run(scenario())


def test_a_table_that_cannot_be_loaded_tells_the_linked_client_and_closes_it() -> None:
    async def scenario() -> None:
        failed: asyncio.Future[FakeTable] = asyncio.get_running_loop().create_future()
        bus, links = owner_end({"t": failed})
        links.receive(opening("w1.1", "t"))
        links.receive(command("w1.1", "a"))
        failed.set_exception(ConnectionRefusedError("the database is away"))
        await settle()
        (told, closed) = bus.sent
        assert told[0] == "w1" and json.loads(told[1]["x"])["code"] == "unavailable"
        assert closed == ("w1", {"k": "shut", "c": "w1.1", "code": CLOSE_TRY_AGAIN})

    run(scenario())


def test_a_command_for_a_link_that_ended_here_closes_the_socket_at_its_gateway() -> None:
    """The owner no longer holds the link (the table moved, or its ``shut`` was lost): the gateway is told
    to close the socket, rather than its client waiting for an answer that never comes."""
    bus, links = owner_end({})
    links.receive(command("w1.7", "a"))
    assert bus.sent == [("w1", {"k": "shut", "c": "w1.7", "code": CLOSE_MOVED})]


def test_a_lost_open_or_command_closes_the_client_s_socket() -> None:
    """PUBLISH counted no listener at the owner (it died, or its bus was reconnecting): pub/sub kept nothing,
    so the gateway closes the client's socket with 1012, as when the owner is found dead; the client
    reconnects and is led to the table's owner now."""
    bus = Bus("w1")
    links = ClusterLinks(bus, ServerSettings(), lambda table_id: asyncio.sleep(0))  # type: ignore[arg-type]
    opened, commanded, other = Socket(), Socket(), Socket()
    for number, socket in enumerate((opened, commanded, other), 1):
        links.gateway[f"w1.{number}"] = (socket, "w2")  # type: ignore[assignment]
        links.link_of[id(socket)] = f"w1.{number}"
    links.undelivered("w2", [opening("w1.1", "t"), command("w1.2", "x7")])
    assert opened.closed_with == CLOSE_MOVED and commanded.closed_with == CLOSE_MOVED
    assert other.closed_with is None and other.sent == []
    assert set(links.gateway) == {"w1.3"}


def test_a_lost_answer_to_a_gateway_ends_its_link_at_the_table() -> None:
    """An ``out`` nobody heard (the gateway's bus was down, and it closed its sockets then): the table
    sees the client gone, and a later command on the link gets the socket closed."""
    async def scenario() -> None:
        table = FakeTable()
        bus, links = owner_end({"t": table})
        links.receive(opening("w1.1", "t"))
        await settle()
        remote = table.items[0].connection  # type: ignore[union-attr]
        assert isinstance(remote, RemoteConnection)
        links.undelivered("w1", [{"k": "out", "c": "w1.1", "x": "{}"}])
        assert isinstance(table.items[-1], Disconnected) and remote.closed
        links.receive(command("w1.1", "a"))
        assert bus.sent[-1] == ("w1", {"k": "shut", "c": "w1.1", "code": CLOSE_MOVED})
        assert not any(isinstance(item, ClientCommand) for item in table.items)

    run(scenario())


def test_a_question_nobody_heard_is_answered_at_once() -> None:
    async def scenario() -> None:
        bus = Bus("w1")
        links = ClusterLinks(bus, ServerSettings(), lambda table_id: asyncio.sleep(0))  # type: ignore[arg-type]
        asking = asyncio.create_task(links.ask("w2", "t"))
        await settle()
        ((_, question),) = bus.sent
        links.undelivered("w2", [question])
        assert await asyncio.wait_for(asking, 1.0) is None

    run(scenario())
