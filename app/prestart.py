"""Run once before the server starts (`make run`, the Docker image): migrate the database.

Migrations run here, in one process, rather than in the app's startup, so several server
workers never race to alter the schema.
"""

from __future__ import annotations

import logging

from alembic import command
from alembic.config import Config

from app.settings import PROJECT_DIR, get_settings, settings_or_exit
from app.store.db import ensure_sqlite_directory


def alembic_config(database_url: str | None = None) -> Config:
    """Alembic's config for this checkout; ``database_url`` overrides DATABASE_URL."""
    config = Config(str(PROJECT_DIR / "alembic.ini"))
    if database_url:
        config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def migrate(database_url: str | None = None) -> None:
    """Bring the database at ``database_url`` (default: the settings') to the newest schema."""
    url = database_url or get_settings().database_url
    ensure_sqlite_directory(url)
    command.upgrade(alembic_config(url), "head")


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    settings = settings_or_exit()  # fails here, before serving, on bad settings
    migrate(settings.database_url)


if __name__ == "__main__":
    main()
