"""Alembic environment of the rummy server.

``rummy migrate`` (:func:`rummy.server.storage.database.migrate`) runs Alembic on a connection it passes in
``config.attributes["connection"]``; run by the ``alembic`` command instead, this module opens the
URL given in ``config.attributes["url"]`` or the ``sqlalchemy.url`` option.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import Connection, pool
from sqlalchemy.ext.asyncio import create_async_engine

from rummy.server.storage.database import metadata, normalize_db_url


def _run_on(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def _run_online(url: str) -> None:
    engine = create_async_engine(url, poolclass=pool.NullPool)
    async with engine.begin() as connection:
        await connection.run_sync(_run_on)
    await engine.dispose()


def run_migrations() -> None:
    config = context.config
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url") or ""
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=metadata, literal_binds=True, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if connection is not None:
        _run_on(connection)
    else:
        asyncio.run(_run_online(normalize_db_url(url)))


# Alembic executes this file; a plain import (pytest collecting doctests) must do nothing.
if hasattr(context, "config"):
    run_migrations()
