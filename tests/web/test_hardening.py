"""Hardening: security headers, trusted hosts, cross-site refusals, the player cookie, JSON and
size limits on bodies, long deal numbers, an unavailable database, production settings and
finding a browser for the end-to-end tests."""

from __future__ import annotations

import concurrent.futures
import importlib.util
import inspect
import os
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio
import anyio.to_thread
import pytest
from fastapi import Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy.exc import OperationalError

from app.engine import Deal, DealError
from app.main import create_app
from app.settings import DEFAULT_SECRET_KEY, Settings
from app.store.db import Database, sqlite_pragmas
from app.web.links import absolute_url

from .conftest import make_settings

PROJECT_DIR = Path(__file__).resolve().parents[2]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; "
       "form-action 'self'; object-src 'none'")
HSTS = "max-age=31536000; includeSubDomains"


def add_test_routes(app) -> None:
    """Routes that fail on purpose, and one that shows absolute_url."""

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("unforeseen")

    @app.get("/boom-db")
    def boom_db() -> None:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    @app.get("/api/boom-db")
    def api_boom_db() -> None:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    @app.post("/echo")
    def echo() -> dict[str, str]:
        return {"echo": "ok"}

    @app.get("/link")
    def link(request: Request) -> JSONResponse:
        return JSONResponse({"url": absolute_url(request, "/deal/3?goal=standard")})


@pytest.fixture
def hardened(sqlite_url):
    """The app with the failing test routes."""
    app = create_app(make_settings(sqlite_url))
    add_test_routes(app)
    return app


@pytest.fixture
def fresh(hardened):
    """A client that has never loaded a page: no player cookie yet."""
    with TestClient(hardened, raise_server_exceptions=False) as client:
        yield client


def has_security_headers(response, *, hsts: bool = False) -> bool:
    headers = response.headers
    assert headers.get("content-security-policy") == CSP, response.request.url
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("x-frame-options") == "DENY"
    assert headers.get("referrer-policy") == "same-origin"
    assert headers.get("strict-transport-security") == (HSTS if hsts else None)
    return True


# --- 1. security headers -----------------------------------------------------------------
def test_every_kind_of_answer_carries_the_security_headers(hardened):
    with TestClient(hardened, raise_server_exceptions=False) as client:
        game_id = client.post("/api/games", json={"deal": 3}).json()["id"]
        answers = [
            client.get("/"),                                   # a page
            client.get(f"/api/games/{game_id}"),               # API JSON
            client.get("/api/games/nope"),                     # an API error
            client.get("/no-such-page"),                       # an error page
            client.get("/static/css/pyramid.css"),             # a static file
            client.get("/docs"),
            client.get("/boom"),                               # an unforeseen 500
            client.get("/healthz"),
            client.post("/api/games", content=b"x" * 70_000,   # refused by a middleware
                        headers={"content-type": "application/json"}),
            client.post("/games", headers={"Sec-Fetch-Site": "cross-site"}),
            client.get("/", headers={"Host": "evil.example"}),
        ]
    assert [r.status_code for r in answers] == [200, 200, 404, 404, 200, 200, 500, 200, 413,
                                                403, 400]
    assert all(has_security_headers(r) for r in answers)


def test_hsts_only_when_cookies_are_secure(sqlite_url):
    app = create_app(make_settings(sqlite_url, cookie_secure=True))
    with TestClient(app, base_url="https://testserver") as client:
        assert has_security_headers(client.get("/"), hsts=True)
        assert has_security_headers(client.get("/api/games/nope"), hsts=True)


def test_the_api_docs_need_no_inline_script(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.text
    scripts = html.count("<script")
    assert scripts == html.count("<script src=") == 2, html
    assert '<script src="/static/js/swagger-init.js"></script>' in html
    assert "style=" not in html and "<style" not in html
    init = client.get("/static/js/swagger-init.js")
    assert init.status_code == 200 and "javascript" in init.headers["content-type"]
    assert "SwaggerUIBundle(" in init.text
    assert client.get("/openapi.json").status_code == 200


# --- 2. allowed hosts ------------------------------------------------------------------
def test_a_foreign_host_is_refused_not_redirected(client):
    response = client.get("/stats/", headers={"Host": "evil.example"}, follow_redirects=False)
    assert response.status_code == 400
    assert "location" not in response.headers
    assert "set-cookie" not in response.headers
    assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "[::1]:8000"}).status_code == 200


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


