"""The JSON API for bots and scripts, documented in the OpenAPI schema at /docs.

Moves use RULES.md's JSON form. The caller's player cookie owns the games it creates; the
engine judges every move and its reason comes back with a 422 when a move is illegal.

The routes that bots call most (start, read, move, undo) are ``async def`` and do all their
database work in one call on a worker thread (``threads.in_one_hop``). FastAPI runs each plain
``def`` dependency and route on a worker thread of its own, and checks a plain route's answer
on another: five hops a read and eight a move, which cost more CPU than the move itself and
stall the event loop under load (bench/load.py). So these routes take the game
(``get_loaded_game``) and check its owner (``owned_game``) inside their one hop, in the order
the dependencies would: an unknown game is a 404 whatever the body, then a malformed move
422, then another player's game 403.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Header, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import (
    ValidationError,
)
from sqlalchemy.orm import Session

from app import odds
from app.engine import (
    Deal,
    IllegalMove,
    Move,
    MoveError,
    Variant,
)
from app.store import (
    GameConflict,
    LoadedGame,
    elapsed_seconds,
    load_game,
    reload,
    time_left_out,
)
from app.web.core.deps import (
    GameDep,
    OwnedGame,
    PlayerDep,
    SessionDep,
    SettingsDep,
    get_loaded_game,
    owned_game,
)
from app.web.core.errors import RefusedRequest
from app.web.core.i18n import gettext as _
from app.web.core.refusals import say
from app.web.core.threads import burst_threads, in_one_hop, in_thread
from app.web.services import actions, hints, racing, results, solving, spoilers, witness
from app.web.views.apimodels import (
    AnalysisOut,
    GameState,
    HintOut,
    MoveIn,
    NewGame,
    Problem,
    move_out,
)
from app.web.views.view import api_state

router = APIRouter(prefix="/api", tags=["games"])
T = TypeVar("T")



def state(loaded: LoadedGame) -> GameState:
    record = loaded.record
    return GameState.model_validate(
        api_state(record, loaded.game, elapsed=elapsed_seconds(record),
                  paused=time_left_out(record)))


def etag(loaded: LoadedGame) -> str:
    return f'"{loaded.version}"'


ETAG = re.compile(r'\s*(?:W/)?"(\d{1,10})"\s*')


def expected_version(if_match: str | None) -> int | None:
    """The version an ``If-Match`` header names: None for no header or ``*`` (any version);
    a header naming no version of ours can match nothing (-1)."""
    if if_match is None or if_match.strip() == "*":
        return None
    versions = [int(m.group(1)) for part in if_match.split(",")
                if (m := ETAG.fullmatch(part))]
    return versions[0] if len(versions) == 1 else -1


def with_etag(response: Response, loaded: LoadedGame) -> GameState:
    response.headers["ETag"] = etag(loaded)
    return state(loaded)


def move_body(raw: bytes) -> MoveIn:
    """The move in a request body, judged only after the game has been found (FastAPI would
    judge a declared body before anything else)."""
    try:
        return MoveIn.model_validate_json(raw or b"null")
    except ValidationError as exc:
        raise RequestValidationError(
            [{**err, "loc": ("body", *err["loc"])}
             for err in exc.errors(include_url=False, include_input=False)]) from None


ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": Problem, "description": "The game belongs to another player"},
    404: {"model": Problem, "description": "No such game"},
    409: {"model": Problem, "description": "The game changed meanwhile; read it again"},
    412: {"model": GameState, "description": "If-Match named another version than the "
                                              "current one: nothing was done; the body is the "
                                              "game as it is now"},
}

IfMatch = Annotated[str | None, Header(
    description='The version the move is meant for, as GET returned it in ETag, e.g. "7". '
                "Without it the move applies to whatever the position is now.",
    json_schema_extra={"type": "string", "anyOf": None})]


@contextmanager
def refusals_as_http(*where: str) -> Iterator[None]:
    """The engine's and the store's refusals as HTTP errors: a move the engine refuses is 422
    with the refusal's sentence as ``detail`` and the refusal in ``errors`` (its code as
    ``type``, its fields as ``ctx``; ``where`` its ``loc``); a move that lost a race 409 (both
    sentences in the request's language)."""
    try:
        yield
    except (MoveError, IllegalMove) as exc:
        refusal = exc.refusal
        raise RefusedRequest(say(refusal), [{
            "loc": list(where), "msg": str(refusal), "type": str(refusal.code),
            "ctx": dict(refusal.fields)}]) from None
    except actions.VersionMismatch:
        raise  # the route answers 412 with the game as it is
    except GameConflict as exc:
        raise HTTPException(409, say(exc.refusal) if exc.refusal else str(exc)) from None


def too_busy(exc: solving.SolverBusy) -> HTTPException:
    """429 with how long to wait before asking again."""
    return HTTPException(429, str(exc), headers={"Retry-After": str(exc.retry_after)})


def played(request: Request, session: Session, response: Response, owned: LoadedGame,
           steps: list[actions.Step], version: int | None, *where: str) -> Any:
    """``steps`` played by ``actions.apply``, as the board's inputs are: the game as it is
    now with its ETag, 412 on another version, 422 or 409 for the refusals (``where``: the
    refused input's place in the request)."""
    try:
        with refusals_as_http(*where):
            actions.apply(session, owned, steps, expected_version=version)
        results.remember_par(request, owned)
    except actions.VersionMismatch:
        return precondition_failed(session, owned)
    return with_etag(response, owned)


def precondition_failed(session: Session, stale: LoadedGame) -> JSONResponse:
    """412: the game as it is now, with its ETag, so the client can decide again."""
    loaded = reload(session, stale)
    return JSONResponse(state(loaded).model_dump(mode="json", by_alias=True), status_code=412,
                        headers={"ETag": etag(loaded)})


@router.post("/games", status_code=201, response_model=GameState, name="api_create",
             responses={409: {"model": Problem, "description": "The player's games kept "
                              "changing in another tab meanwhile: nothing was started; try "
                              "again"}})
async def create(body: NewGame, request: Request, response: Response, session: SessionDep,
                 settings: SettingsDep, player_id: PlayerDep) -> GameState:
    """Start a game for the caller's player cookie (one is issued if the caller has none).
    A game in progress with moves is abandoned (it counts as a loss)."""

    def start() -> GameState:
        only_winnable = body.winnable_only and body.deal is None
        if body.deal is not None:
            number = body.deal
        elif only_winnable:
            number = odds.random_winnable(Variant(body.goal, body.passes),
                                          difficulty=body.difficulty)
        else:
            number = actions.random_deal_number(settings)
        record = actions.start(session, player_id, Deal.from_number(number),
                               Variant(body.goal, body.passes), winnable_only=only_winnable)
        response.headers["Location"] = str(request.url_for("api_read", game_id=record.id))
        return with_etag(response, LoadedGame(record, load_game(record)))

    return await in_one_hop(session, start, limiter=burst_threads())


@router.get("/games/{game_id}", response_model=GameState, name="api_read",
            responses={404: ERRORS[404]})
async def read(request: Request, game_id: str, session: SessionDep,
               response: Response) -> GameState:
    """Read a game: anyone with its id may look. The ETag header is its version."""

    def look() -> GameState:
        return with_etag(response, get_loaded_game(request, game_id, session))

    return await in_one_hop(session, look)


@router.post("/games/{game_id}/moves", response_model=GameState, name="api_move",
             responses={**ERRORS, 422: {"model": Problem, "description": "Illegal move"}},
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": MoveIn.model_json_schema()}}}})
async def move(request: Request, game_id: str, session: SessionDep, response: Response,
               player_id: PlayerDep, if_match: IfMatch = None) -> Any:
    """Play one move (a ``MoveIn``); an illegal move answers 422 with the engine's reason.
    With ``If-Match``, the move applies only to that version (412 otherwise), so a retried
    request never plays twice."""
    version = expected_version(if_match)
    found = None
    if "content-length" not in request.headers:
        # A streamed body can still turn out too large (413) while it is read: find the game
        # first, so that an unknown game is a 404 whatever the body. A declared length has
        # been checked already, so reading such a body first changes no answer.
        found = await in_thread(get_loaded_game, request, game_id, session)
    raw = await request.body()

    def play() -> Any:
        owned = owned_game(request, found or get_loaded_game(request, game_id, session),
                           player_id)
        body = move_body(raw)
        with refusals_as_http("body"):
            chosen = Move.from_dict(body.model_dump(exclude_none=True))
        return played(request, session, response, owned, [chosen], version, "body")

    return await in_one_hop(session, play)


@router.post("/games/{game_id}/undo", response_model=GameState, name="api_undo",
             responses={**ERRORS, 422: {"model": Problem, "description": "Nothing to undo"}})
async def undo(request: Request, game_id: str, session: SessionDep, response: Response,
               player_id: PlayerDep, if_match: IfMatch = None) -> Any:
    """Take back the last move (with ``If-Match``: only from that version)."""

    def take_back() -> Any:
        owned = owned_game(request, get_loaded_game(request, game_id, session), player_id)
        return played(request, session, response, owned, [actions.UNDO],
                      expected_version(if_match))

    return await in_one_hop(session, take_back)


@router.post("/games/{game_id}/hint", response_model=HintOut, name="api_hint",
             responses={403: {"model": Problem, "description": "Not your game, or its deal "
                              "is in play for a result others see (docs/players.md)"},
                        404: ERRORS[404],
                        422: {"model": Problem, "description": "The game is over"},
                        429: {"model": Problem, "description": "A hint is still running"}})
async def hint(owned: OwnedGame, session: SessionDep, player_id: PlayerDep) -> HintOut:
    """The solver's next move from the current position; counts one hint on the game. The
    search runs in the solver's bounded pool (``solving``), never on the event loop."""
    try:
        with refusals_as_http():
            advice, until = await hints.advise(session, owned, player_id)
    except solving.SolverBusy as exc:
        raise too_busy(exc) from None
    except hints.HintKeptBack as exc:
        raise HTTPException(403, str(exc)) from None
    return HintOut(move=move_out(advice.move) if advice.move else None,
                   winnable=advice.winnable, winnable_until=until,
                   message=advice.message)


@router.get("/games/{game_id}/analysis", response_model=AnalysisOut, name="api_analysis",
            responses={403: {"model": Problem, "description": "The deal is still in play for "
                                    "a deal of the day (docs/players.md)"},
                       404: ERRORS[404],
                       409: {"model": Problem, "description": "The game is still in progress"},
                       429: {"model": Problem, "description": "The solver is busy"}})
async def analysis(loaded: GameDep, session: SessionDep, player_id: PlayerDep) -> AnalysisOut:
    """Where the game went wrong, once it has ended; anyone may ask (as for replays). A game in
    progress is refused (409): its analysis would be a winning line for its player, which is
    what hints give (and count). A deal still in play for a day's result: 403 (``spoilers``)."""
    if not loaded.record.status.ended:
        raise HTTPException(409, _("The game is still in progress: it is analysed once it has "
                                   "ended (ask for a hint meanwhile)."))
    if racing.in_race(loaded.game.deal.number):
        raise HTTPException(403, racing.why_raced())
    if await in_thread(spoilers.kept_private, session, loaded.game):
        raise HTTPException(403, spoilers.why_private())
    try:
        found = await solving.where_it_went_wrong(session, loaded, player_id)
    except solving.SolverBusy as exc:
        raise too_busy(exc) from None
    # The line shown is written down: a challenge's answer (or a daily) that plays it counts
    # it as hints (``witness``).
    await in_thread(witness.note_analysis, session, player_id, loaded, found)
    return AnalysisOut(
        winnable_at_start=found.winnable_at_start, lost_at=found.lost_at,
        better_move=move_out(found.better_move) if found.better_move else None,
        solution=[move_out(m) for m in found.solution] if found.solution is not None else None)
