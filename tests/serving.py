"""``python -m app.serve`` in a subprocess, as an operator starts it: for the tests that need
what a real server does (slow clients, several workers, two processes on one database)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from tests.conftest import SECRET


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serving(database_url: str, processes: list[subprocess.Popen[bytes]] | None = None,
            **env: str) -> Iterator[str]:
    """The app on a free port against an already migrated database, with these settings
    (the environment's own settings left out); yields its URL. ``processes`` collects the
    process, for a test that kills it."""
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if not k.isupper() or k in ("PATH", "HOME")}
    process = subprocess.Popen(
        [sys.executable, "-m", "app.serve"],
        env={**clean, "DATABASE_URL": database_url, "SECRET_KEY": SECRET,
             "ENVIRONMENT": "test", "PORT": str(port), "MIGRATE_ON_START": "false", **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if processes is not None:
        processes.append(process)
    base = f"http://127.0.0.1:{port}"
    try:
        # A busy machine starts two workers slowly: a minute, then the process is stopped
        # before its stderr is read (read() waits for the pipe to close).
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"app.serve did not start: {process.stderr.read()}")
            time.sleep(0.1)
        yield base
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=10)
