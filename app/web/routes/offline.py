"""Playing with no network, and installing the site as an app: the service worker, the web
manifest, the shell page the worker shows when a board can't be fetched, and what a device
fetches ahead to start games offline.

- ``/sw.js`` is written for this release (``assets.RELEASE``): its cache holds exactly this
  release's files, under addresses that name the release, so a page is only ever given the
  scripts it was written with. A new release's worker waits until no page uses the old one
  (the next visit), never taking over in the middle of a game.
- ``/offline`` is a board with no game: its script shows what the address asks for from what
  the device keeps (static/js/board/start.js).
- ``/api/offline-pack``: the deals of the day for the next days and some proven-winnable deals
  of each rule set, so that "Deal of the day" and "Winnable deals only" start offline too.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app import odds
from app.engine import VARIANTS, Deal
from app.store import preview
from app.web.core import assets, i18n
from app.web.core.deps import PlayerDep
from app.web.core.i18n import gettext as _
from app.web.core.i18n import pgettext
from app.web.core.links import BoardUrls, board_links, path_for
from app.web.services.starting import drawn_stamp, today
from app.web.views.boardpage import render_board
from app.web.views.templating import templates

router = APIRouter(include_in_schema=False)

DAYS_AHEAD = odds.DAYS_TOLD_AHEAD  # what the analyses keep private (odds.in_play)
WINNABLE_AHEAD = 12
"""Proven-winnable deals sent for each rule set: "Winnable deals only" offline picks among
them."""
NEVER_KEPT = {"Cache-Control": "no-cache"}
BY_LANGUAGE = {"Vary": "Accept-Language, Cookie"}
"""An answer in the request's language: the browser's, or the player's choice (their cookie)."""
SHELL_DEAL = 1
KEPT_PAGES = ("home", "rules", "settings", "odds")
"""Pages the worker keeps as last drawn, for a visit with no network. Never a personal page
(the statistics, the calendar: a shared browser's next user would read them offline); the
home page is kept without the game in progress (``KEPT_HEADER``)."""
KEPT_HEADER = "x-pyramid-kept"
"""The worker's own fetch of a page it keeps: drawn without what belongs to one player."""
"""Pages the worker keeps a copy of as they are visited, to show them with no network."""


@router.get("/sw.js", name="service_worker")
def service_worker(request: Request) -> Response:
    """The service worker, for this release. Asked at every visit (never kept by a cache), so
    a release's new worker is found at once; its cache holds the release's shell."""
    script = templates.get_template("sw.js").render(
        release=assets.RELEASE, precache=assets.precache(request),
        shell=path_for(request, "offline_shell"), new_game=path_for(request, "new_game"),
        pack=path_for(request, "offline_pack"),
        deal_link=path_for(request, "deal_link", number="NUMBER"), boards=board_patterns(request),
        kept_pages=[path_for(request, name) for name in KEPT_PAGES])
    return Response(script, media_type="text/javascript", headers={
        **NEVER_KEPT, "Service-Worker-Allowed": "/"})


def board_patterns(request: Request) -> list[str]:
    """The addresses of boards (a game, a deal, the deal of the day) as patterns: with no
    network the worker answers them with the offline board."""
    game = re.escape(path_for(request, "board", game_id="ID")).replace("ID", "[^/]+")
    deal = re.escape(path_for(request, "deal_link", number="0")).replace("0", r"\d+", 1)
    daily = re.escape(path_for(request, "daily"))
    return [f"^{game}/?$", f"^{deal}/?$", f"^{daily}/?$"]


