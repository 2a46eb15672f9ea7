"""Carrying a player's identity to another browser (docs/history.md).

* ``POST /api/identity/code`` (a session, an empty JSON body): a one-time code and a link holding it.
* ``POST /api/identity/redeem`` ``{"code": "..."}``: use a code; the answer sets the session cookie.

Codes issued and wrong codes are counted per address (``429``), a wrong code before the lookup awaits.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from rummy.server.http.bodies import body_schema, json_body, read_json
from rummy.server.http.dependencies import ClientAddress, CurrentSession, ServerParts
from rummy.server.http.guard import error_response
from rummy.server.http.models import IdentityCodeAnswer, RedeemCode, SessionAnswer, errors
from rummy.server.http.session import session_answer

router = APIRouter(prefix="/api/identity", tags=["identity transfer"])
EMPTY_BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}},
                              "description": "{} (no HTML form can send a JSON body)"}}


@router.post("/code", status_code=201, response_model=IdentityCodeAnswer, responses=errors(401, 429),
             openapi_extra=EMPTY_BODY)
async def issue_code(request: Request, server: ServerParts, session: CurrentSession, address: ClientAddress,
                     empty: Annotated[Any, Depends(read_json)]) -> Any:
    server.codes_issued.take(address)
    issued = await server.codes.issue(session)
    link = str(request.base_url).rstrip("/") + f"/transfer#code={issued.code}"
    seconds = round(server.codes.lifetime.total_seconds())
    return JSONResponse({"code": issued.code, "link": link, "expires_at": issued.expires_at.isoformat(),
                         "expires_in": seconds}, status_code=201, headers={"Cache-Control": "no-store"})


@router.post("/redeem", response_model=SessionAnswer, responses=errors(400, 429), openapi_extra=body_schema(RedeemCode))
async def redeem_code(server: ServerParts, address: ClientAddress,
                      body: Annotated[RedeemCode, Depends(json_body(RedeemCode))]) -> Any:
    attempt = server.failed_redeems.take(address)  # counted as wrong, before the lookup awaits, until it proves right
    session = await server.codes.redeem(body.code)
    if session is None:
        return error_response(400, "bad-code", "this code is wrong, was used already or has expired: "
                                               "ask for a new one on the other browser")
    server.failed_redeems.give_back(address, attempt)
    return session_answer(server, session)
