"""The replay viewer's API: a finished table's replay and the replay of an uploaded record (the
viewer's pages, ``/replay`` and ``/replay/{table_id}``, are :mod:`rummy.server.http.pages`).

* ``GET /api/tables/{table_id}/replay[?seat=N]`` replays the table's game once it is over (a live
  game's record holds every hand, the stock and the seed: ``409 game-in-progress``, as the record
  download answers).  Finished games never change, so the answer is kept (a small LRU).
* ``POST /api/replays[?seat=N]`` replays the ``rummy-record/1`` file sent as the body
  (``Content-Type: application/json``, at most ``max_record_bytes``, strict JSON).  A malformed record
  is ``400 bad-record`` with the engine's sentence; an illegal action is not an error: the replay stops
  there (``stopped``).

Without ``seat`` every hand is face up; with it, the frames hold what that seat saw and no other hand.
A replay is worked out in a thread, one at a time per process, each one charged to the client's
address (``replays_per_minute``, ``replay_burst``: ``429 rate-limited``); answers are sent gzipped to
clients that accept it.  The frames are built by :mod:`rummy.server.events.replay_frames`.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Annotated, Protocol

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from rummy.engine import Game, RecordError, get_variant
from rummy.record import Record, from_data, record_of
from rummy.server.events.game_results import game_of_log
from rummy.server.events.replay_frames import ReplayLimits, ReplayRefused, build_replay
from rummy.server.http.bodies import body_schema, read_limited
from rummy.server.http.dependencies import ServerParts
from rummy.server.http.guard import address_key, error_response
from rummy.server.http.models import RecordFile, errors, json_file
from rummy.server.settings import ServerSettings
from rummy.server.strict_json import StrictJSONError, loads

CACHED_REPLAYS = 64
#: A game played on this server is replayed whatever its length (the limits are for uploaded records).
TABLE_GAME = ReplayLimits(max_actions=sys.maxsize, max_rounds=sys.maxsize)
MAX_WAITING = 8  # replays queued behind the one being worked out; past that the server is busy


class ReplayTable(Protocol):
    """What a replay reads of a table (:class:`rummy.server.tables.table.Table`)."""

    game: Game | None
    game_number: int


class ReplayRate:
    """A token bucket per client address: ``per_minute`` replays, bursts of ``burst``.

    >>> rate = ReplayRate(per_minute=60, burst=2)
    >>> [rate.allow("192.0.2.1", now=0.0) for _ in range(3)], rate.allow("192.0.2.1", now=1.0)
    ([True, True, False], True)
    """

    def __init__(self, per_minute: float, burst: int) -> None:
        self.per_second = per_minute / 60
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}  # address → (tokens, when)

    def allow(self, address: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if len(self._buckets) > 10_000:  # forget full buckets: they hold nothing a new one would not
            self._buckets = {key: (tokens, when) for key, (tokens, when) in self._buckets.items()
                             if tokens + (now - when) * self.per_second < self.burst}
        tokens, when = self._buckets.get(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.per_second)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        self._buckets[address] = (tokens - 1, now)
        return True


class Replays:
    """The replays of one server process: the rate, the one-at-a-time worker and the cache."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.limits = ReplayLimits(settings.max_replay_actions, settings.max_replay_rounds)
        self.rate = ReplayRate(settings.replays_per_minute, settings.replay_burst)
        self._worker = asyncio.Semaphore(1)
        self._waiting = 0
        self._cache: OrderedDict[tuple[str, int, int | None], bytes] = OrderedDict()
        self._building: dict[tuple[str, int, int | None], asyncio.Future[bytes]] = {}

    async def build(self, request: Request, record: Record, seat: int | None,
                    limits: ReplayLimits | None = None) -> bytes:
        """The gzipped JSON of the replay, worked out in a thread (raises :class:`ReplayRefused`); an
        uploaded record is held to ``limits`` (the server's by default)."""
        if not self.rate.allow(address_key(request.client.host if request.client else None)):
            raise ReplayRefused("rate-limited", "too many replays from this address: wait a little")
        if self._waiting >= MAX_WAITING:
            raise ReplayRefused("busy", "the server is working out other replays: try again in a moment")
        self._waiting += 1
        try:
            async with self._worker:
                return await asyncio.to_thread(self._encode, record, seat, limits or self.limits)
        finally:
            self._waiting -= 1

    def _encode(self, record: Record, seat: int | None, limits: ReplayLimits) -> bytes:
        data = build_replay(record, seat, limits)
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return gzip.compress(text.encode("utf-8"), compresslevel=6)

    async def of_table(self, request: Request, table_id: str, game_number: int,
                       record: Callable[[], Awaitable[Record]], seat: int | None) -> bytes:
        """A finished table's replay: kept once worked out, and worked out once for everyone who asks
        while it is being worked out (everyone at a table opens it when the game ends); ``record()`` is
        called only when the replay is not kept already."""
        key = (table_id, game_number, seat)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        if key in self._building:
            return await asyncio.shield(self._building[key])
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._building[key] = future
        try:
            body = await self.build(request, await record(), seat, TABLE_GAME)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as error:
            future.set_exception(error)
            future.exception()  # retrieved: nobody else may be waiting for it
            raise
        finally:
            del self._building[key]
        future.set_result(body)
        self._cache[key] = body
        while len(self._cache) > CACHED_REPLAYS:
            self._cache.popitem(last=False)
        return body


