"""The board: one game's page, and what its player does there (play, undo, hint), and the
analysis of a lost game.

Every action is a plain form first (POST, then 303 back to the board), and the board's script
upgrades the board's forms so a move redraws only the board, with out-of-band updates for the
counters and the message (``htmx.is_htmx`` tells the two apart). Every board form carries the
game's version: an input made on a board that is no longer the stored one is refused (409,
with the board as it is), never applied to a position the player has not seen.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.engine import Card, CardError, Game, IllegalMove, Move, MoveError, game_over
from app.store import GameConflict, LoadedGame, elapsed_seconds, reload
from app.web import actions, notice, results, solving
from app.web.boarddata import answer_data, page_data
from app.web.csrf import require_csrf
from app.web.deps import GameDep, OwnedGame, PlayerDep, SessionDep
from app.web.errors import PageError
from app.web.htmx import is_htmx, see_other, wants_json
from app.web.links import absolute_url, deal_path, path_for
from app.web.notice import Notice
from app.web.params import VersionField
from app.web.templating import templates
from app.web.view import (
    board_context,
    describe_hint,
    describe_played,
    describe_step,
    drawn_by,
    say_move,
    with_symbols,
)

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
log = logging.getLogger("pyramid.board")

BOARD_BLOCKS = ["board", "counters", "message"]
NO_STORE = {"Cache-Control": "no-store"}
"""Game pages and the home page are never kept by the browser: Back, Forward and reload show
the position the server holds (and the home page's "Continue your game")."""


# --- answers -------------------------------------------------------------------------------
NOTHING_TO_SAY = Notice()


@dataclass(frozen=True, slots=True)
class BoardUrls:
    """Where the board's forms post: the game's own routes, or for a game not started yet
    (a deal link, the deal of the day) the routes that start it with the first input."""

    play: str
    hint: str
    undo: str | None = None

    @classmethod
    def of_game(cls, request: Request, game_id: str) -> BoardUrls:
        return cls(play=path_for(request, "play", game_id=game_id),
                   hint=path_for(request, "hint", game_id=game_id),
                   undo=path_for(request, "undo", game_id=game_id))


def render_board(request: Request, loaded: LoadedGame, player_id: str,
                 said: Notice = NOTHING_TO_SAY, status_code: int = 200,
                 urls: BoardUrls | None = None, extras: dict[str, Any] | None = None) -> Response:
    """The board page, or for the board's script just the board plus out-of-band counters
    and message. A refused move is a message on the board (200), not an HTTP error."""
    record, game = loaded.record, loaded.game
    urls = urls or BoardUrls.of_game(request, record.id)
    elapsed = elapsed_seconds(record)
    if wants_json(request):
        running = (record.player_id == player_id and not game.is_over() and bool(game.moves)
                   and record.paused_at is None)
        data = answer_data(record, game, elapsed=elapsed, running=running, said=said)
        if record.id is not None and request.url.path != urls.play:
            data["urls"] = page_urls(request, record, urls)  # the game was stored just now
        return JSONResponse(data, status_code=status_code, headers=NO_STORE)
    context: dict[str, Any] = board_context(
        record, game, elapsed=elapsed, can_play=record.player_id == player_id,
        selected=said.selected, hinted=said.hinted, hinted_action=said.hinted_action,
        removed=said.removed, refused=said.refused_cards)
    share = deal_path(request, record.deal_number, game.variant)
    context.update(message=said.message, tone=said.tone, oob=is_htmx(request),
                   share_link=absolute_url(request, share) if share else None,
                   play_url=urls.play, undo_url=urls.undo, hint_url=urls.hint,
                   challenge_url=results.challenge_url(request, record)
                   if record.player_id == player_id else None, **(extras or {}))
    if not is_htmx(request) and not context.get("shell"):
        context["game_data"] = page_data(
            record, game, elapsed=elapsed, running=context["running"], paused=context["paused"],
            can_play=context["can_play"], urls=page_urls(request, record, urls), said=said)
    blocks = {"block_names": BOARD_BLOCKS} if is_htmx(request) else {}
    return templates.TemplateResponse(request, "game.html", context, status_code=status_code,
                                      headers=NO_STORE, **blocks)


def page_urls(request: Request, record, urls: BoardUrls) -> dict[str, str | None]:
    """Where the board's script sends each input of this game (a game not stored yet has
    only its deal page's)."""
    stored = record.id is not None

    def of_game(name: str) -> str | None:
        return path_for(request, name, game_id=record.id) if stored else None

    return {"play": urls.play, "hint": urls.hint, "undo": urls.undo,
            "pause": of_game("pause"), "resume": of_game("resume"),
            "restart": of_game("restart"), "board": of_game("board"),
            "new_game": path_for(request, "new_game")}


def answer(request: Request, loaded: LoadedGame, player_id: str, said: Notice,
           status_code: int = 200) -> Response:
    """What every board form gets back: the game as data for the board's script, the board
    fragment for htmx; without JavaScript, POST -> 303 back to the board (a reload never
    re-posts), the notice carried through the redirect into the same live region.
    ``status_code`` is for the script and htmx (a refused batch is 422)."""
    if is_htmx(request) or wants_json(request):
        return render_board(request, loaded, player_id, said, status_code=status_code)
    response = see_other(path_for(request, "board", query={"selected": said.selected},
                                  game_id=loaded.record.id))
    notice.put(request, response, loaded.record.id, said)
    return response


def conflict(request: Request, session, loaded: LoadedGame, player_id: str,
             exc: GameConflict) -> Response:
    """The board as stored now, after an input made on an older board: 409, and no move."""
    return render_board(request, reload(session, loaded), player_id,
                        Notice(str(exc), refused=True), status_code=409)


def refusal(why: str, cards: tuple[Card, ...] = ()) -> Notice:
    """An input the rules refuse, in the engine's words; its cards shake."""
    return Notice(with_symbols(why), refused=True, refused_cards=tuple(c.name for c in cards))


# --- reading an input ------------------------------------------------------------------------
ACTIONS = {"draw": Move.draw, "recycle": Move.recycle}


def read_click(game: Game, selected: str | None, card: str | None) -> Move | Notice:
    """What a click on ``card`` means, with ``selected`` the card already selected: a move
    for the engine to judge, or what to tell the player (a selection, a deselection, a card
    that cannot be played).

    The selection lives on the server (the board's form carries it): a lone card that is not
    a King only becomes the selection; a King, or a second card, is a removal.
    """
    if not card:
        return Notice("Choose a card.", refused=True)
    try:
        clicked = Card.parse(card)
        first = Card.parse(selected) if selected else None
    except CardError as exc:
        return Notice(f"That is not a card: {exc}", refused=True)
    if first == clicked:
        return Notice(f"{clicked.symbol} is no longer selected.")
    if first is not None or clicked.is_king:
        return Move.remove(clicked) if first is None else Move.remove(first, clicked)
    why_not = game.why_not_free(clicked)
    if why_not:
        return refusal(why_not, (clicked,))
    return Notice(f"{clicked.symbol} selected: choose a card to make 13 with it.",
                  selected=clicked.name)


def read_action(action: str) -> Move | Notice:
    make = ACTIONS.get(action)
    return make() if make else Notice(f"Unknown action {action!r}.", refused=True)


BATCH_LIMIT = 100
"""Steps in one batch: far more than a player makes while one answer is on its way."""
INPUT_ID = r"^[A-Za-z0-9_-]{8,32}:[0-9]{1,9}$"
MOST_SECONDS = 7 * 24 * 3600
"""The longest game clock a page may report for moves made without network."""
"""A batch's id: the tab's own random id, a colon, and the batch's number in that tab."""


def read_steps(text: str) -> list[actions.Step] | Notice:
    """A batch in move notation, space-separated (``5H+8C draw KS undo``)."""
    words = text.split()
    if not words or len(words) > BATCH_LIMIT:
        return Notice(f"A batch holds 1 to {BATCH_LIMIT} inputs.", refused=True)
    steps: list[actions.Step] = []
    for word in words:
        if word.lower() == actions.UNDO:
            steps.append(actions.UNDO)
            continue
        try:
            steps.append(Move.from_text(word))
        except MoveError as exc:
            return Notice(f"That is not a move: {exc}", refused=True)
    return steps


def said_of(done: actions.Applied, game: Game) -> Notice:
    """What a batch did: its last step."""
    last = done.steps[-1]
    if last == actions.UNDO:
        return Notice(f"Took back: {with_symbols(done.undone[-1].to_text())}.")
    return Notice(describe_played(last, game))  # type: ignore[arg-type]


def refused_batch(exc: actions.BatchRefused, asked: int) -> Notice:
    """A batch the engine refused at one step: which, why, and that none of it was played."""
    cards = exc.step.cards if isinstance(exc.step, Move) else ()
    told = refusal(exc.why, cards)
    return Notice(f"{told.message} (Step {exc.number} of {asked}; none of them was played.)",
                  refused=True, refused_cards=told.refused_cards)


def out_of_step(request: Request, session, loaded: LoadedGame, player_id: str,
                input_id: str | None) -> Response:
    """A batch made on another version than the stored one. Sent again after its answer was
    lost, it finds itself applied and gets the board as it is (200). Otherwise the board as
    stored now (409), and whose doing that was: this tab's own earlier input, or another tab."""
    fresh = reload(session, loaded)
    last = fresh.record.last_input
    if input_id is not None and last == input_id:
        return render_board(request, fresh, player_id)
    mine = input_id is not None and last is not None and (
        last.split(":", 1)[0] == input_id.split(":", 1)[0])
    message = (actions.OWN_EARLIER_INPUT if mine else actions.VersionMismatch().args[0])
    return render_board(request, fresh, player_id, Notice(message, refused=True),
                        status_code=409)


def play_batch(request: Request, session, player_id: str, loaded: LoadedGame, text: str,
               version: int | None, input_id: str | None,
               untimed_elapsed: int | None = None) -> Response:
    """The board's script sends the inputs made while an answer was on its way together, all
    made on one version: they are played in order, up to the first the engine refuses.

    The script has played each of them with its own engine first: a step the server's engine
    refuses means the two engines disagree (the shared suite is there so that they never do),
    and is logged as an error; the answer's moves redraw the page as the server holds it."""
    if version is None:
        return answer(request, loaded, player_id,
                      Notice("A batch of inputs says which version of the game it was made "
                             "on.", refused=True), status_code=422)
    if version != loaded.version:
        return out_of_step(request, session, loaded, player_id, input_id)
    steps = read_steps(text)
    if isinstance(steps, Notice):
        return answer(request, loaded, player_id, steps, status_code=422)
    try:
        done = actions.apply(session, loaded, steps, version, input_id, untimed_elapsed)
        results.remember_par(request, loaded)
    except actions.BatchRefused as exc:
        if wants_json(request):
            log.error("The page's engine and the server's disagree: game %s, step %d of batch "
                      "%s (%s): %s", loaded.record.id, exc.number, input_id, exc.step, exc.why)
        return answer(request, loaded, player_id, refused_batch(exc, len(steps)),
                      status_code=422)
    except IllegalMove as exc:
        return answer(request, loaded, player_id, refusal(str(exc)), status_code=422)
    except GameConflict:
        return out_of_step(request, session, loaded, player_id, input_id)
    return answer(request, loaded, player_id, said_of(done, loaded.game))


# --- the routes ----------------------------------------------------------------------------
@router.get("/games/{game_id}", response_class=HTMLResponse, name="board")
def board(request: Request, loaded: GameDep, player_id: PlayerDep,
          selected: Annotated[str | None, Query(max_length=3)] = None) -> Response:
    """The board. Its ETag is the game's version: the board's script, back in view or online
    again, asks with If-None-Match whether another tab moved (304: nothing new)."""
    etag = f'"{loaded.version}"'
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers={"ETag": etag, **NO_STORE})
    shown = notice.take(request, loaded.record.id) or Notice()
    response = render_board(request, loaded, player_id, Notice(
        shown.message, refused=shown.refused, selected=selected, hinted=shown.hinted,
        hinted_action=shown.hinted_action, refused_cards=shown.refused_cards))
    notice.clear(request, response, loaded.record.id)
    response.headers["ETag"] = etag
    return response