def test_base_url_host_is_trusted_and_builds_absolute_links(sqlite_url):
    app = create_app(make_settings(sqlite_url, base_url="https://pyramid.example"))
    add_test_routes(app)
    with TestClient(app) as client:
        assert client.get("/link").json()["url"] == "https://pyramid.example/deal/3?goal=standard"
        assert client.get("/", headers={"Host": "pyramid.example"}).status_code == 200


def test_absolute_links_without_base_url_use_the_request(hardened):
    with TestClient(hardened) as client:
        assert client.get("/link").json()["url"] == "http://testserver/deal/3?goal=standard"
        assert (client.get("/link", headers={"Host": "localhost:8000"}).json()["url"]
                == "http://localhost:8000/deal/3?goal=standard")


# --- 3. cross-site requests ---------------------------------------------------------------
@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://evil.example"},
    {"Origin": "http://testserver:8001"},
    {"Origin": "https://testserver"},
    {"Origin": "null"},
])
def test_cross_site_writes_are_refused_without_a_cookie(fresh, headers):
    page = fresh.post("/games", data={"deal": "3"}, headers=headers, follow_redirects=False)
    assert page.status_code == 403 and "text/html" in page.headers["content-type"]
    assert "set-cookie" not in page.headers
    api = fresh.post("/api/games", json={"deal": 3}, headers=headers)
    assert api.status_code == 403 and set(api.json()) <= {"detail", "errors"}
    assert "set-cookie" not in api.headers


def test_same_origin_writes_and_cross_site_reads_pass(client):
    same = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/games", json={"deal": 3}, headers=same).status_code == 201
    # A share link followed from another site is a plain GET, and works.
    response = client.get("/deal/3", headers={"Sec-Fetch-Site": "cross-site"},
                          follow_redirects=False)
    assert response.status_code == 303


def test_with_base_url_the_origin_must_be_base_url(sqlite_url):
    app = create_app(make_settings(sqlite_url, base_url="https://pyramid.example"))
    with TestClient(app) as client:
        ok = client.post("/api/games", json={"deal": 3},
                         headers={"Origin": "https://pyramid.example"})
        assert ok.status_code == 201
        refused = client.post("/api/games", json={"deal": 3},
                              headers={"Origin": "http://testserver"})
        assert refused.status_code == 403


# --- 4. the player cookie -----------------------------------------------------------------
def test_no_new_cookie_in_answer_to_a_post(fresh):
    response = fresh.post("/games", data={"deal": "3"}, follow_redirects=False)
    assert "set-cookie" not in response.headers
    succeeded = fresh.post("/echo")
    assert succeeded.status_code == 200 and "set-cookie" not in succeeded.headers
    assert "set-cookie" in fresh.get("/").headers  # a page still hands one out


def test_the_json_api_hands_out_a_cookie_on_a_created_game_only(hardened):
    with TestClient(hardened) as first, TestClient(hardened) as second:
        refused = first.post("/api/games", json={"deal": 0})
        assert refused.status_code == 422 and "set-cookie" not in refused.headers
        created = second.post("/api/games", json={"deal": 3})
        assert created.status_code == 201 and "set-cookie" in created.headers
        game_id = created.json()["id"]
        assert second.post(f"/api/games/{game_id}/moves", json={"op": "draw"}).status_code == 200
        stranger = first.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
        assert stranger.status_code == 403 and "set-cookie" not in stranger.headers