def _json_answer(request: Request, gzipped: bytes) -> Response:
    """The replay, gzipped for a client that accepts it (every browser), else as plain JSON."""
    accepts = request.headers.get("accept-encoding", "")
    if "gzip" in accepts.lower():
        return Response(gzipped, media_type="application/json",
                        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return Response(gzip.decompress(gzipped), media_type="application/json", headers={"Vary": "Accept-Encoding"})


def _game_number(text: str | None, latest: int) -> int:
    """The ``game`` asked for (``?game=N``, 1 for a table's first game; the latest when not given)."""
    if text is None or text == "":
        return latest
    if not text.isdecimal() or len(text) > 9 or not 1 <= int(text) <= latest:
        raise ReplayRefused("bad-game", f"game must be a number from 1 to {latest}, not {text[:20]!r}")
    return int(text)


def _seat(text: str | None) -> int | None:
    if text is None or text in ("", "all"):
        return None
    if not text.isdecimal() or len(text) > 3:
        raise ReplayRefused("bad-seat", f"seat must be a seat number (0, 1, …) or 'all', not {text[:20]!r}")
    return int(text)


async def _record_body(request: Request, limit: int) -> Record:
    """The uploaded record: JSON at most ``limit`` bytes, strict (no key twice, no number past ±2**53,
    no lone surrogate), then checked by the record format."""
    body = await read_limited(request, limit, ReplayRefused, what="the record", went_away="bad-record")
    if not body:
        raise ReplayRefused("bad-record", "the body is empty: send a rummy-record/1 file")
    try:
        data = loads(body)
    except StrictJSONError as error:
        raise ReplayRefused("bad-record", f"the record is not accepted: {error}") from None
    try:
        return from_data(data)
    except RecordError as error:
        raise ReplayRefused("bad-record", str(error)) from None


def replays_of(request: Request) -> Replays:
    """The replays of this application (made with it: :func:`rummy.server.http.app.create_app`)."""
    replays: Replays = request.app.state.replays
    return replays


ReplayService = Annotated[Replays, Depends(replays_of)]
SeatQuery = Annotated[str | None, Query(description="a seat number for that seat's view; every hand face up "
                                                     "when left out (or 'all')")]
REPLAY = json_file("the replay: the record's header and one frame per step (docs/replay-viewer.md), gzipped "
                   "for a client that accepts it")
router = APIRouter(tags=["replay"])


async def earlier_game(server: ServerParts, table_id: str, number: int) -> Game | None:
    """Game ``number`` of a table as its event log ends it (for the replay of a table played again)."""
    stored = await server.db.load_table(table_id)
    if stored is None:
        return None
    rules = get_variant(stored.row["variant"], dict(stored.row["options"] or {}))
    return await asyncio.to_thread(game_of_log, rules, stored.events, number)


@router.get("/api/tables/{table_id}/replay", responses={**REPLAY, **errors(400, 404, 409, 429, 503)})
async def table_replay(request: Request, server: ServerParts, replays: ReplayService, table_id: str,
                       seat: SeatQuery = None,
                       game: Annotated[str | None, Query(description="1 for the table's first game; the latest "
                                                                      "when left out")] = None) -> Response:
    seen_by = _seat(seat)
    table: ReplayTable | None = await server.registry.get(table_id)
    if table is None:
        return error_response(404, "not-found", f"there is no table {table_id!r}")
    if table.game is None:
        return error_response(404, "not-started", "no game has been played at this table yet")
    number = _game_number(game, table.game_number)
    if number < table.game_number:  # an earlier game of a table played again: over, read from the log
        async def earlier_record() -> Record:
            earlier = await earlier_game(server, table_id, number)
            if earlier is None:
                raise ReplayRefused("no-such-game", f"table {table_id!r} finished no game {number}")
            return record_of(earlier)

        return _json_answer(request, await replays.of_table(request, table_id, number, earlier_record, seen_by))
    latest = table.game
    if not latest.game_over:
        # A live game's record holds every hand, the stock and the deal seed: never served.
        return error_response(409, "game-in-progress", "the replay is available once the game is over")

    async def latest_record() -> Record:
        return record_of(latest)

    return _json_answer(request, await replays.of_table(request, table_id, table.game_number, latest_record,
                                                        seen_by))


@router.post("/api/replays", responses={**REPLAY, **errors(400, 413, 415, 429, 503)},
             openapi_extra=body_schema(RecordFile, "a rummy-record/1 file (at most max_record_bytes)"))
async def uploaded_replay(request: Request, server: ServerParts, replays: ReplayService,
                          seat: SeatQuery = None) -> Response:
    seen_by = _seat(seat)
    record = await _record_body(request, server.settings.max_record_bytes)
    return _json_answer(request, await replays.build(request, record, seen_by))
