"""The JSON API for bots and scripts, documented in the OpenAPI schema at /docs.

Moves use RULES.md's JSON form. The caller's player cookie owns the games it creates; the
engine judges every move and its reason comes back with a 422 when a move is illegal.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Request, Response, status
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from app.engine import (
    DEFAULT_PASSES,
    MAX_DEAL_NUMBER,
    MIN_DEAL_NUMBER,
    Deal,
    Goal,
    IllegalMove,
    Move,
    MoveError,
)
from app.store import GameConflict
from app.web import play as actions
from app.web.deps import PlayerDep, SessionDep, SettingsDep
from app.web.view import api_state

router = APIRouter(prefix="/api", tags=["games"])


class NewGame(BaseModel):
    """A new game: a deal number (random when left out), the goal and the number of passes.

    Strict: a deal or a number of passes is a JSON integer, never ``true``, ``"12"`` or ``1.0``.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    deal: int | None = Field(
        default=None, ge=MIN_DEAL_NUMBER, le=MAX_DEAL_NUMBER,
        description="PySolFC deal number; random when omitted.", examples=[42])
    goal: Literal["standard", "wholedeck"] = Field(default=Goal.STANDARD.value,
                                                   description="standard or wholedeck")
    # StrictInt, not Literal[1, 2, 3]: a Literal lets ``true`` and ``3.0`` through (== 1, == 3).
    passes: StrictInt = Field(default=DEFAULT_PASSES, ge=1, le=3,
                              description="Trips through the stock: 1, 2 or 3",
                              json_schema_extra={"enum": [1, 2, 3]})


class MoveIn(BaseModel):
    """One move in RULES.md's JSON form."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [
        {"op": "remove", "cards": ["5H", "8C"]}, {"op": "remove", "cards": ["KS"]},
        {"op": "draw"}, {"op": "recycle"}]})

    op: Literal["remove", "draw", "recycle"]
    cards: list[str] | None = Field(default=None, max_length=2)


class MoveOut(BaseModel):
    op: Literal["remove", "draw", "recycle"]
    cards: list[str] | None = Field(default=None, exclude_if=lambda cards: cards is None)


class Pile(BaseModel):
    top: str | None = Field(description="The face-up top card, e.g. 'TD'; null when empty")
    count: int


class GameState(BaseModel):
    """A game as the engine sees it now."""

    id: str
    deal: int | None = Field(description="Deal number; null for a custom deal")
    custom_deal: str | None = Field(description="A custom deal in text form, else null")
    goal: Goal
    passes: int
    status: Literal["playing", "won", "lost", "abandoned"] = Field(
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
    elapsed_seconds: int
    started_at: str
    finished_at: str | None

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)


class Problem(BaseModel):
    detail: str


def state(record, game) -> GameState:
    return GameState.model_validate(api_state(record, game))


def _open(session, game_id: str):
    try:
        return actions.open_game(session, game_id)
    except actions.GameNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no game {game_id!r}") from None


def existing_game(game_id: str, session: SessionDep) -> str:
    """The game's id, once it is known to exist: an unknown game is a 404 whatever the body."""
    _open(session, game_id)
    return game_id


async def move_body(request: Request) -> MoveIn:
    """The move in the request body, read only after ``existing_game`` has found the game
    (FastAPI would otherwise judge a declared body before any dependency runs)."""
    raw = await request.body()
    try:
        return MoveIn.model_validate_json(raw or b"null")
    except ValidationError as exc:
        raise RequestValidationError(
            [{**err, "loc": ("body", *err["loc"])}
             for err in exc.errors(include_url=False, include_input=False)]) from None


ERRORS = {
    403: {"model": Problem, "description": "The game belongs to another player"},
    404: {"model": Problem, "description": "No such game"},
    409: {"model": Problem, "description": "The game changed meanwhile; read it again"},
}


@contextmanager
def refusals_as_http() -> Iterator[None]:
    """The engine's and the store's refusals as HTTP errors: an illegal move is 422 with the
    engine's reason, another player's game 403, a move that lost a race 409."""
    try:
        yield
    except (MoveError, IllegalMove) as exc:
        raise HTTPException(422, str(exc)) from None
    except actions.NotYourGame:
        raise HTTPException(403, "this game belongs to another player") from None
    except GameConflict as exc:
        raise HTTPException(409, str(exc)) from None


@router.post("/games", status_code=201, response_model=GameState)
def create(body: NewGame, request: Request, response: Response, session: SessionDep,
           settings: SettingsDep, player_id: PlayerDep) -> GameState:
    """Start a game for the caller's player cookie (one is issued if the caller has none)."""
    number = body.deal if body.deal is not None else actions.random_deal_number(settings)
    record = actions.start(session, player_id, Deal.from_number(number), body.goal, body.passes)
    _, game = actions.open_game(session, record.id)
    response.headers["Location"] = str(request.url_for("read_game", game_id=record.id))
    return state(record, game)


@router.get("/games/{game_id}", response_model=GameState, name="read_game",
            responses={404: ERRORS[404]})
def read(game_id: str, session: SessionDep) -> GameState:
    """Read a game: anyone with its id may look."""
    return state(*_open(session, game_id))


@router.post("/games/{game_id}/moves", response_model=GameState,
             responses={**ERRORS, 422: {"model": Problem, "description": "Illegal move"}},
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": MoveIn.model_json_schema()}}}})
def move(game_id: Annotated[str, Depends(existing_game)],
         body: Annotated[MoveIn, Depends(move_body)],
         session: SessionDep, player_id: PlayerDep) -> GameState:
    """Play one move (a ``MoveIn``); an illegal move answers 422 with the engine's reason."""
    with refusals_as_http():
        chosen = Move.from_dict(body.model_dump(exclude_none=True))
        record, game = actions.play(session, game_id, player_id, chosen)
    return state(record, game)


@router.post("/games/{game_id}/undo", response_model=GameState,
             responses={**ERRORS, 422: {"model": Problem, "description": "Nothing to undo"}})
def undo(game_id: str, session: SessionDep, player_id: PlayerDep) -> GameState:
    """Take back the last move."""
    _open(session, game_id)
    with refusals_as_http():
        record, game, _ = actions.undo(session, game_id, player_id)
    return state(record, game)
