"""One table's writes that land together, as both database backends take them (:mod:`rummy.server.storage.database`,
:mod:`rummy.server.storage.sqlite_log`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Commit:
    """One table's writes that must land together: new events, and table or seat changes."""

    table_id: str
    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    status: str | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    new_table: dict[str, Any] | None = None
    #: The writer's fencing token (``rummy serve --redis``): the write is refused unless it is still the
    #: table's (:class:`rummy.server.storage.database.StaleOwnerError`); None on a single server.
    fence: int | None = None


class CommitOutcomeUnknown(ConnectionError):
    """The connection to the database was lost, or the server shut down, after a commit was sent: it
    may have been written or not.  The writer must read the log before its next write
    (:meth:`rummy.server.storage.database.Database.settle`); it is an outage to the clients."""
