"""The FastAPI application of ``rummy serve``: the routers of :mod:`rummy.server.http`, the guard and the
server's parts.

``create_app(db_url)`` checks the database schema at start-up (``rummy migrate`` creates it), loads
or makes the cookie secret, and rebuilds every unfinished table from its event log.  Every error a
client can cause is answered as ``{"error": {"code", "message"}}`` (HTTP, :mod:`~rummy.server.http.errors`)
or an ``error`` message (WebSocket); no traceback ever reaches a client.  Every response passes the
:class:`~rummy.server.http.guard.Guard` (security headers, the cross-site check); request bodies are
strict JSON (:mod:`~rummy.server.http.bodies`).  The API's schemas are at ``/openapi.json`` (and, with
``api_docs``, drawn at ``/docs``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import os
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from rummy.server.cluster.registry import TableRegistry
from rummy.server.cluster.shared_limits import SharedLimits, SharedSocketCount
from rummy.server.gc_pauses import keep_collector_pauses_short
from rummy.server.http import (
    arrange,
    catalog,
    health,
    history,
    identity,
    pages,
    replay,
    session,
    socket,
    tables,
    verify,
)
from rummy.server.http.dependencies import Server
from rummy.server.http.errors import add_error_handlers
from rummy.server.http.guard import SECURITY_HEADERS, Guard
from rummy.server.http.models import BODIES
from rummy.server.http.pages import STATIC_DIR
from rummy.server.limits import SocketCount
from rummy.server.sessions import SessionSigner
from rummy.server.settings import ServerSettings
from rummy.server.storage.database import Database, default_db_url, display_url, normalize_db_url, schema_status
from rummy.server.tables.bot_runner import BotRunner

log = logging.getLogger("rummy.server")

ROUTERS = (pages.router, health.router, session.router, catalog.router, tables.router, history.router,
           identity.router, replay.router, verify.router, arrange.router, socket.router)


class SchemaError(RuntimeError):
    """The database has no schema, or an old one: ``rummy migrate`` must run first."""


def create_app(db_url: str | None = None, *, secret: str | None = None,
               settings: ServerSettings | None = None, redis_url: str | None = None,
               route: str | None = None, worker_id: str | None = None) -> FastAPI:
    """The application; ``db_url`` defaults to ``rummy.db`` in the working directory.  With
    ``redis_url`` the process is one worker of a cluster (:mod:`rummy.server.cluster.membership`; PostgreSQL only),
    reached directly by clients and proxies at ``route`` (its own port: :mod:`rummy.server.cluster.placement`),
    known to the others as ``worker_id`` (chosen by a supervisor that forked it; else at random)."""
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

            cluster = Cluster(redis_url, heartbeat_seconds=config.heartbeat_seconds, lease_seconds=config.lease_seconds,
                              worker_id=worker_id)
            await cluster.start()
            log.info("worker %s joined the cluster at %s", cluster.worker_id, redis_url.split("@")[-1])
        registry = TableRegistry(db, bots, config, cluster)
        placement = None
        if cluster is not None:
            from rummy.server.cluster.placement import Placement

            placement = Placement(cluster, route or cluster.worker_id)
            await placement.start(config.heartbeat_seconds)
            registry.placement = placement
            placement.on_refresh = registry.rebalance
        sockets = SocketCount(config.max_sockets_per_address)
        chores = []
        if cluster is not None:  # the per-player and per-address limits hold for the whole cluster
            shared = SharedLimits(cluster.redis, cluster.worker_id, ttl_seconds=2 * config.lease_seconds)
            registry.shared = shared
            sockets = shared_sockets = SharedSocketCount(config.max_sockets_per_address, shared)
            chores.append(asyncio.create_task(shared.renew_forever(
                lambda: [*registry.hosted(), *shared_sockets.members()], config.heartbeat_seconds)))
        app.state.server = Server(db, SessionSigner(key), registry, bots, config, sockets)
        restored = await registry.restore_unfinished()
        if restored:
            log.info("rebuilt %d unfinished table(s) from the event log", restored)
        chores += [
            asyncio.create_task(keep_collector_pauses_short(config.gc_freeze_seconds, config.gc_full_seconds)),
            asyncio.create_task(registry.evict_idle_forever()),
        ]
        try:
            yield
        finally:
            for chore in chores:
                chore.cancel()
            await asyncio.gather(*chores, return_exceptions=True)
            if placement is not None:  # hand every table to the other workers, whose clients follow
                with contextlib.suppress(Exception):
                    await placement.leave()
                    await asyncio.wait_for(registry.rebalance(), 5)
            await registry.close()
            if cluster is not None:
                await cluster.close()
            bots.close()
            await db.close()

    app = FastAPI(title="rummy", version=_version(), lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json")
    app.add_middleware(Guard, check_origin=config.check_origin, allowed_origins=config.allowed_origins,
                       allowed_hosts=config.allowed_hosts)
    add_error_handlers(app, clustered=redis_url is not None)
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    for router in ROUTERS:
        app.include_router(router)
    app.state.replays = replay.Replays(config)
    app.openapi = _openapi_with_bodies(app)  # type: ignore[method-assign]
    if config.api_docs:
        _add_docs_page(app)
    return app


def _version() -> str:
    try:
        return version("rummy")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0"


def _openapi_with_bodies(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """``app.openapi`` listing the request-body models too: FastAPI does not parse those bodies (strict
    JSON does, :mod:`rummy.server.http.bodies`), so it does not find their schemas by itself."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, routes=app.routes,
                                 description="The HTTP API of `rummy serve`; the table WebSocket is docs/protocol.md.")
            schemas = schema.setdefault("components", {}).setdefault("schemas", {})
            # Every parameter is taken as a string and read by the route itself: FastAPI never answers 422.
            for operation in (op for path in schema["paths"].values() for op in path.values()):
                operation["responses"].pop("422", None)
            schemas.pop("HTTPValidationError", None)
            schemas.pop("ValidationError", None)
            for model in BODIES:
                found = model.model_json_schema(ref_template="#/components/schemas/{model}")
                schemas.update(found.pop("$defs", {}))
                schemas[model.__name__] = found
            app.openapi_schema = schema
        return app.openapi_schema

    return openapi


def _add_docs_page(app: FastAPI) -> None:
    """``/docs``: Swagger UI drawing ``/openapi.json``.  Its script and style come from a CDN, which the
    site-wide Content-Security-Policy forbids, so this page alone carries a policy that allows them and
    its one inline script (by hash).  Off unless ``api_docs`` is set: a script from another site would run
    with this origin's cookies."""
    page = bytes(get_swagger_ui_html(openapi_url="/openapi.json", title="rummy API").body)
    inline = re.findall(rb"<script>(.*?)</script>", page, re.DOTALL)
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s).digest()).decode()}'" for s in inline)
    policy = SECURITY_HEADERS["Content-Security-Policy"]
    policy = policy.replace("script-src 'self'", f"script-src 'self' https://cdn.jsdelivr.net {hashes}")
    policy = policy.replace("style-src 'self'", "style-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'")
    policy = policy.replace("img-src 'self' data:", "img-src 'self' data: https://fastapi.tiangolo.com")

    @app.get("/docs", include_in_schema=False)
    async def docs_page() -> Response:
        return Response(page, media_type="text/html", headers={"Content-Security-Policy": policy})


