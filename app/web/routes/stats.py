"""The statistics pages: figures and charts per variant, history, export, reset, display name.

Everything is the caller's own (their player cookie); another player's games never appear.
The figures come from the store's SQL aggregates (app/store/stats.py).
"""

from __future__ import annotations

import json
import math
import unicodedata
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from app.engine import VARIANTS
from app.store import (
    daily_results,
    daily_streak,
    display_name,
    history,
    history_size,
    is_listed,
    linked_sessions,
    live_links,
    recent_results,
    reset_statistics,
    set_display_name,
    set_listed,
    statistics,
    won_deals,
)
from app.store.clock import as_utc
from app.store.devices import LINK_MINUTES
from app.store.imports import RUNNING_FOR_AT_MOST, import_progress
from app.store.models import utcnow
from app.store.stats import DISPLAY_NAME_MAX, HISTORY_PAGE_SIZE
from app.web.core import utcday
from app.web.core.csrf import require_csrf
from app.web.core.deps import PlayerDep, SessionDep
from app.web.core.htmx import NO_STORE, is_htmx, see_other
from app.web.core.i18n import gettext as _
from app.web.core.i18n import ngettext
from app.web.core.links import absolute_url, path_for
from app.web.core.numbers import format_number
from app.web.services import gamesfile, racing
from app.web.views.download import FileDownload
from app.web.views.statsview import (
    daily_figures,
    daily_row,
    figure_list,
    history_row,
    page_numbers,
    results_chart,
    wins_by_difficulty,
)
from app.web.views.templating import templates

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])


def devices_context(request: Request, session: Session, player_id: str) -> dict[str, Any]:
    """The statistics page's "other devices" part: the player's links not used yet, and the
    browsers signed in through one."""
    return {"device_links": live_links(session, player_id),
            "device_sessions": linked_sessions(session, player_id),
            "link_minutes": LINK_MINUTES}


def render_stats(request: Request, session: Session, player_id: str, *, page: int = 1,
                 name_error: str | None = None, name_value: str | None = None,
                 notice: str | None = None, status_code: int = 200) -> Response:
    only_history = is_htmx(request) and request.headers.get("HX-Target") == "history"
    # A history page alone needs only the page count, not the whole aggregate.
    stats = None if only_history else statistics(session, player_id)
    played = history_size(session, player_id) if stats is None else stats.total.played
    pages = max(1, math.ceil(played / HISTORY_PAGE_SIZE))
    page = min(page, pages)
    context = {
        "history": [history_row(row) for row in history(session, player_id, page)],
        "page": page,
        "pages": pages,
        "page_links": page_numbers(page, pages),
    }
    if stats is not None:
        by_difficulty = wins_by_difficulty(won_deals(session, player_id))
        importing = import_state(session, player_id)
        context |= {
            "name": display_name(session, player_id),
            "listed": is_listed(session, player_id),
            **devices_context(request, session, player_id),
            "name_value": name_value,
            "name_error": name_error,
            "name_max": DISPLAY_NAME_MAX,
            "notice": notice,
            "total": stats.total,
            "total_figures": figure_list(stats.total),
            "daily": [daily_row(result) for result in daily_results(session, player_id)],
            "races": racing.races_of(session, player_id),
            "daily_figures": daily_figures(daily_streak(session, player_id,
                                                        utcday.today().date())),
            # A card for each rule set played; the others in one folded line.
            "variants": [
                {"variant": variant, "figures": stats.variants[variant],
                 "by_difficulty": by_difficulty.get(variant),
                 "list": figure_list(stats.variants[variant]),
                 "chart": results_chart(variant, recent_results(session, player_id, variant))}
                for variant in VARIANTS if stats.variants[variant].played
            ],
            "unplayed": [variant for variant in VARIANTS if not stats.variants[variant].played],
            "import_state": importing,
        }
        if importing and importing["state"] == "running":
            context["refresh"] = path_for(request, "stats")  # until it has ended
    if only_history:
        return templates.TemplateResponse(request, "stats.html", context, block_name="history",
                                          headers=NO_STORE)
    return templates.TemplateResponse(request, "stats.html", context, status_code=status_code,
                                      headers=NO_STORE)


IMPORT_SHOWN_FOR = timedelta(hours=1)
"""How long the statistics page tells how the last import ended."""


def import_state(session, player_id: str) -> dict[str, str] | None:
    """The player's last import as the statistics page shows it: running (the page reloads
    itself until it ends), done, refused (why, in the reader's language) or cut off; nothing
    once it ended over an hour ago."""
    row = import_progress(session, player_id)
    if row is None:
        return None
    now = utcnow()
    if row.state == "running":
        if as_utc(row.started_at) > now - RUNNING_FOR_AT_MOST:
            return {"state": "running",
                    "text": _("Importing your file: this page shows how it ended when it is "
                              "done.")}
        return {"state": "refused", "text": _("Your last import did not finish: please try "
                                              "again.")}
    if row.finished_at is None or as_utc(row.finished_at) < now - IMPORT_SHOWN_FOR:
        return None
    if row.state == "done":
        return {"state": "done", "added": str(row.added), "skipped": str(row.skipped),
                "text": what_was_done(reset=None, imported=row.added, skipped=row.skipped,
                                      linked=None, revoked=None, signed_out=None) or ""}
    if row.refused == "failed":
        return {"state": "refused", "text": _("That could not be finished: please try again.")}
    values = json.loads(row.refused_values or "{}")
    return {"state": "refused", "text": _("This file cannot be imported: %(why)s",
                                          why=gamesfile.refusal(gamesfile.ImportDone(
                                              refused=row.refused, values=values)))}


