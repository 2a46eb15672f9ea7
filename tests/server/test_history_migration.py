"""Migration ``0003`` on SQLite and PostgreSQL, and the history of games played before it.

A database is made at revision ``0002_owner_fence`` and given the event logs of finished games of every variant
(random play, several seeds), as a server of that version wrote them; after ``rummy migrate`` the
history computed from those logs equals what replaying each game's record gives.

PostgreSQL: ``RUMMY_TEST_POSTGRES_URL`` names a server to make a scratch database on; otherwise the
test starts a throwaway cluster with Debian's ``initdb``/``pg_ctl`` (as the ``postgres`` user when run
as root), and skips, saying why, when neither is possible.
"""

from __future__ import annotations

import asyncio
import glob
import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import make_url

from rummy.engine.game import Game
from rummy.record import dumps, record_of
from rummy.search.playout import random_game
from rummy.server.events.log import game_events
from rummy.server.storage.commit import Commit
from rummy.server.storage.database import MIGRATIONS_DIR, Database, migrate, normalize_db_url, schema_status
from rummy.server.storage.history import History
from tests.server.conftest import free_port
from tests.server.test_history import check_history, check_stats, expected_from_record

#: Games played before the migration: (variant, seats, seed).
OLD_GAMES = [("basic", 2, 1), ("basic", 3, 2), ("purchase", 3, 3), ("purchase", 4, 4), ("may-i", 3, 5),
             ("may-i", 4, 6), ("progressive-buy-it", 3, 7), ("progressive-15", 3, 8)]


def event_log(game: Game) -> list[tuple[int, str, dict[str, Any]]]:
    """The events a server writes for ``game`` (docs: rummy.server.events.log)."""
    return game_events(game, by="player")


def upgrade_to(url: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["url"] = url
    command.upgrade(config, revision)


def downgrade_to(url: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["url"] = url
    command.downgrade(config, revision)


async def write_old_games(url: str, me: str) -> dict[str, dict[str, Any]]:
    """Finished tables as revision 0001 held them, ``me`` in seat 0 of each; their expected results."""
    db = Database(url)
    await db.start()
    expected = {}
    try:
        for variant, seats, seed in OLD_GAMES:
            game = random_game(variant, seats, seed=seed)
            game.players = ["Me", *(f"Bot {i}" for i in range(1, seats))]
            table_id = secrets.token_urlsafe(6)
            rows = [{"seat": 0, "kind": "human", "player_id": me, "name": "Me", "level": None}]
            rows += [{"seat": i, "kind": "bot", "player_id": None, "name": f"Bot {i}", "level": "easy"}
                     for i in range(1, seats)]
            table = {"id": table_id, "variant": variant, "options": {}, "host": me, "status": "waiting",
                     "config": {"variant": variant, "seats": seats, "options": {}}}
            await db.commit(Commit(table_id, seats=rows, new_table=table))
            await db.commit(Commit(table_id, events=event_log(game), status="finished"))
            expected[table_id] = expected_from_record(dumps(record_of(game)))
    finally:
        await db.close()
    return expected


async def history_of(url: str, me: str) -> tuple[dict[str, Any], dict[str, Any], int]:
    """The history and statistics of ``me`` once every table is scanned, and how many requests answered
    with tables left to scan."""
    db = Database(url)
    await db.start()
    try:
        history = History(db, scan_budget=0)  # one table a request: the rest is left for the next
        calls = 0
        while (await history.games(me, limit=100))["pending"]:
            calls += 1
        games = await history.games(me, limit=100)
        stats = await history.stats(me)
        assert games["pending"] == stats["pending"] == 0 and await history.refresh(me) == 0
        return games, stats, calls
    finally:
        await db.close()


def old_games_count_after_the_migration(url: str) -> None:
    upgrade_to(url, "0002_owner_fence")
    assert asyncio.run(schema_status(url)).state == "outdated"
    me = "p-" + secrets.token_urlsafe(8)
    expected = asyncio.run(write_old_games(url, me))
    asyncio.run(migrate(url))
    assert asyncio.run(schema_status(url)).state == "current"
    games, stats, partial_answers = asyncio.run(history_of(url, me))
    check_history(games, expected, "Me")
    check_stats(stats, expected, "Me")
    assert partial_answers == len(OLD_GAMES) - 1  # one table a request, each scanned once
    nobody = ({"games": [], "total": 0, "pending": 0}, {"variants": [], "pending": 0})
    assert asyncio.run(history_of(url, "p-somebody-else"))[:2] == nobody
    downgrade_to(url, "0002_owner_fence")  # the way back works too, and up again
    assert asyncio.run(schema_status(url)).state == "outdated"
    asyncio.run(migrate(url))
    games_again, _, _ = asyncio.run(history_of(url, me))
    assert games_again == games


def test_migration_on_sqlite(tmp_path: Any) -> None:
    old_games_count_after_the_migration(normalize_db_url(str(tmp_path / "old.db")))


# -- PostgreSQL -------------------------------------------------------------------------------------


def _as_postgres(args: list[str]) -> list[str]:
    """``args`` run as the ``postgres`` user when this process is root (``initdb`` refuses root)."""
    if os.geteuid() != 0:
        return args
    runuser = shutil.which("runuser")
    if runuser is None:
        pytest.skip("running as root and there is no runuser to start PostgreSQL as the postgres user")
    return [runuser, "-u", "postgres", "--", *args]


@pytest.fixture(scope="module")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server URL (no database): RUMMY_TEST_POSTGRES_URL's, or a throwaway cluster."""
    given = os.environ.get("RUMMY_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not binaries:
        pytest.skip("no PostgreSQL server here: install postgresql or set RUMMY_TEST_POSTGRES_URL")
    bin_dir = os.path.dirname(binaries[-1])
    if os.geteuid() == 0:
        try:
            import pwd
            account = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user to run PostgreSQL as")
    work = tempfile.mkdtemp(prefix="rummy-pg-")
    if os.geteuid() == 0:
        os.chown(work, account.pw_uid, account.pw_gid)
    data, port = os.path.join(work, "data"), free_port()
    subprocess.run(_as_postgres([f"{bin_dir}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]),
                   check=True, capture_output=True, timeout=120)
    options = f"-p {port} -k {work} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(_as_postgres([f"{bin_dir}/pg_ctl", "-D", data, "-o", options, "-l", f"{work}/log", "-w",
                                 "start"]), check=True, capture_output=True, timeout=120)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres([f"{bin_dir}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"]),
                       capture_output=True, timeout=120)
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the PostgreSQL server, dropped afterwards."""
    import asyncpg

    server = make_url(postgres_server)
    name = "rummy_history_" + secrets.token_hex(4)
    plain = server.set(drivername="postgresql").render_as_string(hide_password=False)

    async def admin(sql: str) -> None:
        connection = await asyncpg.connect(plain)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield normalize_db_url(server.set(database=name).render_as_string(hide_password=False))
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def test_migration_on_postgres(postgres_url: str) -> None:
    old_games_count_after_the_migration(postgres_url)
