"""What the screen asks of a table, local or remote: :class:`Seat`, and the error a refused move raises."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rummy.tui.snapshot import Snapshot

Publish = Callable[[Snapshot], None]


class SeatError(Exception):
    """A move or command the table refused: ``str(error)`` is its message (the engine's, or the server's)."""


class Seat(Protocol):
    """One seat at a table, as the terminal screen plays it."""

    async def run(self, publish: Publish) -> None:
        """Play until the game ends (or the connection closes), sending every new state to ``publish``."""

    async def send(self, text: str) -> None:
        """Play ``text`` (record notation, the seat prefix optional); :class:`SeatError` when refused."""

    async def ready(self) -> None:
        """Say the round's result was seen: the next round may be dealt."""

    async def suggest(self) -> str | None:
        """A move to hint at (without the seat prefix), or None when only the legal moves can tell."""

    async def save_record(self, path: str) -> str:
        """Write the game record to ``path``; the path written."""

    async def close(self) -> None:
        """Stop playing (the game stays where it is)."""
