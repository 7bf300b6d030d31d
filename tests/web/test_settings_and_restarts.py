"""Settings from the environment, and games that outlive the server process."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.main import create_app
from app.settings import DEFAULT_SECRET_KEY, Settings

from .conftest import SECRET, make_settings


def test_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "sqlite:////tmp/elsewhere.db")
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9000")
    monkeypatch.setenv("SECRET_KEY", "s" * 40)
    settings = Settings(_env_file=None)
    assert settings.database_url == "sqlite:////tmp/elsewhere.db"
    assert (settings.host, settings.port, settings.secret_key) == ("0.0.0.0", 9000, "s" * 40)


def test_defaults_are_safe_for_local_play(monkeypatch):
    for name in ("DATABASE_URL", "HOST", "PORT", "SECRET_KEY", "ENVIRONMENT"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=None)
    assert settings.environment == "development" and settings.host == "127.0.0.1"
    assert settings.port == 8000 and settings.database_url.startswith("sqlite:///")


def test_production_refuses_the_default_secret(monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        Settings(_env_file=None, environment="production")
    assert Settings(_env_file=None, environment="production",
                    secret_key="a-long-random-production-secret!").secret_key != DEFAULT_SECRET_KEY
    with pytest.raises(ValidationError):
        Settings(_env_file=None, secret_key="short")


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
