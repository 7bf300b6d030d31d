"""Replays: step through an ended game, from the deal to its end, on the live board's templates.

``/games/{id}/replay?step=N`` shows the position after N moves. Links do everything without
JavaScript (a ``play=1`` page even advances itself with a <noscript> refresh); with it, htmx
swaps only the stage (a playing replay asks for its next step itself, with a delayed ``load``
trigger) and the board's script adds the arrow keys.

Anyone with the link may watch, but only a game that has ended (won, lost or abandoned): a game
in progress has no replay, so a replay never shows what its player has yet to see. The owner's
display name appears if they set one; their player id never does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from app.engine import Game, GameStatus
from app.store import LoadedGame, display_name, load
from app.web.core.deps import PlayerDep, SessionDep
from app.web.core.errors import PageError
from app.web.core.htmx import is_htmx
from app.web.core.i18n import gettext as _
from app.web.core.links import deal_path, path_for
from app.web.core.names import status_label
from app.web.core.refusals import ending
from app.web.services import racing, solving, spoilers, witness
from app.web.views.boardpage import board_context
from app.web.views.templating import templates
from app.web.views.view import described_steps, format_duration

router = APIRouter(include_in_schema=False)
T = TypeVar("T")


@router.get("/games/{game_id}/replay", response_class=HTMLResponse, name="replay")
def replay(request: Request, session: SessionDep, player_id: PlayerDep, game_id: str,
           step: Annotated[int, Query(ge=0, le=100_000)] = 0,
           play: Annotated[bool, Query()] = False,
           win_from: Annotated[int | None, Query(ge=0, le=100_000)] = None) -> Response:
    """The replay of an ended game; with ``win_from=K``, the game's first K moves followed by a
    winning line the solver found from there (what the player could have done instead). While
    the deal can still be played for a day's result, the moves only: no winning line (403), no
    losing move marked (``spoilers``)."""
    loaded = ended_game(request, session, game_id, player_id)
    private = kept_private(request, session, loaded, win_from)
    owner_name = display_name(session, loaded.record.player_id)
    session.rollback()  # no database connection is held while the solver searches
    lost_at, game = None, loaded.game
    if win_from is not None:
        game = shown_line(request, session, player_id, loaded, win_from)
    elif loaded.record.status is GameStatus.LOST and not private:  # the losing move: a clue
        lost_at = losing_move(request, player_id, loaded)
    context = replay_context(request, loaded.record, game, step=step, win_from=win_from)
    context.update(autoplay=play and context["step"] < context["last"], lost_at=lost_at,
                   owner_name=owner_name, mine=loaded.record.player_id == player_id)
    return templates.TemplateResponse(request, "replay.html", context,
                                      block_name="stage" if is_htmx(request) else None)


def kept_private(request: Request, session: Session, loaded: LoadedGame,
                 win_from: int | None) -> bool:
    """Whether the deal's line is kept private (``spoilers``); refused (403) in a race, or
    when a winning line is asked of a deal kept private."""
    if racing.in_race(loaded.game.deal.number):  # no one copies a line mid-race
        raise PageError(403, racing.raced_title(), racing.why_raced())
    private = spoilers.kept_private(session, loaded.game)
    if private and win_from is not None:
        raise PageError(403, spoilers.private_title(), spoilers.why_private(),
                        link=(path_for(request, "replay", game_id=loaded.record.id),
                              _("Watch the game's replay")))
    return private


def shown_line(request: Request, session: Session, player_id: str, loaded: LoadedGame,
               win_from: int) -> Game:
    """The game's first ``win_from`` moves and a winning line from there, written down: a
    challenge's answer (or a daily) that plays it counts it as hints (``witness``); a page
    seen again writes nothing."""
    game = with_winning_line(request, player_id, loaded.game, win_from)
    start = game.copy()
    while len(start.moves) > win_from:
        start.undo()
    witness.note_line(session, player_id, loaded.record.id, start, game.moves[win_from:])
    return game


def losing_move(request: Request, player_id: str, loaded: LoadedGame) -> int | None:
    """The move that lost the game; None (no mark rather than no replay) when the solver is
    busy."""
    found = solved(request, player_id, solving.analysis_of, loaded, busy_ok=True)
    return found.lost_at if found is not None else None


def ended_game(request: Request, session: Session, game_id: str, player_id: str) -> LoadedGame:
    """The game to replay: 404 for none, 409 while it is being played."""
    loaded = load(session, game_id)
    if loaded is None:
        raise PageError(404, _("No such game"),
                        _("There is no game at this address: it may have been deleted when its "
                          "player reset their statistics."))
    if not loaded.record.status.ended:
        mine = loaded.record.player_id == player_id
        raise PageError(409, _("Not finished yet"),
                        _("This game is still being played: its replay opens once it has "
                          "ended. Finish it, or start another game, first.") if mine
                        else _("This game is still being played: its replay opens once it has "
                               "ended."),
                        link=(path_for(request, "board", game_id=game_id),
                              _("Go to the game") if mine else _("Watch it now")))
    return loaded


def with_winning_line(request: Request, player_id: str, game: Game, win_from: int) -> Game:
    """The game's first ``win_from`` moves and a winning line from there (404: none)."""
    game = game.copy()
    while len(game.moves) > win_from:
        game.undo()
    line = solved(request, player_id, solving.winning_line, game) if len(
        game.moves) == win_from else None
    if line is None:
        raise PageError(404, _("No winning line from there"),
                        _("The solver found no win from that point of this game."),
                        link=(path_for(request, "replay", game_id=request.path_params[
                            "game_id"]), _("Watch the game's replay")))
    for move in line:
        game.play(move)
    return game


