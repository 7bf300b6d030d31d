"""Links: every URL the app writes is built here from its route's name, never by hand.

``path_for`` is Starlette's ``url_path_for`` plus a query string; templates call it as
``path_for("board", game_id=record.id)`` (a Jinja global). A path is relative to the site, so
a page behind a proxy links to itself whatever scheme the proxy speaks; ``absolute_url`` is
for the few links that leave the page (share links, exports), on BASE_URL when it is set.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any
from urllib.parse import urlencode

from jinja2 import pass_context
from starlette.requests import HTTPConnection
from starlette.routing import BaseRoute, NoMatchFound

from app.engine import Variant
from app.settings import Settings


def _route_named(app: Any, name: str) -> BaseRoute | None:
    """The first of ``app``'s routes called ``name`` (None when there is none), found in an
    index kept on the app (with how many routes it had: tests add routes to an app).
    Starlette's ``url_path_for`` asks the routes in turn, each one not called ``name``
    refusing with an exception raised and caught; a page writes a dozen links or more, and the
    404 page spent a third of its time there (a flood of 404s held the event loop)."""
    routes = app.router.routes
    known = getattr(app.state, "routes_by_name", None)
    if known is None or known[0] != len(routes):
        index: dict[str, BaseRoute] = {}
        for route in routes:
            if (route_name := getattr(route, "name", None)) is not None:
                index.setdefault(route_name, route)
        known = app.state.routes_by_name = (len(routes), index)
    return known[1].get(name)


def path_for(request: HTTPConnection, name: str, /, query: dict[str, Any] | None = None,
             **params: Any) -> str:
    """The path of the route called ``name`` with these path parameters, and ``query`` (its
    None values left out) as the query string."""
    texts = {k: str(v) for k, v in params.items()}
    route, found = _route_named(request.app, name), None
    if route is not None:
        with suppress(NoMatchFound):
            found = route.url_path_for(name, **texts)
    # Else a mount's inner name, or a second route of that name: as Starlette finds it.
    path = str(found or request.app.url_path_for(name, **texts))
    wanted = {key: value for key, value in (query or {}).items() if value is not None}
    return f"{path}?{urlencode(wanted)}" if wanted else path


def rules_query(variant: Variant) -> dict[str, Any]:
    """A rule set as the query string of a deal link or a daily link: ``goal`` and ``passes``."""
    return {"goal": variant.goal.value, "passes": variant.passes}


def deal_path(request: HTTPConnection, number: int | str | None,
              variant: Variant) -> str | None:
    """The deal link that starts deal ``number`` with these rules (None for a custom deal)."""
    if number is None:
        return None
    return path_for(request, "deal_link", query=rules_query(variant), number=number)


def challenge_path(request: HTTPConnection, number: int | str, variant: Variant,
                   key: str) -> str:
    """A challenge link's path: the deal link plus the key of the sender's ended game
    (``services.results`` says what a challenge is)."""
    return path_for(request, "deal_link", number=number,
                    query={**rules_query(variant), "challenge": key})


def challenge_url(request: HTTPConnection, record: Any) -> str | None:
    """The challenge link of an ended game of a numbered deal with moves (None otherwise, and
    for a game the server did not see end, such as an imported one: it has no key)."""
    if (record.deal_number is None or not record.status.ended or not record.move_count
            or record.id is None or not record.challenge_key):
        return None
    return absolute_url(request, challenge_path(request, record.deal_number, record.variant,
                                                record.challenge_key))


def absolute_url(request: HTTPConnection, path: str) -> str:
    """The absolute URL of ``path`` (which starts with one ``/``, and may have a query) for
    share and export links: from BASE_URL when set, else from the request's scheme and Host,
    which TrustedHostMiddleware has already checked against ALLOWED_HOSTS."""
    if not path.startswith("/") or path.startswith("//"):
        raise ValueError(f"absolute_url takes a path starting with a single '/', not {path!r}")
    settings: Settings = request.app.state.settings
    base = settings.base_url or str(request.base_url).rstrip("/")
    return base + path


@pass_context
def template_path_for(context, name: str, /, query: dict[str, Any] | None = None,
                      **params: Any) -> str:
    """``{{ path_for("board", game_id=record.id) }}`` in a template."""
    return path_for(context["request"], name, query=query, **params)


@pass_context
def template_deal_path(context, number: int | str | None, variant: Variant) -> str | None:
    """``{{ deal_path(record.deal_number, record.variant) }}`` in a template."""
    return deal_path(context["request"], number, variant)