@router.get("/stats", response_class=HTMLResponse, name="stats")
def stats_page(request: Request, session: SessionDep, player_id: PlayerDep,
               page: Annotated[int, Query(ge=1, le=10**7)] = 1,
               reset: Annotated[int | None, Query(ge=0)] = None,
               imported: Annotated[int | None, Query(ge=0)] = None,
               skipped: Annotated[int, Query(ge=0)] = 0,
               linked: Annotated[int | None, Query(ge=0)] = None,
               revoked: Annotated[int | None, Query(ge=0)] = None,
               signed_out: Annotated[int | None, Query(ge=0)] = None) -> Response:
    notice = what_was_done(reset=reset, imported=imported, skipped=skipped, linked=linked,
                           revoked=revoked, signed_out=signed_out)
    return render_stats(request, session, player_id, page=page, notice=notice)


def what_was_done(*, reset: int | None, imported: int | None, skipped: int,
                  linked: int | None, revoked: int | None, signed_out: int | None) -> str | None:
    """The sentence the page opens with after a form sent the player back here (the query
    says what it did)."""
    if reset is not None:
        return ngettext("Your statistics were reset: %(num)s game deleted.",
                        "Your statistics were reset: %(num)s games deleted.", reset,
                        num=format_number(reset))
    if imported is not None and skipped:
        return ngettext("Imported %(num)s game (%(skipped)s already here).",
                        "Imported %(num)s games (%(skipped)s already here).", imported,
                        num=format_number(imported), skipped=format_number(skipped))
    if imported is not None:
        return ngettext("Imported %(num)s game.", "Imported %(num)s games.", imported,
                        num=format_number(imported))
    if linked:
        return _("This browser now shows your statistics, from your private link.")
    if revoked:
        return _("The link is revoked: it no longer works anywhere.")
    if signed_out:
        return _("That browser is signed out: it no longer plays as you.")
    return None


# --- the display name --------------------------------------------------------------------
def clean_name(raw: str) -> str | None:
    """The name as stored: trimmed, single-spaced, no control characters; None when empty.

    Raises ValueError with a message for the player when it cannot be a name.
    """
    name = " ".join(raw.split())
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ValueError(_("A name cannot contain control characters."))
    if len(name) > DISPLAY_NAME_MAX:
        raise ValueError(ngettext("A name has at most %(most)s characters (this one has "
                                  "%(num)s).",
                                  "A name has at most %(most)s characters (this one has "
                                  "%(num)s).", len(name), most=format_number(DISPLAY_NAME_MAX),
                                  num=format_number(len(name))))
    return name or None


@router.post("/stats/name", name="set_name")
def set_name(request: Request, session: SessionDep, player_id: PlayerDep,
             name: Annotated[str, Form(max_length=400)] = "",
             listed: Annotated[str | None, Form(max_length=5)] = None) -> Response:
    """Set, change or (empty) clear the display name shown on the statistics, replays and
    challenges; and whether to be named on deals' results (``listed``, opt-in)."""
    try:
        cleaned = clean_name(name)
    except ValueError as exc:
        return render_stats(request, session, player_id, name_error=str(exc), name_value=name,
                            status_code=400)
    set_display_name(session, player_id, cleaned)
    set_listed(session, player_id, bool(listed))
    session.commit()
    return see_other(path_for(request, "stats"))


# --- reset, behind a confirmation -----------------------------------------------------------
@router.get("/stats/reset", response_class=HTMLResponse, name="confirm_reset")
def confirm_reset(request: Request, session: SessionDep, player_id: PlayerDep) -> Response:
    stats = statistics(session, player_id)
    return templates.TemplateResponse(request, "reset.html", {"total": stats.total},
                                      headers=NO_STORE)


@router.post("/stats/reset", name="reset")
def reset(request: Request, session: SessionDep, player_id: PlayerDep,
          confirm: Annotated[str | None, Form(max_length=10)] = None) -> Response:
    """Delete the player's ended games, only with the confirmation page's ``confirm=yes``."""
    if confirm != "yes":
        return see_other(path_for(request, "confirm_reset"))
    deleted = reset_statistics(session, player_id)
    session.commit()
    return see_other(path_for(request, "stats", query={"reset": deleted}))


# --- export ------------------------------------------------------------------------------------
def _replay_url(request: Request) -> str:
    """The replay's address for every game of an export, its id left to fill in."""
    return absolute_url(request, path_for(request, "replay", game_id=gamesfile.REPLAY_ID))


@router.get("/stats/export.csv", name="export_csv")
async def export_csv(request: Request, player_id: PlayerDep) -> Response:
    exported = await request.app.state.transfers.run(
        request, player_id, gamesfile.export_csv, request.app.state.settings.database_url,
        player_id, _replay_url(request))
    return FileDownload(exported, "text/csv; charset=utf-8", "pyramid-games.csv")


@router.get("/stats/export.json", name="export_json")
async def export_json(request: Request, player_id: PlayerDep) -> Response:
    settings = request.app.state.settings
    exported = await request.app.state.transfers.run(
        request, player_id, gamesfile.export_json, settings.database_url, player_id,
        settings.secret_key, _replay_url(request))
    return FileDownload(exported, "application/json", "pyramid-games.json")
