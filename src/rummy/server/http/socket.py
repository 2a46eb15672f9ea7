"""The table WebSocket, ``/ws/tables/{table_id}`` (docs/protocol.md): one per client and table.

The handshake is refused across sites and past the sockets an address may hold; a refusal is said in
an ``error`` message and a close code (a browser shows a script neither the status of a refused
handshake nor its reason); so is a handshake that meets Redis or the database away (``unavailable``,
1013: try again later).  Each frame is read, checked (size, rate, a fresh id) and posted to the
table's owner task; ``ping`` is answered here.

On a cluster a client that names a worker (``?worker=ROUTE``, even empty: it follows ``moved``) and
reached another than the one running the table is told where to go (``moved`` with the owner's
``worker``, close code 4307), so its game traffic never crosses Redis; one that reached the worker
it named (no proxy routes on it, or the table is being handed over) or that names none is served
here, linked to the owner (:mod:`rummy.server.cluster.links`).
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from rummy.server.cluster.placement import HINT
from rummy.server.http.dependencies import ClientAddress, MaybeSession, Server, ServerParts
from rummy.server.http.guard import cross_site, foreign_host
from rummy.server.http.routing import owner_elsewhere
from rummy.server.outages import CLOSE_TRY_AGAIN, UNAVAILABLE, outage, unavailable_message
from rummy.server.sessions import Session
from rummy.server.settings import ServerSettings
from rummy.server.tables.connections import Connection
from rummy.server.tables.inbox import ClientCommand, Connected, Disconnected
from rummy.server.tables.protocol import Command, ProtocolError, ack_message, encode, error_message, parse_command

CLOSE_CROSS_SITE = 4403
CLOSE_TOO_MANY = 4429
CLOSE_NOT_FOUND = 4404
CLOSE_MOVED_TO = 4307  # the table runs on another worker: reconnect at once, with ?worker= the error's worker

router = APIRouter()


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    """Accept the handshake only to say why in an ``error`` and close with ``close_code``."""
    with contextlib.suppress(Exception):  # the client may be gone already: nothing is owed to it
        await websocket.accept()
        await websocket.send_text(encode(error_message(code, message)))
        await websocket.close(code=close_code)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, server: ServerParts, session: MaybeSession, address: ClientAddress,
                       table_id: str) -> None:
    settings = server.settings
    reason = foreign_host(websocket.headers, settings.allowed_hosts)
    if reason is None and settings.check_origin:
        reason = cross_site(websocket.headers, settings.allowed_origins, secure=websocket.url.scheme == "wss")
    if reason is not None:
        await _refuse(websocket, "forbidden", f"cross-site WebSocket refused ({reason})", CLOSE_CROSS_SITE)
        return
    try:
        admitted = await server.sockets.admit(address)
    except Exception as error:
        await _refuse_in_outage(websocket, error)
        return
    if not admitted:
        await _refuse(websocket, "too-many-connections", f"this address already holds "
                      f"{settings.max_sockets_per_address} table connections", CLOSE_TOO_MANY)
        return
    try:
        await _serve_socket(server, websocket, session, table_id)
    finally:
        server.sockets.close(address)


async def _moved(websocket: WebSocket, table_id: str, route: str) -> None:
    """Send the client to the worker running the table (``moved``, 4307)."""
    message = error_message("moved", f"table {table_id} is served by worker {route}: reconnect with ?{HINT}={route}")
    message["worker"] = route
    with contextlib.suppress(Exception):
        await websocket.accept()
        await websocket.send_text(encode(message))
        await websocket.close(code=CLOSE_MOVED_TO)


async def _refuse_in_outage(websocket: WebSocket, error: Exception) -> None:
    """Refuse a handshake that met Redis or the database away (``unavailable``, 1013); re-raise any other error."""
    service = outage(error)
    if service is None:
        raise error
    await _refuse(websocket, UNAVAILABLE, unavailable_message(service), CLOSE_TRY_AGAIN)


async def _serve_socket(server: Server, websocket: WebSocket, session: Session | None, table_id: str) -> None:
    try:
        route = await owner_elsewhere(server, table_id, websocket.query_params.get(HINT))
        table = None if route is not None else await server.registry.locate(table_id)
    except Exception as error:
        await _refuse_in_outage(websocket, error)
        return
    if route is not None:
        await _moved(websocket, table_id, route)
        return
    if table is None:
        await _refuse(websocket, "not-found", f"there is no table {table_id!r}", CLOSE_NOT_FOUND)
        return
    await websocket.accept()
    connection = Connection(websocket, session, server.settings)
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
