"""The player's session: a name and a random player id in a signed cookie (no accounts).

* ``GET /api/session``: who the cookie says the caller is (``null`` and ``null`` on a first visit).
* ``POST /api/session`` ``{"name": "Ann"}``: set the name; the player id is kept, or made on a first visit.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from rummy.server.http.bodies import body_schema, json_body
from rummy.server.http.dependencies import MaybeSession, Server, ServerParts
from rummy.server.http.models import NewSession, SessionAnswer, errors
from rummy.server.sessions import COOKIE_MAX_AGE, COOKIE_NAME, Session, new_player_id

router = APIRouter(prefix="/api/session", tags=["session"])


def session_answer(server: Server, session: Session) -> JSONResponse:
    """The session's JSON, setting its signed cookie."""
    response = JSONResponse({"player_id": session.player_id, "name": session.name})
    response.set_cookie(COOKIE_NAME, server.signer.sign(session), max_age=COOKIE_MAX_AGE, httponly=True,
                        samesite="lax", secure=server.settings.secure_cookies)
    return response


@router.post("", response_model=SessionAnswer, responses=errors(400, 413, 415), openapi_extra=body_schema(NewSession))
async def create_session(server: ServerParts, old: MaybeSession,
                         body: Annotated[NewSession, Depends(json_body(NewSession))]) -> Any:
    return session_answer(server, Session(old.player_id if old is not None else new_player_id(), body.name))


@router.get("", response_model=SessionAnswer)
async def read_session(session: MaybeSession) -> Any:
    # A first visit is not an error (a browser would log one).
    return {"player_id": session.player_id if session else None, "name": session.name if session else None}
