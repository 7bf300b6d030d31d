"""What the web layer needs to know about htmx, in one place.

A request from htmx carries ``HX-Request: true`` and gets the fragments it swaps; the board's
script asks for JSON (``wants_json``); any other request gets a whole page, or a 303 back to
one after a form.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import RedirectResponse

NO_STORE = {"Cache-Control": "no-store"}
"""Game pages and the home page are never kept by the browser: Back, Forward and reload show
the position the server holds (and the home page's "Continue your game")."""


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


def wants_json(request: Request) -> bool:
    """The board's script asks for the game as data (``Accept: application/json``): it draws
    the board itself, from its own engine."""
    return "application/json" in request.headers.get("Accept", "")


def see_other(url: str) -> RedirectResponse:
    """POST, then redirect: a reload of the page that follows never posts the form again."""
    return RedirectResponse(url, status_code=303)
