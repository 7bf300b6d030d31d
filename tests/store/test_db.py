"""The SQLite file under a running server (``app.store.db.Database``): a deleted or moved file
is noticed and a restored one serves again, a read-only copy serves reads, WAL only where the
file can be written, and a Database remembers which file it opened.

(Dropped PostgreSQL connections: test_reconnect.py; /healthz and the 503 answers:
tests/web/test_health.py.)"""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.main import create_app
from app.store.db import Database, sqlite_pragmas
from tests.conftest import make_settings, run_async


def test_a_deleted_database_file_is_noticed_and_a_restored_one_recovers(sqlite_url, tmp_path):
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    app = create_app(make_settings(sqlite_url))
    with TestClient(app, raise_server_exceptions=False) as client:
        game_id = client.post("/api/games", json={"deal": 3}).json()["id"]
        path.rename(tmp_path / "moved.db")
        assert client.get("/healthz").status_code == 503
        assert client.get("/healthz").json()["status"] == "unavailable"
        move = client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
        assert move.status_code == 503
        assert client.get(f"/games/{game_id}").status_code == 503
        assert not path.exists()  # nothing made a new, empty database in its place
        (tmp_path / "moved.db").rename(path)  # the same file is back: it serves again
        assert client.get("/healthz").status_code == 200
        assert client.post(f"/api/games/{game_id}/moves",
                           json={"op": "draw"}).status_code == 200
        path.unlink()
        assert client.get("/healthz").status_code == 503
        assert client.post(f"/api/games/{game_id}/moves",
                           json={"op": "draw"}).status_code == 503


def test_a_read_only_database_serves_reads(sqlite_url):
    path = sqlite_url.removeprefix("sqlite:///")
    app = create_app(make_settings(sqlite_url))
    with TestClient(app) as client:
        game_id = client.post("/api/games", json={"deal": 3}).json()["id"]
        cookies = dict(client.cookies)
    # Leaving WAL needs the file to itself: a busy machine may still be finishing the first
    # app's last write on a worker thread (its pool is disposed, the thread's connection goes
    # with the thread), so wait for it rather than fail.
    gc.collect()
    connection = sqlite3.connect(path, timeout=60)
    connection.execute("PRAGMA journal_mode=DELETE")  # as a copy made by another tool may be
    connection.close()
    read_only = create_app(make_settings(f"sqlite:///file:{path}?mode=ro&uri=true"))
    with TestClient(read_only, cookies=cookies, raise_server_exceptions=False) as client:
        assert client.get(f"/api/games/{game_id}").status_code == 200
        assert client.get("/healthz").status_code == 200
        assert client.post(f"/api/games/{game_id}/moves",
                           json={"op": "draw"}).status_code == 503


def test_wal_only_where_the_database_can_be_written(tmp_path):
    path = tmp_path / "pragmas.db"
    writable = sqlite3.connect(path)
    sqlite_pragmas(writable)
    assert writable.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert writable.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert writable.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    writable.execute("PRAGMA journal_mode=DELETE")
    writable.close()
    read_only = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    sqlite_pragmas(read_only)  # does not raise
    assert read_only.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    read_only.close()


def test_the_database_remembers_its_file(sqlite_url, tmp_path):
    database = Database(sqlite_url)
    with database.session() as session:
        session.connection()
    Path(sqlite_url.removeprefix("sqlite:///")).unlink()
    with pytest.raises(Exception, match="database"), database.session() as session:
        session.connection()
    database.dispose()


def test_the_health_ping_has_a_connection_of_its_own(sqlite_url, tmp_path):
    """/healthz's SELECT 1 never waits on the pool (under a crowd the pool's steps each wait
    for the GIL behind the request threads), and still notices a moved file."""
    database = Database(sqlite_url)
    try:
        with database.session() as session:  # a request's connection, back in the pool
            session.execute(text("SELECT 1"))
        pooled = database.engine.pool.checkedin()
        run_async(database.ping())
        run_async(database.ping())
        assert database.engine.pool.checkedout() == 0
        assert database.engine.pool.checkedin() == pooled  # no connection taken or added
        path = Path(sqlite_url.removeprefix("sqlite:///"))
        path.rename(tmp_path / "moved.db")
        with pytest.raises(Exception, match="missing"):
            run_async(database.ping())
        (tmp_path / "moved.db").rename(path)
        run_async(database.ping())
    finally:
        database.dispose()
