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
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Header, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError

from app import odds
from app.engine import (
    DEFAULT_VARIANT,
    MIN_DEAL_NUMBER,
    Deal,
    GameStatus,
    Goal,
    IllegalMove,
    Move,
    MoveError,
    Variant,
)
from app.store import GameConflict, LoadedGame, elapsed_seconds, load, reload, time_left_out
from app.web import actions, results, solving, spoilers
from app.web.deps import (
    GameDep,
    OwnedGame,
    PlayerDep,
    SessionDep,
    SettingsDep,
    get_loaded_game,
    owned_game,
)
from app.web.errors import Problem as ErrorProblem
from app.web.i18n import gettext as _
from app.web.params import DealNumber, GoalValue, JsonInteger, OpValue, PassesValue
from app.web.refusals import refusal_sentence
from app.web.threads import in_one_hop, in_thread
from app.web.view import api_state
from app.web.words import engine_sentence

router = APIRouter(prefix="/api", tags=["games"])
T = TypeVar("T")


LARGEST_EXACT_INTEGER = 2**53 - 1


class NewGame(BaseModel):
    """A new game: a deal number (random when left out), the goal and the number of passes.

    Strict: passes is a JSON integer, never ``true``, ``"3"`` or ``3.0``. A deal is a JSON
    integer up to ``LARGEST_EXACT_INTEGER``, which every JSON reader holds exactly (a double
    cannot tell 10**20 from 10**20 - 1), or for any deal a string of digits.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    deal: Annotated[Annotated[int, Field(ge=MIN_DEAL_NUMBER, le=LARGEST_EXACT_INTEGER)]
                    | DealNumber | None, JsonInteger] = Field(
        default=None,
        description="PySolFC deal number, 1 to 99999999999999999999; random when omitted. A "
                    f"JSON integer up to {LARGEST_EXACT_INTEGER}, or a string of digits "
                    "(no leading zero) for any deal.",
        examples=[42, "12345678901234567890"])
    goal: GoalValue = Field(default=DEFAULT_VARIANT.goal, description="standard or wholedeck")
    passes: PassesValue = Field(default=DEFAULT_VARIANT.passes,
                                description="Trips through the stock: 1, 2 or 3")
    winnable_only: StrictBool = Field(
        default=False, description="With no deal given: deal one the solver has proven "
                                   "winnable for this goal and these passes.")
    difficulty: odds.Difficulty | None = Field(
        default=None, strict=False,  # a JSON string names the member
        description="With winnable_only: a deal of this difficulty (see "
                                  "/odds#difficulty); any difficulty when omitted.")


class MoveIn(BaseModel):
    """One move in RULES.md's JSON form."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [
        {"op": "remove", "cards": ["5H", "8C"]}, {"op": "remove", "cards": ["KS"]},
        {"op": "draw"}, {"op": "recycle"}]})

    op: OpValue
    # Not nullable: a move either names its cards or leaves the field out.
    cards: list[str] = Field(default=None, min_length=1, max_length=2,  # type: ignore[assignment]
                             description="The card or two for a remove, e.g. [\"5H\", \"8C\"]")


class MoveOut(BaseModel):
    op: OpValue
    cards: list[str] | None = Field(default=None, exclude_if=lambda cards: cards is None)


class Pile(BaseModel):
    top: str | None = Field(description="The face-up top card, e.g. 'TD'; null when empty")
    count: int


class GameState(BaseModel):
    """A game as the engine sees it now."""

    id: str
    version: int = Field(description="Changes with every move and undo; also the ETag")
    deal: int | None = Field(description="Deal number; null for a custom deal")
    custom_deal: str | None = Field(description="A custom deal in text form, else null")
    goal: Goal
    passes: int
    status: GameStatus = Field(
        description="abandoned: its player started another game while it had moves")
    reason: str | None = Field(description="Why the game ended (RULES.md), null while playing")
    pyramid: list[str | None] = Field(description="28 slots from the apex, null = removed")
    stock: Pile
    waste: Pile
    pass_: int = Field(alias="pass", description="The current pass, from 1")
    passes_left: int
    free: list[str] = Field(description="Cards a move may use now")
    legal_moves: list[MoveOut]
    moves: list[MoveOut] = Field(description="The moves played so far")
    cards_removed: int
    cards_cleared: int = Field(description="Cards gone towards the goal (of 28 or 52)")
    hints_used: int
    score: int = Field(description="The score so far (the rules page says how it is made); "
                                   "fixed when the game ends")
    par: int | None = Field(description="A won game's par (the fewest moves that win the "
                                        "deal), once known; null before")
    winnable_only: bool = Field(description="Dealt from the proven-winnable deals")
    daily: str | None = Field(description="The UTC date whose deal of the day this is")
    counted: bool = Field(description="False for a game played again (a try again, a won deal "
                                      "of the day replayed): not in the statistics")
    ranked: bool = Field(description="False when its time and score are not ranked against "
                                     "others'; it counts all the same (docs/players.md)")
    timed_by: Literal["server", "player"] = Field(description="Whose clock timed the game")
    elapsed_seconds: int
    paused_seconds: int = Field(description="What the game's pauses leave out of its time: "
                                            "the first seconds of every pause count as "
                                            "played, and pauses leave out a few minutes at "
                                            "most in all (docs/players.md)")
    started_at: str
    finished_at: str | None

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)


