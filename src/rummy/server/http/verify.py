"""The "verify this deal" routes: a round's check as JSON and the page that shows it.

``GET /api/tables/{id}/shuffles/{round}`` answers :func:`rummy.server.events.fair_deal.round_check` for the
table's current game (the seed and salt only once that round is over); ``GET
/table/{id}/verify/{round}`` is the static page (``static/verify.html``) that fetches it and re-checks
the hash in the browser with WebCrypto.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from rummy.server.cluster.registry import TableRegistry
from rummy.server.events.fair_deal import round_check
from rummy.server.http.guard import error_response

VERIFY_PAGE = Path(__file__).parent.parent / "static" / "verify.html"
MAX_ROUND_DIGITS = 4


def add_verify_routes(app: FastAPI, registry_of: Callable[[Request], TableRegistry]) -> None:
    """Add the routes of the module docstring; ``registry_of`` finds the server's tables."""

    @app.get("/api/tables/{table_id}/shuffles/{round_text}")
    async def shuffle_check(request: Request, table_id: str, round_text: str) -> Response:
        if not round_text.isdecimal() or len(round_text) > MAX_ROUND_DIGITS or int(round_text) < 1:
            return error_response(400, "bad-request", f"a round is a number from 1, not {round_text!r}")
        table = await registry_of(request).get(table_id)
        if table is None:
            return error_response(404, "not-found", f"there is no table {table_id!r}")
        game = table.game
        if game is None:
            return error_response(404, "not-started", "no game has been played at this table yet")
        number = int(round_text)
        if not game.start_round <= number < game.start_round + len(game.deals):
            return error_response(404, "not-found", f"round {number} has not been dealt in this game")
        return JSONResponse({"table": table.id, "game": table.game_number, **round_check(game, number)})

    @app.get("/table/{table_id}/verify/{round_text}", include_in_schema=False)
    async def verify_page(table_id: str, round_text: str) -> Response:
        return FileResponse(VERIFY_PAGE, media_type="text/html")
