"""The JSONL log of an ``llm`` seat (option ``log=PATH``): one line per request, one per fallback.

A request's line holds the messages sent and the answer with what became of it::

    {"event": "answer", "time": "2026-01-01T12:00:00+00:00", "model": "m", "variant": "may-i", "round": 1,
     "seat": 2, "phase": "claim", "attempt": 0, "messages": [{"role": "system", "content": "..."}, ...],
     "answer": "BUY", "outcome": "legal", "reason": "", "action": "p2 buy"}

``outcome`` is ``legal``, ``illegal``, ``unparsable`` or ``error`` (no answer: ``answer`` is null and
``reason`` says why); ``attempt`` counts from 0 within a decision.  A fallback's line has ``"event":
"fallback"`` and the ``action`` played.  Lines are appended, one write each, so games played by several
worker processes may share one file.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

from rummy.engine import Action, BotError, PlayerView


class Transcript:
    """Appends the log lines of one bot to ``path``."""

    def __init__(self, path: str, model: str) -> None:
        self.path = Path(path)
        self.model = model
        try:
            with self.path.open("a", encoding="utf-8"):
                pass
        except OSError as error:
            raise BotError(f"llm: cannot write the log {path!r}: {error.strerror}") from None

    def _write(self, view: PlayerView, event: str, fields: dict[str, Any]) -> None:
        line = {
            "event": event,
            "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "model": self.model, "variant": view.variant, "round": view.round, "seat": view.seat,
            "phase": view.phase, **fields,
        }
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(line, ensure_ascii=False) + "\n")

    def answer(self, view: PlayerView, attempt: int, messages: list[dict[str, str]], answer: str | None,
               outcome: str, reason: str, action: Action | None) -> None:
        """The line of one request."""
        self._write(view, "answer", {
            "attempt": attempt, "messages": messages, "answer": answer, "outcome": outcome, "reason": reason,
            "action": str(action) if action is not None else None,
        })

    def fallback(self, view: PlayerView, action: Action) -> None:
        """The line of a fallback move."""
        self._write(view, "fallback", {"action": str(action)})