@dataclass(frozen=True, slots=True)
class BoardInput:
    """What a board form sends: a card (with the card already selected, if any), an action,
    or the script's batch of moves; and the version it was made on."""

    card: str | None = None
    selected: str | None = None
    action: str | None = None
    moves: str | None = None
    input_id: str | None = None
    version: int | None = None
    untimed_elapsed: int | None = None
    """Set when the batch's moves were made without network: the page's own clock then."""
    abandon: bool = False
    """The player has agreed, on the page, to leave their game in progress (a deal page's
    first input then starts without asking again)."""


def board_input(card: Annotated[str | None, Form(max_length=3)] = None,
                selected: Annotated[str | None, Form(max_length=3)] = None,
                action: Annotated[str | None, Form(max_length=10)] = None,
                moves: Annotated[str | None, Form(max_length=BATCH_LIMIT * 8)] = None,
                input_id: Annotated[str | None, Form(alias="input", pattern=INPUT_ID)] = None,
                version: VersionField = None,
                offline: Annotated[bool, Form()] = False,
                elapsed: Annotated[int | None, Form(ge=0, le=MOST_SECONDS)] = None,
                abandon: Annotated[bool, Form()] = False) -> BoardInput:
    return BoardInput(card, selected, action, moves, input_id, version,
                      untimed_elapsed=(elapsed or 0) if offline else None, abandon=abandon)


