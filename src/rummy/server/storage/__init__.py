"""The database: URLs, schema and Alembic migrations, the event-log writers (SQLite, PostgreSQL), game
history and identity-transfer codes."""
