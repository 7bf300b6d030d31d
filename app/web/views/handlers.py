"""The exception handlers: every error becomes a friendly page for the HTML routes, or the
``Problem`` shape for the API (see ``errors``), never a traceback or an echo of the input.

Both in the request's language (``app.web.core.i18n``): a page's title and sentence, the API's
``detail``; the API's ``errors`` (each field's place, pydantic's message and kind) stay as
they are, for programs to read."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.logs import Tracebacks, first_line, loggable_path, mark_answered
from app.store import GameConflict
from app.web.core import metrics
from app.web.core.errors import (
    BODY_NOT_JSON,
    DATABASE_ERRORS,
    MESSAGES,
    TITLES,
    PageError,
    problem,
    problems,
)
from app.web.core.i18n import _l
from app.web.core.i18n import gettext as _
from app.web.core.refusals import VALUE_ERROR, problem_sentence, say
from app.web.core.scope import is_api
from app.web.views.templating import templates

log = logging.getLogger("pyramid.web")

RETRY_SOON = {"Retry-After": "5"}
"""A database outage: clients and load balancers try again after this many seconds."""

FRAMEWORK_DETAILS = {
    # TRANSLATORS: the JSON API's answer to an address that names nothing (HTTP's phrase).
    "Not Found": _l("Not Found"),
    # TRANSLATORS: the JSON API's answer to a method an address does not take (HTTP's phrase).
    "Method Not Allowed": _l("Method Not Allowed"),
}
"""Starlette's own details (HTTP's reason phrases), as the API answers them."""


def error_page(request: Request, status_code: int, title: object, message: object,
               link: tuple[str, object] | None = None,
               headers: dict[str, str] | None = None) -> Response:
    """The error page; ``title``, ``message`` and the link's text are already in the request's
    language (a lazy text, ``_l``, is read now)."""
    if link is not None:
        link = (link[0], str(link[1]))
    return templates.TemplateResponse(
        request, "error.html",
        {"status_code": status_code, "title": str(title), "message": str(message),
         "link": link},
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
        if is_api(request.scope):
            detail = exc.detail if isinstance(exc.detail, str) else _("Request refused.")
            if exc.status_code == 400 and detail == BODY_NOT_JSON:
                return problem(422, _("The body is not valid JSON."),
                               [{"loc": ["body"], "msg": "Invalid JSON", "type": "json_invalid"}])
            if detail in FRAMEWORK_DETAILS:
                detail = str(FRAMEWORK_DETAILS[detail])
            return problem(exc.status_code, detail, getattr(exc, "errors", None),
                           headers=headers)
        if exc.status_code in MESSAGES:
            message = _(MESSAGES[exc.status_code])
        else:
            message = exc.detail if isinstance(exc.detail, str) else _("Something went wrong.")
        title = _(TITLES[exc.status_code]) if exc.status_code in TITLES else _("Error")
        return error_page(request, exc.status_code, title, message, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        found = problems(exc)
        said = [problem_sentence(raw) for raw in exc.errors()]
        # Each problem as "where: what" (the field's place as the API names it).
        summary = "; ".join(f"{'.'.join(str(p) for p in err['loc'][1:])}: {what}"
                            for err, what in zip(found, said, strict=True))
        if is_api(request.scope):
            # TRANSLATORS: %(problems)s lists each invalid field as "field: problem".
            return problem(422, _("The request is not valid: %(problems)s.", problems=summary),
                           found)
        if found and all(err["loc"][:1] == ["path"] for err in found):
            # A page's address that names nothing (a deal link with a deal number written
            # another way, say): there is no such page.
            what = "; ".join(sentence.removeprefix(VALUE_ERROR) for sentence in said)
            # TRANSLATORS: %(problems)s says what is wrong with the address (a deal number).
            message = _("There is nothing at this address: %(problems)s.", problems=what)
            return error_page(request, 404, _(TITLES[404]), message,
                              link=("/", _("Home page")))
        # TRANSLATORS: %(problems)s lists each invalid field as "field: problem".
        message = _("The request was not understood (%(problems)s).", problems=summary)
        return error_page(request, 400, _(TITLES[400]), message)

    @app.exception_handler(GameConflict)
    async def _conflict(request: Request, exc: GameConflict) -> Response:
        """A write that lost a race with another tab and that its route did not answer itself
        (a start that kept conflicting, ``actions.StartConflict``): 409 with its sentence, in
        the request's language, so the caller can try again; nothing was done."""
        message = say(exc.refusal) if exc.refusal is not None else str(exc)
        if is_api(request.scope):
            return problem(409, message)
        return error_page(request, 409, _(TITLES[409]), message, link=("/", _("Home page")))

    async def _database_unavailable(request: Request, exc: Exception) -> Response:
        """An outage is the database's state, not a bug here: one line per request with the
        error's first line (a disk-full spell once wrote a 75-line traceback per 503),
        counted by kind in the metrics. A damaged SQLite file is no outage that passes: its
        answer says so, with no Retry-After (``app.store.db``; /healthz gives the reason)."""
        metrics.db_errors.labels(type(exc).__name__).inc()
        if request.app.state.db.damage() is not None:
            log.error("Database damaged, refused %s %s: %s", request.method,
                      loggable_path(request.url.path), first_line(exc))
            if is_api(request.scope):
                return problem(503, _("The database is damaged, so the request was not "
                                      "completed. Trying again will not help until the "
                                      "site's operator repairs it."))
            return error_page(request, 503, _(TITLES[503]), _(
                "The games' database is damaged, so nothing could be loaded or saved. "
                "Nothing you did caused it, and trying again will not help until the site's "
                "operator repairs it."))
        log.error("Database unavailable on %s %s: %s", request.method,
                  loggable_path(request.url.path), first_line(exc))
        if is_api(request.scope):
            return problem(503, _("The database is unavailable, so the request was not "
                                  "completed. Please try again shortly."), headers=RETRY_SOON)
        return error_page(request, 503, _(TITLES[503]), _(MESSAGES[503]),
                          headers=RETRY_SOON)

    for kind in DATABASE_ERRORS:
        app.add_exception_handler(kind, _database_unavailable)

    tracebacks = app.state.tracebacks = Tracebacks()

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        """Anything unforeseen: logged here, with its traceback the first time of its kind in a
        minute (``Tracebacks``) and in one line with its kind otherwise; a short apology to the
        caller. Starlette raises the error again once this is sent, for the server to log:
        marked answered, ``app.web.core.observe`` ends it there, so it is logged once and the
        connection is kept (uvicorn logged every traceback a second time, and closed it)."""
        path = loggable_path(request.url.path)
        if tracebacks.due(exc):
            log.error("Unhandled error on %s %s", request.method, path, exc_info=exc)
        else:
            log.error("Unhandled error on %s %s: %s (its traceback was logged less than a "
                      "minute ago)", request.method, path, first_line(exc))
        mark_answered(exc)
        if is_api(request.scope):
            return problem(500, _("Internal server error: the request was not completed. "
                                  "Please try again."))
        return error_page(request, 500, _(TITLES[500]), _(MESSAGES[500]))


