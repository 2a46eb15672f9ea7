"""How every error a client can cause is answered: ``{"error": {"code", "message"}}`` with its status.

No traceback ever reaches a client: an unexpected exception is logged and answered ``500 internal``;
one that says Redis or the database is away (:func:`rummy.server.outages.outage`) is answered ``503
unavailable`` with ``Retry-After`` and logged as one line: the errors of the services' drivers have a
handler of their own (:data:`SERVICE_ERRORS`), since an error that reaches the catch-all handler is logged
by the ASGI server as a traceback as well, whatever the handler answers.
"""

from __future__ import annotations

import logging

from asyncpg import exceptions as asyncpg_errors
from fastapi import FastAPI, Request
from fastapi.responses import Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from rummy.server.events.replay_frames import ReplayRefused
from rummy.server.http.guard import error_response
from rummy.server.limits import LimitError
from rummy.server.outages import RETRY_AFTER_SECONDS, UNAVAILABLE, outage, unavailable_message
from rummy.server.tables.catalog import RequestError

log = logging.getLogger("rummy.server")

#: The code of an HTTP error raised as an :class:`HTTPException` (a 401 from the session dependency, a
#: 404 or 405 from the router).
HTTP_CODES = {400: "bad-request", 401: "no-session", 403: "forbidden", 404: "not-found",
              405: "method-not-allowed", 413: "too-large", 415: "unsupported-media-type", 500: "internal",
              503: "unavailable"}
#: The status of a refused request body, by code (any other is 400).
REQUEST_STATUS = {"too-large": 413, "unsupported-media-type": 415}
#: The status of a refused replay, by code.
REPLAY_STATUS = {"bad-record": 400, "bad-seat": 400, "bad-game": 400, "no-such-game": 404, "too-large": 413,
                 "unsupported-media-type": 415, "rate-limited": 429, "busy": 503}


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, StarletteHTTPException) else 500
    detail = exc.detail if isinstance(exc, StarletteHTTPException) else "internal error"
    return error_response(status, HTTP_CODES.get(status, "error"), str(detail))


#: The errors of the database's drivers, and a refused connection, that may mean an outage (Redis's are added
#: for a cluster worker: :func:`add_error_handlers`).
SERVICE_ERRORS: tuple[type[Exception], ...] = (
    ConnectionError, SQLAlchemyError, asyncpg_errors.PostgresError, asyncpg_errors.InterfaceError,
    asyncpg_errors.InternalClientError)


def _unavailable(request: Request, exc: Exception) -> Response | None:
    """``503 unavailable`` when ``exc`` says a service is away (logged as one line), else None."""
    service = outage(exc)
    if service is None:
        return None
    log.warning("%s %s: %s is away (%s)", request.method, request.url.path, service, exc)
    return error_response(503, UNAVAILABLE, unavailable_message(service), {"Retry-After": str(RETRY_AFTER_SECONDS)})


async def _service_error(request: Request, exc: Exception) -> Response:
    answer = _unavailable(request, exc)
    if answer is None:
        raise exc  # not an outage: the catch-all handler answers it (500)
    return answer


async def _unexpected(request: Request, exc: Exception) -> Response:
    answer = _unavailable(request, exc)
    if answer is not None:
        return answer
    log.exception("%s %s failed", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal", "the server failed on this request")


async def _bad_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestError)
    return error_response(REQUEST_STATUS.get(exc.code, 400), exc.code, exc.message)


async def _over_limit(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, LimitError)
    return error_response(429, exc.code, exc.message)


async def _replay_refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ReplayRefused)
    headers = {"Retry-After": "2"} if exc.code in ("rate-limited", "busy") else None
    return error_response(REPLAY_STATUS.get(exc.code, 400), exc.code, exc.message, headers)


def add_error_handlers(app: FastAPI, *, clustered: bool = False) -> None:
    """The answers of ``app``'s errors; ``clustered``: the process is a cluster worker, which talks to Redis."""
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
    for error_class in SERVICE_ERRORS:
        app.add_exception_handler(error_class, _service_error)
    if clustered:  # Redis is imported by a cluster worker only
        from redis.exceptions import RedisError

        app.add_exception_handler(RedisError, _service_error)
    app.add_exception_handler(RequestError, _bad_request)
    app.add_exception_handler(LimitError, _over_limit)
    app.add_exception_handler(ReplayRefused, _replay_refused)
