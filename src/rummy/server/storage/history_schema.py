"""The tables of game history and identity transfer (migration ``0003``), beside the event log's.

``finished_games`` holds one row per finished game (a table plays several when its host plays
again), ``finished_game_seats`` one row per seat of it: who sat there, the final score, whether the
seat won, the rounds it went out, the buys it made and how many of its moves the computer made for its
person (migration ``0004``).  Both are computed from the event log
(:mod:`rummy.server.storage.history`); ``history_scans`` says, per table, at which change of the table (its
``updated_at``, which moves whenever a game starts or ends) they were computed.  ``identity_codes``
holds the one-time codes that carry a player's identity to another browser
(:mod:`rummy.server.storage.identity_codes`): only a hash of each code is stored.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, DateTime, ForeignKeyConstraint, Integer, String, Table

from rummy.server.storage.database import metadata

FINISHED_GAMES = Table(
    "finished_games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", Integer, primary_key=True, autoincrement=False),
    Column("variant", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    Column("players", JSON, nullable=False),
    Column("higher_is_better", Boolean, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
)

FINISHED_GAME_SEATS = Table(
    "finished_game_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player_id", String(64), nullable=True, index=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("score", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("rounds_out", Integer, nullable=False),
    Column("buys", Integer, nullable=True),
    Column("moves", Integer, nullable=True),  # migration 0004: the seat's actions in the game
    Column("computer_moves", Integer, nullable=True),  # of them, made by the computer for its person
    ForeignKeyConstraint(["table_id", "game"], ["finished_games.table_id", "finished_games.game"],
                         ondelete="CASCADE"),
)

HISTORY_SCANS = Table(
    "history_scans",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("games", Integer, nullable=False),
    Column("error", String(200), nullable=True),
    Column("table_updated_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
)

IDENTITY_CODES = Table(
    "identity_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("player_id", String(64), nullable=False, index=True),
    Column("name", String(64), nullable=False),
    Column("status", String(8), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True), nullable=True),
)
