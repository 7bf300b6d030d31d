"""/healthz checks the database and answers even when every worker thread is busy; an
unavailable database is a 503 answer, as a page or as the API's JSON, never a traceback.

(The database file itself going away, read-only or coming back: tests/store/test_db.py.)"""

from __future__ import annotations

import concurrent.futures
import inspect
import threading
from importlib.metadata import version as package_version

import anyio
import anyio.to_thread
from fastapi.testclient import TestClient

from app.settings import PROJECT_DIR


def test_healthz_checks_the_database_and_names_the_build(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    answer = response.json()
    assert answer["status"] == "ok"
    assert answer["version"].split("+")[0] == package_version("pyramid")
    assert answer["schema"] == newest_migration()
    assert set(answer) == {"status", "version", "revision", "schema"}


def newest_migration() -> str:
    """The newest file in migrations/versions, by its number."""
    files = sorted((PROJECT_DIR / "migrations" / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))
    return files[-1].name[:4]


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
        assert page.headers["Retry-After"] == api.headers["Retry-After"] == "5"


def test_healthz_pings_on_the_event_loop_itself(app, monkeypatch):
    """No thread hop: under a crowd each hop waits for the GIL behind the request threads."""
    database = app.state.db
    real = database.ping
    threads: list[int] = []

    async def ping() -> None:
        threads.append(threading.get_ident())
        await real()

    monkeypatch.setattr(database, "ping", ping)
    with TestClient(app) as client:
        loop_thread = client.portal.call(threading.get_ident)
        assert client.get("/healthz").status_code == 200
    assert threads == [loop_thread]
