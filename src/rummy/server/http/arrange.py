"""The routes that put the cards a player picked in the engine's order, so the browser guesses no rule.

* ``GET /api/tables/{id}/arrange?meld=run:5D-JK-3D`` answers that meld in record order, with what each card
  stands for and which play as wilds: ``{"spec": "run:3D-JK-5D", "kind", "cards", "as", "wild"}``
  (:func:`rummy.engine.arrange_json`: aces low or high as the table allows, wilds in the places they stand
  for, twos natural in place under that house rule).  Cards that make no meld are answered
  ``{"refused": {"rule", "message"}}``: the engine's rule (``run-not-consecutive``, ``declaration-required``
  …) and its sentence, a question answered rather than an error (a browser logs every error status); text
  that does not parse is ``400 syntax``.
* ``GET /api/tables/{id}/layoffs?meld=3&cards=4H-3H-8H`` answers ``{"layoffs": ["layoff 3 4H", …]}``: the
  lay-offs of those cards on table meld 3 in an order that fits, to be sent as one batch
  (:func:`rummy.engine.layoff_bodies`), or ``{"refused": {"rule", "message"}}`` when no order fits.

Both read the table's rules and its public melds and the cards the client names, nothing hidden, and change
nothing (the actions the browser sends after are checked as any other).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from rummy.engine import MeldError, RecordSyntaxError, arrange_json, layoff_bodies
from rummy.server.http.dependencies import ServerParts
from rummy.server.http.guard import error_response
from rummy.server.http.models import ArrangedMeld, Layoffs, Refusal, errors

#: The longest meld text or card list a request may name (every deck's longest run fits).
MAX_TEXT = 200

router = APIRouter(prefix="/api/tables", tags=["arrange"])


def refusal(error: MeldError) -> JSONResponse:
    """The answer for cards the rules refuse: the engine's rule and sentence (status 200: not an error)."""
    return JSONResponse({"refused": {"rule": error.rule.value, "message": str(error)}})


@router.get("/{table_id}/arrange", response_model=ArrangedMeld | Refusal, responses=errors(400, 404))
async def arrange(server: ServerParts, table_id: str, meld: str = "") -> Any:
    if not meld or len(meld) > MAX_TEXT:
        return error_response(400, "bad-request", f"name the meld (at most {MAX_TEXT} characters): ?meld=run:5D-JK-3D")
    table = await server.registry.read_only(table_id)
    if table is None:
        return error_response(404, "not-found", f"there is no table {table_id!r}")
    try:
        return arrange_json(meld, table.rules)
    except RecordSyntaxError as error:
        return error_response(400, "syntax", str(error))
    except MeldError as error:
        return refusal(error)


@router.get("/{table_id}/layoffs", response_model=Layoffs | Refusal, responses=errors(400, 404))
async def layoffs(server: ServerParts, table_id: str, meld: str = "", cards: str = "") -> Any:
    if not meld.isdecimal() or len(meld) > 6 or not cards or len(cards) > MAX_TEXT:
        return error_response(400, "bad-request", "name a table meld and the cards: ?meld=3&cards=4H-3H-8H")
    table = await server.registry.read_only(table_id)
    if table is None:
        return error_response(404, "not-found", f"there is no table {table_id!r}")
    game = table.game
    if game is None:
        return error_response(404, "not-started", "no game has been played at this table yet")
    target = next((m for m in game.table if m.id == int(meld)), None)
    if target is None:
        return error_response(404, "not-found", f"there is no meld {meld} on the table")
    try:
        return {"layoffs": layoff_bodies(target, cards.split("-"), table.rules)}
    except RecordSyntaxError as error:
        return error_response(400, "syntax", str(error))
    except MeldError as error:
        return refusal(error)
