"""Errors as the player sees them: a friendly page for the HTML routes, JSON for the API."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exception_handlers import (
    http_exception_handler,
    request_validation_exception_handler,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.web.templating import templates

TITLES = {
    400: "That didn't work",
    403: "Not allowed",
    404: "Page not found",
    405: "Not allowed",
    409: "Something changed",
    422: "That didn't work",
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
               link: tuple[str, str] | None = None) -> Response:
    return templates.TemplateResponse(
        request, "error.html",
        {"status_code": status_code, "title": title, "message": message, "link": link},
        status_code=status_code,
    )


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""

    @app.exception_handler(PageError)
    async def _page_error(request: Request, exc: PageError) -> Response:
        return error_page(request, exc.status_code, exc.title, exc.message, exc.link)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if is_api(request) or exc.status_code >= 500:
            return await http_exception_handler(request, exc)
        message = exc.detail if isinstance(exc.detail, str) else "Something went wrong."
        if exc.status_code == 404:
            message = "There is nothing at this address. The game you want may be on the home page."
        return error_page(request, exc.status_code, TITLES.get(exc.status_code, "Error"),
                          message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        if is_api(request):
            return await request_validation_exception_handler(request, exc)
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'][1:])}: {err['msg']}" for err in exc.errors())
        message = f"The request was not understood ({problems})."
        return error_page(request, 400, TITLES[400], message)
