"""``python -m app.backup``: a backup taken while players play is the database at one instant
(whole, and every move acknowledged before it), and a restore puts a running site back to it
without a restart. SQLite always; PostgreSQL when TEST_DATABASE_URL is set and pg_dump is
installed (as in CI). The compose stack's own PostgreSQL backup is checked by
tests/deploy/test_stack.py."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import PROJECT_DIR
from tests.conftest import POSTGRES_URL, SECRET, _reset_postgres, make_settings

DRAWS = 12


def run_backup(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.isupper() or k in ("PATH", "HOME")}
    return subprocess.run([sys.executable, "-m", "app.backup", *args], cwd=PROJECT_DIR,
                          env={**clean, "DATABASE_URL": database_url, "SECRET_KEY": SECRET},
                          capture_output=True, text=True, timeout=120)


def backends() -> list[str]:
    found = ["sqlite"]
    if POSTGRES_URL and shutil.which("pg_dump") and shutil.which("pg_restore"):
        found.append("postgresql")
    return found


@pytest.fixture(params=backends())
def site_url(request, tmp_path) -> str:
    if request.param == "postgresql":
        _reset_postgres(POSTGRES_URL)
        return POSTGRES_URL
    from app.prestart import migrate

    url = f"sqlite:///{tmp_path / 'site.db'}"
    migrate(url)
    return url


def moves_of(client: TestClient, game_id: str) -> list[dict]:
    return client.get(f"/api/games/{game_id}").json()["moves"]


def test_a_backup_taken_while_players_play_restores_a_running_site(site_url, tmp_path):
    app = create_app(make_settings(site_url))
    with TestClient(app) as player, TestClient(app) as other:
        game = player.post("/api/games", json={"deal": 7, "goal": "wholedeck"}).json()["id"]
        other_game = other.post("/api/games", json={"deal": 8}).json()["id"]
        # Another player goes on playing while the backup is taken.
        playing = threading.Event()

        def play_on() -> None:
            while not playing.is_set():
                other.post(f"/api/games/{other_game}/moves", json={"op": "draw"})

        for _ in range(3):
            assert player.post(f"/api/games/{game}/moves", json={"op": "draw"}).status_code == 200
        worker = threading.Thread(target=play_on)
        worker.start()
        try:
            backup = tmp_path / "backups" / "site.backup"
            done = run_backup(site_url, "backup", str(backup))
        finally:
            playing.set()
            worker.join()
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("backed up ") and len(done.stdout.splitlines()) == 1
        assert backup.stat().st_size > 0
        if site_url.startswith("sqlite"):
            assert done.stdout.rstrip().endswith(": 2 games")
            with sqlite3.connect(backup) as copy:
                assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
                assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        backed_up = moves_of(player, game)
        for _ in range(DRAWS):  # played after the backup: gone once it is restored
            assert player.post(f"/api/games/{game}/moves", json={"op": "draw"}).status_code == 200
        later = player.post("/api/games", json={"deal": 9})
        assert later.status_code == 201
        restored = run_backup(site_url, "restore", str(backup))
        assert restored.returncode == 0, restored.stderr
        assert restored.stdout.startswith("restored ")
        # The running app, not restarted, serves the database as it was.
        assert moves_of(player, game) == backed_up == [{"op": "draw"}] * 3
        assert player.get(f"/api/games/{later.json()['id']}").status_code == 404
        assert player.post(f"/api/games/{game}/moves", json={"op": "draw"}).status_code == 200
        assert other.get(f"/api/games/{other_game}").status_code == 200


def test_a_restored_sqlite_file_stays_in_wal_mode(tmp_path):
    from app.prestart import migrate

    url = f"sqlite:///{tmp_path / 'site.db'}"
    migrate(url)
    backup = tmp_path / "copy.db"
    assert run_backup(url, "backup", str(backup)).returncode == 0
    assert run_backup(url, "restore", str(backup)).returncode == 0
    with sqlite3.connect(tmp_path / "site.db") as live:
        assert live.execute("PRAGMA journal_mode").fetchone() == ("wal",)


@pytest.mark.parametrize("action, setup, expected", [
    ("restore", None, "pyramid: there is no backup at "),
    ("restore", b"not a database at all", "pyramid: "),
    ("backup", "no database", "pyramid: there is no database at "),
])
def test_mistakes_are_one_line(tmp_path, action, setup, expected):
    database = tmp_path / "site.db"
    if setup != "no database":
        from app.prestart import migrate

        migrate(f"sqlite:///{database}")
    target = tmp_path / "file.backup"
    if isinstance(setup, bytes):
        target.write_bytes(setup)
    before = database.read_bytes() if database.exists() else None
    done = run_backup(f"sqlite:///{database}", action, str(target))
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith(expected)
    assert "Traceback" not in done.stderr
    if before is not None:
        assert database.read_bytes() == before  # nothing was touched


def test_a_postgresql_password_never_reaches_a_command_line():
    from sqlalchemy.engine import make_url

    from app.backup import libpq

    target, env = libpq(make_url("postgresql+psycopg://pyramid:hunter2@db:5432/pyramid"))
    assert target == "postgresql://pyramid@db:5432/pyramid"
    assert env["PGPASSWORD"] == "hunter2"


def test_the_docs_give_the_commands_that_are_tested():
    guide = (Path(PROJECT_DIR) / "docs" / "deploy.md").read_text()
    for command in ("python -m app.backup backup", "python -m app.backup restore",
                    "pg_dump", "pg_restore"):
        assert command in guide


def test_backups_and_the_database_file_are_readable_by_their_owner_alone(tmp_path):
    """Both hold every player's games and names: 0600 whatever the umask."""
    from app.prestart import migrate

    old = os.umask(0o022)  # the usual umask, which gave 0644
    try:
        database = tmp_path / "site.db"
        url = f"sqlite:///{database}"
        migrate(url)
        assert database.stat().st_mode & 0o777 == 0o600
        done = run_backup(url, "backup", str(tmp_path / "backups" / "site.bak"))
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "backups" / "site.bak").stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)
