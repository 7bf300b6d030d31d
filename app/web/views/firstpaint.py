"""The player's preferences on the first paint: read once per page, drawn on ``<html>``.

Every page's ``<html>`` carries the player's language (``lang``, ``app.web.core.i18n``), and their
theme, felt, card back, card size, motion, sound, hand and keyboard hints as ``data-*``
attributes (templates/base.html), and the stylesheet
(static/css/themes.css) does the rest. The server writes them into the page's very first
byte of markup, so the browser never paints the default theme first and then the player's,
and no script is needed to apply them.

``FirstPaint``, a pure ASGI middleware inside the player cookie's, reads them for each page
request (a GET that is not for a static file, the JSON API, or an htmx fragment: a fragment
lands in a page that already has them; or a form a browser posts as a navigation), with one query on
a worker thread, into ``request.state``. A player without a cookie yet has no preferences and
no games, so costs no query. Should the read fail, the page is drawn with the defaults: a
theme is never worth an error page (the route will meet a database that is down on its own
terms).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from jinja2 import pass_context
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from app.store import PageFacts, page_facts
from app.web.core import i18n
from app.web.core.preferences import Preferences
from app.web.core.scope import API_PREFIX, route_path
from app.web.core.threads import in_thread

log = logging.getLogger("pyramid.web")

STATE_KEY = "page_preferences"
NOT_PAGES = ("/static/", API_PREFIX, "/healthz", "/docs", "/openapi.json")
"""Paths whose GETs are never a page drawn from base.html."""


@dataclass(frozen=True, slots=True)
class Shown:
    """What a page draws from the player's preferences."""

    preferences: Preferences
    tips: bool
    """The first-game tips are on: not dismissed, and no game of the player has ended."""
    known: bool = True
    """False when the request's preferences were not read: not a page request (an htmx
    fragment lands in a page that has them), or the read failed."""

    @classmethod
    def of(cls, facts: PageFacts) -> Shown:
        preferences = Preferences.from_stored(facts.choices)
        return cls(preferences, tips=not preferences.tips_done and not facts.played)


FRESH = Shown(Preferences(), tips=True)
"""A player seen for the first time: the defaults, and the tips (they have played nothing)."""
UNKNOWN = Shown(Preferences(), tips=False, known=False)


def is_page_request(scope: Scope) -> bool:
    """A request whose answer may be a whole page: a GET of one, or a form the browser posts
    as a navigation (``Sec-Fetch-Dest: document``: a form sent without a script, which a page
    such as "Abandon your game?" may answer). Never a script's request: an htmx fragment lands
    in a page that has the preferences, a JSON answer needs none, and the language of either
    comes with it (``app.web.core.i18n.HEADER``)."""
    if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD", "POST"):
        return False
    if route_path(scope).startswith(NOT_PAGES):
        return False
    headers = Headers(scope=scope)
    if "hx-request" in headers:
        return False
    return scope["method"] != "POST" or headers.get("sec-fetch-dest") == "document"


class FirstPaint:
    """Puts the player's ``Shown`` preferences in ``request.state`` for every page request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if is_page_request(scope):
            state = scope.setdefault("state", {})
            state[STATE_KEY] = shown = await self.shown(scope, state)
            # The player's own language before what the browser asks (app/web/core/i18n.py).
            i18n.use(shown.preferences.language)
        await self.app(scope, receive, send)

    @staticmethod
    async def shown(scope: Scope, state: dict) -> Shown:
        if state.get("new_player", True):
            return FRESH
        database = scope["app"].state.db
        player_id = state["player_id"]

        def read() -> PageFacts:
            with database.sessions() as session:
                return page_facts(session, player_id)

        try:
            return Shown.of(await in_thread(read))
        except Exception as exc:  # whatever the driver raises: draw the page with defaults
            log.warning("Preferences of %s not read, defaults used: %s", player_id, exc)
            return UNKNOWN


def shown_for(request) -> Shown:
    """The request's ``Shown``: read by ``FirstPaint`` for a page, ``UNKNOWN`` otherwise."""
    return getattr(request.state, STATE_KEY, UNKNOWN)


@pass_context
def page_preferences(context) -> Shown:
    """``{% set shown = page_preferences() %}`` in a template."""
    return shown_for(context["request"])
