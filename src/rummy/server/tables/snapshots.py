"""The messages a table sends: its public summary and each client's ``state`` (docs/protocol.md).

A seat's state holds that seat's view only (:meth:`rummy.engine.game.Game.view`); a spectator's holds the
public view, which has no hand.
"""

from __future__ import annotations

from typing import Any, Protocol

from rummy.engine import Game, Variant
from rummy.record import results_json
from rummy.server.events.fair_deal import table_shuffles
from rummy.server.tables.catalog import TableConfig
from rummy.server.tables.protocol import VERSION, encode
from rummy.server.tables.seats import SeatState


class TableCore(Protocol):
    """What the messages read of a table (:class:`rummy.server.tables.core.TableCore`)."""

    id: str
    config: TableConfig
    rules: Variant
    seats: list[SeatState]
    status: str
    paused: bool
    game: Game | None
    game_number: int
    seq: int


def table_summary(table: TableCore, autoplay: int | None) -> dict[str, Any]:
    """Seats, status and settings, the score sheet, and the result once the game is over."""
    game = table.game
    data: dict[str, Any] = {
        "id": table.id,
        "variant": table.rules.id,
        "variant_name": table.rules.name,
        "options": table.config.options,
        "status": table.status,
        "paused": table.paused,
        "host": 0,
        "invite_url": f"/table/{table.id}",
        "game": table.game_number,
        "seats": [s.to_json(bot_playing=s.takeover or s.index == autoplay) for s in table.seats],
        "claim_seconds": table.config.claim_seconds,
        "turn_seconds": table.config.turn_seconds,
        "bot_takeover": table.config.bot_takeover,
        "score_sheet": [],
        "totals": None,
        "winners": None,
        "ranking": None,
        "settlement": None,
        "shuffles": table_shuffles(game),
    }
    if game is not None:
        results = results_json(game)
        data["score_sheet"] = results["rounds"]
        data["totals"] = results["totals"]
        if game.game_over:
            data["winners"] = results["winners"]
            data["ranking"] = results["ranking"]
            data["settlement"] = results.get("settlement")
    return data


def state_message(table: TableCore, seat: int | None, summary: dict[str, Any], events: list[str],
                  deadline: dict[str, Any] | None) -> dict[str, Any]:
    """The ``state`` message for a client at ``seat`` (None: a spectator)."""
    view = table.game.view(seat).to_json() if table.game is not None else None
    return {"v": VERSION, "type": "state", "seq": table.seq, "seat": seat, "table": summary, "view": view,
            "events": events, "deadline": deadline}


class StateEncoder:
    """The JSON text of one broadcast's state messages: the parts every client shares (the table
    summary, the move-log sentences, the deadline) are encoded once, each seat's view once.

    The text is exactly ``encode(state_message(...))``.
    """

    def __init__(self, table: TableCore, summary: dict[str, Any], events: list[str],
                 deadline: dict[str, Any] | None) -> None:
        self.table = table
        self._head = f'{{"v":{VERSION},"type":"state","seq":{table.seq},"seat":'
        self._tail = f',"events":{encode(events)},"deadline":{encode(deadline)}}}'
        self._summary = encode(summary)
        self._texts: dict[int | None, str] = {}

    def text(self, seat: int | None) -> str:
        if seat not in self._texts:
            game = self.table.game
            view = encode(game.view(seat).to_json()) if game is not None else "null"
            self._texts[seat] = f'{self._head}{encode(seat)},"table":{self._summary},"view":{view}{self._tail}'
        return self._texts[seat]
