"""A player's game history (docs/history.md): only the caller's own session, only finished games.

* ``GET /api/history?limit=50&offset=0``: the session's finished games, newest first.
* ``GET /api/history/stats``: the session's statistics per variant.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from rummy.server.http.dependencies import CurrentSession, ServerParts
from rummy.server.http.models import HistoryPage, HistoryStats, errors
from rummy.server.storage.history import MAX_PAGE
from rummy.server.tables.catalog import RequestError

router = APIRouter(prefix="/api/history", tags=["history"])


def whole_number(name: str, text: str | None, default: int, low: int, high: int) -> int:
    """A query parameter read as the API reads them: digits only, within bounds, else ``400 bad-request``."""
    if text is None:
        return default
    if not text.isdecimal() or not low <= int(text) <= high:
        raise RequestError("bad-request", f"{name} must be a whole number from {low} to {high}, not {text!r}")
    return int(text)


@router.get("", response_model=HistoryPage, responses=errors(400, 401))
async def my_history(server: ServerParts, session: CurrentSession,
                     limit: Annotated[str | None, Query(description=f"games on a page, 1–{MAX_PAGE} (50)")] = None,
                     offset: Annotated[str | None, Query(description="games skipped, newest first (0)")] = None,
                     ) -> Any:
    page = whole_number("limit", limit, 50, 1, MAX_PAGE)
    skipped = whole_number("offset", offset, 0, 0, 10**9)
    return await server.history.games(session.player_id, limit=page, offset=skipped)


@router.get("/stats", response_model=HistoryStats, responses=errors(401))
async def my_stats(server: ServerParts, session: CurrentSession) -> Any:
    return await server.history.stats(session.player_id)
