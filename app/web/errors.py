"""Errors as the player sees them: a friendly page for the HTML routes, JSON for the API.

No answer ever carries a traceback or echoes what was sent: FastAPI's own validation answer
repeats each bad ``input``, which cannot even be written as JSON when it is ``NaN`` or
``1e400``, so the API's 422 is built here from each problem's place and message only.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.web.templating import templates

log = logging.getLogger("pyramid.web")

TITLES = {
    400: "That didn't work",
    403: "Not allowed",
    404: "Page not found",
    405: "Not allowed",
    409: "Something changed",
    422: "That didn't work",
    500: "Something went wrong",
}

MESSAGES = {
    404: "There is nothing at this address. The game you want may be on the home page.",
    405: "This address can't be used that way. Start from the home page or the board instead.",
    500: "Something went wrong on our side, and nothing you did caused it. Your games are saved: "
         "go back to the home page and carry on.",
}


class PageError(Exception):
    """A 4xx answer for a page, with a title and a sentence written for the player."""

    def __init__(self, status_code: int, title: str, message: str,
                 link: tuple[str, str] | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.title = title
        self.message = message
        self.link = link  # (href, text): the most useful next step, shown first


def is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def error_page(request: Request, status_code: int, title: str, message: str,
               link: tuple[str, str] | None = None,
               headers: dict[str, str] | None = None) -> Response:
    return templates.TemplateResponse(
        request, "error.html",
        {"status_code": status_code, "title": title, "message": message, "link": link},
        status_code=status_code, headers=headers,
    )


CLEARER = {
    "int_type": "Input should be a whole number written as a JSON integer, like 42 "
                "(not a string, a boolean or a decimal)",
}


def problems(exc: RequestValidationError) -> list[dict[str, Any]]:
    """Each validation problem as where (``loc``), what (``msg``) and its kind, never the input."""
    return [{"loc": [p if isinstance(p, int) else str(p) for p in err.get("loc", ())],
             "msg": CLEARER.get(err.get("type", ""), str(err.get("msg", "Invalid value"))),
             "type": str(err.get("type", "value_error"))}
            for err in exc.errors()]


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""

    @app.exception_handler(PageError)
    async def _page_error(request: Request, exc: PageError) -> Response:
        return error_page(request, exc.status_code, exc.title, exc.message, exc.link)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        headers = dict(exc.headers) if exc.headers else None
        if is_api(request):
            detail = exc.detail if isinstance(exc.detail, str) else "Request refused."
            return JSONResponse({"detail": detail}, status_code=exc.status_code,
                                headers=headers)
        message = MESSAGES.get(exc.status_code) or (
            exc.detail if isinstance(exc.detail, str) else "Something went wrong.")
        return error_page(request, exc.status_code, TITLES.get(exc.status_code, "Error"),
                          message, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        found = problems(exc)
        if is_api(request):
            return JSONResponse({"detail": found}, status_code=422)
        summary = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'][1:])}: {err['msg']}" for err in found)
        message = f"The request was not understood ({summary})."
        return error_page(request, 400, TITLES[400], message)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        """Anything unforeseen: logged in full here, a short apology to the caller."""
        log.error("Unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
        if is_api(request):
            return JSONResponse({"detail": "Internal server error: the request was not "
                                           "completed. Please try again."}, status_code=500)
        return error_page(request, 500, TITLES[500], MESSAGES[500])
