"""A player's statistics on every device: a private link that signs another browser (or one
whose cookies were cleared) in as the player, in a session the player sees and can end; and
the import of an exported games file.

- ``POST /stats/devices`` makes a link and shows it once (only its hash is stored). A link
  works once, within ``LINK_MINUTES`` (``app.store.devices``).
- ``GET /link/{secret}`` asks (a GET changes nothing); ``POST /link/{secret}`` signs this
  browser in as the link's player: a cookie naming the player and a new session, accepted
  only while that session lives (``app.web.core.player``). A revoked, used or expired link is
  refused (410), an unknown one is 404: nothing tells an attacker whose it was. The secret is
  in the path, which no log keeps (``app.logs.loggable_path``; the proxy's log format).
- ``POST /stats/devices/{key}/revoke`` revokes one of the player's own links (and ends the
  session of the browser that used it); ``POST /stats/devices/sessions/{key}/revoke`` ends a
  linked browser's session: it is signed out at once.
- ``POST /stats/import`` takes a file from ``/stats/export.json``: signed
  (``gamesfile.ExportSigner``), so a file edited to claim results nobody played is refused;
  checked and stored by the transfer worker process (``app.web.services.transfer``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, Request, UploadFile
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.store import (
    Database,
    begin_import,
    display_name,
    end_import,
    end_session,
    make_link,
    read_link,
    revoke,
    use_link,
)
from app.store.devices import LINK_MINUTES
from app.store.models import utcnow
from app.web.core.csrf import require_csrf
from app.web.core.deps import PlayerDep, SessionDep
from app.web.core.errors import PageError
from app.web.core.htmx import see_other
from app.web.core.i18n import gettext as _
from app.web.core.links import absolute_url, path_for
from app.web.core.player import PlayerCookie
from app.web.core.threads import in_thread
from app.web.services import gamesfile
from app.web.views.templating import templates

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


# --- links -----------------------------------------------------------------------------------
@router.post("/stats/devices", response_class=HTMLResponse, name="make_device_link")
def make_device_link(request: Request, session: SessionDep, player_id: PlayerDep) -> Response:
    """A new private link to this player's statistics, shown once."""
    secret = make_link(session, player_id)
    session.commit()
    link = absolute_url(request, path_for(request, "device_link", secret=secret))
    return templates.TemplateResponse(request, "device_link.html",
                                      {"link": link, "link_minutes": LINK_MINUTES},
                                      headers=NO_STORE)


@router.post("/stats/devices/{key}/revoke", name="revoke_device_link")
def revoke_device_link(request: Request, session: SessionDep, player_id: PlayerDep,
                       key: str) -> Response:
    if not revoke(session, player_id, key):
        raise PageError(404, _("No such link"), _("You have no live link with that key."),
                        link=(path_for(request, "stats"), _("Your statistics")))
    session.commit()
    return see_other(path_for(request, "stats", query={"revoked": 1}) + "#devices")


@router.post("/stats/devices/sessions/{key}/revoke", name="end_device_session")
def end_device_session(request: Request, session: SessionDep, player_id: PlayerDep,
                       key: str) -> Response:
    """Sign out a browser that came in through a link: its cookie is refused from now on."""
    if not end_session(session, player_id, key):
        raise PageError(404, _("No such browser"),
                        _("No browser signed in through your links has that key."),
                        link=(path_for(request, "stats"), _("Your statistics")))
    session.commit()
    return see_other(path_for(request, "stats", query={"signed_out": 1}) + "#devices")


def _link_or_error(request: Request, session: Session, secret: str):
    if len(secret) > 64:
        raise PageError(404, _("No such link"), _("This link does not exist."))
    found = read_link(session, secret)
    # TRANSLATORS: a button that leads to the home page, to play a game.
    play = _("Play")
    if found is None:
        raise PageError(404, _("No such link"),
                        _("This link does not exist: check that it was copied whole."),
                        link=(path_for(request, "home"), play))
    if found.state == "revoked":
        raise PageError(410, _("This link was revoked"),
                        _("Its owner revoked it, so it no longer gives access to anything. "
                          "Ask them for a new one if it is yours."),
                        link=(path_for(request, "home"), play))
    if found.state == "used":
        raise PageError(410, _("This link was already used"),
                        _("A private link signs in one browser, once, and this one already "
                          "has. Make a new link on your statistics page if it is yours."),
                        link=(path_for(request, "home"), play))
    if found.state == "expired":
        raise PageError(410, _("This link has expired"),
                        _("A private link works for %(minutes)s minutes after it is made. "
                          "Make a new link on your statistics page if it is yours.",
                          minutes=LINK_MINUTES),
                        link=(path_for(request, "home"), play))
    return found


