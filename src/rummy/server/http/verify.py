""""Verify this deal": ``GET /api/tables/{table_id}/shuffles/{round}`` answers
:func:`rummy.server.events.fair_deal.round_check` for the table's current game (the seed and salt only
once that round is over).  The page that shows it, ``/table/{table_id}/verify/{round}``
(``static/verify.html``, :mod:`rummy.server.http.pages`), fetches it and re-checks the hash in the
browser with WebCrypto.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from rummy.server.events.fair_deal import round_check
from rummy.server.http.dependencies import ServerParts
from rummy.server.http.guard import error_response
from rummy.server.http.models import ShuffleCheck, errors

MAX_ROUND_DIGITS = 4

router = APIRouter(tags=["fair deals"])


@router.get("/api/tables/{table_id}/shuffles/{round_text}", response_model=ShuffleCheck, responses=errors(400, 404))
async def shuffle_check(server: ServerParts, table_id: str, round_text: str) -> Any:
    if not round_text.isdecimal() or len(round_text) > MAX_ROUND_DIGITS or int(round_text) < 1:
        return error_response(400, "bad-request", f"a round is a number from 1, not {round_text!r}")
    table = await server.registry.get(table_id)
    if table is None:
        return error_response(404, "not-found", f"there is no table {table_id!r}")
    game = table.game
    if game is None:
        return error_response(404, "not-started", "no game has been played at this table yet")
    number = int(round_text)
    if not game.start_round <= number < game.start_round + len(game.deals):
        return error_response(404, "not-found", f"round {number} has not been dealt in this game")
    return {"table": table.id, "game": table.game_number, **round_check(game, number)}
