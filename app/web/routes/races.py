"""Races (docs/races.md): the JSON API (``/api/races``), the race page and its plain forms
(``/races/{key}``), and the live stream (``/races/{key}/events``). Each route parses, calls
``racing`` (or the hub, for the stream) and answers."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Header, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse

from app.engine import Deal, DealError, Variant
from app.web.core.csrf import require_csrf
from app.web.core.deps import PlayerDep, SessionDep, SettingsDep
from app.web.core.errors import PageError
from app.web.core.htmx import NO_STORE, see_other
from app.web.core.i18n import gettext as _
from app.web.core.links import path_for
from app.web.core.refusals import say
from app.web.core.scope import is_api
from app.web.core.threads import in_thread
from app.web.services import broadcast, raceentry, racestream, racing, starting
from app.web.views.apimodels import NewRace, Problem
from app.web.views.templating import templates

api_router = APIRouter(prefix="/api", tags=["races"])
router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
stream_router = APIRouter(include_in_schema=False)

REFUSED: dict[int | str, dict[str, Any]] = {
    403: {"model": Problem, "description": "Not yours to do (start: the creator's; ready: a "
                                           "racer's)"},
    404: {"model": Problem, "description": "No such race"},
    409: {"model": Problem, "description": "The race is full, or has started"}}


@contextmanager
def refusals(request: Request) -> Iterator[None]:
    """``racing``'s refusals as the API's problems or as pages."""
    try:
        yield
    except racing.RaceRefused as exc:
        if is_api(request.scope):
            raise HTTPException(exc.status, exc.message) from None
        raise PageError(exc.status, _("This race cannot do that"), exc.message,
                        link=(path_for(request, "home"), _("Home page"))) from None


def answer(session, race, player_id: str, status_code: int = 200) -> JSONResponse:
    return JSONResponse(racing.seen_by(session, race, player_id), status_code=status_code,
                        headers=NO_STORE)


# --- the JSON API --------------------------------------------------------------------------
@api_router.post("/races", status_code=201, name="api_race_create", responses=REFUSED)
def api_create(body: NewRace, session: SessionDep, settings: SettingsDep,
               player_id: PlayerDep) -> JSONResponse:
    """A race: the rules, a deal number (a random deal when left out; a winnable deal of
    ``difficulty``), whether hints are allowed. The caller is its first racer."""
    race = raceentry.create(session, settings, player_id, Variant(body.goal, body.passes),
                         body.deal, body.difficulty.value if body.difficulty else None,
                         body.hints)
    return answer(session, race, player_id, 201)


@api_router.get("/races/{key}", name="api_race", responses=REFUSED)
def api_read(request: Request, key: str, session: SessionDep,
             player_id: PlayerDep) -> JSONResponse:
    """The race: its status, its racers (finished ones in result order), ``you``."""
    with refusals(request):
        return answer(session, racing.current(session, key), player_id)


@api_router.post("/races/{key}/join", name="api_race_join", responses=REFUSED)
def api_join(request: Request, key: str, session: SessionDep,
             player_id: PlayerDep) -> JSONResponse:
    """Join the race (again: the same answer); ``game`` is the caller's game's id."""
    with refusals(request):
        race = raceentry.join(session, key, player_id)
    shown = racing.seen_by(session, race, player_id)
    return JSONResponse({**shown, "game": shown["you"]["game"]}, headers=NO_STORE)


@api_router.post("/races/{key}/start", name="api_race_start", responses=REFUSED)
def api_start(request: Request, key: str, session: SessionDep, settings: SettingsDep,
              player_id: PlayerDep) -> JSONResponse:
    """Start the 3-2-1 countdown (the race's creator only)."""
    with refusals(request):
        return answer(session, raceentry.start(session, settings, key, player_id), player_id)


@api_router.post("/races/{key}/ready", name="api_race_ready", responses=REFUSED)
def api_ready(request: Request, key: str, session: SessionDep, settings: SettingsDep,
              player_id: PlayerDep) -> JSONResponse:
    """The caller (a racer) is ready: when two or more racers are in and every one is
    ready, the 3-2-1 countdown starts, as the creator's start starts it."""
    with refusals(request):
        return answer(session, raceentry.ready(session, settings, key, player_id), player_id)


@api_router.post("/races/{key}/rematch", status_code=201, name="api_race_rematch",
                 responses=REFUSED)
def api_rematch(request: Request, key: str, session: SessionDep, settings: SettingsDep,
                player_id: PlayerDep) -> JSONResponse:
    """A new race for the same racers on a new deal (one, however many ask)."""
    with refusals(request):
        return answer(session, raceentry.rematch(session, settings, key, player_id), player_id,
                      201)


# --- the page and its forms ------------------------------------------------------------------
def form_race(goal: starting.GoalField = None, passes: starting.PassesField = None,
              deal: Annotated[str | None, Form(max_length=200)] = None,
              difficulty: Annotated[str | None, Form(max_length=20)] = None,
              hints: Annotated[str | None, Form(max_length=5)] = None
              ) -> tuple[Variant, int | None, str | None, bool]:
    variant = starting.read_variant(goal, passes)
    try:
        number = Deal.parse_number(deal) if deal and deal.strip() else None
    except DealError as exc:
        raise PageError(400, _("This deal does not exist"), say(exc.refusal)) from None
    if difficulty not in (None, "", "any", "easy", "medium", "hard", "expert"):
        raise PageError(400, _("This difficulty does not exist"),
                        _("Choose easy, medium, hard or expert."))
    chosen = difficulty if difficulty not in (None, "", "any") else None
    return variant, number, chosen, (hints or "").lower() in ("1", "on", "true", "yes")


@router.post("/races", name="race_create")
def create(request: Request, session: SessionDep, settings: SettingsDep, player_id: PlayerDep,
           asked: Annotated[tuple, Depends(form_race)]) -> Response:
    race = raceentry.create(session, settings, player_id, *asked)
    return see_other(path_for(request, "race", key=race.key))


@router.get("/races/{key}", response_class=HTMLResponse, name="race")
def page(request: Request, key: str, session: SessionDep, player_id: PlayerDep) -> Response:
    with refusals(request):
        race = racing.current(session, key)
    return templates.TemplateResponse(request, "race.html", {
        "race": racing.seen_by(session, race, player_id)}, headers=NO_STORE)


@router.post("/races/{key}/join", name="race_join")
def join(request: Request, key: str, session: SessionDep, player_id: PlayerDep) -> Response:
    with refusals(request):
        raceentry.join(session, key, player_id)
    return see_other(path_for(request, "race", key=key))


@router.post("/races/{key}/start", name="race_start")
def start(request: Request, key: str, session: SessionDep, settings: SettingsDep,
          player_id: PlayerDep) -> Response:
    with refusals(request):
        raceentry.start(session, settings, key, player_id)
    return see_other(path_for(request, "race", key=key))


@router.post("/races/{key}/ready", name="race_ready")
def ready(request: Request, key: str, session: SessionDep, settings: SettingsDep,
          player_id: PlayerDep) -> Response:
    with refusals(request):
        raceentry.ready(session, settings, key, player_id)
    return see_other(path_for(request, "race", key=key))


@router.post("/races/{key}/rematch", name="race_rematch")
def rematch(request: Request, key: str, session: SessionDep, settings: SettingsDep,
            player_id: PlayerDep) -> Response:
    with refusals(request):
        new = raceentry.rematch(session, settings, key, player_id)
    return see_other(path_for(request, "race", key=new.key))


# --- the live stream ---------------------------------------------------------------------------
@stream_router.get("/races/{key}/events", name="race_events")
async def events(request: Request, key: str, settings: SettingsDep,
                 last_event_id: Annotated[str | None, Header(max_length=20)] = None,
                 last: Annotated[str | None, Query(max_length=20)] = None) -> Response:
    """The race's events as Server-Sent Events (``racestream``)."""
    hub: broadcast.Hub = request.app.state.hub
    if not await hub_has(hub, key):
        raise HTTPException(404, _("There is no race at this address."))
    client = request.client
    try:
        subscription = hub.subscribe(key, client.host if client else "unknown")
    except broadcast.Refused as exc:
        return JSONResponse(
            {"detail": _("Too many live streams are open: try again in a moment."),
             "errors": []}, status_code=exc.status,
            headers={"Retry-After": str(exc.retry_after)})
    stream = racestream.events(hub, subscription,
                               racestream.last_event_id(last_event_id, last),
                               settings.race_heartbeat_seconds)
    return StreamingResponse(stream, media_type="text/event-stream", headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def hub_has(hub: broadcast.Hub, key: str) -> bool:
    return len(key) <= 32 and bool(await in_thread(hub.events, key, None))
