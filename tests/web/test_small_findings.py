"""Smaller things an attacker's review found: a deeply nested import, a damaged database file,
the moves schema's ``$ref``, an empty ``If-Match``, the rules page's styles, one log line per
error, and ``Cache-Control: no-store`` on what must not be kept."""

from __future__ import annotations

import re
import socket
import sqlite3
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from app.backup import sqlite_backup, sqlite_restore
from app.main import create_app
from app.store.db import sqlite_file
from app.web.core.i18n import LANGUAGES
from app.web.core.observe import flatten
from tests.conftest import make_settings

from .conftest import add_test_routes, browser_like
from .helpers import import_file
from .test_transfers import wait_for


# --- a deeply nested file or body ----------------------------------------------------------------
def test_a_deeply_nested_import_is_refused_and_loses_nothing(app, client):
    game_id = client.post("/api/games", json={"deal": 7}).json()["id"]
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    client.post("/api/games", json={"deal": 8})  # the first ends, and counts
    before = (client.get("/stats").text.count(game_id),
              client.get("/stats/export.json").json()["games"])
    for crafted in (b"[" * 100_000 + b"]" * 100_000,
                    b'{"games": [' + b"[" * 5_000 + b"]" * 5_000 + b'], "signature": "x"}',
                    b'{"games": [{"a": ' + b'{"a": ' * 5_000 + b"1" + b"}" * 5_001
                    + b'], "signature": "x"}'):
        refused = import_file(client, crafted)
        assert refused.status_code == 400
        assert "cannot be imported" in refused.text
    after = (client.get("/stats").text.count(game_id),
             client.get("/stats/export.json").json()["games"])
    assert after == before and [g["id"] for g in after[1]] == [game_id]


def test_a_deeply_nested_api_body_is_a_422(client):
    game_id = client.post("/api/games", json={"deal": 7}).json()["id"]
    for path in ("/api/games", f"/api/games/{game_id}/moves"):
        for body in (b"[" * 30_000 + b"]" * 30_000,
                     b'{"op": ' + b"[" * 30_000 + b"]" * 30_000 + b"}"):
            answer = client.post(path, content=body,
                                 headers={"Content-Type": "application/json"})
            assert answer.status_code == 422, (path, answer.text[:200])
            assert answer.json()["detail"]


