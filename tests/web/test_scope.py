"""One answer, in ``app.web.core.scope``, to "is this request the API's?" and "may this method
change anything?": every part of the web layer asks it there, and a proxy's ``root_path``
does not change the answer."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import Request

from app.web.core.scope import STATE_CHANGING, is_api, route_path

APP = Path(__file__).resolve().parents[2] / "app"


def scope_of(path: str, root_path: str = "") -> dict:
    return {"type": "http", "method": "GET", "path": root_path + path, "root_path": root_path,
            "query_string": b"", "headers": []}


def test_the_api_is_told_by_its_path_within_the_app():
    assert is_api(scope_of("/api/games"))
    assert is_api(scope_of("/api/games", root_path="/pyramid"))
    assert route_path(scope_of("/api/games", root_path="/pyramid")) == "/api/games"
    assert not is_api(scope_of("/games/1"))
    assert not is_api(scope_of("/apiary"))
    assert not is_api(scope_of("/games/1", root_path="/api"))


def test_a_request_is_asked_through_its_scope():
    request = Request(scope_of("/api/odds", root_path="/pyramid"))
    assert is_api(request.scope)


def test_the_methods_that_change_state():
    assert {"POST", "PUT", "PATCH", "DELETE"} == STATE_CHANGING


def test_no_other_module_writes_these_rules_again():
    twice = []
    for path in sorted(APP.rglob("*.py")):
        if path == APP / "web" / "core" / "scope.py":
            continue
        text = path.read_text()
        if re.search(r"^STATE_CHANGING\s*=", text, re.M) or 'startswith("/api/")' in text:
            twice.append(str(path.relative_to(APP.parent)))
    assert twice == []
