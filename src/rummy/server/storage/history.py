"""A player's finished games and statistics per variant, kept in the database beside the event log.

The rows of :mod:`rummy.server.storage.history_schema` are computed lazily: when a player's history is asked
for, every table where the player has a seat and whose row changed since it was last scanned (a
table's ``updated_at`` moves exactly when a game starts or ends) has its event log replayed
(:func:`rummy.server.events.game_results.finished_games`, in a worker thread) and its newly finished games
written.  So games played before the history existed count as soon as someone looks, a finished
game is replayed once, and a game still being played is never read (only the events before its
``start`` are loaded).  One request replays for at most :data:`SCAN_BUDGET_SECONDS` and says how
many tables it left (``pending``) for the next.  Two servers scanning the same table at once write
the same rows; the second write is dropped.

Only finished games are ever listed, and only to a player who had a seat in them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from rummy.engine import get_variant, scoring_rule
from rummy.server.events.game_results import GameResult, finished_games
from rummy.server.storage.database import EVENTS, SEATS, TABLES, Database
from rummy.server.storage.history_schema import FINISHED_GAME_SEATS, FINISHED_GAMES, HISTORY_SCANS
from rummy.server.storage.side_writes import SideWriter
from rummy.text.house_rule_docs import RULE_DOCS, value_words

log = logging.getLogger("rummy.server")

MAX_PAGE = 100
#: How long one request may spend replaying event logs before it answers with what is stored (the rest
#: is scanned by the next requests); replaying costs about 0.2 ms an event.
SCAN_BUDGET_SECONDS = 2.0


def replay_url(table_id: str, game: int) -> str:
    """Where the replay viewer shows game ``game`` of a table."""
    return f"/replay/{table_id}?game={game}"


def house_rules_in_words(options: dict[str, Any]) -> list[dict[str, Any]]:
    """A table's house-rule changes as ``{"key", "label", "value"}`` (the value in words)."""
    rows = []
    for key, value in sorted(options.items()):
        doc = RULE_DOCS.get(key)
        rows.append({"key": key, "label": doc.label if doc else key,
                     "value": value_words(key, value) if doc else str(value)})
    return rows


def variant_words(variant_id: str) -> tuple[str, str]:
    """A variant's name and what its final score counts (``penalty points, lower is better``)."""
    try:
        rules = get_variant(variant_id)
    except Exception:  # noqa: BLE001 - a variant this version no longer knows keeps its id as its name
        return variant_id, "points"
    return rules.name, scoring_rule(rules).score_meaning


@dataclass(frozen=True)
class _TableToScan:
    table_id: str
    variant: str
    options: dict[str, Any]
    status: str
    updated_at: datetime
    games_stored: int


