"""The HTTP side of game history and identity transfer (docs/history.md).

Pages ``/history`` and ``/transfer`` (the front end's), and:

* ``GET /api/history?limit=50&offset=0``: the session's finished games, newest first.
* ``GET /api/history/stats``: the session's statistics per variant.
* ``POST /api/identity/code``: a one-time code (and link) carrying the session to another browser.
* ``POST /api/identity/redeem`` ``{"code": "..."}``: use a code; the answer sets the session cookie.

Everything answers only for the caller's own session cookie, and only about finished games.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from rummy.server.http.guard import address_key, error_response
from rummy.server.sessions import COOKIE_MAX_AGE, COOKIE_NAME, Session, SessionSigner
from rummy.server.settings import ServerSettings
from rummy.server.storage.database import Database
from rummy.server.storage.history import MAX_PAGE, History
from rummy.server.storage.identity_codes import IdentityCodes, codes_issued, failed_redeems
from rummy.server.tables.catalog import RequestError


class ServerParts(Protocol):
    """What these routes need of the application's shared state."""

    @property
    def db(self) -> Database: ...
    @property
    def signer(self) -> SessionSigner: ...
    @property
    def settings(self) -> ServerSettings: ...


class HistoryServices:
    """The history reader, the identity codes, and the counters of wrong codes and of codes issued per
    address, of one application."""

    def __init__(self, db: Database) -> None:
        self.history = History(db)
        self.codes = IdentityCodes(db)
        self.failed = failed_redeems()
        self.issued = codes_issued()


def _query_int(request: Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not text.isdecimal() or not low <= int(text) <= high:
        raise RequestError("bad-request", f"{name} must be a whole number from {low} to {high}, not {text!r}")
    return int(text)


def add_history_routes(app: FastAPI, *, server_of: Callable[[Request], ServerParts],
                       json_body: Callable[[Request], Awaitable[Any]], page: Callable[[], Response]) -> None:
    """Add the pages and routes of the module docstring to ``app``."""

    def services(request: Request) -> HistoryServices:
        found: HistoryServices | None = getattr(request.app.state, "history_services", None)
        db = server_of(request).db
        if found is None or found.history.db is not db:
            found = HistoryServices(db)
            request.app.state.history_services = found
        return found

    def session_of(request: Request) -> Session | None:
        return server_of(request).signer.read(request.cookies.get(COOKIE_NAME))

    def no_session() -> Response:
        return error_response(401, "no-session", "no session yet: POST /api/session with a name")

    @app.get("/history", include_in_schema=False)
    async def history_page() -> Response:
        return page()

    @app.get("/transfer", include_in_schema=False)
    async def transfer_page() -> Response:
        return page()

    @app.get("/api/history")
    async def my_history(request: Request) -> Response:
        session = session_of(request)
        if session is None:
            return no_session()
        limit = _query_int(request, "limit", 50, 1, MAX_PAGE)
        offset = _query_int(request, "offset", 0, 0, 10**9)
        return JSONResponse(await services(request).history.games(session.player_id, limit=limit, offset=offset))

    @app.get("/api/history/stats")
    async def my_stats(request: Request) -> Response:
        session = session_of(request)
        if session is None:
            return no_session()
        return JSONResponse(await services(request).history.stats(session.player_id))

    @app.post("/api/identity/code")
    async def issue_code(request: Request) -> Response:
        session = session_of(request)
        if session is None:
            return no_session()
        await json_body(request)  # an empty JSON body: no HTML form can make this request
        services(request).issued.take(address_key(request.client.host if request.client else None))
        issued = await services(request).codes.issue(session)
        link = str(request.base_url).rstrip("/") + f"/transfer#code={issued.code}"
        seconds = round(services(request).codes.lifetime.total_seconds())
        return JSONResponse({"code": issued.code, "link": link, "expires_at": issued.expires_at.isoformat(),
                             "expires_in": seconds}, status_code=201, headers={"Cache-Control": "no-store"})

    @app.post("/api/identity/redeem")
    async def redeem_code(request: Request) -> Response:
        found = services(request)
        address = address_key(request.client.host if request.client else None)
        body = await json_body(request)
        if not isinstance(body, dict) or set(body) != {"code"}:
            raise RequestError("bad-request", 'the body must be {"code": "XXXX-XXXX-XXXX-XXXX"}')
        attempt = found.failed.take(address)  # counted as wrong, before the lookup awaits, until it proves right
        session = await found.codes.redeem(body["code"])
        if session is None:
            return error_response(400, "bad-code", "this code is wrong, was used already or has expired: "
                                                   "ask for a new one on the other browser")
        found.failed.give_back(address, attempt)
        server = server_of(request)
        response = JSONResponse({"player_id": session.player_id, "name": session.name})
        response.set_cookie(COOKIE_NAME, server.signer.sign(session), max_age=COOKIE_MAX_AGE, httponly=True,
                            samesite="lax", secure=server.settings.secure_cookies)
        return response
