"""PostgreSQL connections that the server dropped (a restart, an administrator) are replaced.

A connection that has rested is pinged before use, so a restart during a quiet time fails no
request; one in steady use is not (a ping per request costs CPU on every move), so a restart
mid-burst fails the requests in flight once, and SQLAlchemy then replaces the whole pool.
Terminating the server's backend processes is what a restart does to the pool.
"""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from app.main import create_app
from app.store import db as store_db
from tests.conftest import POSTGRES_URL, _reset_postgres, make_settings, run_async


def backend_pid(database: store_db.Database) -> int:
    with database.engine.connect() as connection:
        return connection.execute(text("SELECT pg_backend_pid()")).scalar_one()


def terminate_others(url: str) -> None:
    """End every other backend of this database, as a server restart would, and wait until
    the server no longer lists them."""
    killer = store_db.Database(url)
    others = ("FROM pg_stat_activity WHERE datname = current_database() "
              "AND pid <> pg_backend_pid()")
    try:
        # Autocommit: within one transaction, pg_stat_activity would show the same snapshot.
        with killer.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text(f"SELECT pg_terminate_backend(pid) {others}"))
            deadline = time.monotonic() + 10
            while connection.execute(text(f"SELECT count(*) {others}")).scalar_one():
                assert time.monotonic() < deadline
                time.sleep(0.01)
    finally:
        killer.dispose()


@pytest.fixture
def postgres():
    if POSTGRES_URL is None:
        pytest.skip("PostgreSQL only: set TEST_DATABASE_URL (CI does)")
    database = store_db.Database(POSTGRES_URL)
    yield database
    database.dispose()


def test_a_rested_connection_is_pinged_and_replaced(postgres, monkeypatch):
    pid = backend_pid(postgres)
    terminate_others(postgres.url)
    monkeypatch.setattr(store_db, "PING_AFTER_IDLE", 0.0)  # every checkout counts as rested
    with postgres.sessions() as session:
        assert session.execute(text("SELECT pg_backend_pid()")).scalar_one() != pid


def test_a_connection_in_steady_use_fails_once_then_the_pool_is_replaced(postgres, monkeypatch):
    monkeypatch.setattr(store_db, "PING_AFTER_IDLE", 3600.0)  # never rested long enough
    pid = backend_pid(postgres)
    terminate_others(postgres.url)
    with pytest.raises(OperationalError), postgres.sessions() as session:
        session.execute(text("SELECT 1"))
    with postgres.sessions() as session:
        assert session.execute(text("SELECT pg_backend_pid()")).scalar_one() != pid


def test_the_app_answers_503_then_recovers(postgres, monkeypatch):
    monkeypatch.setattr(store_db, "PING_AFTER_IDLE", 3600.0)
    _reset_postgres(postgres.url)
    with TestClient(create_app(make_settings(postgres.url))) as client:
        assert client.post("/api/games", json={"deal": 5}).status_code == 201
        terminate_others(postgres.url)
        assert client.get("/api/games/nope").status_code == 503
        assert client.get("/api/games/nope").status_code == 404


def test_the_health_ping_replaces_its_own_connection_after_a_restart(postgres):
    async def ping_restart_ping() -> tuple[int, int]:
        await postgres.ping()
        before = postgres._pinger.info.backend_pid
        terminate_others(POSTGRES_URL)  # the ping's connection too, as a restart would
        await postgres.ping()  # its dead connection fails once, and a new one answers
        return before, postgres._pinger.info.backend_pid

    before, after = run_async(ping_restart_ping())
    assert after != before
