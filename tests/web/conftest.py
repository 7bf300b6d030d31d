"""Fixtures for the web and store tests: migrated databases, an app on them, and clients.

Every store test runs against SQLite, and also against PostgreSQL when TEST_DATABASE_URL is
set (CI's `.ci/run` sets it). Tables come from the Alembic migrations, as in production.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.main import create_app
from app.prestart import alembic_config, migrate
from app.settings import Settings
from app.store import Database

SECRET = "test-secret-key-0123456789-abcdefghijklmnop"
POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")

BACKENDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])


def _reset_postgres(url: str) -> None:
    """Start from an empty schema, then migrate: the migrations are part of what is tested."""
    from alembic import command

    database = Database(url)
    with database.engine.begin() as connection:
        connection.execute(text("DROP TABLE IF EXISTS games"))
        connection.execute(text("DROP TABLE IF EXISTS players"))
        connection.execute(text("DROP TABLE IF EXISTS deal_verdicts"))
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


def make_settings(url: str, **overrides) -> Settings:
    values = {"database_url": url, "environment": "test", "secret_key": SECRET, **overrides}
    return Settings(_env_file=None, **values)


@pytest.fixture
def app(sqlite_url: str):
    return create_app(make_settings(sqlite_url))


def browser_like(test_client: TestClient) -> TestClient:
    """A client that has loaded a page, as a browser has before it posts a form: it holds its
    player cookie and sends the page's CSRF token with every request."""
    page = test_client.get("/")
    token = re.search(r'name="csrf-token" content="([0-9a-f]+)"', page.text)
    assert token, "the home page carries the CSRF token"
    test_client.headers["X-CSRF-Token"] = token.group(1)
    return test_client


@pytest.fixture
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield browser_like(test_client)


@pytest.fixture
def other_client(app) -> Iterator[TestClient]:
    """A second browser: its own cookie jar, so its own player id."""
    with TestClient(app) as test_client:
        yield browser_like(test_client)
