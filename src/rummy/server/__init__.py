"""The game server of ``rummy serve``: HTTP lobby, WebSocket tables, event log in a database.

Modules: :mod:`~rummy.server.app` (the FastAPI app), :mod:`~rummy.server.tables` (one owner task per
table), :mod:`~rummy.server.registry` (every live table), :mod:`~rummy.server.db` (schema and the
event log), :mod:`~rummy.server.protocol` (message shapes, docs/protocol.md), :mod:`~rummy.server.describe`
(move-log sentences), :mod:`~rummy.server.serve` (the ``rummy serve`` and ``rummy migrate`` commands).

The engine never imports this package; it needs the ``server`` extra (``pip install 'rummy[server]'``).
"""