BoardInputDep = Annotated[BoardInput, Depends(board_input)]


@router.post("/games/{game_id}/play", name="play")
def play(request: Request, session: SessionDep, player_id: PlayerDep, loaded: OwnedGame,
         sent: BoardInputDep) -> Response:
    """One input on the board, or the script's batch of moves; judged by the engine on the
    version of the game the board showed."""
    return take_input(request, session, player_id, loaded, sent)


def take_input(request: Request, session, player_id: str, loaded: LoadedGame,
               sent: BoardInput) -> Response:
    card, selected, action, version = sent.card, sent.selected, sent.action, sent.version
    if card is None and action is None and sent.moves is None and wants_json(request):
        return answer(request, loaded, player_id, Notice(
            "Nothing was sent: a card, an action or a batch of moves.", refused=True),
            status_code=422)
    if sent.moves is not None:
        return play_batch(request, session, player_id, loaded, sent.moves, version,
                          sent.input_id, sent.untimed_elapsed)
    if version is not None and version != loaded.version:
        return conflict(request, session, loaded, player_id, actions.VersionMismatch())
    status = loaded.record.game_status
    if status.ended:
        return answer(request, loaded, player_id,
                      Notice(game_over(status, loaded.game.outcome()), refused=True))
    read = read_action(action) if action else read_click(loaded.game, selected, card)
    if isinstance(read, Notice):
        return answer(request, loaded, player_id, read)
    try:
        actions.play(session, loaded, read, expected_version=version)
        results.remember_par(request, loaded)
    except IllegalMove as exc:
        return answer(request, loaded, player_id, refusal(str(exc), read.cards))
    except GameConflict as exc:
        return conflict(request, session, loaded, player_id, exc)
    return answer(request, loaded, player_id,
                  Notice(describe_played(read, loaded.game),
                         removed=tuple(c.name for c in read.cards)))


