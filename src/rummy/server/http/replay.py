"""The replay viewer's routes: the page, a finished table's replay and the replay of an uploaded record.

* ``GET /replay`` and ``GET /replay/{table_id}`` serve the front end (``replay.js`` draws the viewer).
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
from typing import Any, Protocol

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.requests import ClientDisconnect

from rummy.engine import Game, RecordError
from rummy.record import Record, from_data, record_of
from rummy.server.events.replay_frames import ReplayLimits, ReplayRefused, build_replay
from rummy.server.http.guard import address_key, error_response
from rummy.server.settings import ServerSettings
from rummy.server.strict_json import StrictJSONError, loads

CACHED_REPLAYS = 64
#: A game played on this server is replayed whatever its length (the limits are for uploaded records).
TABLE_GAME = ReplayLimits(max_actions=sys.maxsize, max_rounds=sys.maxsize)
MAX_WAITING = 8  # replays queued behind the one being worked out; past that the server is busy
STATUS = {"bad-record": 400, "bad-seat": 400, "bad-game": 400, "no-such-game": 404, "too-large": 413,
          "unsupported-media-type": 415, "rate-limited": 429, "busy": 503}


class ReplayTable(Protocol):
    """What a replay reads of a table (:class:`rummy.server.tables.table.Table`)."""

    game: Game | None
    game_number: int


#: ``(request, table_id, number)`` → game ``number`` of the table as it ended, or None (no such finished game).
EarlierGame = Callable[[Request, str, int], Awaitable[Game | None]]


class TableSource(Protocol):
    """Where the tables come from (:class:`rummy.server.cluster.registry.TableRegistry`)."""

    async def get(self, table_id: str) -> Any: ...


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


def _game_number(request: Request, latest: int) -> int:
    """The ``game`` asked for (``?game=N``, 1 for a table's first game; the latest when not given)."""
    text = request.query_params.get("game")
    if text is None or text == "":
        return latest
    if not text.isdecimal() or len(text) > 9 or not 1 <= int(text) <= latest:
        raise ReplayRefused("bad-game", f"game must be a number from 1 to {latest}, not {text[:20]!r}")
    return int(text)


def _seat(request: Request) -> int | None:
    text = request.query_params.get("seat")
    if text is None or text in ("", "all"):
        return None
    if not text.isdecimal() or len(text) > 3:
        raise ReplayRefused("bad-seat", f"seat must be a seat number (0, 1, …) or 'all', not {text[:20]!r}")
    return int(text)


async def _record_body(request: Request, limit: int) -> Record:
    """The uploaded record: JSON at most ``limit`` bytes, strict (no key twice, no number past ±2**53,
    no lone surrogate), then checked by the record format."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise ReplayRefused("unsupported-media-type",
                            f"send the record as Content-Type: application/json, not {media_type or 'none'!r}")
    too_large = ReplayRefused("too-large", f"the record is larger than {limit} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > limit:
        raise too_large
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise too_large
    except ClientDisconnect:
        raise ReplayRefused("bad-record", "the client went away before sending the record") from None
    if not body:
        raise ReplayRefused("bad-record", "the body is empty: send a rummy-record/1 file")
    try:
        data = loads(bytes(body))
    except StrictJSONError as error:
        raise ReplayRefused("bad-record", f"the record is not accepted: {error}") from None
    try:
        return from_data(data)
    except RecordError as error:
        raise ReplayRefused("bad-record", str(error)) from None


def add_replay_routes(app: FastAPI, *, front_end: Callable[[], Response], tables: Callable[[Request], TableSource],
                      earlier_game: EarlierGame, settings: ServerSettings) -> None:
    """Add the viewer's page and API routes to ``app``; ``tables(request)`` gives the server's tables and
    ``earlier_game(request, table_id, number)`` a game the table finished before its latest one."""
    replays = Replays(settings)

    @app.exception_handler(ReplayRefused)
    async def refused(request: Request, exc: ReplayRefused) -> Response:
        headers = {"Retry-After": "2"} if exc.code in ("rate-limited", "busy") else None
        return error_response(STATUS.get(exc.code, 400), exc.code, exc.message, headers)

    @app.get("/replay", include_in_schema=False)
    async def upload_page() -> Response:
        return front_end()

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def table_replay_page(table_id: str) -> Response:
        return front_end()

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(request: Request, table_id: str) -> Response:
        seat = _seat(request)
        table: ReplayTable | None = await tables(request).get(table_id)
        if table is None:
            return error_response(404, "not-found", f"there is no table {table_id!r}")
        if table.game is None:
            return error_response(404, "not-started", "no game has been played at this table yet")
        number = _game_number(request, table.game_number)
        if number < table.game_number:  # an earlier game of a table played again: over, read from the log
            async def earlier_record() -> Record:
                earlier = await earlier_game(request, table_id, number)
                if earlier is None:
                    raise ReplayRefused("no-such-game", f"table {table_id!r} finished no game {number}")
                return record_of(earlier)

            return _json_answer(request, await replays.of_table(request, table_id, number, earlier_record, seat))
        game = table.game
        if not game.game_over:
            # A live game's record holds every hand, the stock and the deal seed: never served.
            return error_response(409, "game-in-progress", "the replay is available once the game is over")

        async def latest_record() -> Record:
            return record_of(game)

        return _json_answer(request, await replays.of_table(request, table_id, table.game_number, latest_record,
                                                            seat))

    @app.post("/api/replays")
    async def uploaded_replay(request: Request) -> Response:
        seat = _seat(request)
        record = await _record_body(request, settings.max_record_bytes)
        return _json_answer(request, await replays.build(request, record, seat))