# --- the OpenAPI schema -------------------------------------------------------------------------
def refs_in(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [ref for value in node.values() for ref in refs_in(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in refs_in(value)]
    return []


def resolve(schema: dict[str, Any], ref: str) -> Any:
    """A local JSON pointer (``#/components/schemas/Problem``) in ``schema``, or KeyError."""
    assert ref.startswith("#/"), ref
    node: Any = schema
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def test_every_ref_in_the_openapi_schema_resolves(client):
    schema = client.get("/openapi.json").json()
    refs = set(refs_in(schema))
    assert "#/components/schemas/Problem" in refs
    unresolved = []
    for ref in sorted(refs):
        try:
            resolve(schema, ref)
        except (KeyError, TypeError):
            unresolved.append(ref)
    assert unresolved == []
    assert "$defs" not in str(schema)


def test_the_moves_schema_names_its_operations(client):
    schema = client.get("/openapi.json").json()
    body = schema["paths"]["/api/games/{game_id}/moves"]["post"]["requestBody"]
    move = body["content"]["application/json"]["schema"]
    op = move["properties"]["op"]
    op = resolve(schema, op["$ref"]) if "$ref" in op else op
    assert op["enum"] == ["remove", "draw", "recycle"]
    assert move["required"] == ["op"] and move["additionalProperties"] is False


# --- an empty If-Match -------------------------------------------------------------------------
@pytest.mark.parametrize("header", ["", " ", ",", " , "])
def test_an_empty_if_match_is_a_precondition_nothing_matches(client, header):
    """RFC 9110 §13.1.1: ``If-Match = "*" / #entity-tag``, and §5.6.1 lets a list have no
    member: an empty If-Match is present and names no version, no version matches it, so the
    condition is false and the server MUST NOT play the move; its answer is 412. Taken as
    absent, it would turn off the guard the client asked for (a retried move played twice)."""
    game_id = client.post("/api/games", json={"deal": 42}).json()["id"]
    refused = client.post(f"/api/games/{game_id}/moves", json={"op": "draw"},
                          headers={"If-Match": header})
    assert refused.status_code == 412
    assert refused.headers["etag"] == '"1"' and refused.json()["moves"] == []
    assert client.get(f"/api/games/{game_id}").json()["moves"] == []
    undone = client.post(f"/api/games/{game_id}/undo", headers={"If-Match": header})
    assert undone.status_code == 412


# --- the rules page's styles ----------------------------------------------------------------------
@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_rules_page_has_no_inline_style_in_any_language(client, language):
    """The Content-Security-Policy allows no inline style: the rules' tables once aligned their
    columns with style attributes (8 violations a visit)."""
    page = client.get("/rules", headers={"Accept-Language": language})
    assert page.status_code == 200 and f'lang="{language}' in page.text
    assert "style-src 'self'" in page.headers["content-security-policy"]
    assert not re.search(r"<[^>]*\sstyle\s*=", page.text, re.IGNORECASE)
    assert "<style" not in page.text.lower()
    assert "<table" in page.text and "<td" in page.text


# --- a damaged database file --------------------------------------------------------------------
def damage(path: Path, table: str) -> None:
    """Overwrite the first page of ``table`` with garbage, as a failing disk would."""
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                                  (table,)).fetchone()[0]
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    connection.close()
    with path.open("r+b") as file:
        file.seek((root - 1) * size)
        file.write(b"\xa5" * size)


def display_name_in(path: Path) -> list[str | None]:
    with sqlite3.connect(path) as connection:
        names = [row[0] for row in connection.execute("SELECT display_name FROM players")]
    connection.close()
    return names


def test_a_damaged_database_file_is_a_fault_the_operator_sees_and_takes_no_writes(
        sqlite_url, tmp_path):
    path = sqlite_file(sqlite_url)
    settings = make_settings(sqlite_url)
    with TestClient(create_app(settings)) as before:
        browser_like(before)
        game_id = before.post("/api/games", json={"deal": 7}).json()["id"]
        cookies, headers = dict(before.cookies), dict(before.headers)
    sqlite_backup(path, tmp_path / "backup.db")
    damage(path, "games")

    with TestClient(create_app(settings), raise_server_exceptions=False, cookies=cookies,
                    headers=headers) as client:
        assert client.get("/healthz").status_code == 200  # nothing has read the page yet
        read = client.get(f"/api/games/{game_id}")
        assert read.status_code == 503 and "Retry-After" not in read.headers
        assert "damaged" in read.json()["detail"] and "shortly" not in read.json()["detail"]
        health = client.get("/healthz")
        assert health.status_code == 503 and health.json()["status"] == "damaged"
        assert str(path) in health.json()["detail"]
        assert "malformed" in health.json()["detail"]
        # The players' table is whole, but the store takes no write into a damaged file.
        named = client.post("/stats/name", data={"name": "Ada"}, follow_redirects=False)
        assert named.status_code == 503 and "damaged" in named.text
        page = client.get(f"/games/{game_id}")
        assert page.status_code == 503 and "damaged" in page.text
        assert client.get("/rules").status_code == 200  # what needs no database still works
    assert "Ada" not in display_name_in(path)

    # Another process on the same file reports it at once, before it meets the page itself.
    with TestClient(create_app(settings), raise_server_exceptions=False) as other:
        assert other.get("/healthz").json()["status"] == "damaged"

    # A backup put back (app.backup restore) ends the fault: no restart needed.
    with TestClient(create_app(settings), raise_server_exceptions=False, cookies=cookies,
                    headers=headers) as client:
        assert client.get("/healthz").status_code == 503
        sqlite_restore(tmp_path / "backup.db", path)
        assert client.get("/healthz").json()["status"] == "ok"
        assert client.get(f"/api/games/{game_id}").status_code == 200
        named = client.post("/stats/name", data={"name": "Ada"}, follow_redirects=False)
        assert named.status_code == 303
    assert "Ada" in display_name_in(path)


# --- one log line per error -----------------------------------------------------------------------
@pytest.fixture
def failing(sqlite_url):
    """The app with routes that fail on purpose, two of them the same way."""
    app = create_app(make_settings(sqlite_url))
    add_test_routes(app)

    @app.get("/boom-again")
    def boom_again() -> None:
        raise RuntimeError("unforeseen")

    @app.get("/boom-value")
    def boom_value() -> None:
        raise ValueError("another kind")

    return app


def test_an_unforeseen_error_keeps_its_traceback_once_a_minute_per_kind(failing, captured):
    clock = [1000.0]
    failing.state.tracebacks.clock = lambda: clock[0]
    with TestClient(failing) as client:  # an answered error no longer escapes the app
        answers = [client.get(path) for path in
                   ("/boom", "/boom", "/boom-again", "/boom-value", "/boom")]
        clock[0] += 61
        answers.append(client.get("/boom"))
    assert [answer.status_code for answer in answers] == [500] * 6
    errors = [e for e in captured.entries() if e["level"] == "error"]
    assert [e["route"] for e in errors] == ["/boom", "/boom", "/boom-again", "/boom-value",
                                            "/boom", "/boom"]
    # The first of each kind (its type and the line that raised it) in a minute: whole.
    assert ["traceback" in e for e in errors] == [True, False, True, True, False, True]
    for entry in errors:
        assert entry["request_id"] and entry["message"].startswith("Unhandled error on GET")
    assert errors[1]["message"] == ("Unhandled error on GET /boom: RuntimeError: unforeseen "
                                    "(its traceback was logged less than a minute ago)")


def test_an_answered_error_is_logged_once_and_keeps_the_connection(failing, captured):
    """Starlette raises an error again once its 500 is sent, for the server to log: uvicorn
    logged every traceback a second time ("Exception in ASGI application") and closed the
    connection, so the client's next request on it failed."""
    server = uvicorn.Server(uvicorn.Config(failing, log_config=None, lifespan="on"))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.started, "the server to start")
        with httpx.Client(base_url=f"http://127.0.0.1:{sock.getsockname()[1]}",
                          timeout=10) as client:
            answers = [client.get("/boom").status_code for _ in range(3)]
            answers.append(client.get("/healthz").status_code)
    finally:
        server.should_exit = True
        thread.join(10)
    assert answers == [500, 500, 500, 200]
    lines = [e for e in captured.entries() if e["level"] == "error"]
    assert len(lines) == 3
    assert not [e for e in lines if "Exception in ASGI application" in e["message"]]


# --- what must not be kept by a cache ---------------------------------------------------------
def test_every_export_and_every_page_with_a_secret_is_never_stored(app, client):
    exports = sorted({route.path for route in flatten(app.routes)
                      if route.path.startswith("/stats/export")})
    assert exports == ["/stats/export.csv", "/stats/export.json"]
    game_id = client.post("/api/games", json={"deal": 7}).json()["id"]
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    client.post("/api/games", json={"deal": 8})  # the first ends: there is a game to export
    for path in exports:
        answer = client.get(path)
        assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store", path
    made = client.post("/stats/devices")  # shows the link's secret, once
    assert made.status_code == 200 and made.headers["cache-control"] == "no-store"
    link = re.search(r'<a href="https?://[^/"]+(/[^"]+)" data-device-link', made.text).group(1)
    asked = client.get(link)
    assert asked.status_code == 200 and asked.headers["cache-control"] == "no-store"
