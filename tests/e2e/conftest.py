"""End-to-end fixtures: a real uvicorn server on a free loopback port, and headless Chromium.

The server runs in a subprocess against a temporary SQLite file with the migrations applied,
exactly as `make run` would serve it. Chromium is Debian's, at /usr/bin/chromium.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
PROJECT_DIR = Path(__file__).resolve().parents[2]
ARTIFACTS = PROJECT_DIR / "tests" / "artifacts"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A uvicorn process serving app.main:app; restartable on the same database."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.env = {**os.environ, "DATABASE_URL": database_url, "ENVIRONMENT": "test",
                    "SECRET_KEY": "e2e-secret-key-for-tests-only"}

    def migrate(self) -> None:
        subprocess.run([sys.executable, "-m", "app.prestart"], cwd=PROJECT_DIR, env=self.env,
                       check=True, capture_output=True)

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
             "--port", str(self.port), "--log-level", "warning"],
            cwd=PROJECT_DIR, env=self.env,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the server exited while starting")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start within 20 seconds")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    database = tmp_path_factory.mktemp("e2e") / "pyramid.db"
    srv = Server(f"sqlite:///{database}")
    srv.migrate()
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    """A fresh browser context (its own player cookie) at desktop size, motion reduced."""
    context = browser.new_context(viewport={"width": 1280, "height": 860},
                                  reduced_motion="reduce", base_url=server.url)
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    yield pg
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
