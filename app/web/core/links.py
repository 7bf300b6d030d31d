"""Links: every URL the app writes is built here from its route's name, never by hand.

``path_for`` is Starlette's ``url_path_for`` plus a query string; templates call it as
``path_for("board", game_id=record.id)`` (a Jinja global). A path is relative to the site, so
a page behind a proxy links to itself whatever scheme the proxy speaks; ``absolute_url`` is
for the few links that leave the page (share links, exports), on BASE_URL when it is set.
``board_links`` makes every address one board answer writes, at once.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from jinja2 import pass_context
from starlette.requests import HTTPConnection
from starlette.routing import BaseRoute, NoMatchFound

from app.engine import Variant
from app.settings import Settings
from app.web.core import utcday


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


# --- a board's addresses -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BoardUrls:
    """Where the board's forms post: the game's own routes, or for a game not started yet
    (a deal link, the deal of the day) the routes that start it with the first input."""

    play: str
    hint: str
    undo: str | None = None

    @classmethod
    def of_game(cls, request: HTTPConnection, game_id: str) -> BoardUrls:
        return cls(play=path_for(request, "play", game_id=game_id),
                   hint=path_for(request, "hint", game_id=game_id),
                   undo=path_for(request, "undo", game_id=game_id))


@dataclass(frozen=True, slots=True)
class BoardLinks:
    """Every address a board answer writes or sends the browser to (``board_links``): those
    of every answer at once; those only a drawn page or a game just stored shows, when asked
    (the script's answers to its batches, the hot path, need none of them)."""

    request: HTTPConnection
    record: Any
    posts: BoardUrls
    """Where the board's forms post."""
    board: str | None
    """The game's own board; None for a game not stored yet."""
    back: str | None
    """Where a form's POST sends the browser: the board, with the card it left selected."""

    def share(self) -> str | None:
        """The deal's link, absolute (None for a custom deal)."""
        path = deal_path(self.request, self.record.deal_number, self.record.variant)
        return absolute_url(self.request, path) if path else None

    def challenge(self) -> str | None:
        """The game's challenge link (``challenge_url``)."""
        return challenge_url(self.request, self.record)

    def page(self) -> dict[str, str | None]:
        """Where the board's script sends each input (``page_urls``)."""
        return page_urls(self.request, self.record, self.posts)


def board_links(request: HTTPConnection, record: Any, posts: BoardUrls | None = None, *,
                selected: str | None = None) -> BoardLinks:
    """The addresses of ``record``'s board, whose forms post to ``posts`` (by default the
    game's own routes) and which leaves ``selected`` selected after a form."""
    stored = record.id is not None
    return BoardLinks(
        request=request, record=record,
        posts=posts or BoardUrls.of_game(request, record.id),
        board=path_for(request, "board", game_id=record.id) if stored else None,
        back=path_for(request, "board", query={"selected": selected}, game_id=record.id)
        if stored else None)


def page_urls(request: HTTPConnection, record: Any, urls: BoardUrls) -> dict[str, str | None]:
    """Where the board's script sends each input of this game (a game not stored yet has
    only its deal page's)."""
    stored = record.id is not None

    def of_game(name: str) -> str | None:
        return path_for(request, name, game_id=record.id) if stored else None

    return {"play": urls.play, "hint": urls.hint, "undo": urls.undo,
            "pause": of_game("pause"), "resume": of_game("resume"),
            "restart": of_game("restart"), "board": of_game("board"),
            "new_game": path_for(request, "new_game"), **again_urls(request, record)}


def again_urls(request: HTTPConnection, record: Any) -> dict[str, str | None]:
    """Where "Play this deal again" begins its game on the page (its first batch starts it, as
    a deal page's does), and the address it shows meanwhile: the deal link; today's deal of
    the day stays the deal of the day. A custom deal has none: its form starts it."""
    if record.deal_number is None:
        return {"again": None, "again_hint": None, "again_page": None}
    rules = rules_query(record.variant)
    if record.daily is not None and record.daily == utcday.today().date():
        day = {**rules, "day": record.daily.isoformat()}
        return {"again": path_for(request, "daily_play", query=day),
                "again_hint": path_for(request, "daily_hint", query=day),
                "again_page": path_for(request, "daily", query=rules)}
    number = record.deal_number
    return {"again": path_for(request, "deal_play", query=rules, number=number),
            "again_hint": path_for(request, "deal_hint", query=rules, number=number),
            "again_page": path_for(request, "deal_link", query=rules, number=number)}


@pass_context
def template_path_for(context, name: str, /, query: dict[str, Any] | None = None,
                      **params: Any) -> str:
    """``{{ path_for("board", game_id=record.id) }}`` in a template."""
    return path_for(context["request"], name, query=query, **params)


@pass_context
def template_deal_path(context, number: int | str | None, variant: Variant) -> str | None:
    """``{{ deal_path(record.deal_number, record.variant) }}`` in a template."""
    return deal_path(context["request"], number, variant)
