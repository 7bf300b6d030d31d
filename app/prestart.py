"""Run once before the server starts (`make run`, the Docker image): migrate the database.

Migrations run here, in one process, rather than in the app's startup, so several server
workers never race to alter the schema. An app that does not migrate (``MIGRATE_ON_START=false``,
compose's apps) checks instead that the database is at the schema its code expects, and
refuses to serve otherwise (``schema_or_exit``).

A database that cannot be reached or written stops this with one line on stderr, like a bad
setting: the operator needs to read what is wrong and where, not a traceback (and never the
database password, which the URL may hold).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, NoReturn

from app.logs import configure
from app.settings import PROJECT_DIR, Settings, exit_with, get_settings, settings_or_exit

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

# Alembic, SQLAlchemy and the store are imported where they are used, not above: the settings
# are read first, so that a bad setting ends the process in a tenth of a second instead of the
# half second those imports take (a typo in an operator's environment, and tests/test_startup.py
# starts this module for every such mistake).


def alembic_config(database_url: str | None = None, *, own_logging: bool = False) -> Config:
    """Alembic's config for this checkout; ``database_url`` overrides DATABASE_URL.
    ``own_logging``: the caller has set up logging (``app.logs``, text or JSON), which
    alembic.ini's logging section would otherwise replace."""
    from alembic.config import Config

    config = Config(str(PROJECT_DIR / "alembic.ini"))
    if database_url:
        config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    if own_logging:
        config.attributes["configure_logger"] = False  # read by migrations/env.py
    return config


def migrate(database_url: str | None = None, *, own_logging: bool = False) -> None:
    """Bring the database at ``database_url`` (default: the settings') to the newest schema."""
    from alembic import command

    from app.store.db import ensure_sqlite_directory

    url = database_url or get_settings().database_url
    ensure_sqlite_directory(url)
    command.upgrade(alembic_config(url, own_logging=own_logging), "head")


def schema_problem(database_url: str) -> str | None:
    """Why the database at ``database_url`` is not the schema this code expects (its newest
    migration, ``app.version.schema``), in words for the operator; None when it is.

    Code and schema must agree exactly: a schema behind the code lacks what the code reads and
    writes, and one ahead of it (a newer image's migrations) may have changed what the code
    relies on. ``docs/deploy.md`` says how to upgrade and roll back with this check."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from app.store.db import make_engine
    from app.version import schema

    expected = schema()
    engine = make_engine(database_url)
    chatty = logging.getLogger("alembic.runtime.migration")  # "Context impl ...": not news
    level = chatty.level
    chatty.setLevel(logging.WARNING)
    try:
        with engine.connect() as connection:
            found = MigrationContext.configure(connection).get_current_heads()
    finally:
        chatty.setLevel(level)
        engine.dispose()
    if found == (expected,):
        return None
    if not found:
        return (f"the database has no schema (this code expects migration {expected}): run "
                "the migrations first (python -m app.prestart, or compose's migrate service)")
    found_text = ", ".join(found)
    script = ScriptDirectory.from_config(alembic_config(database_url))
    known = all(_known(script, revision) for revision in found)
    if known:
        return (f"the database's schema is migration {found_text}, older than this code's "
                f"{expected}: run the migrations first (python -m app.prestart, or compose's "
                "migrate service)")
    return (f"the database's schema is migration {found_text}, which this code (expecting "
            f"{expected}) does not know: a newer release migrated it; run that release, or "
            "downgrade the schema with the newer release first (docs/deploy.md)")


def _known(script: ScriptDirectory, revision: str) -> bool:
    from alembic.util import CommandError

    try:
        return script.get_revision(revision) is not None
    except CommandError:
        return False


def schema_or_exit(settings: Settings) -> None:
    """End the process with one line on stderr unless the database's schema
    is the one this code expects: an app started with MIGRATE_ON_START=false refuses to serve
    against another schema."""
    from sqlalchemy.exc import SQLAlchemyError

    try:
        problem = schema_problem(settings.database_url)
    except (SQLAlchemyError, OSError) as exc:
        unusable(settings.database_url, exc)
    if problem is not None:
        exit_with(f"refusing to serve: {problem}")


def unusable(database_url: str, exc: BaseException) -> NoReturn:
    """End the process with one line: the database (its password hidden) and the first line
    of the driver's own reason, without SQLAlchemy's SQL and links."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import DBAPIError

    where = make_url(database_url).render_as_string(hide_password=True)
    reason = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    text = str(reason).strip() or type(reason).__name__
    exit_with(f"cannot use the database at {where}: {text.splitlines()[0]}")


def migrate_or_exit(settings: Settings, *, own_logging: bool = False) -> None:
    """``migrate``, ending the process with one line on stderr if the database fails."""
    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    try:
        migrate(settings.database_url, own_logging=own_logging)
    except (SQLAlchemyError, OSError, CommandError) as exc:
        unusable(settings.database_url, exc)


def main() -> None:
    settings = settings_or_exit()  # fails here, before serving, on bad settings
    configure(settings.log_format)  # LOG_FORMAT: alembic's lines as text or JSON
    migrate_or_exit(settings, own_logging=True)


if __name__ == "__main__":
    main()
