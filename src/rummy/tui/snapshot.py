"""The state the terminal screen draws: the shape of a ``rummy serve`` ``state`` message (docs/protocol.md),
which a local game builds too, so one screen serves both."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Snapshot:
    """One seat's picture of its table.

    ``view`` is ``PlayerView.to_json()`` of the seat (None before the first game), ``table`` the table
    summary (``seats`` with ``name``, ``status``, ``score_sheet``, ``totals``, ``winners``), ``events`` the
    move-log sentences new since the last snapshot, ``deadline`` the running timer
    (``{"kind": "claim" | "turn" | "next_round", "seconds": …}``) or None.
    """

    seat: int | None
    view: dict[str, Any] | None
    table: dict[str, Any]
    events: tuple[str, ...] = ()
    deadline: dict[str, Any] | None = None
    seq: int = 0
    history: bool = False  # ``events`` is the recent move log (a new connection's first state): replace the log
    notice: str | None = None  # words for this person alone (what the computer played for them while away)

    @property
    def names(self) -> list[str]:
        return [seat.get("name") or f"seat {seat['seat']}" for seat in self.table.get("seats", [])]

    @property
    def legal(self) -> list[str]:
        """The seat's candidate moves without the seat prefix (``draw``, ``discard 7H`` …)."""
        if self.view is None:
            return []
        return [action.split(" ", 1)[1] for action in self.view.get("legal_actions", [])]

    @property
    def phase(self) -> str:
        return str(self.view["phase"]) if self.view is not None else "waiting"

    @property
    def my_turn(self) -> bool:
        """The seat is the one the table waits for to draw or play."""
        view = self.view
        return view is not None and view["active"] == self.seat and view["phase"] in ("draw", "play") \
            and self.seat in view["to_act"]

    @property
    def claim_offered(self) -> bool:
        """A claim window waits for this seat's answer."""
        view = self.view
        return view is not None and view["phase"] == "claim" and self.seat in view["to_act"] \
            and view["active"] != self.seat

    @property
    def game_over(self) -> bool:
        return self.phase == "game_over" or self.table.get("status") == "finished"
