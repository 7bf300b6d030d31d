"""The board's routes: one game's page, what its player does there (play, undo, hint), and
what its end banner loads: the results of an ended game, the analysis of a lost one. Each
parses, calls and answers: an input is read and played by ``services.board``, and its answer
sent by ``views.boardpage``. A deal page's play and hint routes (``pages``, ``daily``) have the
same shape, on a game not stored yet.

Every action is a plain form first (POST, then 303 back to the board); the board's script
plays with its own engine and sends its steps in batches. Every board form carries the game's
version: an input made on a board that is no longer the stored one is refused (409, with the
board as it is), never applied to a position the player has not seen.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from app import odds
from app.engine.analysis import Analysis
from app.store import LoadedGame
from app.web.core.csrf import require_csrf
from app.web.core.deps import GameDep, OwnedGame, PlayerDep, SessionDep
from app.web.core.errors import PageError
from app.web.core.htmx import NO_STORE, is_htmx
from app.web.core.i18n import gettext as _
from app.web.core.links import board_links, path_for
from app.web.core.notice import Notice
from app.web.core.params import VersionField
from app.web.core.threads import in_one_hop, in_thread
from app.web.services import actions, board, racing, results, solving, spoilers, witness
from app.web.services.board import BoardInput, BoardInputDep
from app.web.views.boardpage import answer, clear_notice, render_board, take_notice
from app.web.views.templating import templates
from app.web.views.view import describe_step, drawn_by, kept_the_win, say_move

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

# --- the routes ----------------------------------------------------------------------------
@router.get("/games/{game_id}", response_class=HTMLResponse, name="board")
def board_page(request: Request, session: SessionDep, loaded: GameDep, player_id: PlayerDep,
               selected: Annotated[str | None, Query(max_length=3)] = None) -> Response:
    """The board. Its ETag is the game's version: the board's script, back in view or online
    again, asks with If-None-Match whether another tab moved (304: nothing new). A race without
    hints has no hint control: the page offers none, from the server or the device's solver."""
    etag = f'"{loaded.version}"'
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers={"ETag": etag, **NO_STORE})
    shown = take_notice(request, loaded.record.id) or Notice()
    links = board_links(request, loaded.record, selected=selected)
    response = render_board(request, loaded, player_id, links, Notice(
        shown.message, refused=shown.refused, selected=selected, hinted=shown.hinted,
        hinted_action=shown.hinted_action, refused_cards=shown.refused_cards),
        extras=racing.board_extras(session, loaded.record))
    clear_notice(request, response, links.board or "")
    response.headers["ETag"] = etag
    return response


@router.post("/games/{game_id}/play", name="play")
def play(request: Request, session: SessionDep, player_id: PlayerDep, loaded: OwnedGame,
         sent: BoardInputDep) -> Response:
    """One input on the board, or the script's batch of moves; judged by the engine on the
    version of the game the board showed."""
    return answer(request, player_id, board.play(request, session, player_id, loaded, sent),
                  extras=racing.board_extras(session, loaded.record))


@router.post("/games/{game_id}/undo", name="undo")
def undo(request: Request, session: SessionDep, player_id: PlayerDep, loaded: OwnedGame,
         version: VersionField = None) -> Response:
    """Take back the last move: the board's input ``undo``, played as any other."""
    return answer(request, player_id, board.play(
        request, session, player_id, loaded, BoardInput(action=actions.UNDO, version=version)),
        extras=racing.board_extras(session, loaded.record))


@router.post("/games/{game_id}/hint", name="hint")
async def hint(request: Request, session: SessionDep, player_id: PlayerDep,
               loaded: OwnedGame) -> Response:
    """Ask the solver for the next move. It counts on the game (hints used), changes nothing
    else, and runs off the event loop in the solver's bounded pool (``solving``)."""
    return answer(request, player_id, await board.hint(session, player_id, loaded))


