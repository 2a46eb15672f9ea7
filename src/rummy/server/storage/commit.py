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
