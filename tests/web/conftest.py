"""Fixtures for the web tests: an app on a migrated database, and clients.

The databases and their settings come from ``tests/conftest.py``. Beside the plain ``app`` and
its browser-like clients, ``hardened`` is the app with routes that fail on purpose
(``add_test_routes``) and ``fresh`` a client of it that has never loaded a page.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
from fastapi import Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from app.logs import JsonFormatter, StampRequest
from app.main import create_app
from app.web.core.links import absolute_url
from tests.conftest import make_settings


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


@contextmanager
def browsers(app, count: int) -> Iterator[list[TestClient]]:
    """``count`` browser-like clients of ``app``, each with its own player."""
    with ExitStack() as stack:
        yield [browser_like(stack.enter_context(TestClient(app))) for _ in range(count)]


@pytest.fixture
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield browser_like(test_client)


@pytest.fixture
def other_client(app) -> Iterator[TestClient]:
    """A second browser: its own cookie jar, so its own player id."""
    with TestClient(app) as test_client:
        yield browser_like(test_client)


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


# --- the log lines a request writes (tests/web/test_logs.py, test_small_findings.py) ---------
class Capture(logging.Handler):
    """Records of every logger, formatted as the image formats them (JSON)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.addFilter(StampRequest())
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith("httpx"):  # the test client's own lines
            self.lines.append(self.format(record))

    def entries(self) -> list[dict]:
        return [json.loads(line) for line in self.lines]


@pytest.fixture
def captured() -> Capture:
    handler = Capture()
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield handler
    root.removeHandler(handler)
    root.setLevel(level)