@router.get("/games/{game_id}/analysis", response_class=HTMLResponse, name="analysis_page")
async def analysis_page(request: Request, session: SessionDep, loaded: GameDep,
                        player_id: PlayerDep) -> Response:
    """Could the game have been won, and which move lost it: a fragment for the lost game's
    banner (loaded after the board), or a page of its own without JavaScript. Anyone may ask,
    once the game is over (as for replays): during the game it would give its player the
    winning line, and that is what hints are for (and count). Nor while the deal can still be
    played for a day's result (``spoilers``): not even for its player."""
    await in_thread(check_analysable, request, session, loaded)
    record = loaded.record
    try:
        found, busy = await solving.where_it_went_wrong(session, loaded, player_id), None
    except solving.SolverBusy as exc:
        found, busy = None, str(exc)
    if found is not None:  # the better move it shows is written down (``witness``)
        await in_thread(lambda: witness.note_analysis(session, player_id, loaded, found,
                                                      solution=False))
    context = {**analysis_context(loaded, found), "busy": busy,
               "mine": record.player_id == player_id}
    return templates.TemplateResponse(request, "analysis.html", context,
                                      block_name="analysis" if is_htmx(request) else None)


@router.get("/games/{game_id}/results", response_class=HTMLResponse, name="results_page")
async def results_page(request: Request, session: SessionDep, loaded: GameDep,
                       player_id: PlayerDep) -> Response:
    """An ended game's par, and the challenge it answers or the answers to its own: a fragment
    for the end banner (loaded after the board), or a page of its own without JavaScript."""
    record, game = loaded.record, loaded.game
    if not record.status.ended:
        raise PageError(409, _("Not finished yet"), _("A game's results come once it has ended."),
                        link=(path_for(request, "board", game_id=record.id), _("Go to the game")))

    mine, sender, answers, everyone = await in_one_hop(session, lambda: results.results_of(
        session, record))
    facts = odds.deal_facts(game.deal.number, game.variant)
    par, busy = await results.par_of(loaded, player_id, facts)
    context = {"record": record, "game": game, "mine": mine, "sender": sender,
               "answers": answers, "par": par, "busy": busy, "deal_results": everyone,
               "facts": facts,
               "owner": record.player_id == player_id,
               "beats": results.beats(mine, sender) if sender is not None else None,
               "to_clear": game.goal.cards_to_clear}
    return templates.TemplateResponse(request, "results.html", context,
                                      block_name="results" if is_htmx(request) else None)


def check_analysable(request: Request, session: Session, loaded: LoadedGame) -> None:
    """Refuse the analysis of a game in progress (409), or of a deal in a race or still in
    play for a day's result (403)."""
    if not loaded.record.status.ended:
        raise PageError(409, _("Not finished yet"),
                        _("A game is analysed once it has ended: ask for a hint meanwhile."),
                        link=(path_for(request, "board", game_id=loaded.record.id),
                              _("Go to the game")))
    if racing.in_race(loaded.game.deal.number):
        raise PageError(403, racing.raced_title(), racing.why_raced())
    if spoilers.kept_private(session, loaded.game):
        raise PageError(403, spoilers.private_title(), spoilers.why_private(),
                        link=(path_for(request, "replay", game_id=loaded.record.id),
                              _("Watch the game's replay")))


def analysis_context(loaded: LoadedGame, found: Analysis | None) -> dict[str, Any]:
    """The analysis page's words: the move that lost the game and the one that would have
    kept the win, as the coach says them."""
    record, moves = loaded.record, loaded.game.moves
    lost_move = (moves[found.lost_at - 1]
                 if found is not None and found.lost_at and found.lost_at <= len(moves) else None)
    drawn = drawn_by(loaded.game, found.lost_at) if found and found.lost_at and lost_move else None
    better = found.better_move if found else None
    return {"record": record, "game": loaded.game, "found": found,
            "lost_move": say_move(lost_move, drawn) if lost_move else None,
            "lost_move_text": describe_step(lost_move, drawn) if lost_move else None,
            "better": say_move(better) if better else None,
            # The coach's sentence whole: "Removing K♠ instead would have kept the win."
            "kept_the_win": kept_the_win(better) if better else None,
            "ended": record.status.ended}
