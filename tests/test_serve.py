"""``python -m app.serve`` as it runs for real: what a uvicorn process does that TestClient
cannot show. Slow clients are cut off (the request head, then the body), and X-Forwarded-*
headers are believed only from TRUSTED_PROXIES, never from any client on loopback."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import httpx
import pytest

from app.prestart import migrate
from tests.conftest import SECRET
from tests.serving import free_port
from tests.serving import serving as app_serving


@contextmanager
def serving(tmp_path, **env: str) -> Iterator[str]:
    """``python -m app.serve`` on a free port against a migrated SQLite file in tmp_path."""
    url = f"sqlite:///{tmp_path / 'serve.db'}"
    migrate(url)
    with app_serving(url, **env) as base:
        yield base


def read_until_closed(sock: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and when it closed."""
    began = time.monotonic()
    sock.settimeout(limit)
    data = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            return data, time.monotonic() - began
        data += chunk


@pytest.fixture(scope="module")
def guarded(tmp_path_factory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("guarded"), HEAD_TIMEOUT_SECONDS="1",
                 BODY_TIMEOUT_SECONDS="1") as base:
        yield base


def address(base: str) -> tuple[str, int]:
    host, port = base.removeprefix("http://").split(":")
    return host, int(port)


@pytest.mark.parametrize("sent", [b"", b"GET / HTTP/1.1\r\nHost: 127.0", b"GET /"])
def test_a_request_head_that_never_completes_is_cut_off(guarded, sent):
    with socket.create_connection(address(guarded)) as sock:
        sock.sendall(sent)
        answer, after = read_until_closed(sock, limit=10)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b"connection: close" in answer.lower()
    assert after < 5


def test_a_body_that_trickles_in_is_cut_off_with_408(guarded):
    with socket.create_connection(address(guarded)) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{")
        began = time.monotonic()
        sock.settimeout(0.2)
        answer = b""
        while time.monotonic() - began < 10:
            try:
                sock.sendall(b" ")
                chunk = sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b'"detail"' in answer and b"connection: close" in answer.lower()
    assert time.monotonic() - began < 5


def test_players_are_answered_while_slow_clients_wait(guarded):
    stalled = [socket.create_connection(address(guarded)) for _ in range(50)]
    try:
        for sock in stalled:
            sock.sendall(b"GET / HTTP/1.1\r\n")
        with httpx.Client(base_url=guarded) as client:
            made = client.post("/api/games", json={"deal": 5})
            assert made.status_code == 201
            moved = client.post(f"/api/games/{made.json()['id']}/moves", json={"op": "draw"})
            assert moved.status_code == 200 and moved.json()["waste"]["count"] == 1
    finally:
        for sock in stalled:
            sock.close()


def share_link_scheme(base: str, **headers: str) -> str:
    with httpx.Client(base_url=base, headers=headers) as client:
        created = client.post("/api/games", json={"deal": 7}).json()
        page = client.get(f"/games/{created['id']}").text
    link = page.split('data-deal-link href="', 1)[1].split('"', 1)[0]
    return link.split("://", 1)[0]


def test_forwarded_headers_are_not_believed_from_any_client(guarded):
    assert share_link_scheme(guarded, **{"X-Forwarded-Proto": "https"}) == "http"


def test_forwarded_headers_are_believed_from_a_trusted_proxy(tmp_path):
    with serving(tmp_path, TRUSTED_PROXIES="127.0.0.1") as base:
        assert share_link_scheme(base, **{"X-Forwarded-Proto": "https"}) == "https"
        assert share_link_scheme(base) == "http"


def test_several_workers_publish_the_sum_of_their_metrics(tmp_path):
    """WORKERS=2: each worker keeps its metrics in PROMETHEUS_MULTIPROC_DIR (emptied of an
    earlier run's files first), and a scrape, whichever worker answers it, counts the requests
    of both."""
    folder = tmp_path / "metrics"
    folder.mkdir()
    (folder / "counter_999999.db").write_bytes(b"an earlier run's counts")
    token = "serve-test-metrics-token-0123456789"
    with serving(tmp_path, WORKERS="2", METRICS_TOKEN=token,
                 PROMETHEUS_MULTIPROC_DIR=str(folder)) as base:
        def health(_: int) -> int:
            with httpx.Client() as client:  # a connection of its own: either worker takes it
                return client.get(base + "/healthz").status_code

        with ThreadPoolExecutor(20) as pool:
            assert set(pool.map(health, range(60))) == {200}
        counts = set()
        for _ in range(6):
            text = httpx.get(base + "/metrics", headers={"Authorization": f"Bearer {token}"}).text
            found = re.search(r'pyramid_http_request_duration_seconds_count\{method="GET",'
                              r'route="/healthz",status="2xx"\} (\S+)', text)
            counts.add(float(found.group(1)))
        assert len(counts) == 1 and counts.pop() >= 60
        pids = {path.stem.rsplit("_", 1)[1] for path in folder.glob("counter_*.db")}
        assert len(pids) == 2 and "999999" not in pids


def refusal_of(tmp_path, url: str) -> tuple[int, str]:
    """``python -m app.serve`` with MIGRATE_ON_START=false on ``url``: its exit status and
    what it wrote on stderr (it must end by itself)."""
    clean = {k: v for k, v in os.environ.items() if not k.isupper() or k in ("PATH", "HOME")}
    done = subprocess.run(
        [sys.executable, "-m", "app.serve"], capture_output=True, text=True, timeout=60,
        env={**clean, "DATABASE_URL": url, "SECRET_KEY": SECRET, "ENVIRONMENT": "test",
             "PORT": str(free_port()), "MIGRATE_ON_START": "false"})
    return done.returncode, done.stderr


def test_an_app_that_does_not_migrate_refuses_another_schema_in_one_line(tmp_path):
    from alembic import command
    from sqlalchemy import create_engine, text

    from app.prestart import alembic_config
    from app.version import schema

    url = f"sqlite:///{tmp_path / 'schema.db'}"
    status, said = refusal_of(tmp_path, url)  # nothing migrated
    assert status == 1 and said.count("\n") == 1
    assert "refusing to serve: the database has no schema" in said
    assert f"expects migration {schema()}" in said

    command.upgrade(alembic_config(url), "0010")
    status, said = refusal_of(tmp_path, url)
    assert status == 1 and said.count("\n") == 1
    assert f"schema is migration 0010, older than this code's {schema()}" in said
    assert "run the migrations first" in said

    engine = create_engine(url)
    with engine.begin() as connection:  # a newer release's migration, unknown here
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    status, said = refusal_of(tmp_path, url)
    assert status == 1 and said.count("\n") == 1
    assert "schema is migration 9999, which this code" in said and "does not know" in said

    with serving(tmp_path) as base:  # a database at this code's schema: it serves
        assert httpx.get(base + "/healthz").json()["schema"] == schema()
