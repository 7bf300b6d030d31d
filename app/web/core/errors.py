"""Errors as the player sees them: the words, the API's one error shape, and its schema.

The handlers that turn exceptions into answers (a friendly page for the HTML routes, JSON for
the API) are in ``handlers``; this module imports nothing else of the web layer, so any part
of it may raise a ``PageError``.

No answer ever carries a traceback or echoes what was sent: FastAPI's own validation answer
repeats each bad ``input``, which cannot even be written as JSON when it is ``NaN`` or
``1e400``, so the API's 422 is built here from each problem's place and message only.

Every API error has one shape, ``Problem``: ``{"detail": "<a sentence>", "errors": [...]}``,
where ``errors`` lists each invalid field; a request the engine refuses (an illegal move) has
one entry whose ``type`` is the refusal's code and ``ctx`` its fields (``RefusedRequest``).
``document`` writes that shape, and every status an operation can answer, into the OpenAPI
schema, so the schema says exactly what the API does.

A database that cannot answer (down, restarting, its SQLite file gone or read-only for a
write) is an outage, not a bug in the request: 503, so clients and load balancers retry
later, and nothing of the driver's message (hosts, paths, SQL) reaches the caller. No state
is kept about it: the next request tries the database again, so the app recovers by itself.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.store.db import DatabaseUnavailable


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs (``pybabel extract`` knows ``N_``) without
    translating it: a text kept in English where it is stored, translated where a person reads
    it (``app.web.core.i18n.gettext(text)``). This module imports nothing of the web layer, not
    even the language's."""
    return message


TITLES: dict[int, str] = {
    400: N_("That didn't work"),
    403: N_("Not allowed"),
    404: N_("Page not found"),
    405: N_("Not allowed"),
    408: N_("Too slow"),
    409: N_("Something changed"),
    413: N_("Too much sent"),
    415: N_("That didn't work"),
    422: N_("That didn't work"),
    429: N_("Busy right now"),
    500: N_("Something went wrong"),
    503: N_("Not available right now"),
}
"""An error page's heading, by status, in English: ``gettext`` it."""

MESSAGES: dict[int, str] = {
    404: N_("There is nothing at this address. The game you want may be on the home page."),
    405: N_("This address can't be used that way. Start from the home page or the board "
            "instead."),
    413: N_("That was far more than any form here sends, so it was not read."),
    500: N_("Something went wrong on our side, and nothing you did caused it. Your games are "
            "saved: go back to the home page and carry on."),
    503: N_("The games' database is not answering at the moment, so nothing could be loaded "
            "or saved. Nothing you did caused it: please try again in a minute."),
}
"""An error page's sentence, by status, in English: ``gettext`` it."""

DATABASE_ERRORS = (DBAPIError, DisconnectionError, PoolTimeout, DatabaseUnavailable)
"""Every way the database can fail to answer: the DB-API's errors (OperationalError and its
kin, raised by the driver), a connection lost on checkout, no pooled connection free in time,
and a SQLite file that is gone or replaced."""


