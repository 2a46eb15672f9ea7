"""Moves the computer made for a person: ``finished_game_seats.moves`` and ``.computer_moves``.

A seat's row says how many of its actions the game had and how many of them the computer made for its
person (after they dropped out, or when their turn timer ran out), so a game the computer mostly played
is marked as such and left out of the person's statistics (docs/history.md).  The stored history is
forgotten (its rows and scans deleted, never an event): it is computed again from the event logs, with
the new counts, the next time each player looks, as after migration ``0003``.

Revision ID: 0004_computer_moves
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_computer_moves"
down_revision = "0003"
branch_labels = None
depends_on = None


def _forget_history() -> None:
    op.execute("DELETE FROM finished_game_seats")
    op.execute("DELETE FROM finished_games")
    op.execute("DELETE FROM history_scans")


def upgrade() -> None:
    _forget_history()
    with op.batch_alter_table("finished_game_seats") as batch:
        batch.add_column(sa.Column("moves", sa.Integer, nullable=True))
        batch.add_column(sa.Column("computer_moves", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("finished_game_seats") as batch:
        batch.drop_column("computer_moves")
        batch.drop_column("moves")
    _forget_history()
