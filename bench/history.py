"""History benchmark: the first look at a player's history (every finished game replayed from its event
log and stored) against the next ones (stored rows read back).

Run: ``python bench/history.py [--games 20] [--db URL]``.  Writes ``--games`` finished games of random
play, variants in turn, to a fresh migrated SQLite file (or the given empty database) as a server writes
them, one player in seat 0 of each, then times ``History.games`` and ``History.stats`` cold and warm.
Prints seconds; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

from rummy.engine import Game
from rummy.search.playout import random_game
from rummy.server.events.log import game_events
from rummy.server.storage.commit import Commit
from rummy.server.storage.database import Database, migrate, normalize_db_url
from rummy.server.storage.history import History

VARIANTS = ("basic", "purchase", "may-i", "progressive-buy-it", "progressive-15")


def event_log(game: Game) -> list[tuple[int, str, dict[str, Any]]]:
    """The events a server writes for ``game`` (docs: rummy.server.events.log)."""
    return game_events(game, by="bot")


async def main(games: int, url: str) -> None:
    await migrate(url)
    db = Database(url)
    await db.start()
    me = "p-bench"
    events = 0
    try:
        for number in range(games):
            variant = VARIANTS[number % len(VARIANTS)]
            game = random_game(variant, 3, seed=number)
            table_id = secrets.token_urlsafe(6)
            seats = [{"seat": 0, "kind": "human", "player_id": me, "name": game.players[0], "level": None}]
            seats += [{"seat": i, "kind": "bot", "player_id": None, "name": game.players[i], "level": "easy"}
                      for i in (1, 2)]
            log = event_log(game)
            events += len(log)
            row = {"id": table_id, "variant": variant, "options": {}, "host": me, "status": "waiting",
                   "config": {"variant": variant, "seats": 3, "options": {}}}
            await db.commit(Commit(table_id, seats=seats, new_table=row))
            await db.commit(Commit(table_id, events=log, status="finished"))
        print(f"{games} finished games, {events} events")
        history = History(db)
        started = time.perf_counter()
        requests, slowest = 0, 0.0
        while True:
            asked = time.perf_counter()
            listed = await history.games(me, limit=100)
            requests += 1
            slowest = max(slowest, time.perf_counter() - asked)
            if not listed["pending"]:
                break
        elapsed = time.perf_counter() - started
        print(f"cold: {requests} requests to scan every table, {elapsed:.1f} s in all "
              f"({elapsed / events * 1e6:.0f} µs an event), the slowest request {slowest * 1000:.0f} ms")
        for label in ("warm: history", "warm: statistics"):
            started = time.perf_counter()
            answer = await (history.games(me, limit=100) if "history" in label else history.stats(me))
            print(f"{label:18s} {(time.perf_counter() - started) * 1000:8.1f} ms  (pending {answer['pending']})")
    finally:
        await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--db", help="an empty database URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        target = normalize_db_url(args.db or str(Path(folder) / "history.db"))
        asyncio.run(main(args.games, target))
