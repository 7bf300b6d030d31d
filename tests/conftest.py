"""Fixtures for every test that needs a database: migrated databases and the settings on them.

Every store test runs against SQLite, and also against PostgreSQL when TEST_DATABASE_URL is
set (CI's `.ci/run` sets it). Tables come from the Alembic migrations, as in production.
``tests/store`` uses these directly; ``tests/web/conftest.py`` builds the app and its clients on
them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.util
import os
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from sqlalchemy import text

from app.prestart import alembic_config, migrate
from app.settings import Settings
from app.store import Database
from app.store.models import Base

SECRET = "test-secret-key-0123456789-abcdefghijklmnop"
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
"""The pytest-xdist worker running this process (``gw0``, ``gw1``, ...), or "" without xdist."""


def _worker_database(url: str | None) -> str | None:
    """TEST_DATABASE_URL for this worker: the database itself for the first (or only) process,
    ``<name>_gw1`` and so on for the others, each created on first use (its role needs
    CREATEDB, as .ci/run grants), so that workers never empty each other's tables."""
    if url is None or WORKER in ("", "gw0"):
        return url
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"{base.database}_{WORKER}"
    admin = Database(url)
    try:
        with admin.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                  {"name": name}).scalar()
            if not exists:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


POSTGRES_URL = _worker_database(os.environ.get("TEST_DATABASE_URL"))

BACKENDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])

FAKE_TODAY = os.environ.get("PYRAMID_TEST_TODAY")
"""A UTC date (``2026-12-09``) the daily calendar (``app.web.core.utcday``) reads instead of
today's: the deal of the day, what ``spoilers`` keeps private. Run a test file with it set to a
few days of the year to show that it does not depend on the date (tests/dailies.py)."""


@pytest.fixture(autouse=True)
def _daily_calendar_date(monkeypatch):
    if FAKE_TODAY:
        from datetime import UTC, date, datetime

        from app.web.core import utcday
        day = date.fromisoformat(FAKE_TODAY)
        monkeypatch.setattr(utcday, "today", lambda: datetime.now(UTC).replace(
            year=day.year, month=day.month, day=day.day))


@pytest.fixture
def human_pace(monkeypatch):
    """Inputs arrive a second apart, as a person plays them (``app.store.pace``): the tests
    post a game's moves as fast as a script can, which is not ranked. A test that
    says a result is ranked plays at this pace."""
    from datetime import timedelta

    from app.store import pace
    from app.store.models import utcnow
    start, calls = utcnow(), [0]

    def ticking():
        calls[0] += 1
        return start + timedelta(seconds=calls[0])

    monkeypatch.setattr(pace, "clock", ticking)


def _reset_postgres(url: str) -> None:
    """Start from an empty schema, then migrate: the migrations are part of what is tested."""
    from alembic import command

    database = Database(url)
    with database.engine.begin() as connection:
        Base.metadata.drop_all(connection)  # every table the models know, and only those
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    database.dispose()
    command.upgrade(alembic_config(url), "head")


@cache
def _head() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    assert head is not None
    return head


def _empty_postgres(url: str) -> None:
    """The PostgreSQL test database migrated to the head and empty, as ``_reset_postgres``
    leaves it, at a fraction of its cost: the migrations run once a session (and again
    whenever a test left the schema elsewhere, as the migration tests may); between tests
    every table is emptied and its ids restarted."""
    database = Database(url)
    try:
        with database.engine.begin() as connection:
            version = None
            if connection.execute(text("SELECT to_regclass('alembic_version')")).scalar():
                version = connection.execute(
                    text("SELECT version_num FROM alembic_version")).scalar()
            if version == _head() and url in _migrated_postgres:
                tables = ", ".join(f'"{table.name}"' for table in Base.metadata.sorted_tables)
                connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
                return
    finally:
        database.dispose()
    _reset_postgres(url)
    _migrated_postgres.add(url)


_migrated_postgres: set[str] = set()


@pytest.fixture(scope="session")
def _migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once a session: each test gets a copy of it (the migrations
    take a quarter of a second; a copy, a millisecond)."""
    path = tmp_path_factory.mktemp("migrated") / "pyramid.db"
    migrate(f"sqlite:///{path}")
    for leftover in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        assert not leftover.exists(), "the migrated file is whole once its connections close"
    return path


def _sqlite_copy(template: Path, tmp_path: Path) -> str:
    target = tmp_path / "pyramid.db"
    shutil.copyfile(template, target)
    return f"sqlite:///{target}"


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path, _migrated_sqlite) -> str:
    """A freshly migrated database: a SQLite file, or the PostgreSQL test database."""
    if request.param == "postgresql":
        assert POSTGRES_URL is not None
        _empty_postgres(POSTGRES_URL)
        return POSTGRES_URL
    return _sqlite_copy(_migrated_sqlite, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path, _migrated_sqlite) -> str:
    return _sqlite_copy(_migrated_sqlite, tmp_path)


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    yield database
    database.dispose()


def bench_script(name: str):
    """A script of ``bench/`` loaded as a module (the folder is no package), to test its parts."""
    path = Path(__file__).resolve().parents[1] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_async(coroutine):
    """``asyncio.run(coroutine)`` on a thread of its own: the browser tests' Playwright keeps an
    event loop running on the main thread for the whole session, where ``asyncio.run`` refuses
    to start another."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


UNSPENT_BUDGETS = {f"{whose}{kind}_burst": 100_000 for whose in ("", "address_")
                   for kind in ("search", "game", "transfer")}
"""Budgets no test spends by playing fast (tests/web/test_budget.py sets its own)."""


def make_settings(url: str, **overrides) -> Settings:
    values = {"database_url": url, "environment": "test", "secret_key": SECRET,
              **UNSPENT_BUDGETS, **overrides}
    return Settings(_env_file=None, **values)
