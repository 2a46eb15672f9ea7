"""What a table's owner task receives: client commands, presence changes, timers and bot answers."""

from __future__ import annotations

from dataclasses import dataclass

from rummy.engine import Action
from rummy.server.tables.connections import Connection
from rummy.server.tables.protocol import Command


@dataclass(frozen=True, slots=True)
class Connected:
    connection: Connection


@dataclass(frozen=True, slots=True)
class Disconnected:
    connection: Connection


@dataclass(frozen=True, slots=True)
class ClientCommand:
    connection: Connection
    command: Command


@dataclass(frozen=True, slots=True)
class TimerFired:
    kind: str  # "claim", "turn", "round", "grace"
    key: object


@dataclass(frozen=True, slots=True)
class BotTurn:
    seat: int


@dataclass(frozen=True, slots=True)
class BotChoice:
    seat: int
    seq: int
    action: Action | None


class AutoPass:
    """Pass, in the open claim window, for every seat whose player passes on claims or is away."""


class Refresh:
    """Re-arm timers, call bots and send every client the state (after a restart)."""


class Stop:
    """End the owner task."""


Item = Connected | Disconnected | ClientCommand | TimerFired | BotTurn | BotChoice | AutoPass | Refresh | Stop
