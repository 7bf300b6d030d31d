"""Settings (``app.settings``): from the environment, safe defaults for local play, the hosts
and base URL, and what production insists on (a real secret of 32 bytes, secure cookies).

(How the entry points report a bad setting: test_startup.py.)"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.settings import DEFAULT_SECRET_KEY, Settings


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
    assert Settings(_env_file=None, environment="production", base_url="https://p.example",
                    secret_key="a-long-random-production-secret!").secret_key != DEFAULT_SECRET_KEY
    with pytest.raises(ValidationError):
        Settings(_env_file=None, secret_key="short")


# --- allowed hosts and the base URL (what the app does with them: tests/web) ----------------
def test_allowed_hosts_and_base_url_from_the_environment(monkeypatch):
    monkeypatch.setenv("ALLOWED_HOSTS", " pyramid.example, *.pyramid.example ,")
    monkeypatch.setenv("BASE_URL", "https://Pyramid.Example/")
    settings = Settings(_env_file=None)
    assert settings.allowed_hosts == ["pyramid.example", "*.pyramid.example"]
    assert settings.base_url == "https://pyramid.example"
    monkeypatch.delenv("ALLOWED_HOSTS")
    monkeypatch.delenv("BASE_URL")
    defaults = Settings(_env_file=None)
    assert defaults.allowed_hosts == ["127.0.0.1", "localhost", "testserver", "[::1]"]
    assert defaults.base_url is None and defaults.max_body_bytes == 65536


@pytest.mark.parametrize("overrides", [
    {"allowed_hosts": "pyr*mid.example"}, {"allowed_hosts": ""},
    {"allowed_hosts": "http://pyramid.example"}, {"base_url": "ftp://pyramid.example"},
    {"base_url": "https://pyramid.example/games"}, {"base_url": "pyramid.example"},
])
def test_bad_hosts_and_base_urls_are_refused(overrides):
    with pytest.raises(ValidationError):
        Settings(_env_file=None, **overrides)


# --- production settings -----------------------------------------------------------------------
def test_secret_keys_need_32_bytes():
    assert len(DEFAULT_SECRET_KEY.encode()) >= 32
    with pytest.raises(ValidationError, match="32 bytes"):
        Settings(_env_file=None, secret_key="s" * 31)
    with pytest.raises(ValidationError, match="32 bytes"):
        Settings(_env_file=None, secret_key="é" * 15)  # 30 bytes
    assert Settings(_env_file=None, secret_key="é" * 16).secret_key == "é" * 16


def test_production_forces_secure_cookies(monkeypatch):
    monkeypatch.setenv("COOKIE_SECURE", "false")
    settings = Settings(_env_file=None, environment="production", secret_key=GOOD_SECRET,
                        base_url="https://p.example")
    assert settings.cookie_secure is True
    assert Settings(_env_file=None).cookie_secure is False


GOOD_SECRET = "kT3vQ9-wZ2rX7pL0mN8bY4cD6fH1jS5a"


def test_production_refuses_a_secret_of_few_different_characters():
    """32 characters of one or two repeated letters pass the length check but are no secret."""
    for weak in ("p" * 40, "ab" * 20, "0123456789" * 4):
        with pytest.raises(ValidationError, match="different characters"):
            Settings(_env_file=None, environment="production", secret_key=weak,
                     base_url="https://p.example")
        assert Settings(_env_file=None, secret_key=weak).secret_key == weak  # fine elsewhere
    assert Settings(_env_file=None, environment="production", secret_key=GOOD_SECRET,
                    base_url="https://p.example").secret_key == GOOD_SECRET


def test_production_needs_base_url_behind_its_proxy():
    """Without its public origin, a production site behind a TLS proxy would refuse every form
    post as cross-site (the proxy talks plain HTTP to the app): it refuses to start instead."""
    with pytest.raises(ValidationError, match="BASE_URL is not set"):
        Settings(_env_file=None, environment="production", secret_key=GOOD_SECRET)


def test_a_bad_database_url_is_a_settings_error():
    with pytest.raises(ValidationError, match="not a database URL"):
        Settings(_env_file=None, database_url="nonsense://x")


@pytest.mark.parametrize("given, kept", [
    (None, None), ("", None), ("  ", None),
    ("*", "*"), (" * ", "*"),
    ("127.0.0.1", "127.0.0.1"), ("10.0.0.5, 10.0.0.6", "10.0.0.5,10.0.0.6"),
    ("172.16.0.0/12,::1", "172.16.0.0/12,::1"), ("127.0.0.1,,", "127.0.0.1"),
])
def test_trusted_proxies_are_addresses_or_networks(given, kept):
    assert Settings(_env_file=None, trusted_proxies=given).trusted_proxies == kept


@pytest.mark.parametrize("given", ["proxy", "nginx.internal", "10.0.0.300", "10.0.0.0/33",
                                   "*,10.0.0.1", ","])
def test_a_trusted_proxy_that_matches_nothing_is_refused(given):
    """uvicorn takes a name, or a mistyped address, as a literal that no peer's address ever
    equals: the proxy would not be believed, every player would seem to come from the proxy's
    address, and share its budgets. Refused at start-up, with what to write instead."""
    with pytest.raises(ValidationError, match="address"):
        Settings(_env_file=None, trusted_proxies=given)
