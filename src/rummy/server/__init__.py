"""The game server of ``rummy serve``: HTTP lobby, WebSocket tables, event log in a database.

Subpackages, each importing only those listed below it:

* :mod:`~rummy.server.http` — the FastAPI app (:mod:`~rummy.server.http.app`), its routers, the guard;
* :mod:`~rummy.server.cluster` — the registry of live tables and, with ``--redis``, the cluster;
* :mod:`~rummy.server.tables` — one owner task per table (:mod:`~rummy.server.tables.table`), its
  protocol (docs/protocol.md), clock, bots and the messages it sends;
* :mod:`~rummy.server.storage` — schema, migrations, the event-log writers, history;
* :mod:`~rummy.server.events` — what the events mean: rebuilding a game, move-log sentences, fair deals.

Beside them: :mod:`~rummy.server.serve` (the ``rummy serve`` and ``rummy migrate`` commands),
:mod:`~rummy.server.flags`, and what every layer shares: :mod:`~rummy.server.settings`,
:mod:`~rummy.server.sessions`, :mod:`~rummy.server.limits`, :mod:`~rummy.server.strict_json`,
:mod:`~rummy.server.gc_pauses`.  The front end is ``static/``.

The engine never imports this package; it needs the ``server`` extra (``pip install 'rummy[server]'``).
"""