Problem = ErrorProblem
"""Every error's shape (``errors.Problem``)."""


class HintOut(BaseModel):
    """The solver's advice from the current position."""

    move: MoveOut | None = Field(description="The move to play; null once the game is over")
    winnable: bool | None = Field(description="Whether the game can still be won; null when "
                                              "the search ran out of time")
    winnable_until: int | None = Field(
        description="When no win is left: how many moves to undo to be back in a winnable "
                    "position (null when none is, or the search could not tell)")
    message: str


class AnalysisOut(BaseModel):
    """Where a game went wrong, by the solver. null: the search hit its limit."""

    winnable_at_start: bool | None
    lost_at: int | None = Field(description="The 1-based number of the move after which a "
                                            "winnable game could no longer be won")
    better_move: MoveOut | None = Field(description="A move that kept the win at that point")
    solution: list[MoveOut] | None = Field(description="A winning line from the start")


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
def refusals_as_http() -> Iterator[None]:
    """The engine's and the store's refusals as HTTP errors: an illegal move is 422 with the
    engine's reason, a move that lost a race 409 (both in the request's language)."""
    try:
        yield
    except (MoveError, IllegalMove) as exc:
        raise HTTPException(422, engine_sentence(str(exc))) from None
    except actions.VersionMismatch:
        raise  # the route answers 412 with the game as it is
    except GameConflict as exc:
        raise HTTPException(409, refusal_sentence(str(exc))) from None


def too_busy(exc: solving.SolverBusy) -> HTTPException:
    """429 with how long to wait before asking again."""
    return HTTPException(429, str(exc), headers={"Retry-After": str(exc.retry_after)})


def precondition_failed(session, stale: LoadedGame) -> JSONResponse:
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
        return with_etag(response, load(session, record.id))

    return await in_one_hop(session, start)


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
        loaded = found if found is not None else get_loaded_game(request, game_id, session)
        body = move_body(raw)
        owned = owned_game(request, loaded, player_id)
        try:
            with refusals_as_http():
                chosen = Move.from_dict(body.model_dump(exclude_none=True))
                actions.play(session, owned, chosen, expected_version=version)
            results.remember_par(request, owned)
        except actions.VersionMismatch:
            return precondition_failed(session, owned)
        return with_etag(response, owned)

    return await in_one_hop(session, play)


@router.post("/games/{game_id}/undo", response_model=GameState, name="api_undo",
             responses={**ERRORS, 422: {"model": Problem, "description": "Nothing to undo"}})
async def undo(request: Request, game_id: str, session: SessionDep, response: Response,
               player_id: PlayerDep, if_match: IfMatch = None) -> Any:
    """Take back the last move (with ``If-Match``: only from that version)."""

    def take_back() -> Any:
        owned = owned_game(request, get_loaded_game(request, game_id, session), player_id)
        try:
            with refusals_as_http():
                actions.undo(session, owned, expected_version=expected_version(if_match))
        except actions.VersionMismatch:
            return precondition_failed(session, owned)
        return with_etag(response, owned)

    return await in_one_hop(session, take_back)


@router.post("/games/{game_id}/hint", response_model=HintOut, name="api_hint",
             responses={403: ERRORS[403], 404: ERRORS[404],
                        422: {"model": Problem, "description": "The game is over"},
                        429: {"model": Problem, "description": "A hint is still running"}})
async def hint(owned: OwnedGame, session: SessionDep, player_id: PlayerDep) -> HintOut:
    """The solver's next move from the current position; counts one hint on the game. The
    search runs in the solver's bounded pool (``solving``), never on the event loop."""
    try:
        with refusals_as_http():
            advice, until = await solving.advise(session, owned, player_id)
    except solving.SolverBusy as exc:
        raise too_busy(exc) from None
    return HintOut(move=advice.move.to_dict() if advice.move else None,
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
    if spoilers.kept_private(loaded.game):
        raise HTTPException(403, spoilers.why_private())
    try:
        found = await solving.where_it_went_wrong(session, loaded, player_id)
    except solving.SolverBusy as exc:
        raise too_busy(exc) from None
    return AnalysisOut(
        winnable_at_start=found.winnable_at_start, lost_at=found.lost_at,
        better_move=found.better_move.to_dict() if found.better_move else None,
        solution=[m.to_dict() for m in found.solution] if found.solution is not None else None)
