"""A socket that reaches a table as it stops is closed at once (1012, reconnect), never left waiting for a
state the stopped table will not send (issue 31: a table handed over, or let go when its worker lost the
lease, between a handshake finding it and the socket being posted to it)."""

from __future__ import annotations

import asyncio
from typing import Any

from rummy.server.limits import UnattendedGames
from rummy.server.settings import ServerSettings
from rummy.server.tables.bot_runner import BotRunner
from rummy.server.tables.catalog import TableConfig
from rummy.server.tables.connections import Connection
from rummy.server.tables.inbox import ClientCommand, Connected
from rummy.server.tables.protocol import Command
from rummy.server.tables.seats import SeatState
from rummy.server.tables.table import Table


class Closed(Connection):
    """A connection that notes the close code it was given."""

    code: int | None = None

    def close(self, code: int = 1000) -> None:
        self.code = code
        super().close(code)


def test_a_socket_posted_to_a_stopped_table_is_closed() -> None:
    async def scenario() -> None:
        settings = ServerSettings()
        table = Table("stopping", TableConfig.from_request({"variant": "basic", "seats": 2}), "p1",
                      [SeatState(0, "human", "Ann", "p1"), SeatState(1, "open")], db=Any,  # type: ignore[arg-type]
                      bots=BotRunner(processes=0), settings=settings, unattended=UnattendedGames(10, 10))
        table.start()
        during, behind, late = (Closed(None, None, settings) for _ in range(3))
        stopping = asyncio.create_task(table.stop())
        await asyncio.sleep(0)  # stop() has begun: its Stop is posted
        table.post(Connected(during))
        table.post(ClientCommand(behind, Command(id="1", type="ping")))  # queued behind the Stop
        await stopping
        table.post(Connected(late))
        assert (during.code, behind.code, late.code) == (1012, 1012, 1012)

    asyncio.run(scenario())
