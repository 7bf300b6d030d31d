"""The smaller findings of issue 34 (item 10): a deeply nested import, a damaged database file,
the moves schema's ``$ref``, an empty ``If-Match``, the rules page's styles, one log line per
error, and ``Cache-Control: no-store`` on what must not be kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.backup import sqlite_backup, sqlite_restore
from app.main import create_app
from app.store.db import sqlite_file
from tests.conftest import make_settings

from .conftest import browser_like


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
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get(f"/api/games/{game_id}").status_code == 200
        named = client.post("/stats/name", data={"name": "Ada"}, follow_redirects=False)
        assert named.status_code == 303
    assert "Ada" in display_name_in(path)
