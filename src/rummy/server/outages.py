"""When Redis or the database is away: how an error says so, and what a client is told.

An HTTP request that meets an outage is answered ``503 unavailable`` with ``Retry-After``
(:mod:`rummy.server.http.errors`); a WebSocket handshake is refused with an ``unavailable`` error and
close code :data:`CLOSE_TRY_AGAIN`, and the sockets of a table that can no longer be served are told the
same way (docs/protocol.md).  Never a 500, never a silent socket.

>>> outage(ConnectionRefusedError(111, "Connection refused"))
'the database'
>>> outage(ValueError("a bug")) is None
True
"""

from __future__ import annotations

import sys

#: WebSocket close code 1013, "try again later": Redis or the database is away; reconnect after a pause.
CLOSE_TRY_AGAIN = 1013
#: Seconds a client is asked to wait (``Retry-After``) before trying again.
RETRY_AFTER_SECONDS = 5
UNAVAILABLE = "unavailable"


def outage(error: BaseException, depth: int = 0) -> str | None:
    """``"Redis"`` or ``"the database"`` when ``error`` means that service cannot be reached now, else None.

    A driver's error wrapped by another (SQLAlchemy's ``orig``, an exception's ``__cause__``) is looked at
    too: asyncpg's errors of a server shutting down reach the server as SQLAlchemy's ``InternalError``."""
    redis_errors = sys.modules.get("redis.exceptions")  # imported only by a cluster worker
    if redis_errors is not None and isinstance(error, (redis_errors.ConnectionError, redis_errors.TimeoutError)):
        return "Redis"
    sqlalchemy_errors = sys.modules.get("sqlalchemy.exc")
    if sqlalchemy_errors is not None:
        if isinstance(error, (sqlalchemy_errors.OperationalError, sqlalchemy_errors.InterfaceError,
                              sqlalchemy_errors.TimeoutError)):
            return "the database"
        if isinstance(error, sqlalchemy_errors.DBAPIError) and error.connection_invalidated:
            return "the database"
    asyncpg_errors = sys.modules.get("asyncpg.exceptions")
    if asyncpg_errors is not None and isinstance(error, (asyncpg_errors.PostgresConnectionError,
                                                         asyncpg_errors.InterfaceError,
                                                         asyncpg_errors.CannotConnectNowError,
                                                         asyncpg_errors.AdminShutdownError,
                                                         asyncpg_errors.CrashShutdownError,
                                                         # a connection cut mid-operation: "cannot switch to state"
                                                         asyncpg_errors.InternalClientError)):
        return "the database"
    if isinstance(error, ConnectionError):  # a refused or reset connection (asyncpg raises the OSError itself)
        return "the database"
    if depth < 4:
        for wrapped in (getattr(error, "orig", None), error.__cause__):
            if isinstance(wrapped, BaseException) and wrapped is not error:
                found = outage(wrapped, depth + 1)
                if found:
                    return found
    return None


def unavailable_message(service: str) -> str:
    """The sentence of an ``unavailable`` answer."""
    return f"{service} is not reachable just now; nothing changed, try again in a few seconds"
