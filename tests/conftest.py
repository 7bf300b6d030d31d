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
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from app.prestart import alembic_config, migrate
from app.settings import Settings
from app.store import Database
from app.store.models import Base

SECRET = "test-secret-key-0123456789-abcdefghijklmnop"
POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")

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
    post a game's moves as fast as a script can, which is not ranked (issue 46). A test that
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


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A freshly migrated database: a SQLite file, or the PostgreSQL test database."""
    if request.param == "postgresql":
        assert POSTGRES_URL is not None
        _reset_postgres(POSTGRES_URL)
        return POSTGRES_URL
    url = f"sqlite:///{tmp_path / 'pyramid.db'}"
    migrate(url)
    return url


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    url = f"sqlite:///{tmp_path / 'pyramid.db'}"
    migrate(url)
    return url


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
