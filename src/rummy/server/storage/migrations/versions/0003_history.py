"""Game history and identity transfer: finished games and their seats, scans, one-time identity codes.

The history rows are not back-filled here: :mod:`rummy.server.storage.history` computes a table's finished
games from its event log the first time a player's history is asked for, so games played before this
migration count as soon as someone looks (docs/history.md).

Revision ID: 0003
Revises: 0002_owner_fence
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002_owner_fence"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "finished_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("higher_is_better", sa.Boolean, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
    )
    op.create_table(
        "finished_game_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("rounds_out", sa.Integer, nullable=False),
        sa.Column("buys", sa.Integer, nullable=True),
        sa.ForeignKeyConstraint(["table_id", "game"], ["finished_games.table_id", "finished_games.game"],
                                ondelete="CASCADE"),
    )
    op.create_index("ix_finished_game_seats_player_id", "finished_game_seats", ["player_id"])
    op.create_table(
        "history_scans",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("error", sa.String(200), nullable=True),
        sa.Column("table_updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
    )
    op.create_table(
        "identity_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_identity_codes_player_id", "identity_codes", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_identity_codes_player_id", table_name="identity_codes")
    op.drop_table("identity_codes")
    op.drop_table("history_scans")
    op.drop_index("ix_finished_game_seats_player_id", table_name="finished_game_seats")
    op.drop_table("finished_game_seats")
    op.drop_table("finished_games")
