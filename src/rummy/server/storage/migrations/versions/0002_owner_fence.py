"""Fencing tokens of table owners: ``tables.fence`` (the current owner's token) and ``events.fence``
(the token of the owner that wrote each event).

A server that takes a table over (``rummy serve --redis``) raises the table's fence before reading its
log; a write made with an older token is refused, so a stalled former owner can never add an event
after the new owner read the log.

Revision ID: 0002_owner_fence
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_owner_fence"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("fence", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("fence", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("fence")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("fence")
