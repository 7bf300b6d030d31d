"""The exception handlers: every error becomes a friendly page for the HTML routes, or the
``Problem`` shape for the API (see ``errors``), never a traceback or an echo of the input."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.logs import first_line, loggable_path
from app.web import metrics
from app.web.errors import (
    BODY_NOT_JSON,
    DATABASE_ERRORS,
    MESSAGES,
    TITLES,
    PageError,
    is_api,
    problem,
    problems,
)
from app.web.templating import templates

log = logging.getLogger("pyramid.web")

RETRY_SOON = {"Retry-After": "5"}
"""A database outage: clients and load balancers try again after this many seconds."""


def error_page(request: Request, status_code: int, title: str, message: str,
               link: tuple[str, str] | None = None,
               headers: dict[str, str] | None = None) -> Response:
    return templates.TemplateResponse(
        request, "error.html",
        {"status_code": status_code, "title": title, "message": message, "link": link},
        status_code=status_code, headers=headers,
    )


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""

    @app.exception_handler(PageError)
    async def _page_error(request: Request, exc: PageError) -> Response:
        return error_page(request, exc.status_code, exc.title, exc.message, exc.link,
                          headers=exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        headers = dict(exc.headers) if exc.headers else None
        if is_api(request):
            detail = exc.detail if isinstance(exc.detail, str) else "Request refused."
            if exc.status_code == 400 and detail == BODY_NOT_JSON:
                return problem(422, "The body is not valid JSON.",
                               [{"loc": ["body"], "msg": "Invalid JSON", "type": "json_invalid"}])
            return problem(exc.status_code, detail, headers=headers)
        message = MESSAGES.get(exc.status_code) or (
            exc.detail if isinstance(exc.detail, str) else "Something went wrong.")
        return error_page(request, exc.status_code, TITLES.get(exc.status_code, "Error"),
                          message, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        found = problems(exc)
        summary = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'][1:])}: {err['msg']}" for err in found)
        if is_api(request):
            return problem(422, f"The request is not valid: {summary}.", found)
        if found and all(err["loc"][:1] == ["path"] for err in found):
            # A page's address that names nothing (a deal link with a deal number written
            # another way, say): there is no such page.
            message = "There is nothing at this address: " + "; ".join(
                err["msg"].removeprefix("Value error, ") for err in found) + "."
            return error_page(request, 404, TITLES[404], message, link=("/", "Home page"))
        message = f"The request was not understood ({summary})."
        return error_page(request, 400, TITLES[400], message)

    async def _database_unavailable(request: Request, exc: Exception) -> Response:
        """An outage is the database's state, not a bug here: one line per request with the
        error's first line (a disk-full spell once wrote a 75-line traceback per 503),
        counted by kind in the metrics."""
        log.error("Database unavailable on %s %s: %s", request.method,
                  loggable_path(request.url.path), first_line(exc))
        metrics.db_errors.labels(type(exc).__name__).inc()
        if is_api(request):
            return problem(503, "The database is unavailable, so the request was not "
                                "completed. Please try again shortly.", headers=RETRY_SOON)
        return error_page(request, 503, TITLES[503], MESSAGES[503], headers=RETRY_SOON)

    for kind in DATABASE_ERRORS:
        app.add_exception_handler(kind, _database_unavailable)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        """Anything unforeseen: logged in full here, a short apology to the caller."""
        log.error("Unhandled error on %s %s", request.method, loggable_path(request.url.path),
                  exc_info=exc)
        if is_api(request):
            return problem(500, "Internal server error: the request was not completed. "
                                "Please try again.")
        return error_page(request, 500, TITLES[500], MESSAGES[500])


