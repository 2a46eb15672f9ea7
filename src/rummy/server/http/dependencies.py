"""What the routes share, as FastAPI dependencies: the server's parts, the caller's session and address.

:class:`Server` is made once per application run (its lifespan) and kept in ``app.state.server``.  A
route that needs a session takes ``session: CurrentSession``: without a valid session cookie the request
is answered ``401 no-session`` here, before the route runs (and before its body is read).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, HTTPException
from starlette.requests import HTTPConnection

from rummy.server.cluster.registry import TableRegistry
from rummy.server.http.guard import address_key
from rummy.server.limits import SocketCount
from rummy.server.sessions import COOKIE_NAME, Session, SessionSigner
from rummy.server.settings import ServerSettings
from rummy.server.storage.database import Database
from rummy.server.storage.history import History
from rummy.server.storage.identity_codes import IdentityCodes, PerAddressWindow, codes_issued, failed_redeems
from rummy.server.tables.bot_runner import BotRunner

NO_SESSION = "no session yet: POST /api/session with a name"


@dataclass
class Server:
    """The parts of one running server: the database, the session signer, the tables and the bots, the
    per-address counters, the history reader and the identity codes."""

    db: Database
    signer: SessionSigner
    registry: TableRegistry
    bots: BotRunner
    settings: ServerSettings
    sockets: SocketCount
    history: History = field(init=False)
    codes: IdentityCodes = field(init=False)
    failed_redeems: PerAddressWindow = field(init=False, default_factory=failed_redeems)
    codes_issued: PerAddressWindow = field(init=False, default_factory=codes_issued)

    def __post_init__(self) -> None:
        self.history = History(self.db)
        self.codes = IdentityCodes(self.db)


def get_server(connection: HTTPConnection) -> Server:
    server: Server = connection.app.state.server
    return server


def optional_session(connection: HTTPConnection) -> Session | None:
    """The session of the signed cookie, or None (no cookie, or one this server did not sign)."""
    return get_server(connection).signer.read(connection.cookies.get(COOKIE_NAME))


def require_session(session: Annotated[Session | None, Depends(optional_session)]) -> Session:
    """The caller's session; without one the request is answered ``401 no-session``."""
    if session is None:
        raise HTTPException(401, NO_SESSION)
    return session


def client_address(connection: HTTPConnection) -> str:
    """The key the per-address limits count the caller under (:func:`~rummy.server.http.guard.address_key`)."""
    return address_key(connection.client.host if connection.client else None)


ServerParts = Annotated[Server, Depends(get_server)]
MaybeSession = Annotated[Session | None, Depends(optional_session)]
CurrentSession = Annotated[Session, Depends(require_session)]
ClientAddress = Annotated[str, Depends(client_address)]
