"""The timers of one table: claim window, turn, pause between rounds, and delayed posts (bots).

A timer posts an item to the table's queue when it fires, so the owner handles it in order with
everything else; its deadline is what a state message shows as ``deadline``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

LABELS = {"claim": "claim", "turn": "turn", "round": "next_round"}


class TableClock:
    """Named one-shot timers whose firing calls ``post(make(kind, key))``."""

    def __init__(self, post: Callable[[Any], None], make: Callable[[str, object], Any]) -> None:
        self._post = post
        self._make = make
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._deadlines: dict[str, tuple[float, int | None]] = {}

    def arm(self, kind: str, delay: float, key: object, seat: int | None = None) -> None:
        """(Re)start timer ``kind``: in ``delay`` seconds it posts ``make(kind, key)``."""
        self.disarm(kind)
        loop = asyncio.get_running_loop()
        self._timers[kind] = loop.call_later(delay, self._post, self._make(kind, key))
        self._deadlines[kind] = (loop.time() + delay, seat)

    def disarm(self, kind: str) -> None:
        handle = self._timers.pop(kind, None)
        if handle is not None:
            handle.cancel()
        self._deadlines.pop(kind, None)

    def fired(self, kind: str) -> None:
        """Forget timer ``kind`` once its item is being handled."""
        self._timers.pop(kind, None)
        self._deadlines.pop(kind, None)

    def later(self, delay: float, item: Any) -> None:
        """Post ``item`` after ``delay`` seconds (at once, after what is queued, for 0)."""
        loop = asyncio.get_running_loop()
        if delay > 0:
            loop.call_later(delay, self._post, item)
        else:
            loop.call_soon(self._post, item)

    def deadline(self) -> dict[str, Any] | None:
        """The most urgent running timer as a state's ``deadline``: claim, then turn, then next round."""
        now = asyncio.get_running_loop().time()
        for kind, label in LABELS.items():
            if kind in self._deadlines:
                due, seat = self._deadlines[kind]
                deadline: dict[str, Any] = {"kind": label, "seconds": round(max(0.0, due - now), 1)}
                if seat is not None:
                    deadline["seat"] = seat
                return deadline
        return None

    def armed(self) -> bool:
        """Whether a named timer is running (delayed posts are not counted)."""
        return bool(self._timers)

    def stop(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self._deadlines.clear()
