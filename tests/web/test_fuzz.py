"""The JSON API against its own OpenAPI schema, fuzzed by schemathesis: no request, however
odd, gets a 5xx, and every answer has a documented status and the documented shape.

A short run (a few examples per operation) keeps the suite quick; ``make fuzz`` runs the same
checks with many more examples. Requests carry a player cookie and the ids of real games of
that player, so moves, undos and hints reach a game rather than stopping at a 404.
"""

from __future__ import annotations

import os
import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from app.main import create_app
from app.prestart import migrate
from app.web.core.player import PlayerCookie
from tests.conftest import make_settings

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
PLAYER = "fuzz-player"


FOLDER = tempfile.TemporaryDirectory(prefix="pyramid-fuzz-")
"""The app's database: made when this module is collected (the schema, read then, is what
parametrizes the test) and removed at exit; migrated only when the tests run (``game_id``)."""
DATABASE_URL = f"sqlite:///{FOLDER.name}/fuzz.db"
APP = create_app(make_settings(DATABASE_URL))
COOKIE = f"{APP.state.settings.cookie_name}={PlayerCookie(APP.state.settings).sign(PLAYER)}"
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module")
def game_id() -> str:
    from fastapi.testclient import TestClient

    migrate(DATABASE_URL)
    with TestClient(APP) as client:
        created = client.post("/api/games", json={"deal": 617}, headers={"Cookie": COOKIE})
        assert created.status_code == 201
        return created.json()["id"]


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_contract(case, game_id):
    if "game_id" in (case.path_parameters or {}) and case.path_parameters["game_id"] != "":
        case.path_parameters["game_id"] = game_id
    case.call_and_validate(headers={"Cookie": COOKIE}, checks=CHECKS)
