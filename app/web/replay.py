"""Replays: step through an ended game, from the deal to its end, on the live board's templates.

``/games/{id}/replay?step=N`` shows the position after N moves. Links do everything without
JavaScript (a ``play=1`` page even advances itself with a <noscript> refresh); with it, htmx
swaps only the stage and pyramid.js adds the play button's timer and the arrow keys.

Anyone with the link may watch, but only a game that has ended (won, lost or abandoned): a game
in progress has no replay, so a replay never shows what its player has yet to see. The owner's
display name appears if they set one; their player id never does.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from app.engine import Game, GameStatus, ended_reason
from app.store import deal_of, display_name, get_game, moves_of
from app.web import solving
from app.web.deps import PlayerDep, SessionDep
from app.web.errors import PageError
from app.web.htmx import is_htmx
from app.web.statsview import RESULT_LABELS, deal_link
from app.web.templating import templates
from app.web.view import board_context, describe_step, format_duration

router = APIRouter(include_in_schema=False)


@router.get("/games/{game_id}/replay", response_class=HTMLResponse, name="replay")
def replay(request: Request, session: SessionDep, player_id: PlayerDep, game_id: str,
           step: Annotated[int, Query(ge=0, le=100_000)] = 0,
           play: Annotated[bool, Query()] = False,
           win_from: Annotated[int | None, Query(ge=0, le=100_000)] = None) -> Response:
    """The replay of an ended game; with ``win_from=K``, the game's first K moves followed by a
    winning line the solver found from there (what the player could have done instead)."""
    record = get_game(session, game_id)
    if record is None:
        raise PageError(404, "No such game",
                        "There is no game at this address: it may have been deleted when its "
                        "player reset their statistics.")
    if not record.game_status.ended:
        mine = record.player_id == player_id
        raise PageError(409, "Not finished yet",
                        "This game is still being played: its replay opens once it has ended."
                        + (" Finish it, or start another game, first." if mine else ""),
                        link=(f"/games/{game_id}", "Go to the game" if mine else "Watch it now"))
    moves = moves_of(record)
    if win_from is not None:
        try:
            line = (solving.POOL.run_from_thread(
                player_id, solving.winning_line, deal_of(record), record.goal, record.passes,
                moves[:win_from]) if win_from <= len(moves) else None)
        except solving.SolverBusy as exc:
            raise PageError(503, "The solver is busy", str(exc),
                            link=(f"/games/{game_id}/replay", "Watch the game's replay")) from None
        if line is None:
            raise PageError(404, "No winning line from there",
                            "The solver found no win from that point of this game.",
                            link=(f"/games/{game_id}/replay", "Watch the game's replay"))
        moves = moves[:win_from] + list(line)
    last = len(moves)
    step = min(step, last)
    game = Game.replay(deal_of(record), record.goal, record.passes, moves[:step])
    final = Game.replay(deal_of(record), record.goal, record.passes, moves)
    outcome = final.outcome()
    context: dict[str, Any] = board_context(record, game, elapsed=record.seconds or 0,
                                            can_play=False, replay=True)
    lost_at = None
    if record.game_status is GameStatus.LOST and win_from is None:
        try:
            lost_at = solving.POOL.run_from_thread(
                player_id, solving.analysis_of_ended, record).lost_at
        except solving.SolverBusy:
            lost_at = None  # the move list is shown without the mark rather than not at all
    context.update(
        step=step,
        last=last,
        steps=[describe_step(move) for move in moves],
        autoplay=play and step < last,
        win_from=win_from,
        base=f"/games/{game_id}/replay?" + (f"win_from={win_from}&" if win_from is not None
                                            else "") + "step=",
        owner_name=display_name(session, record.player_id),
        result=record.status,
        result_label=RESULT_LABELS[record.status],
        lost_at=lost_at,
        result_reason=ended_reason(record.game_status, outcome),
        duration=format_duration(record.seconds or 0),
        deal_again=deal_link(record.deal_number, record.goal, record.passes),
        mine=record.player_id == player_id,
    )
    if is_htmx(request):
        return templates.TemplateResponse(request, "replay.html", context, block_name="stage")
    return templates.TemplateResponse(request, "replay.html", context)