@router.get("/manifest.webmanifest", name="manifest")
def manifest(request: Request) -> Response:
    """What a phone needs to put the site on its home screen as an app, in the request's
    language (its names and description, and ``lang``)."""
    icons = [{"src": assets.url(f"icons/{name}"), "sizes": size, "type": "image/png",
              "purpose": purpose} for name, size, purpose in assets.ICONS]
    language = i18n.current_language()
    body = {"name": _("Pyramid Solitaire"),
            # TRANSLATORS: the app's name under its icon on a phone's home screen: short.
            "short_name": pgettext("app name", "Pyramid"),
            "description": _("Pyramid Solitaire: the standard and whole-deck goals, a solver "
                             "that knows which deals can be won, and deal links to share."),
            "lang": language.code, "dir": language.direction,
            "start_url": path_for(request, "home"), "scope": "/", "id": "/",
            "display": "standalone", "background_color": assets.FELT_DARK,
            "theme_color": assets.FELT, "icons": icons}
    return JSONResponse(body, media_type="application/manifest+json",
                        headers={**NEVER_KEPT, **BY_LANGUAGE})


@router.get("/offline", name="offline_shell")
def offline_shell(request: Request, player_id: PlayerDep) -> Response:
    """A board with no game: the worker shows it for a board, a deal, the deal of the day or a
    new game when the network is away, and the page's script draws the game the device keeps
    (or begins one). It is deal 1's empty board, which the script redraws."""
    shown = preview(player_id, Deal.from_number(SHELL_DEAL), "standard", 3)
    shell = {"routes": {
        "home": path_for(request, "home"),
        "board": path_for(request, "board", game_id="GAME"),
        "deal_link": path_for(request, "deal_link", number="NUMBER"),
        "deal_play": path_for(request, "deal_play", number="NUMBER"),
        "daily": path_for(request, "daily"),
        "daily_play": path_for(request, "daily_play")},
        "random_deal_max": request.app.state.settings.random_deal_max}
    urls = BoardUrls(play=path_for(request, "deal_play", number=SHELL_DEAL),
                     hint=path_for(request, "deal_hint", number=SHELL_DEAL))
    response = render_board(request, shown, player_id, board_links(request, shown.record, urls),
                            extras={"shell_data": shell, "shell": True})
    response.headers.update(NEVER_KEPT)
    return response


LEARN_DEAL = 617
"""Learn in a minute: a deal whose bottom row has a pair (8♦ and 5♥) and a King (K♦) free."""


@router.get("/learn", name="learn")
def learn(request: Request, player_id: PlayerDep) -> Response:
    """A short guided game on a fixed deal: a pair, a King, a draw, a recycle, each pointed at
    on the board. Played on the page alone (nothing is stored, nothing counts); skippable. It
    needs no network: the worker keeps it."""
    shown = preview(player_id, Deal.from_number(LEARN_DEAL), "standard", 3)
    urls = BoardUrls(play=path_for(request, "learn"), hint=path_for(request, "learn"))
    response = render_board(request, shown, player_id, board_links(request, shown.record, urls),
                            extras={"learn": True, "skip_url": path_for(request, "home")})
    response.headers.update(NEVER_KEPT)
    return response


@router.get("/api/offline-pack", name="offline_pack")
def offline_pack(request: Request) -> JSONResponse:
    """The deals of the day of today and the next days, and proven-winnable deals, for each
    rule set (``goal-passes``), and the day it was drawn, signed (``drawn``: a deal of the day
    begun from it without network counts for its day: ``starting.counts_for_its_day``). The
    same for everyone: cached by browsers for an hour."""
    start = today().date()
    days: list[dict[str, Any]] = []
    for ahead in range(DAYS_AHEAD + 1):
        day = start + timedelta(days=ahead)
        days.append({"date": day.isoformat(), "deals": {
            variant.key: str(odds.daily_deal(day, variant)) for variant in VARIANTS}})
    winnable = {variant.key: [str(odds.winnable_deal(variant)) for _ in range(WINNABLE_AHEAD)]
                for variant in VARIANTS}
    return JSONResponse({"days": days, "winnable": winnable,
                         "drawn": drawn_stamp(request)},
                        headers={"Cache-Control": "private, max-age=3600"})
