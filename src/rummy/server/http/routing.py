"""Owner-affine routing on a cluster: which worker a request for a table should go to.

A table runs on one worker (:mod:`rummy.server.cluster.placement`); a client that names a worker
(``?worker=ROUTE``, the query parameter a proxy routes on) and reached another is sent to the one
running the table: a ``moved`` error and close code 4307 on the WebSocket (:mod:`~rummy.server.http.socket`),
a 307 over HTTP (:mod:`~rummy.server.http.tables`).  A client that reached the worker it named but
not the table's (no proxy routes on the parameter, or the table is being handed over) is served
where it is, linked to the owner through Redis, so no client is ever sent round in circles.
"""

from __future__ import annotations

from rummy.server.cluster.registry import TABLE_ID
from rummy.server.http.dependencies import Server


async def owner_elsewhere(server: Server, table_id: str, hint: str | None) -> str | None:
    """The route of the worker a client naming ``hint`` should be sent to for ``table_id``; None: serve
    it here (this worker runs it, or the client does not follow, or it reached the worker it named)."""
    placement = server.registry.placement
    if hint is None or placement is None or not TABLE_ID.match(table_id):
        return None
    worker = await server.registry.runs_at(table_id)
    if worker is None or worker == placement.me:
        return None
    route = await placement.route_of_live(worker)
    return None if route is None or route == hint else route


async def route_of_table(server: Server, table_id: str) -> str | None:
    """The route of the worker running ``table_id`` (or placed to); None off a cluster."""
    placement = server.registry.placement
    worker = await server.registry.runs_at(table_id)
    return await placement.route_of_live(worker) if placement is not None and worker is not None else None
