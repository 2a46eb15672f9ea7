"""The tables: make one, list the caller's, read one's summary, its rules in words and, once the game
is over, its record.

* ``POST /api/tables`` (a session): a new table hosted by the caller; 201 with its id and invite link
  (on a cluster also ``worker``, the route of the worker the table is placed on).
* ``GET /api/tables`` (a session): the newest tables where the caller has a seat: who plays there, when
  it last moved and whose turn it is (on a cluster also ``worker``, the route of the worker running it).
* ``GET /api/tables/{table_id}``: seats, status, settings and scores (no card of any hand); on a
  cluster, asked with ``?worker=`` of a worker that does not run the table: 307 to the one that does.
* ``GET /api/tables/{table_id}/help``: how to play the table's variant with its house rules.
* ``GET /api/tables/{table_id}/record``: the ``rummy-record/1`` file of a finished game (a live game's
  record holds every hand, the stock and the seed: ``409 game-in-progress``).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response

from rummy.record import dumps, record_of
from rummy.server.cluster.links import RemoteTable
from rummy.server.cluster.placement import HINT
from rummy.server.http.bodies import body_schema, json_body
from rummy.server.http.dependencies import ClientAddress, CurrentSession, ServerParts
from rummy.server.http.guard import error_response
from rummy.server.http.models import MyTable, NewTable, NewTableAnswer, RulesHelp, TableSummary, errors, json_file
from rummy.server.http.routing import owner_elsewhere, route_of_table
from rummy.server.tables.catalog import RequestError, rules_help

router = APIRouter(prefix="/api/tables", tags=["tables"])


def absolute(request: Request, path: str) -> str:
    return str(request.base_url).rstrip("/") + path


@router.post("", status_code=201, response_model=NewTableAnswer, responses=errors(400, 401, 413, 415, 429, 503),
             openapi_extra=body_schema(NewTable))
async def create_table(request: Request, server: ServerParts, session: CurrentSession, address: ClientAddress,
                       body: Annotated[NewTable, Depends(json_body(NewTable))]) -> Any:
    config = body.config()
    if 0 < config.turn_seconds < server.settings.min_turn_seconds:
        raise RequestError("bad-request", f"turn_seconds must be 0 (no turn timer) or at least "
                                          f"{server.settings.min_turn_seconds:g} on this server")
    table_id = await server.registry.create(config, session, address)
    return {"table_id": table_id, "invite_url": absolute(request, f"/table/{table_id}"),
            "worker": await route_of_table(server, table_id)}


@router.get("", response_model=list[MyTable], responses=errors(401))
async def my_tables(server: ServerParts, session: CurrentSession) -> Any:
    tables = await server.db.tables_of_player(session.player_id)
    for table in tables:  # whose turn, where this server holds the table (elsewhere nothing is moving)
        table["turn"] = server.registry.turn_words(table["table_id"], table["seat"])
    if server.registry.placement is not None:  # on a cluster: where each runs
        routes = await asyncio.gather(*(route_of_table(server, table["table_id"]) for table in tables))
        for table, route in zip(tables, routes, strict=True):
            table["worker"] = route
    return tables


@router.get("/{table_id}", response_model=TableSummary, responses={
    307: {"description": "another worker runs the table (asked with ?worker= naming one that does not)"},
    **errors(404, 503)})
async def table_summary(request: Request, server: ServerParts, table_id: str) -> Any:
    route = await owner_elsewhere(server, table_id, request.query_params.get(HINT))
    if route is not None:
        return RedirectResponse(f"/api/tables/{quote(table_id)}?{HINT}={quote(route)}", status_code=307)
    table = await server.registry.locate(table_id)
    if table is None:
        return error_response(404, "not-found", f"there is no table {table_id!r}")
    summary = await table.summary() if isinstance(table, RemoteTable) else table.summary()
    if summary is None:
        return error_response(503, "unavailable", "the server running this table did not answer; try again")
    summary["invite_url"] = absolute(request, summary["invite_url"])
    return summary


@router.get("/{table_id}/help", response_model=RulesHelp, responses=errors(404))
async def table_help(server: ServerParts, table_id: str) -> Any:
    table = await server.registry.read_only(table_id)
    if table is None:
        return error_response(404, "not-found", f"there is no table {table_id!r}")
    return rules_help(table.rules, len(table.seats))


@router.get("/{table_id}/record", responses={**json_file("a rummy-record/1 file, sent as an attachment"),
                                             **errors(404, 409)})
async def table_record(server: ServerParts, table_id: str) -> Response:
    table = await server.registry.read_only(table_id)
    if table is None:
        return error_response(404, "not-found", f"there is no table {table_id!r}")
    if table.game is None:
        return error_response(404, "not-started", "no game has been played at this table yet")
    if not table.game.game_over:
        # A live game's record holds every hand, the stock and the deal seed: never served.
        return error_response(409, "game-in-progress", "the record is available once the game is over")
    name = f"rummy-{table.rules.id}-{table.id}-game{table.game_number}.json"
    return Response(dumps(record_of(table.game), indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