@router.get("/link/{secret}", response_class=HTMLResponse, name="device_link")
def device_link(request: Request, session: SessionDep, player_id: PlayerDep,
                secret: str) -> Response:
    """What the link would do, and a button to do it (a GET changes nothing)."""
    found = _link_or_error(request, session, secret)
    context = {"secret": secret, "name": display_name(session, found.player_id),
               "same": found.player_id == player_id}
    return templates.TemplateResponse(request, "device_take.html", context, headers=NO_STORE)


@router.post("/link/{secret}", name="use_device_link")
def use_device_link(request: Request, session: SessionDep, secret: str) -> Response:
    """Make this browser the link's player: its statistics and games in progress here."""
    _link_or_error(request, session, secret)
    signed_in = use_link(session, secret, request.headers.get("user-agent"))
    session.commit()
    if signed_in is None:  # used, or revoked, between the check and now
        _link_or_error(request, session, secret)
        raise PageError(410, _("This link was revoked"),
                        _("It no longer gives access to anything."))
    response = see_other(path_for(request, "stats", query={"linked": 1}))
    PlayerCookie(request.app.state.settings).attach(response, signed_in.player_id,
                                                    signed_in.session_id)
    return response


# --- import ----------------------------------------------------------------------------------
@router.post("/stats/import", name="import_games")
async def import_file(request: Request, player_id: PlayerDep,
                      file: Annotated[UploadFile, File()]) -> Response:
    """Add the games of an exported file (``/stats/export.json``) to this player's: read here
    (at most its limit), then checked and stored by the transfer worker in the background.
    Answered at once (202): a slow import never outlasts a proxy's timeout, and the statistics
    page shows how it goes and how it ended (``import_progress``)."""
    settings = request.app.state.settings
    raw = await file.read(settings.import_max_bytes + 1)
    if len(raw) > settings.import_max_bytes:
        raise import_too_large(request)
    transfers, database = request.app.state.transfers, request.app.state.db
    admission = transfers.admit(request, player_id, "import")
    if not await in_thread(import_begun, database, player_id):  # one running, maybe elsewhere
        admission.close()
        raise PageError(429, _("Still working on your last one"),
                        _("Your previous import or export is still being made: wait for it, "
                          "then try again."), headers={"Retry-After": "5"})

    async def ended(done: gamesfile.ImportDone | None) -> None:
        await in_thread(import_ended, database, player_id, done)

    transfers.launch(admission, gamesfile.import_games, settings.database_url, player_id,
                     settings.secret_key, raw, done=ended)
    return importing(request)


def importing(request: Request) -> Response:
    """The answer to an import begun (202): the statistics page shows how it goes."""
    return templates.TemplateResponse(request, "error.html", {
        "status_code": 202, "title": _("Importing your file"),
        "message": _("Your file is being imported: your statistics page shows how it goes, "
                     "and how it ended."),
        "link": (path_for(request, "stats"), _("Your statistics")),
        "refresh": path_for(request, "stats")}, status_code=202, headers=NO_STORE)


def import_begun(database: Database, player_id: str) -> bool:
    """Note that the player's import has begun: False when one is running already."""
    try:
        with database.session() as session:
            return begin_import(session, player_id, utcnow())
    except IntegrityError:  # another process noted its own first, at the same moment
        return False


def import_ended(database: Database, player_id: str, done: gamesfile.ImportDone | None) -> None:
    """Note how the player's import ended (``done`` None: it failed)."""
    with database.session() as session:
        if done is None:
            end_import(session, player_id, utcnow(), refused="failed")
        elif done.refused:
            end_import(session, player_id, utcnow(), refused=str(done.refused),
                       values=done.values)
        else:
            end_import(session, player_id, utcnow(), added=done.added, skipped=done.skipped)


def import_too_large(request: Request) -> PageError:
    """An import over IMPORT_MAX_MB: 413, and a page that says so."""
    return PageError(413, _("This file cannot be imported"),
                     gamesfile.too_large(request.app.state.settings.import_max_mb),
                     link=(path_for(request, "stats"), _("Your statistics")))


@router.get("/stats/import/too-large", name="import_too_large")
def import_too_large_page(request: Request) -> Response:
    """What a player is shown for an import over the limit when the proxy refused it: nginx
    answers a request over its client_max_body_size (filled in from IMPORT_MAX_MB) with this
    page (its ``error_page 413``, a GET with the player's headers) instead of its own bare
    one."""
    raise import_too_large(request)