# --- 5. JSON bodies on the API -----------------------------------------------------------
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "application/jsonx", None])
def test_api_bodies_must_be_json(client, content_type):
    headers = {"content-type": content_type} if content_type else {}
    response = client.post("/api/games", content=b'{"deal": 3}', headers=headers)
    assert response.status_code == 415
    assert set(response.json()) <= {"detail", "errors"}


def test_json_with_a_charset_and_bodiless_posts_pass(client):
    created = client.post("/api/games", content=b'{"deal": 3}',
                          headers={"content-type": "Application/JSON; charset=utf-8"})
    assert created.status_code == 201
    game_id = created.json()["id"]
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    assert client.post(f"/api/games/{game_id}/undo").status_code == 200


# --- 6. body size -------------------------------------------------------------------------
def test_a_large_body_is_refused_up_front(client):
    big = b"x" * 1_000_000
    api = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert api.status_code == 413 and set(api.json()) <= {"detail", "errors"}
    page = client.post("/games", content=big,
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert page.status_code == 413 and "text/html" in page.headers["content-type"]


@pytest.mark.parametrize(("path", "content_type"), [
    ("/api/games", "application/json"), ("/games", "application/x-www-form-urlencoded")])
def test_a_chunked_body_is_refused_past_the_limit(client, path, content_type):
    def chunks():
        for _ in range(1024):
            yield b"1" * 1024

    response = client.post(path, content=chunks(), headers={"content-type": content_type})
    assert response.status_code == 413
    if path.startswith("/api/"):
        assert set(response.json()) <= {"detail", "errors"}
    else:
        assert "text/html" in response.headers["content-type"]


@pytest.mark.parametrize(("path", "content_type"), [
    ("/api/games", "application/json"), ("/games", "application/x-www-form-urlencoded")])
def test_a_streamed_body_is_read_only_up_to_the_limit(hardened, path, content_type):
    """Straight through ASGI, because TestClient hands the app a whole body at once."""
    asked = 0

    async def receive():
        nonlocal asked
        asked += 1
        return {"type": "http.request", "body": b"1" * 1024, "more_body": asked < 1024}

    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "root_path": "", "query_string": b"", "client": ("127.0.0.1", 50000),
             "server": ("testserver", 80), "state": {},
             "headers": [(b"host", b"testserver"), (b"content-type", content_type.encode()),
                         (b"transfer-encoding", b"chunked")]}
    # On a thread of its own: the browser tests' Playwright keeps an event loop running in
    # this one for the whole session.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(anyio.run, hardened, scope, receive, send).result()
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 413
    assert asked == 65  # 65 KiB is the first count past 64 KiB: nothing more was read


# --- 7. deal numbers ----------------------------------------------------------------------
def test_a_five_thousand_digit_deal_is_a_normal_error(client):
    # ``client`` has loaded the home page: it holds a player cookie (and the form's token).
    for digits in (5000, 150):
        response = client.post("/games", data={"deal": "9" * digits, "goal": "standard",
                                               "passes": "3"})
        assert response.status_code == 400 and "text/html" in response.headers["content-type"]
        assert "9" * 201 not in response.text
    assert "not a deal number" in response.text


def test_parse_number_checks_the_length_first():
    with pytest.raises(DealError, match="not a deal number"):
        Deal.parse_number("1" * 100_000)
    with pytest.raises(DealError, match="out of range"):
        Deal.parse_number(10**5000)
    assert Deal.parse_number("99_999_999_999_999_999_999") == 10**20 - 1


# --- 8. the database ----------------------------------------------------------------------
def test_healthz_checks_the_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_healthz_works_again_after_a_shutdown(app):
    for _ in range(2):  # the app's lifespan ends and starts again (as in the tests' clients)
        with TestClient(app) as client:
            assert client.get("/healthz").status_code == 200


