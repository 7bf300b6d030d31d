"""The game clock: pause and resume. A paused game's board is hidden (no thinking on a stopped
clock) and its clock stands still; the button, the P key and leaving the tab pause it, and any
move, or Resume, starts it again.

Plain forms (POST, then 303 back to the board), so they work without JavaScript; the board's
script posts a pause itself when the tab is hidden (``keepalive``: it may be closing). A pause
is not a move: it goes round the game's version, so another tab's next move is not stale.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from app.store import pause_game, resume_game
from app.web.core.csrf import require_csrf
from app.web.core.deps import OwnedGame, SessionDep
from app.web.core.htmx import is_htmx, see_other
from app.web.core.links import path_for

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])


def back_to_board(request: Request, game_id: str) -> Response:
    if is_htmx(request):
        return Response(status_code=204)
    return see_other(path_for(request, "board", game_id=game_id))


@router.post("/games/{game_id}/pause", name="pause")
def pause(request: Request, session: SessionDep, loaded: OwnedGame) -> Response:
    """Stop the clock (a game in progress that has started; otherwise nothing to do)."""
    pause_game(session, loaded.record)
    session.commit()
    return back_to_board(request, loaded.record.id)


@router.post("/games/{game_id}/resume", name="resume")
def resume(request: Request, session: SessionDep, loaded: OwnedGame) -> Response:
    """Start the clock again and show the board."""
    resume_game(session, loaded.record)
    session.commit()
    return back_to_board(request, loaded.record.id)
