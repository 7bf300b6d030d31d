"""End-to-end fixtures: a real uvicorn server on a free loopback port, and headless Chromium.

The server runs in a subprocess against a temporary SQLite file with the migrations applied,
exactly as `make run` would serve it.

The browser is looked for in this order: the CHROMIUM environment variable (a path), Debian's
`chromium-headless-shell` on PATH, a `chromium` or `chromium-browser` on PATH (Debian's full
browser), then Playwright's own download. The headless shell is the same Chromium (the same
Debian source, version and Blink) without the desktop browser around it, as Playwright itself
runs headless tests: every browser test passes on both, and the shell costs the suite about a
quarter less CPU (docs/tests.md). The benches drive the full `chromium`, as players have it.
When there is none, `python -m playwright install chromium` is tried once per test run (it
works wherever the machine may download); failing that, the browser tests are skipped with one
line saying how to get a browser, so a fresh machine still runs every other test.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
ARTIFACTS = PROJECT_DIR / "tests" / "artifacts"
HOW_TO_GET_ONE = ("no Chromium for the browser tests: `apt-get install chromium-headless-shell` "
                  "(or chromium), or set CHROMIUM to the path of a Chromium or Chrome executable")


def is_executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def playwright_chromium() -> str | None:
    """The Chromium that `playwright install chromium` downloaded, if it is there."""
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            path = playwright.chromium.executable_path
    except Exception:  # no driver, or no browser registry: no Playwright browser either
        return None
    return path if path and is_executable(path) else None


def find_chromium() -> str | None:
    """CHROMIUM, else chromium-headless-shell, chromium or chromium-browser on PATH, else
    Playwright's own browser."""
    from_env = os.environ.get("CHROMIUM")
    if from_env:
        return from_env if is_executable(from_env) else None
    for name in ("chromium-headless-shell", "chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return playwright_chromium()


def install_playwright_chromium() -> bool:
    """Try Playwright's download of Chromium; False where the machine cannot download."""
    try:
        done = subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"],
                              capture_output=True, timeout=900)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


_found: tuple[str | None, str] | None = None
_install_tried = False


def chromium_or_reason(fresh: bool = False) -> tuple[str | None, str]:
    """(the browser's path, "") or (None, why not and how to get one), worked out once."""
    global _found, _install_tried
    if _found is not None and not fresh:
        return _found
    from_env = os.environ.get("CHROMIUM")
    if from_env and not is_executable(from_env):
        _found = (None, f"CHROMIUM={from_env} is not an executable file; {HOW_TO_GET_ONE}")
        return _found
    path = find_chromium()
    if path is None and not from_env and not _install_tried:
        _install_tried = True
        if install_playwright_chromium():
            path = find_chromium()
    _found = (path, "") if path else (None, HOW_TO_GET_ONE)
    return _found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A uvicorn process serving app.main:app (or ``app``); restartable on the same
    database."""

    def __init__(self, database_url: str, app: str = "app.main:app") -> None:
        self.database_url = database_url
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.env = {**os.environ, "DATABASE_URL": database_url, "ENVIRONMENT": "test",
                    "SECRET_KEY": "e2e-secret-key-for-tests-only-0123456789",
                    # A browser test plays faster than a player (tests/web/test_budget.py).
                    **{f"{whose}{kind}_BURST": "100000" for whose in ("", "ADDRESS_")
                       for kind in ("SEARCH", "GAME", "TRANSFER")}}

    def migrate(self, template: Path | None = None) -> None:
        """The database at the head migration: a copy of ``template`` (a file migrated once a
        session, ``_migrated_sqlite``), else ``python -m app.prestart`` as the image runs it
        (an app process's start: about 1.5 CPU-s)."""
        if template is not None:
            shutil.copyfile(template, self.database_url.removeprefix("sqlite:///"))
            return
        subprocess.run([sys.executable, "-m", "app.prestart"], cwd=PROJECT_DIR, env=self.env,
                       check=True, capture_output=True)

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", self.app, "--host", "127.0.0.1",
             "--port", str(self.port), "--log-level", "warning"],
            cwd=PROJECT_DIR, env=self.env,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the server exited while starting")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start within 60 seconds")

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
def chromium() -> str:
    """The browser's executable; skips every browser test when there is none."""
    path, reason = chromium_or_reason()
    if path is None:
        pytest.skip(reason)
    return path


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, chromium: str,
           _migrated_sqlite: Path) -> Iterator[Server]:
    # Takes ``chromium`` so that without a browser no server is started for nothing.
    database = tmp_path_factory.mktemp("e2e") / "pyramid.db"
    srv = Server(f"sqlite:///{database}")
    srv.migrate(_migrated_sqlite)
    srv.start()
    yield srv
    srv.stop()


class Chromium:
    """The launched browser, whose new contexts leave the site's service worker out unless a
    test asks for it (``service_workers="allow"``; the ``page`` fixture of a test marked
    ``offline``).

    Only what a player does without the network needs the worker: online, it passes the
    moves, hints and API through untouched and serves the release's files as the browser's
    cache would. Its install (the shell's files and four pages fetched and kept) cost each
    fresh context about half a CPU-second, a third of a short browser test (docs/tests.md)."""

    def __init__(self, launched) -> None:
        self.launched = launched

    def new_context(self, **options):
        options.setdefault("service_workers", "block")
        return self.launched.new_context(**options)

    def __getattr__(self, name: str):
        return getattr(self.launched, name)


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Chromium]:
    from playwright.sync_api import Error, sync_playwright

    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=chromium,
                                                  args=["--no-sandbox"])
        except Error as exc:
            first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else "no reason"
            pytest.skip(f"Chromium at {chromium} did not start ({first_line}); "
                        f"{HOW_TO_GET_ONE}")
        yield Chromium(launched)
        launched.close()


@pytest.fixture
def page(request: pytest.FixtureRequest, browser: Chromium, server: Server):
    """A fresh browser context (its own player cookie) at desktop size, motion reduced; with
    the site's service worker for a test marked ``offline``."""
    worker = "allow" if request.node.get_closest_marker("offline") else "block"
    context = browser.new_context(viewport={"width": 1280, "height": 860},
                                  reduced_motion="reduce", base_url=server.url,
                                  service_workers=worker)
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    yield pg
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """tests/artifacts/, where browser tests leave pictures of the pages for people to look
    at, named so that a run replaces the last run's."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