@router.post("/games/{game_id}/undo", name="undo")
def undo(request: Request, session: SessionDep, player_id: PlayerDep, loaded: OwnedGame,
         version: VersionField = None) -> Response:
    try:
        move = actions.undo(session, loaded, expected_version=version)
    except IllegalMove as exc:
        return answer(request, loaded, player_id, refusal(str(exc)))
    except GameConflict as exc:
        return conflict(request, session, loaded, player_id, exc)
    return answer(request, loaded, player_id,
                  Notice(f"Took back: {with_symbols(move.to_text())}."))


@router.post("/games/{game_id}/hint", name="hint")
async def hint(request: Request, session: SessionDep, player_id: PlayerDep,
               loaded: OwnedGame) -> Response:
    """Ask the solver for the next move. It counts on the game (hints used), changes nothing
    else, and runs off the event loop in the solver's bounded pool (``solving``)."""
    return await give_hint(request, session, player_id, loaded)


async def give_hint(request: Request, session, player_id: str, loaded: LoadedGame) -> Response:
    try:
        advice, until = await solving.advise(session, loaded, player_id)
    except IllegalMove as exc:
        return answer(request, loaded, player_id, refusal(str(exc)))
    except solving.SolverBusy as exc:
        return answer(request, loaded, player_id, Notice(str(exc), refused=True))
    move = advice.move
    return answer(request, loaded, player_id, Notice(
        describe_hint(advice, until),
        hinted=tuple(card.name for card in move.cards) if move else (),
        hinted_action=move.op.value if move and not move.cards else None))


@router.get("/games/{game_id}/analysis", response_class=HTMLResponse, name="analysis_page")
async def analysis_page(request: Request, session: SessionDep, loaded: GameDep,
                        player_id: PlayerDep) -> Response:
    """Could the game have been won, and which move lost it: a fragment for the lost game's
    banner (loaded after the board), or a page of its own without JavaScript. Anyone may ask,
    once the game is over (as for replays): during the game it would give its player the
    winning line, and that is what hints are for (and count)."""
    record = loaded.record
    if not record.game_status.ended:
        raise PageError(409, "Not finished yet",
                        "A game is analysed once it has ended: ask for a hint meanwhile.",
                        link=(path_for(request, "board", game_id=record.id), "Go to the game"))
    try:
        found, busy = await solving.where_it_went_wrong(session, loaded, player_id), None
    except solving.SolverBusy as exc:
        found, busy = None, str(exc)
    moves = loaded.game.moves
    lost_move = (moves[found.lost_at - 1]
                 if found is not None and found.lost_at and found.lost_at <= len(moves) else None)
    drawn = drawn_by(loaded.game, found.lost_at) if lost_move else None
    context = {"record": record, "game": loaded.game, "found": found, "busy": busy,
               "lost_move": say_move(lost_move, drawn).capitalize() if lost_move else None,
               "lost_move_text": describe_step(lost_move, drawn) if lost_move else None,
               "better": say_move(found.better_move) if found and found.better_move else None,
               "ended": record.game_status.ended, "mine": record.player_id == player_id}
    blocks = {"block_name": "analysis"} if is_htmx(request) else {}
    return templates.TemplateResponse(request, "analysis.html", context, **blocks)