class History:
    """Reads and lazily fills the history tables of one database."""

    def __init__(self, db: Database, *, scan_budget: float = SCAN_BUDGET_SECONDS) -> None:
        self.db = db
        self.scan_budget = scan_budget
        self.writer = SideWriter(db)
        self._locks: dict[str, asyncio.Lock] = {}

    # -- filling ------------------------------------------------------------------------------

    async def refresh(self, player_id: str) -> int:
        """Scan the tables of ``player_id`` that changed since their last scan, for about
        :attr:`scan_budget` seconds (at least one table); returns how many are left for the next call."""
        lock = self._locks.setdefault(player_id, asyncio.Lock())
        try:
            async with lock:  # one scan at a time per player in this process
                stale = await self._stale_tables(player_id)
                started = time.monotonic()
                for done, table in enumerate(stale):
                    if done and time.monotonic() - started > self.scan_budget:
                        return len(stale) - done
                    await self._scan(table)
                return 0
        finally:
            if not lock.locked():
                self._locks.pop(player_id, None)

    async def _stale_tables(self, player_id: str) -> list[_TableToScan]:
        query = (
            select(TABLES.c.id, TABLES.c.variant, TABLES.c.options, TABLES.c.status, TABLES.c.updated_at,
                   HISTORY_SCANS.c.games, HISTORY_SCANS.c.table_updated_at)
            .join(SEATS, SEATS.c.table_id == TABLES.c.id)
            .outerjoin(HISTORY_SCANS, HISTORY_SCANS.c.table_id == TABLES.c.id)
            .where(SEATS.c.player_id == player_id)
            .order_by(TABLES.c.created_at)
        )
        async with self.db.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        stale: dict[str, _TableToScan] = {}
        for table_id, variant, options, status, updated_at, games, scanned in rows:
            if not _same_instant(scanned, updated_at):
                stale[table_id] = _TableToScan(table_id, variant, dict(options or {}), status, updated_at, games or 0)
        return list(stale.values())

    async def _scan(self, table: _TableToScan) -> None:
        events = await self._finished_part_of_log(table)
        error: str | None = None
        results: list[tuple[GameResult, datetime]] = []
        if events:
            stamps = {seq: created for seq, _, _, created in events}
            try:
                rules = get_variant(table.variant, table.options)
                found = await asyncio.to_thread(list, finished_games(rules, [e[:3] for e in events]))
                results = [(result, stamps[result.end_seq]) for result in found]
            except Exception as failure:  # noqa: BLE001 - a log that does not replay is reported, not fatal
                log.warning("table %s: its event log does not replay for the history: %s", table.table_id, failure)
                error = str(failure)[:200]
        await self._store(table, results, error)

    async def _finished_part_of_log(self, table: _TableToScan) -> list[tuple[int, str, dict[str, Any], datetime]]:
        """The table's events from the first game not stored yet to the end of its last finished game (a
        game stored already is not read again, a game in play never)."""
        query = select(EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.payload, EVENTS.c.created_at).where(
            EVENTS.c.table_id == table.table_id, EVENTS.c.kind != "join")
        async with self.db.engine.connect() as connection:
            starts = list((await connection.execute(select(EVENTS.c.seq).where(
                EVENTS.c.table_id == table.table_id, EVENTS.c.kind == "start").order_by(EVENTS.c.seq))).scalars())
            finished = len(starts) if table.status == "finished" else len(starts) - 1
            if finished <= table.games_stored:
                return []
            query = query.where(EVENTS.c.seq >= starts[table.games_stored])
            if finished < len(starts):
                query = query.where(EVENTS.c.seq < starts[finished])
            rows = await connection.execute(query.order_by(EVENTS.c.seq))
            return [(seq, kind, payload, created) for seq, kind, payload, created in rows]

    async def _store(self, table: _TableToScan, results: list[tuple[GameResult, datetime]], error: str | None) -> None:
        def write(connection: Connection) -> None:
            known = set(connection.execute(select(FINISHED_GAMES.c.game).where(
                FINISHED_GAMES.c.table_id == table.table_id)).scalars())
            seats = {row.seat: row for row in connection.execute(
                select(SEATS.c.seat, SEATS.c.player_id, SEATS.c.kind).where(SEATS.c.table_id == table.table_id))}
            new = [(result, finished_at) for result, finished_at in results if result.game not in known]
            if new:
                connection.execute(insert(FINISHED_GAMES), [
                    {"table_id": table.table_id, "game": r.game, "variant": r.variant, "options": table.options,
                     "players": r.players, "higher_is_better": r.higher_is_better, "rounds": r.rounds,
                     "finished_at": finished_at} for r, finished_at in new])
                connection.execute(insert(FINISHED_GAME_SEATS), [
                    {"table_id": table.table_id, "game": r.game, "seat": s.seat, "name": s.name,
                     "player_id": seats[s.seat].player_id if s.seat in seats else None,
                     "kind": seats[s.seat].kind if s.seat in seats else "human",
                     "score": s.score, "won": s.won, "rounds_out": s.rounds_out, "buys": s.buys,
                     "moves": s.moves, "computer_moves": s.computer_moves}
                    for r, _ in new for s in r.seats])
            connection.execute(delete(HISTORY_SCANS).where(HISTORY_SCANS.c.table_id == table.table_id))
            connection.execute(insert(HISTORY_SCANS).values(
                table_id=table.table_id, games=len(known) + len(new), error=error, table_updated_at=table.updated_at))

        try:
            await self.writer.run(write)
        except IntegrityError:  # another server (PostgreSQL) stored the same rows first
            log.info("table %s: another server stored its history first", table.table_id)

    # -- reading ------------------------------------------------------------------------------

    async def games(self, player_id: str, *, limit: int = 50, offset: int = 0) -> dict[str, Any]:
        """The finished games of ``player_id``, newest first: ``{"games": [...], "total": N, "pending": P}``
        (``pending``: tables not scanned yet, whose games are missing)."""
        pending = await self.refresh(player_id)
        mine = (select(FINISHED_GAME_SEATS.c.table_id, FINISHED_GAME_SEATS.c.game, FINISHED_GAME_SEATS.c.seat)
                .where(FINISHED_GAME_SEATS.c.player_id == player_id))
        async with self.db.engine.connect() as connection:
            total = await connection.scalar(select(func.count()).select_from(mine.subquery()))
            page = mine.subquery()
            rows = (await connection.execute(
                select(FINISHED_GAMES, page.c.seat)
                .join(page, (page.c.table_id == FINISHED_GAMES.c.table_id) & (page.c.game == FINISHED_GAMES.c.game))
                .order_by(FINISHED_GAMES.c.finished_at.desc(), FINISHED_GAMES.c.table_id, FINISHED_GAMES.c.game.desc())
                .limit(max(1, min(limit, MAX_PAGE))).offset(max(0, offset))
            )).mappings().all()
            keys = [(row["table_id"], row["game"]) for row in rows]
            seats: dict[tuple[str, int], list[Any]] = defaultdict(list)
            if keys:
                table_ids = {table_id for table_id, _ in keys}
                for seat in (await connection.execute(
                        select(FINISHED_GAME_SEATS).where(FINISHED_GAME_SEATS.c.table_id.in_(table_ids))
                        .order_by(FINISHED_GAME_SEATS.c.seat))).mappings():
                    seats[(seat["table_id"], seat["game"])].append(seat)
        return {"games": [_game_json(row, seats[(row["table_id"], row["game"])]) for row in rows],
                "total": int(total or 0), "pending": pending}

    async def stats(self, player_id: str) -> dict[str, Any]:
        """Per variant: games played and won, average final score, rounds gone out, buys made, best game."""
        pending = await self.refresh(player_id)
        query = (
            select(FINISHED_GAMES.c.table_id, FINISHED_GAMES.c.game, FINISHED_GAMES.c.variant,
                   FINISHED_GAMES.c.higher_is_better, FINISHED_GAMES.c.finished_at, FINISHED_GAME_SEATS.c.score,
                   FINISHED_GAME_SEATS.c.won, FINISHED_GAME_SEATS.c.rounds_out, FINISHED_GAME_SEATS.c.buys,
                   FINISHED_GAME_SEATS.c.moves, FINISHED_GAME_SEATS.c.computer_moves)
            .join(FINISHED_GAME_SEATS, (FINISHED_GAME_SEATS.c.table_id == FINISHED_GAMES.c.table_id)
                  & (FINISHED_GAME_SEATS.c.game == FINISHED_GAMES.c.game))
            .where(FINISHED_GAME_SEATS.c.player_id == player_id)
            .order_by(FINISHED_GAMES.c.finished_at)
        )
        async with self.db.engine.connect() as connection:
            rows = (await connection.execute(query)).mappings().all()
        return {"variants": variant_stats(rows), "pending": pending}