def replay_context(request: Request, record, game: Game, *, step: int,
                   win_from: int | None) -> dict[str, Any]:
    """The replay page's board at ``step`` of ``game`` (the moves played, or a winning line
    from ``win_from``), with its steps, its result and its links."""
    moves = list(game.moves)
    last = len(moves)
    step = min(step, last)
    shown = game.copy()  # the final position, walked back to the step shown
    while len(shown.moves) > step:
        shown.undo()
    # At the point a winning line starts, its first move (the better move) is marked: its
    # cards, or the stock when it is a draw or a recycle.
    better = moves[win_from] if win_from is not None and step == win_from < last else None
    context: dict[str, Any] = board_context(
        record, shown, elapsed=record.seconds or 0, can_play=False, replay=True,
        hinted=tuple(card.name for card in better.cards) if better else (),
        hinted_action=better.op.value if better and not better.cards else None)
    context.update(
        step=step, last=last, steps=described_steps(game), win_from=win_from,
        base=path_for(request, "replay", query={"win_from": win_from}, game_id=record.id)
        + ("&" if win_from is not None else "?") + "step=",
        result=GameStatus.WON if win_from is not None else record.status,
        result_label=_("A win") if win_from is not None else status_label(record.status),
        result_reason=ending(record.status, game.outcome()),
        duration=format_duration(record.seconds or 0),
        deal_again=deal_path(request, record.deal_number, record.variant))
    return context


def solved(request: Request, player_id: str, work: Callable[..., T], *args: Any,
           busy_ok: bool = False) -> T | None:
    """``work(*args)`` in the solver's queue; when it is busy, None (``busy_ok``) or a page
    that says so (429, with when to try again)."""
    try:
        return solving.QUEUE_OF_SEARCHES.run_from_thread(player_id, work, *args)
    except solving.SolverBusy as exc:
        if busy_ok:
            return None
        game_id = request.path_params["game_id"]
        raise PageError(429, _("The solver is busy"), str(exc),
                        link=(path_for(request, "replay", game_id=game_id),
                              _("Watch the game's replay")),
                        headers={"Retry-After": str(exc.retry_after)}) from None
