"""The preferences page (``/settings``, titled "Settings" for the player; the server's own
settings are app/settings.py), and the two preferences a player changes from the board: sound
(one click) and the first-game tips (dismissed).

Everything is a plain form first (POST, then 303 back, with or without JavaScript); the
board's script (static/js/preferences.js) sends the sound and tips forms itself and changes
``<html>``'s attributes in place, so the board is not reloaded. Each form carries the CSRF
token, checked by the router's ``require_csrf``; a cross-site POST is refused before it gets
here (``CrossSiteGuard``). Everything is the caller's own: another player's preferences are
never read or written.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from app.web.core import i18n
from app.web.core.csrf import require_csrf
from app.web.core.deps import PlayerDep, SessionDep
from app.web.core.htmx import NO_STORE, is_htmx, see_other
from app.web.core.links import path_for
from app.web.core.preferences import (
    BACKS,
    FELTS,
    LANGUAGE_CHOICES,
    MOTIONS,
    OPTIONS,
    THEMES,
    Preferences,
    Refused,
)
from app.web.services.preferences import current, save
from app.web.views.templating import templates

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

LONGEST_FIELD = 32
NextField = Annotated[str | None, Form(alias="next", max_length=300)]


def render_preferences(request: Request, preferences: Preferences, *, saved: bool = False,
                    errors: dict[str, str] | None = None, status_code: int = 200) -> Response:
    context = {"preferences": preferences, "saved": saved, "errors": errors or {},
               "options": OPTIONS, "themes": THEMES, "felts": FELTS, "backs": BACKS,
               "motions": MOTIONS, "languages": LANGUAGE_CHOICES}
    return templates.TemplateResponse(request, "preferences.html", context,
                                      status_code=status_code, headers=NO_STORE)


def local_path(target: str | None, fallback: str) -> str:
    """``target`` when it is a path on this site (a redirect never leaves it), else
    ``fallback``."""
    if (target and target.startswith("/") and not target.startswith(("//", "/\\"))
            and target.isprintable()):
        return target
    return fallback


async def sent_form(request: Request) -> dict[str, str]:
    """The form's fields that name a preference, each cut to a length no good value exceeds
    (a longer one is refused as any other bad value, and never echoed whole). The form was
    parsed once already, by ``require_csrf``."""
    form = await request.form()
    return {key: value[:LONGEST_FIELD] for key, value in form.items()
            if isinstance(value, str) and key in OPTIONS}


SentForm = Annotated[dict[str, str], Depends(sent_form)]


def browser_language(request: Request) -> str:
    """The language the browser asks for (Accept-Language), or English."""
    return i18n.from_accept_language(request.headers.get("accept-language")) or i18n.DEFAULT


def with_language(before: Preferences, chosen: Preferences, browser: str) -> Preferences:
    """``chosen``, except that a player who never chose a language and picks the one their
    browser asks for goes on following the browser (``""``): the list shows that language
    selected, and saving the page as it came is not a choice."""
    if chosen.language == browser and not before.language:
        return replace(chosen, language="")
    return chosen


@router.get("/settings", response_class=HTMLResponse, name="settings")
def preferences_page(request: Request, session: SessionDep, player_id: PlayerDep,
                     saved: Annotated[int | None, Query(ge=0, le=1)] = None) -> Response:
    return render_preferences(request, current(request, session, player_id), saved=bool(saved))


@router.post("/settings", name="save_settings")
def save_preferences_form(request: Request, session: SessionDep, player_id: PlayerDep,
                          form: SentForm) -> Response:
    """Save the whole form; a value not offered gets the page back (400) with the reason
    beside its field and every other field as sent.

    The language is the one choice never refused: one we don't have is the browser's. The
    page after saving is drawn in the language just chosen."""
    before = current(request, session, player_id)
    i18n.use(before.language)  # the player's own language first, as every page does
    try:
        chosen = before.changed(form)
    except Refused as refused:
        return render_preferences(request, refused.kept, errors=refused.errors, status_code=400)
    browser = browser_language(request)
    chosen = with_language(before, chosen, browser)
    save(session, player_id, chosen)
    i18n.use(chosen.language or browser)
    return see_other(path_for(request, "settings", query={"saved": 1}))


@router.post("/settings/sound", name="sound")
def set_sound(request: Request, session: SessionDep, player_id: PlayerDep,
              sound: Annotated[str, Form(max_length=LONGEST_FIELD)],
              next_path: NextField = None) -> Response:
    """Sound on or off (the board's speaker button): 204 for the board's script, else 303
    back to the page it was pressed on."""
    try:
        chosen = current(request, session, player_id).changed({"sound": sound}, ("sound",))
    except Refused as refused:
        return render_preferences(request, refused.kept, errors=refused.errors, status_code=400)
    save(session, player_id, chosen)
    return done(request, next_path)


@router.post("/settings/tips", name="dismiss_tips")
def dismiss_tips(request: Request, session: SessionDep, player_id: PlayerDep,
                 next_path: NextField = None) -> Response:
    """The first-game tips, dismissed for good."""
    chosen = current(request, session, player_id).changed({"tips_done": "on"}, ("tips_done",))
    save(session, player_id, chosen)
    return done(request, next_path)


def done(request: Request, next_path: str | None) -> Response:
    if is_htmx(request):
        return Response(status_code=204)
    return see_other(local_path(next_path, path_for(request, "settings")))
