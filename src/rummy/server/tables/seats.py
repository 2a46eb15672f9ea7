"""The seats of a table.

A seat is ``open`` (waiting for a person), ``human`` (taken by a player id) or ``bot``.  A human
seat can be played by a bot for a while: ``takeover`` after its player dropped out, or for one turn
when the turn timer ran out.  A player may pass on every claim until their turn or for the rest of
the hand (``skip_claims``); the table then answers their claim windows at once.

>>> player_names([SeatState(0, "human", "Ann"), SeatState(1, "human", "Ann"), SeatState.bot(2, "easy")])
['Ann (1)', 'Ann (2)', 'Grace (bot)']
"""

from __future__ import annotations

import asyncio
from typing import Any

BOT_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Margaret", "Claude")


class SeatState:
    """One seat: who sits there, and how they are connected right now."""

    __slots__ = ("index", "kind", "name", "player_id", "level", "connections", "takeover", "ready", "grace",
                 "skip_claims", "skip_round")

    def __init__(self, index: int, kind: str, name: str = "", player_id: str | None = None,
                 level: str | None = None) -> None:
        self.index = index
        self.kind = kind  # "open", "human" or "bot"
        self.name = name
        self.player_id = player_id
        self.level = level
        self.connections = 0
        self.takeover = False
        self.ready = False
        self.grace: asyncio.TimerHandle | None = None
        self.skip_claims: str | None = None  # "turn" or "hand": the player passes on every claim until then
        self.skip_round: tuple[int, int] | None = None  # (game, round) the skip was set in

    @classmethod
    def bot(cls, index: int, level: str) -> SeatState:
        return cls(index, "bot", f"{BOT_NAMES[index % len(BOT_NAMES)]} (bot)", None, level)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> SeatState:
        return cls(row["seat"], row["kind"], row["name"] or "", row["player_id"], row["level"])

    def to_row(self) -> dict[str, Any]:
        return {"seat": self.index, "kind": self.kind, "player_id": self.player_id, "name": self.name,
                "level": self.level}

    @property
    def connected(self) -> bool:
        return self.kind == "bot" or self.connections > 0

    def to_json(self, *, bot_playing: bool) -> dict[str, Any]:
        return {
            "seat": self.index,
            "name": self.name or None,
            "kind": self.kind,
            "level": self.level,
            "connected": self.connected,
            "bot_playing": bot_playing,
            "ready": self.ready,
            "skip_claims": self.skip_claims,
        }


def player_names(seats: list[SeatState]) -> list[str]:
    """The names the game uses: the seats' names, numbered where two are alike."""
    names = [seat.name or f"Seat {seat.index + 1}" for seat in seats]
    return [f"{name} ({i + 1})" if names.count(name) > 1 else name for i, name in enumerate(names)]
