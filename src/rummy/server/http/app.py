"""The FastAPI application of ``rummy serve``: sessions, lobby, downloads and the table WebSocket.

``create_app(db_url)`` checks the database schema at start-up (``rummy migrate`` creates it), loads
or makes the cookie secret, and rebuilds every unfinished table from its event log.  Every error a
client can cause is answered as ``{"error": {"code", "message"}}`` (HTTP) or an ``error`` message
(WebSocket); no traceback ever reaches a client.  Every response passes the :class:`~rummy.server.http.guard.Guard`
(security headers, the cross-site check); request bodies are strict JSON (:mod:`rummy.server.strict_json`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.websockets import WebSocketDisconnect

from rummy.bots import LEVELS
from rummy.engine import Game, get_variant
from rummy.record import dumps, record_of
from rummy.server.cluster.links import RemoteTable
from rummy.server.cluster.registry import TableRegistry
from rummy.server.events.game_results import game_of_log
from rummy.server.gc_pauses import keep_collector_pauses_short
from rummy.server.http.arrange import add_arrange_routes
from rummy.server.http.guard import Guard, address_key, cross_site, error_response, foreign_host
from rummy.server.http.history import add_history_routes
from rummy.server.http.replay import add_replay_routes
from rummy.server.http.verify import add_verify_routes
from rummy.server.limits import LimitError, SocketCount
from rummy.server.sessions import COOKIE_MAX_AGE, COOKIE_NAME, Session, SessionSigner, clean_name, new_player_id
from rummy.server.settings import ServerSettings
from rummy.server.storage.database import Database, default_db_url, display_url, normalize_db_url, schema_status
from rummy.server.strict_json import StrictJSONError, loads
from rummy.server.tables.bot_runner import BotRunner, bot_name, playable_level
from rummy.server.tables.catalog import RequestError, TableConfig, rules_help, variant_catalog
from rummy.server.tables.connections import Connection
from rummy.server.tables.inbox import ClientCommand, Connected, Disconnected
from rummy.server.tables.protocol import Command, ProtocolError, ack_message, encode, error_message, parse_command

log = logging.getLogger("rummy.server")

STATIC_DIR = Path(__file__).parent.parent / "static"
MAX_BODY_BYTES = 65_536
HTTP_CODES = {400: "bad-request", 401: "no-session", 403: "forbidden", 404: "not-found",
              405: "method-not-allowed", 413: "too-large", 415: "unsupported-media-type", 500: "internal",
              503: "unavailable"}
CLOSE_CROSS_SITE = 4403
CLOSE_TOO_MANY = 4429
CLOSE_NOT_FOUND = 4404


class SchemaError(RuntimeError):
    """The database has no schema, or an old one: ``rummy migrate`` must run first."""


@dataclass
class Server:
    """What the routes share: the database, the session signer and the tables."""

    db: Database
    signer: SessionSigner
    registry: TableRegistry
    bots: BotRunner
    settings: ServerSettings
    sockets: SocketCount


def create_app(db_url: str | None = None, *, secret: str | None = None,
               settings: ServerSettings | None = None, redis_url: str | None = None) -> FastAPI:
    """The application; ``db_url`` defaults to ``rummy.db`` in the working directory.  With
    ``redis_url`` the process is one worker of a cluster (:mod:`rummy.server.cluster.membership`; PostgreSQL only)."""
    url = normalize_db_url(db_url) if db_url else default_db_url()
    config = settings or ServerSettings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        status = await schema_status(url)
        if status.state != "current":
            raise SchemaError(
                f"the database {display_url(url)} is {status.state} (revision {status.current}, "
                f"this version needs {status.head}): run `rummy migrate --db URL` first"
            )
        db = Database(url, checkpoint_seconds=config.checkpoint_seconds, wal_limit_bytes=config.wal_limit_bytes,
                      wal_truncate_seconds=config.wal_truncate_seconds)
        await db.start()
        key = secret or os.environ.get("RUMMY_SECRET") or await db.secret("session")
        bots = BotRunner(config.bot_processes, config.bot_timeout)
        cluster = None
        if redis_url is not None:
            from rummy.server.cluster.membership import Cluster  # redis only for a cluster

            cluster = Cluster(redis_url, heartbeat_seconds=config.heartbeat_seconds, lease_seconds=config.lease_seconds)
            await cluster.start()
            log.info("worker %s joined the cluster at %s", cluster.worker_id, redis_url.split("@")[-1])
        registry = TableRegistry(db, bots, config, cluster)
        app.state.server = Server(db, SessionSigner(key), registry, bots, config,
                                  SocketCount(config.max_sockets_per_address))
        restored = await registry.restore_unfinished()
        if restored:
            log.info("rebuilt %d unfinished table(s) from the event log", restored)
        chores = [
            asyncio.create_task(keep_collector_pauses_short(config.gc_freeze_seconds, config.gc_full_seconds)),
            asyncio.create_task(registry.evict_idle_forever()),
        ]
        try:
            yield
        finally:
            for chore in chores:
                chore.cancel()
            await asyncio.gather(*chores, return_exceptions=True)
            await registry.close()
            if cluster is not None:
                await cluster.close()
            bots.close()
            await db.close()

    app = FastAPI(title="rummy", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(Guard, check_origin=config.check_origin, allowed_origins=config.allowed_origins,
                       allowed_hosts=config.allowed_hosts)
    _add_error_handlers(app)
    _add_pages(app)
    _add_api(app)
    _add_socket(app)
    add_history_routes(app, server_of=_server, json_body=_json_body, page=_front_end)
    add_replay_routes(app, front_end=_front_end, tables=lambda request: _server(request).registry,
                      earlier_game=_earlier_game, settings=config)
    add_verify_routes(app, lambda request: _server(request).registry)
    add_arrange_routes(app, lambda request: _server(request).registry)
    return app


async def _earlier_game(request: Request, table_id: str, number: int) -> Game | None:
    """Game ``number`` of a table as its event log ends it (for the replay of a table played again)."""
    stored = await _server(request).db.load_table(table_id)
    if stored is None:
        return None
    rules = get_variant(stored.row["variant"], dict(stored.row["options"] or {}))
    return await asyncio.to_thread(game_of_log, rules, stored.events, number)


def _server(request: Request | WebSocket) -> Server:
    server: Server = request.app.state.server
    return server


def _session(request: Request | WebSocket) -> Session | None:
    return _server(request).signer.read(request.cookies.get(COOKIE_NAME))


def _add_error_handlers(app: FastAPI) -> None:
    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, StarletteHTTPException) else 500
        detail = exc.detail if isinstance(exc, StarletteHTTPException) else "internal error"
        return error_response(status, HTTP_CODES.get(status, "error"), str(detail))

    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("%s %s failed", request.method, request.url.path, exc_info=exc)
        return error_response(500, "internal", "the server failed on this request")

    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, unexpected)


def _front_end() -> Response:
    index = STATIC_DIR / "index.html"
    if index.is_file():
        return FileResponse(index, media_type="text/html")
    return HTMLResponse("<!doctype html><title>Rummy</title><p>The front end is not installed.", status_code=503)


def _add_pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        return _front_end()

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return _front_end()

    @app.get("/healthz")
    async def health() -> dict[str, bool]:
        return {"ok": True}


async def _json_body(request: Request) -> Any:
    """The request's JSON body: ``Content-Type: application/json`` (no HTML form can send it across
    sites), at most :data:`MAX_BODY_BYTES`, strict JSON."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise RequestError("unsupported-media-type",
                           f"the body must be sent as Content-Type: application/json, not {media_type or 'none'!r}")
    too_large = RequestError("too-large", f"the body is larger than {MAX_BODY_BYTES} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > MAX_BODY_BYTES:
        raise too_large  # at once: never wait for (or hold) a body that will be refused
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise too_large
    except ClientDisconnect:
        raise RequestError("bad-request", "the client went away before sending the body") from None
    try:
        return loads(bytes(body) or b"{}")
    except StrictJSONError as error:
        raise RequestError("bad-request", f"the body is not accepted: {error}") from None


REQUEST_STATUS = {"too-large": 413, "unsupported-media-type": 415}


def _add_api(app: FastAPI) -> None:
    @app.exception_handler(RequestError)
    async def bad_request(request: Request, exc: RequestError) -> Response:
        return error_response(REQUEST_STATUS.get(exc.code, 400), exc.code, exc.message)

    @app.exception_handler(LimitError)
    async def over_limit(request: Request, exc: LimitError) -> Response:
        return error_response(429, exc.code, exc.message)

    @app.post("/api/session")
    async def create_session(request: Request) -> Response:
        body = await _json_body(request)
        try:
            name = clean_name(body.get("name") if isinstance(body, dict) else None)
        except ValueError as error:
            raise RequestError("bad-name", str(error)) from None
        old = _session(request)
        session = Session(old.player_id if old is not None else new_player_id(), name)
        response = JSONResponse({"player_id": session.player_id, "name": session.name})
        response.set_cookie(COOKIE_NAME, _server(request).signer.sign(session), max_age=COOKIE_MAX_AGE,
                            httponly=True, samesite="lax", secure=_server(request).settings.secure_cookies)
        return response

    @app.get("/api/session")
    async def read_session(request: Request) -> Response:
        session = _session(request)
        if session is None:  # a first visit: not an error (a browser would log one)
            return JSONResponse({"player_id": None, "name": None})
        return JSONResponse({"player_id": session.player_id, "name": session.name})

    @app.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        return variant_catalog()

    @app.get("/api/bots")
    async def bot_levels() -> list[dict[str, Any]]:
        return [{"level": level, "bot": bot_name(level), "available": playable_level(level) == level}
                for level in LEVELS]

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        session = _session(request)
        if session is None:
            return error_response(401, "no-session", "choose a name first (POST /api/session)")
        config = TableConfig.from_request(await _json_body(request))
        settings = _server(request).settings
        if 0 < config.turn_seconds < settings.min_turn_seconds:
            raise RequestError("bad-request", f"turn_seconds must be 0 (no turn timer) or at least "
                                              f"{settings.min_turn_seconds:g} on this server")
        address = address_key(request.client.host if request.client else None)
        table = await _server(request).registry.create(config, session, address)
        return JSONResponse({"table_id": table.id, "invite_url": _absolute(request, f"/table/{table.id}")},
                            status_code=201)

    @app.get("/api/tables")
    async def my_tables(request: Request) -> Response:
        session = _session(request)
        if session is None:
            return error_response(401, "no-session", "no session yet: POST /api/session with a name")
        return JSONResponse(await _server(request).db.tables_of_player(session.player_id))

    @app.get("/api/tables/{table_id}")
    async def table_summary(request: Request, table_id: str) -> Response:
        table = await _server(request).registry.locate(table_id)
        if table is None:
            return error_response(404, "not-found", f"there is no table {table_id!r}")
        summary = await table.summary() if isinstance(table, RemoteTable) else table.summary()
        if summary is None:
            return error_response(503, "unavailable", "the server running this table did not answer; try again")
        summary["invite_url"] = _absolute(request, summary["invite_url"])
        return JSONResponse(summary)

    @app.get("/api/tables/{table_id}/help")
    async def table_help(request: Request, table_id: str) -> Response:
        table = await _server(request).registry.read_only(table_id)
        if table is None:
            return error_response(404, "not-found", f"there is no table {table_id!r}")
        return JSONResponse(rules_help(table.rules, len(table.seats)))

    @app.get("/api/tables/{table_id}/record")
    async def table_record(request: Request, table_id: str) -> Response:
        table = await _server(request).registry.read_only(table_id)
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


def _absolute(request: Request, path: str) -> str:
    return str(request.base_url).rstrip("/") + path


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    """Accept the handshake only to say why in an ``error`` and close with ``close_code``: a browser
    shows a script neither the status of a refused handshake nor its reason (only close code 1006)."""
    with contextlib.suppress(Exception):  # the client may be gone already: nothing is owed to it
        await websocket.accept()
        await websocket.send_text(encode(error_message(code, message)))
        await websocket.close(code=close_code)


def _add_socket(app: FastAPI) -> None:
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        server = _server(websocket)
        settings = server.settings
        reason = foreign_host(websocket.headers, settings.allowed_hosts)
        if reason is None and settings.check_origin:
            reason = cross_site(websocket.headers, settings.allowed_origins, secure=websocket.url.scheme == "wss")
        if reason is not None:
            await _refuse(websocket, "forbidden", f"cross-site WebSocket refused ({reason})", CLOSE_CROSS_SITE)
            return
        address = address_key(websocket.client.host if websocket.client else None)
        if not server.sockets.open(address):
            await _refuse(websocket, "too-many-connections", f"this address already holds "
                          f"{server.settings.max_sockets_per_address} table connections", CLOSE_TOO_MANY)
            return
        try:
            await _serve_socket(server, websocket, table_id)
        finally:
            server.sockets.close(address)


async def _serve_socket(server: Server, websocket: WebSocket, table_id: str) -> None:
    table = await server.registry.locate(table_id)
    if table is None:
        await _refuse(websocket, "not-found", f"there is no table {table_id!r}", CLOSE_NOT_FOUND)
        return
    await websocket.accept()
    connection = Connection(websocket, _session(websocket), server.settings)
    writer = asyncio.create_task(connection.write_forever())
    table.post(Connected(connection))
    try:
        while not connection.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            command = _read_command(connection, message.get("text"), server.settings)
            if command is not None and command.type == "ping":
                connection.send(ack_message(command.id))
            elif command is not None:
                table.post(ClientCommand(connection, command))
            if connection.over_rate:  # a flood is read no faster than the rate: the rest waits in TCP
                await asyncio.sleep(connection.seconds_to_next_message())
    except WebSocketDisconnect:
        pass
    finally:
        table.post(Disconnected(connection))
        connection.close()
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(writer, 5)


def _read_command(connection: Connection, text: str | None, settings: ServerSettings) -> Command | None:
    """The command in one client frame, or None after answering it with an error."""
    try:
        if text is None:
            raise ProtocolError("bad-message", "messages must be JSON text frames")
        if len(text) > settings.max_message_bytes:
            raise ProtocolError("bad-message", f"the message is longer than {settings.max_message_bytes} bytes")
        if not connection.within_rate():
            raise ProtocolError("rate-limited", "too many messages: slow down")
        command = parse_command(text)
        if not connection.first_use_of(command.id):
            raise ProtocolError("duplicate", f"id {command.id!r} was already used on this connection",
                                command_id=command.id)
        return command
    except ProtocolError as error:
        connection.send(error.to_message())
        return None