def test_healthz_answers_while_every_worker_thread_is_busy(app):
    route = next(r for r in app.routes if getattr(r, "path", None) == "/healthz")
    assert inspect.iscoroutinefunction(route.endpoint)
    with TestClient(app) as client:
        limiter = client.portal.call(anyio.to_thread.current_default_thread_limiter)
        holders = [object() for _ in range(int(limiter.total_tokens))]
        for holder in holders:
            client.portal.call(limiter.acquire_on_behalf_of, holder)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pending = pool.submit(client.get, "/healthz")
            try:
                response = pending.result(timeout=10)
            finally:
                for holder in holders:
                    client.portal.call(limiter.release_on_behalf_of, holder)
    assert response.status_code == 200


def test_database_errors_answer_503(hardened):
    with TestClient(hardened, raise_server_exceptions=False) as client:
        page = client.get("/boom-db")
        assert page.status_code == 503 and "text/html" in page.headers["content-type"]
        assert "server closed" not in page.text and "Traceback" not in page.text
        api = client.get("/api/boom-db")
        assert api.status_code == 503 and set(api.json()) <= {"detail", "errors"}


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
    connection = sqlite3.connect(path)
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


# --- 9. production settings ----------------------------------------------------------------
def test_secret_keys_need_32_bytes():
    assert len(DEFAULT_SECRET_KEY.encode()) >= 32
    with pytest.raises(ValidationError, match="32 bytes"):
        Settings(_env_file=None, secret_key="s" * 31)
    with pytest.raises(ValidationError, match="32 bytes"):
        Settings(_env_file=None, secret_key="é" * 15)  # 30 bytes
    assert Settings(_env_file=None, secret_key="é" * 16).secret_key == "é" * 16


def test_production_forces_secure_cookies(monkeypatch):
    monkeypatch.setenv("COOKIE_SECURE", "false")
    settings = Settings(_env_file=None, environment="production", secret_key="p" * 40)
    assert settings.cookie_secure is True
    assert Settings(_env_file=None).cookie_secure is False


def test_a_bad_database_url_is_a_settings_error():
    with pytest.raises(ValidationError, match="not a database URL"):
        Settings(_env_file=None, database_url="nonsense://x")


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


# --- 10. a browser for the end-to-end tests -------------------------------------------------
def e2e_conftest():
    spec = importlib.util.spec_from_file_location(
        "e2e_conftest_under_test", PROJECT_DIR / "tests" / "e2e" / "conftest.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_browser(folder: Path, name: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


def test_the_browser_is_found_in_order(tmp_path, monkeypatch):
    e2e = e2e_conftest()
    bin_dir = tmp_path / "bin"
    on_path = fake_browser(bin_dir, "chromium-browser")
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setattr(e2e, "playwright_chromium", lambda: None)
    from_env = fake_browser(tmp_path / "env", "chrome")
    monkeypatch.setenv("CHROMIUM", from_env)
    assert e2e.find_chromium() == from_env
    monkeypatch.delenv("CHROMIUM")
    assert e2e.find_chromium() == on_path
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    playwright_own = fake_browser(tmp_path / "ms-playwright", "chrome")
    monkeypatch.setattr(e2e, "playwright_chromium", lambda: playwright_own)
    assert e2e.find_chromium() == playwright_own


def test_without_a_browser_install_is_tried_once_then_a_clear_skip(tmp_path, monkeypatch):
    e2e = e2e_conftest()
    monkeypatch.delenv("CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(e2e, "playwright_chromium", lambda: None)
    tries = []
    monkeypatch.setattr(e2e, "install_playwright_chromium", lambda: tries.append(1) or False)
    path, reason = e2e.chromium_or_reason()
    assert path is None and tries == [1]
    assert "apt-get install chromium" in reason and "CHROMIUM" in reason
    assert "\n" not in reason
    assert e2e.chromium_or_reason() == (None, reason) and tries == [1]
    monkeypatch.setenv("CHROMIUM", str(tmp_path / "missing"))
    path, reason = e2e.chromium_or_reason(fresh=True)
    assert path is None and "CHROMIUM" in reason


def test_the_collector_is_tuned_while_the_app_runs_and_restored_after(app):
    import gc

    from app.main import GC_YOUNG_THRESHOLD

    before = gc.get_threshold()
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD
    assert gc.get_threshold() == before
