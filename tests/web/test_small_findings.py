"""The smaller findings of issue 34 (item 10): a deeply nested import, a damaged database file,
the moves schema's ``$ref``, an empty ``If-Match``, the rules page's styles, one log line per
error, and ``Cache-Control: no-store`` on what must not be kept."""

from __future__ import annotations

from typing import Any

from .helpers import start_deal  # noqa: F401


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
