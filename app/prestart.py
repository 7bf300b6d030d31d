"""Run once before the server starts (`make run`, the Docker image): migrate the database.

Migrations run here, in one process, rather than in the app's startup, so several server
workers never race to alter the schema.

A database that cannot be reached or written stops this with one line on stderr, like a bad
setting: the operator needs to read what is wrong and where, not a traceback (and never the
database password, which the URL may hold).
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from app.logs import configure
from app.settings import PROJECT_DIR, Settings, exit_with, get_settings, settings_or_exit
from app.store.db import ensure_sqlite_directory


def alembic_config(database_url: str | None = None, *, own_logging: bool = False) -> Config:
    """Alembic's config for this checkout; ``database_url`` overrides DATABASE_URL.
    ``own_logging``: the caller has set up logging (``app.logs``, text or JSON), which
    alembic.ini's logging section would otherwise replace."""
    config = Config(str(PROJECT_DIR / "alembic.ini"))
    if database_url:
        config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    if own_logging:
        config.attributes["configure_logger"] = False  # read by migrations/env.py
    return config


def migrate(database_url: str | None = None, *, own_logging: bool = False) -> None:
    """Bring the database at ``database_url`` (default: the settings') to the newest schema."""
    url = database_url or get_settings().database_url
    ensure_sqlite_directory(url)
    command.upgrade(alembic_config(url, own_logging=own_logging), "head")


def why(exc: BaseException) -> str:
    """The first line of the driver's own reason, without SQLAlchemy's SQL and links."""
    reason = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    text = str(reason).strip() or type(reason).__name__
    return text.splitlines()[0]


def migrate_or_exit(settings: Settings, *, own_logging: bool = False) -> None:
    """``migrate``, ending the process with one line on stderr if the database fails."""
    try:
        migrate(settings.database_url, own_logging=own_logging)
    except (SQLAlchemyError, OSError, CommandError) as exc:
        where = make_url(settings.database_url).render_as_string(hide_password=True)
        exit_with(f"cannot use the database at {where}: {why(exc)}")


def main() -> None:
    settings = settings_or_exit()  # fails here, before serving, on bad settings
    configure(settings.log_format)  # LOG_FORMAT: alembic's lines as text or JSON
    migrate_or_exit(settings, own_logging=True)


if __name__ == "__main__":
    main()
