"""Starting and restarting the app: the entry points (``app.serve``, ``app.prestart``) refuse
bad settings and unusable databases with one clear line, never the secret; the app's lifespan
(``app.main``) tunes the garbage collector and restores it; a game outlives its server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import SECRET, make_settings


# --- bad settings stop the entry points with one line ----------------------------------------
def run_serve(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("SECRET_KEY", "ENVIRONMENT", "PORT", "DATABASE_URL")}
    return subprocess.run([sys.executable, "-m", "app.serve"], env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"ENVIRONMENT": "production"}, "pyramid: SECRET_KEY is the built-in development secret"),
        ({"SECRET_KEY": "short-secret"}, "pyramid: bad setting SECRET_KEY: must be at least 32"),
        ({"PORT": "99999"}, "pyramid: bad setting PORT: Input should be less than or equal"),
    ],
)
def test_bad_settings_stop_the_server_with_one_line(env: dict[str, str], expected: str):
    result = run_serve(**env)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(expected)
    assert "Traceback" not in result.stderr and "short-secret" not in result.stderr


ENV_NAMES = ("SECRET_KEY", "ENVIRONMENT", "PORT", "DATABASE_URL", "ALLOWED_HOSTS", "BASE_URL",
             "COOKIE_SECURE", "MAX_BODY_BYTES")


def run_module(module: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ENV_NAMES}
    # Should a case ever pass, it migrates a throwaway file, not the checkout's data/.
    clean["DATABASE_URL"] = f"sqlite:///{cwd / 'unused.db'}"
    return subprocess.run([sys.executable, "-m", module], env={**clean, **env}, cwd=cwd,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("module", ["app.serve", "app.prestart"])
@pytest.mark.parametrize(("env", "expected"), [
    ({"ENVIRONMENT": "production"}, "pyramid: SECRET_KEY is the built-in development secret"),
    ({"SECRET_KEY": "short-secret"}, "pyramid: bad setting SECRET_KEY: "),
    ({"PORT": "99999"}, "pyramid: bad setting PORT: "),
    ({"PORT": "99999", "SECRET_KEY": "short-secret"},
     "pyramid: bad setting SECRET_KEY: must be at least 32 bytes long"),
    ({"ALLOWED_HOSTS": "pyr*mid.example"}, "pyramid: bad setting ALLOWED_HOSTS: "),
    ({"BASE_URL": "ftp://pyramid.example"}, "pyramid: bad setting BASE_URL: "),
    ({"DATABASE_URL": "nonsense://x"}, "pyramid: bad setting DATABASE_URL: "),
    ({"DATABASE_URL": "postgresql+psycopg://pyramid:hunter2-secret@127.0.0.1:1/pyramid"},
     "pyramid: cannot use the database at postgresql+psycopg://pyramid:***@127.0.0.1:1/"),
])
def test_bad_settings_and_databases_are_one_line(module, env, expected, tmp_path):
    result = run_module(module, tmp_path, **env)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(expected), lines[0]
    if len(env) > 1:
        assert all(f"bad setting {name}" in lines[0] for name in env)
    assert "Traceback" not in result.stderr
    assert "short-secret" not in result.stderr and "hunter2" not in result.stderr


@pytest.mark.parametrize("module", ["app.serve", "app.prestart"])
def test_the_entry_points_read_the_settings_before_loading_the_server_and_the_database(module):
    """A bad setting is told in a tenth of a second: uvicorn, Alembic and SQLAlchemy (half a
    second to import) are loaded only once the settings are read."""
    loaded = subprocess.run(
        [sys.executable, "-c", f"import sys, {module}; "
         "print(sorted(m for m in ('uvicorn', 'alembic', 'sqlalchemy') if m in sys.modules))"],
        capture_output=True, text=True, timeout=60, check=True)
    assert loaded.stdout.strip() == "[]"


# --- the app's lifespan ------------------------------------------------------------------------
def test_the_collector_is_tuned_while_the_app_runs_and_restored_after(sqlite_url):
    import gc

    from app.main import GC_YOUNG_THRESHOLD

    app = create_app(make_settings(sqlite_url))  # as tests/web's ``app`` fixture makes it
    before = gc.get_threshold()
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD
    assert gc.get_threshold() == before


# --- restarts ----------------------------------------------------------------------------------
def test_a_game_survives_a_restart_and_a_second_server(sqlite_url):
    """Two app instances on one database: what one stores, the other plays on."""
    first = create_app(make_settings(sqlite_url))
    with TestClient(first) as browser:
        game_id = browser.post("/api/games", json={"deal": 3}).json()["id"]
        browser.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
        cookies = dict(browser.cookies)
    second = create_app(make_settings(sqlite_url))
    with TestClient(second, cookies=cookies) as same_browser:
        state = same_browser.get(f"/api/games/{game_id}").json()
        assert state["moves"] == [{"op": "draw"}]
        moved = same_browser.post(f"/api/games/{game_id}/moves",
                                  json={"op": "remove", "cards": ["KS"]})
        assert moved.status_code == 200
        assert 'data-continue' in same_browser.get("/").text
    # A server with another secret does not recognise the cookie: the game is not its player's.
    third = create_app(make_settings(sqlite_url, secret_key=SECRET + "-rotated"))
    with TestClient(third, cookies=cookies) as stranger:
        assert stranger.post(f"/api/games/{game_id}/moves",
                             json={"op": "draw"}).status_code == 403