def by_computer(seat: Any) -> bool:
    """The computer made most of the seat's moves for its person (who had dropped out, or whose turn timer
    ran out): the game is marked so and left out of the person's statistics (docs/history.md)."""
    moves, computer = seat.get("moves"), seat.get("computer_moves")
    return bool(moves) and (computer or 0) * 2 > moves


def variant_stats(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """Aggregate a player's seat rows (oldest first) per variant; the best game is the best final score
    in the variant's direction, the latest of equals.  Games the computer mostly played for the player
    count only as ``computer_games``: none of the figures, nor the best game, is theirs."""
    by_variant: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        by_variant[row["variant"]].append(row)
    stats = []
    for variant, rows_of_variant in sorted(by_variant.items()):
        name, meaning = variant_words(variant)
        higher = bool(rows_of_variant[0]["higher_is_better"])
        games = [g for g in rows_of_variant if not by_computer(g)]
        best = max(games, key=lambda g: (g["score"] if higher else -g["score"], g["finished_at"])) if games else None
        buys = [g["buys"] for g in games if g["buys"] is not None]
        stats.append({
            "variant": variant,
            "variant_name": name,
            "score_meaning": meaning,
            "higher_is_better": higher,
            "games": len(games),
            "won": sum(1 for g in games if g["won"]),
            "average_score": round(sum(g["score"] for g in games) / len(games), 2) if games else None,
            "rounds_out": sum(g["rounds_out"] for g in games),
            "buys": sum(buys) if buys else None,
            "best_game": {"table_id": best["table_id"], "game": best["game"], "score": best["score"],
                          "finished_at": _iso(best["finished_at"]),
                          "replay_url": replay_url(best["table_id"], best["game"])} if best is not None else None,
            "computer_games": len(rows_of_variant) - len(games),
        })
    return stats


def _game_json(row: Any, seats: list[Any]) -> dict[str, Any]:
    name, meaning = variant_words(row["variant"])
    return {
        "table_id": row["table_id"],
        "game": row["game"],
        "variant": row["variant"],
        "variant_name": name,
        "finished_at": _iso(row["finished_at"]),
        "rounds": row["rounds"],
        "house_rules": house_rules_in_words(dict(row["options"] or {})),
        "score_meaning": meaning,
        "higher_is_better": bool(row["higher_is_better"]),
        "your_seat": row["seat"],
        "players": [{"seat": s["seat"], "name": s["name"], "kind": s["kind"], "score": s["score"],
                     "won": bool(s["won"]), "rounds_out": s["rounds_out"], "buys": s["buys"],
                     "by_computer": by_computer(s), "you": s["seat"] == row["seat"]} for s in seats],
        "winners": [s["name"] for s in seats if s["won"]],
        "replay_url": replay_url(row["table_id"], row["game"]),
    }


def _same_instant(a: datetime | None, b: datetime | None) -> bool:
    if a is None or b is None:
        return a is b
    if (a.tzinfo is None) != (b.tzinfo is None):
        a, b = a.replace(tzinfo=None), b.replace(tzinfo=None)
    return a == b


def _iso(moment: datetime) -> str:
    """An ISO 8601 instant in UTC (SQLite hands back naive UTC datetimes)."""
    text = moment.isoformat(timespec="seconds")
    return text if moment.tzinfo is not None else text + "+00:00"
