"""The JSON API's shapes: what a client sends and what it gets back, as the OpenAPI schema at
/docs documents them (``api`` has the routes)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
)

from app import odds
from app.engine import (
    DEFAULT_VARIANT,
    MAX_PASSES,
    MIN_DEAL_NUMBER,
    GameStatus,
    Goal,
    Move,
)
from app.web.core.errors import Problem as ErrorProblem
from app.web.core.params import DealNumber, GoalValue, JsonInteger, OpValue, PassesValue

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
                                description=f"Trips through the stock: 1 to {MAX_PASSES}")
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
    # The default None stands for "left out" (it is never validated, so never sent as null).
    cards: list[str] = Field(default=None, min_length=1, max_length=2,  # type: ignore[arg-type]
                             description="The card or two for a remove, e.g. [\"5H\", \"8C\"]")


class MoveOut(BaseModel):
    op: OpValue
    cards: list[str] | None = Field(default=None, exclude_if=lambda cards: cards is None)


def move_out(move: Move) -> MoveOut:
    return MoveOut.model_validate(move.to_dict())


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
    unranked_why: Literal["untimed", "known", "fast"] | None = Field(
        default=None, description="Why it is not ranked: the server did not time it, it "
        "played moves known beforehand, or its moves came faster than a person plays "
        "(docs/players.md); null when ranked")
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
