"""The FastAPI application (:mod:`~rummy.server.http.app`): one ``APIRouter`` per concern and what they share.

Routers: :mod:`~rummy.server.http.pages` (the front end's pages), :mod:`~rummy.server.http.health`,
:mod:`~rummy.server.http.session`, :mod:`~rummy.server.http.catalog` (variants and bot levels),
:mod:`~rummy.server.http.tables`, :mod:`~rummy.server.http.arrange`, :mod:`~rummy.server.http.verify`
(fair deals), :mod:`~rummy.server.http.replay`, :mod:`~rummy.server.http.history`,
:mod:`~rummy.server.http.identity` (identity transfer) and :mod:`~rummy.server.http.socket` (the table
WebSocket).  Shared: :mod:`~rummy.server.http.dependencies` (the server's parts, the session),
:mod:`~rummy.server.http.bodies` (strict JSON bodies), :mod:`~rummy.server.http.models` (the Pydantic
bodies and answers of ``/openapi.json``), :mod:`~rummy.server.http.errors` and
:mod:`~rummy.server.http.guard` (headers, the cross-site check), :mod:`~rummy.server.http.request_deadline`.
"""
