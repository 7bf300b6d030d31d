"""Logs: one JSON object a line (LOG_FORMAT=json) with the request's id, route and game id;
tracebacks whole in the same line; X-Request-ID taken when safe, made otherwise, and sent
back; a database outage one line per request; device links' secrets in no line."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import re
import sys

from fastapi.testclient import TestClient

from app.logs import (
    CURRENT,
    JsonFormatter,
    RequestFields,
    StampRequest,
    TextFormatter,
    first_line,
    loggable_path,
    logging_config,
)


def test_a_json_line_keeps_a_traceback_whole_in_one_line():
    try:
        raise ValueError("first\nsecond")
    except ValueError:
        record = logging.LogRecord("pyramid.web", logging.ERROR, __file__, 1, "it %s", ("broke",),
                                   sys.exc_info())
    line = JsonFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["message"] == "it broke" and entry["level"] == "error"
    assert entry["traceback"].startswith("Traceback") and "ValueError: first\nsecond" in (
        entry["traceback"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", entry["time"])


def test_lines_written_during_a_request_carry_its_fields():
    token = CURRENT.set(RequestFields("abc123", {"route": type("R", (), {"path": "/x/{game_id}"})(),
                                                 "path_params": {"game_id": "G1"}}))
    try:
        record = logging.LogRecord("pyramid.web", logging.INFO, __file__, 1, "hello", (), None)
        StampRequest().filter(record)
    finally:
        CURRENT.reset(token)
    entry = json.loads(JsonFormatter().format(record))
    assert (entry["request_id"], entry["route"], entry["game_id"]) == ("abc123", "/x/{game_id}",
                                                                        "G1")
    assert TextFormatter().format(record).endswith("hello [abc123]")


def test_every_request_has_an_id_taken_when_safe_and_sent_back(client, captured):
    assert client.get("/healthz", headers={"X-Request-ID": "lb-7f3a.2"}).headers[
        "x-request-id"] == "lb-7f3a.2"
    for unsafe in ("with space", 'quote"d', "x" * 129, "", "-leading-dash", "a\tb"):
        made = client.get("/healthz", headers={"X-Request-ID": unsafe})
        assert re.fullmatch(r"[0-9a-f]{32}", made.headers["x-request-id"])
    ids = {client.get("/healthz").headers["x-request-id"] for _ in range(3)}
    assert len(ids) == 3


def test_the_access_line_has_the_route_the_status_the_time_and_the_game(client, captured):
    game = client.post("/api/games", json={"deal": 4}).json()["id"]
    answer = client.post(f"/api/games/{game}/moves", json={"op": "draw"})
    (line,) = [e for e in captured.entries() if e["logger"] == "pyramid.access"
               and e["request_id"] == answer.headers["x-request-id"]]
    assert line["route"] == "/api/games/{game_id}/moves" and line["game_id"] == game
    assert line["method"] == "POST" and line["status"] == 200
    assert line["path"] == f"/api/games/{game}/moves" and line["duration_ms"] > 0
    assert line["client"] == "testclient"


def test_a_device_links_secret_is_never_logged(client, captured):
    secret = "S3cr3tL1nkV4lu3-abcdefghijklmnop"
    client.get(f"/link/{secret}")
    client.post(f"/link/{secret}")
    assert captured.lines and not any(secret in line for line in captured.lines)
    assert any(e.get("path") == "/link/<secret>" for e in captured.entries())
    assert loggable_path(f"/link/{secret}/more") == "/link/<secret>/more"


def test_a_database_outage_is_one_line_per_request_without_a_traceback(hardened, captured):
    with TestClient(hardened, raise_server_exceptions=False) as client:
        answer = client.get("/boom-db")
    assert answer.status_code == 503
    errors = [e for e in captured.entries() if e["level"] == "error"]
    assert len(errors) == 1 and "traceback" not in errors[0]
    assert errors[0]["message"] == ("Database unavailable on GET /boom-db: "
                                    "Exception: server closed the connection")
    assert errors[0]["request_id"] == answer.headers["x-request-id"]
    assert errors[0]["route"] == "/boom-db"


def test_an_unforeseen_error_keeps_its_traceback_in_its_line(hardened, captured):
    with TestClient(hardened, raise_server_exceptions=False) as client:
        assert client.get("/boom").status_code == 500
    (error,) = [e for e in captured.entries() if e["logger"] == "pyramid.web"]
    assert "RuntimeError: unforeseen" in error["traceback"] and error["route"] == "/boom"


def test_the_first_line_of_an_error_names_its_kind():
    assert first_line(OSError("disk full\nmore")) == "OSError: disk full"
    assert first_line(RuntimeError()) == "RuntimeError"


def test_access_lines_go_to_stdout_and_the_rest_to_stderr(monkeypatch):
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    logging.config.dictConfig(logging_config("json"))
    try:
        logging.getLogger("pyramid.access").info("GET / 200")
        logging.getLogger("uvicorn.error").info("Started")
        logging.getLogger("pyramid.web").warning("careful")
    finally:
        logging.config.dictConfig({"version": 1, "disable_existing_loggers": False,
                                   "root": {"handlers": [], "level": "WARNING"},
                                   "loggers": {name: {"handlers": [], "propagate": True}
                                               for name in ("pyramid.access", "uvicorn",
                                                            "uvicorn.error", "uvicorn.access")}})
    assert [json.loads(line)["message"] for line in out.getvalue().splitlines()] == ["GET / 200"]
    assert [json.loads(line)["logger"] for line in err.getvalue().splitlines()] == [
        "uvicorn.error", "pyramid.web"]