class PageError(Exception):
    """A 4xx answer for a page, with a title and a sentence written for the player."""

    def __init__(self, status_code: int, title: str, message: str,
                 link: tuple[str, str] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.title = title
        self.message = message
        self.link = link  # (href, text): the most useful next step, shown first
        self.headers = headers


CLEARER = {
    "int_type": N_("Input should be a whole number written as a JSON integer, like 42 "
                   "(not a string, a boolean or a decimal)"),
}
"""Clearer words than pydantic's for some problems: in English in the API's ``errors`` (as
pydantic's own are), translated in its ``detail`` (``app.web.core.refusals.problem_sentence``)."""


def problems(exc: RequestValidationError) -> list[dict[str, Any]]:
    """Each validation problem as where (``loc``), what (``msg``) and its kind, never the input."""
    return [{"loc": [p if isinstance(p, int) else str(p) for p in err.get("loc", ())],
             "msg": CLEARER.get(err.get("type", ""), str(err.get("msg", "Invalid value"))),
             "type": str(err.get("type", "value_error"))}
            for err in exc.errors()]


class RefusedRequest(HTTPException):
    """A request the engine refused (422): ``detail`` says why in the caller's language, and
    ``errors`` holds the refusal (``FieldProblem``: its code as ``type``, its fields as
    ``ctx``)."""

    def __init__(self, detail: str, errors: list[dict[str, Any]]) -> None:
        super().__init__(422, detail)
        self.errors = errors


class FieldProblem(BaseModel):
    loc: list[str | int] = Field(description="Where: e.g. [\"body\", \"cards\", 0]")
    msg: str = Field(description="What, in English")
    type: str = Field(description="Its kind: pydantic's, or a refusal's code (docs/api.md), "
                                  "e.g. covered, not_thirteen, stock_not_empty")
    ctx: dict[str, Any] | None = Field(
        default=None, description="A refusal's fields, e.g. {\"card\": \"4C\", \"by\": "
                                  "[\"KC\", \"AC\"]}; absent otherwise")


class Problem(BaseModel):
    """Every error the JSON API answers."""

    detail: str = Field(description="What went wrong, in a sentence")
    errors: list[FieldProblem] = Field(default_factory=list,
                                       description="Each invalid field; empty otherwise")


def problem(status_code: int, detail: str, errors: list[dict[str, Any]] | None = None,
            headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"detail": detail, "errors": errors or []}, status_code=status_code,
                        headers=headers)


BODY_NOT_JSON = "There was an error parsing the body"
"""FastAPI's 400 for a body that is not JSON at all: answered here as a 422 like any other
invalid body, so a client meets one kind of answer for "your request is malformed"."""


# --- the OpenAPI schema ------------------------------------------------------------------------
EVERY_OPERATION = {
    422: "The request is not valid (see ``errors``), or the engine refused it",
    503: "The database is unavailable: try again shortly",
}
WITH_A_BODY = {
    413: "The body is larger than the server takes",
    415: "The body is not application/json",
}


LOCAL_DEFINITION = "#/$defs/"
"""How a pydantic schema given whole to a route (``openapi_extra``) points to its own parts: a
place inside that schema, which nothing resolves once it sits deep in the OpenAPI document."""


def hoist_definitions(node: Any, components: dict[str, Any]) -> None:
    """Move every ``$defs`` found in ``node`` into the schema's components, and point its
    ``$ref``s there, so every ``$ref`` of the document resolves (the moves body's ``Op`` was
    ``#/$defs/Op``, which no client could find)."""
    if isinstance(node, list):
        for item in node:
            hoist_definitions(item, components)
        return
    if not isinstance(node, dict):
        return
    for name, definition in node.pop("$defs", {}).items():
        hoist_definitions(definition, components)
        if components.setdefault(name, definition) != definition:
            raise ValueError(f"two different schemas are named {name}")
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(LOCAL_DEFINITION):
        node["$ref"] = "#/components/schemas/" + ref.removeprefix(LOCAL_DEFINITION)
    for value in node.values():
        hoist_definitions(value, components)


def document(app: FastAPI) -> None:
    """Build the schema with one ``Problem`` shape for every error, and the statuses that every
    operation can answer (an invalid request, a database outage; a body too large or not
    JSON) beside those each route declares."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, summary=app.summary,
                             routes=app.routes)
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components["Problem"] = Problem.model_json_schema(
            ref_template="#/components/schemas/{model}")
        field = components["Problem"].pop("$defs", {}).get("FieldProblem")
        if field:
            components["FieldProblem"] = field
        ref = {"content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/Problem"}}}}
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                extra = dict(EVERY_OPERATION)
                if "requestBody" in operation:
                    extra.update(WITH_A_BODY)
                for code, text in extra.items():
                    responses.setdefault(str(code), {"description": text})
                for code, answer in responses.items():
                    if code.startswith(("4", "5")) and code != "412":
                        answer.update(ref)
                        answer.setdefault("description", "Error")
        for unused in ("HTTPValidationError", "ValidationError"):
            components.pop(unused, None)
        hoist_definitions(schema, components)
        app.openapi_schema = schema
        return schema

    # FastAPI's documented way to give an app its own schema; mypy flags any assigned method.
    app.openapi = openapi  # type: ignore[method-assign]
