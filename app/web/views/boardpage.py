"""The board's answers: the page (or the game as data for the board's script, or the htmx
fragment), and what every board form gets back, from the plain results of ``services.board``.

The board's script plays with its own engine and asks for the game as data
(``Accept: application/json``); htmx gets the blocks it swaps; without JavaScript a form's POST
is answered with a 303 back to the board, its notice carried through the redirect in a
short-lived signed cookie (``put_notice``, shown once by the board: ``take_notice``,
``clear_notice``). A refused move is a message on the board, not an HTTP error. Every address
an answer writes is made once, by ``links.board_links``.

**The game as data.** The page plays with its own engine (static/js/engine, held to app/engine
by one shared suite), so it needs the deal's cards and the moves, not a drawing: ``page_data``
goes on the board page as JSON (``<script type="application/json" id="game-data">``), and
``answer_data`` is what a batch, a hint or an undo answers the script with. The server stays
the only judge: the script compares its moves with ``moves`` and, where they differ, takes the
server's. Deal numbers go up to 10**20 - 1, past what a JavaScript number holds exactly, so
they travel as digit strings.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from app.engine import Game, GameStatus, Move, Outcome
from app.store import GameRecord, LoadedGame, elapsed_seconds
from app.web.core.htmx import NO_STORE, is_htmx, see_other, wants_json
from app.web.core.links import BoardLinks, BoardUrls, board_links, path_for
from app.web.core.notice import NOTHING_TO_SAY, Answer, AskFirst, Notice
from app.web.core.refusals import ended, ending, say
from app.web.views.templating import templates
from app.web.views.view import (
    covered_by,
    discard_top,
    leaving_cards,
    pyramid_slots,
    tips_done,
    with_symbols,
)

BOARD_BLOCKS = ["board", "counters", "message"]


# --- the board drawn ----------------------------------------------------------------------
def said_reason(status: GameStatus, outcome: Outcome | None, record: Any) -> str | None:
    """Why a game ended, in the player's language (None while it is played): a race's game
    lost where play could go on was ended by the race's time limit."""
    if status is GameStatus.LOST and record.lost_by_time(outcome is not None):
        return ended(status.value, "time_up")
    return ending(status, outcome)


def board_context(record: Any, game: Game, *, elapsed: int, can_play: bool,
                  selected: str | None = None, replay: bool = False,
                  hinted: tuple[str, ...] = (), hinted_action: str | None = None,
                  removed: tuple[str, ...] = (), refused: tuple[str, ...] = (),
                  ) -> dict[str, Any]:
    """Everything the board template needs, computed once here rather than in Jinja.

    ``replay`` draws the same board read-only: free cards look free but nothing is a control.
    ``hinted`` cards (or the ``hinted_action`` control) are highlighted after a hint;
    ``removed`` cards fade out where they were; ``refused`` cards shake (a refused move).
    """
    outcome = game.outcome()
    # A replay shows the position's own status, whatever became of the game later.
    status = game.status if replay else record.status_of(game)
    owner = can_play and not replay
    can_move = owner and status is GameStatus.PLAYING
    legal = set(game.legal_moves)
    free = {card.name for card in game.free_cards()}
    selectable = free if can_move else set()
    if selected not in selectable:
        selected = None
    return {
        "record": record,
        "game": game,
        "version": record.version,
        "slots": pyramid_slots(game),
        "status": status,
        "outcome": outcome,
        "abandoned": status is GameStatus.ABANDONED,
        "reason": said_reason(status, outcome, record),
        "replay": replay,
        # What looks free (every free card) and what can be clicked (only while playing).
        "free_names": free,
        "selectable": selectable,
        "selected": selected,
        "covered_by": covered_by(game),
        "discard_top": discard_top(game),
        "tips_done": tips_done(game),
        "can_play": owner,
        # A replay marks the cards or the control of a move it points at (the better move),
        # though nothing on it can be played.
        "hinted": set(hinted) if replay else set(hinted) & selectable,
        "hinted_action": hinted_action if can_move or replay else None,
        "refused": set(refused),
        "leaving": leaving_cards(game, removed) if not replay else [],
        "can_move": can_move,
        "can_draw": can_move and Move.draw() in legal,
        "can_recycle": can_move and Move.recycle() in legal,
        "can_undo": can_move and bool(game.moves),
        "no_draw_reason": None if not can_move or Move.draw() in legal
        else with_symbols(say(why)) if (why := game.why_illegal(Move.draw())) else "",
        "stock_top": game.stock_top,
        "waste_top": game.waste_top,
        "elapsed": elapsed,
        "paused": can_move and getattr(record, "paused_at", None) is not None,
        "can_pause": can_move and record.id is not None,
        "running": can_move and bool(game.moves) and getattr(record, "paused_at", None) is None,
        "to_clear": game.goal.cards_to_clear,
        "cleared": game.cards_cleared,
        "score": record.score_of(game),
    }


# --- the answers ----------------------------------------------------------------------------
def render_board(request: Request, loaded: LoadedGame, player_id: str, links: BoardLinks,
                 said: Notice = NOTHING_TO_SAY, status_code: int = 200,
                 extras: dict[str, Any] | None = None) -> Response:
    """The board page, or for the board's script just the board plus out-of-band counters
    and message. A refused move is a message on the board (200), not an HTTP error."""
    record, game = loaded.record, loaded.game
    elapsed = elapsed_seconds(record)
    if wants_json(request):
        running = (record.player_id == player_id and not game.is_over() and bool(game.moves)
                   and record.paused_at is None)
        data = answer_data(record, game, elapsed=elapsed, running=running, said=said)
        if record.id is not None and request.url.path != links.posts.play:
            data["urls"] = links.page()  # the game was stored just now
        return JSONResponse(data, status_code=status_code, headers=NO_STORE)
    context: dict[str, Any] = board_context(
        record, game, elapsed=elapsed, can_play=record.player_id == player_id,
        selected=said.selected, hinted=said.hinted, hinted_action=said.hinted_action,
        removed=said.removed, refused=said.refused_cards)
    context.update(message=said.message, tone=said.tone, oob=is_htmx(request),
                   share_link=links.share(), play_url=links.posts.play,
                   undo_url=links.posts.undo, hint_url=links.posts.hint,
                   challenge_url=links.challenge() if record.player_id == player_id else None,
                   **(extras or {}))
    if not is_htmx(request) and not context.get("shell"):
        context["game_data"] = page_data(
            record, game, elapsed=elapsed, running=context["running"], paused=context["paused"],
            can_play=context["can_play"], urls=links.page(), said=said,
            learn=bool(context.get("learn")))
    return templates.TemplateResponse(request, "game.html", context, status_code=status_code,
                                      headers=NO_STORE,
                                      block_names=BOARD_BLOCKS if is_htmx(request) else [])


def answer(request: Request, player_id: str, outcome: Answer | AskFirst, *,
           ask_at: str | None = None, extras: dict[str, Any] | None = None) -> Response:
    """What every board form gets back: the game as data for the board's script, the board
    fragment for htmx; without JavaScript, POST -> 303 back to the board (a reload never
    re-posts), the notice carried through the redirect into the same live region; the board
    itself when the answer says so (``Answer.page``). A deal page's first input that would
    abandon a game in progress goes to the page's question (``ask_at``) instead; one that
    stored the game moves the page to the game's own address (the board's script replaces the
    URL; without it, the redirect goes there). ``extras`` go to the board (``render_board``)."""
    if isinstance(outcome, AskFirst):
        assert ask_at is not None, "only a deal page's game starts on an input"
        if is_htmx(request) or wants_json(request):
            return Response(status_code=204, headers={"HX-Redirect": ask_at})
        return see_other(ask_at)
    loaded, said = outcome.loaded, outcome.said
    links = board_links(request, loaded.record, selected=said.selected)
    if (outcome.page or is_htmx(request) or wants_json(request) or links.back is None
            or links.board is None):  # (a game not stored yet is its deal page's board)
        response = render_board(request, loaded, player_id, links, said,
                                status_code=outcome.status_code, extras=extras)
    else:
        response = put_notice(request, see_other(links.back), loaded.record.id, links.board,
                              said)
    if outcome.started and links.board is not None:
        response.headers["HX-Replace-Url"] = links.board
    return response


def deal_page(request: Request, player_id: str, shown: LoadedGame | AskFirst, *,
              urls: BoardUrls, start: str, fields: dict[str, Any], starting: str,
              extras: dict[str, Any] | None = None) -> Response:
    """A deal page (``services.board.deal_page``): the question before abandoning a game in
    progress (posting ``fields`` to ``start``, confirmed), the player's untouched game of the
    deal, or the deal on a board whose inputs go to ``urls``; ``extras`` go to the page (a
    challenge, the deal's results)."""
    if isinstance(shown, AskFirst):
        return ask_to_abandon(request, shown.current, action=start, fields=fields,
                              starting=starting)
    if shown.record.id is not None:
        return see_other(path_for(request, "board", game_id=shown.record.id))
    return render_board(request, shown, player_id, board_links(request, shown.record, urls),
                        extras=extras)


def started(request: Request, outcome: GameRecord | AskFirst, *, action: str,
            fields: dict[str, Any], starting: str) -> Response:
    """A game started (to its board), or the question first (``ask_to_abandon``)."""
    if isinstance(outcome, AskFirst):
        return ask_to_abandon(request, outcome.current, action=action, fields=fields,
                              starting=starting)
    return see_other(path_for(request, "board", game_id=outcome.id))


def ask_to_abandon(request: Request, current: GameRecord, *, action: str, fields: dict[str, Any],
                   starting: str) -> Response:
    """Starting ``starting`` would abandon ``current`` (a loss): ask first, on a page of its
    own, so no link, reload or stray click costs a player a game. The page offers to go on
    with the current game, or to post ``fields`` to ``action`` again, confirmed."""
    context = {"current": current, "action": action, "fields": fields, "starting": starting}
    return templates.TemplateResponse(request, "confirm.html", context, headers=NO_STORE)


# --- the notice through a redirect ----------------------------------------------------------
NOTICE_COOKIE = "pyramid_flash"
NOTICE_SALT = "pyramid.flash"
NOTICE_MAX_AGE = 60  # seconds: long enough for the redirect, short enough never to show stale
NOTICE_LONGEST = 500  # characters of a message carried in the cookie


def _serializer(request: Request) -> URLSafeTimedSerializer:
    """Signed (itsdangerous, keyed by SECRET_KEY), so a page never shows text a third party
    wrote."""
    return URLSafeTimedSerializer(request.app.state.settings.secret_key, salt=NOTICE_SALT)


def put_notice(request: Request, response: Response, game_id: str, board: str,
               said: Notice) -> Response:
    """Attach ``said`` to ``response``, a redirect towards ``board``, the board of ``game_id``
    (what the board draws from it: the selection travels in the URL, and nothing fades on a
    page load). The cookie goes to that board's path alone."""
    token = _serializer(request).dumps(
        {"g": game_id, "m": said.message[:NOTICE_LONGEST], "t": said.tone,
         "c": list(said.hinted), "a": said.hinted_action, "r": list(said.refused_cards)})
    response.set_cookie(NOTICE_COOKIE, token, max_age=NOTICE_MAX_AGE, path=board,
                        httponly=True, samesite="lax",
                        secure=request.app.state.settings.cookie_secure)
    return response


def _names(value: object) -> tuple[str, ...]:
    return tuple(item for item in value if isinstance(item, str)) if isinstance(
        value, list) else ()


def take_notice(request: Request, game_id: str) -> Notice | None:
    """The notice for this board, if a valid one came with the request (see
    ``clear_notice``)."""
    token = request.cookies.get(NOTICE_COOKIE)
    if not token:
        return None
    try:
        data = _serializer(request).loads(token, max_age=NOTICE_MAX_AGE)
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("g") != game_id:
        return None
    action = data.get("a")
    return Notice(message=str(data.get("m", "")), refused=data.get("t") == "error",
                  hinted=_names(data.get("c")), refused_cards=_names(data.get("r")),
                  hinted_action=action if isinstance(action, str) else None)


def clear_notice(request: Request, response: Response, board: str) -> None:
    """Delete the notice's cookie of the board at ``board`` once shown, so a reload does not
    announce it again."""
    if NOTICE_COOKIE in request.cookies:
        response.delete_cookie(NOTICE_COOKIE, path=board, httponly=True, samesite="lax",
                               secure=request.app.state.settings.cookie_secure)
# --- the game as data ---------------------------------------------------------------------
def deal_data(game: Game) -> dict[str, Any]:
    """The deal's cards (pyramid from the apex, stock from the top) and its number."""
    deal = game.deal
    return {"number": str(deal.number) if deal.number is not None else None,
            "pyramid": [card.name for card in deal.pyramid],
            "stock": [card.name for card in deal.stock]}


def answer_data(record: Any, game: Game, *, elapsed: int, running: bool,
                said: Notice | None = None) -> dict[str, Any]:
    """What the server holds of the game now, and what it says about the last input."""
    said = said or Notice()
    return {
        "id": record.id,
        "version": record.version,
        "status": record.status_of(game).value,
        "moves": [move.to_text() for move in game.moves],
        "last_input": record.last_input,
        "hints": record.hints_used or 0,
        "undos": record.undo_count or 0,
        "elapsed": elapsed,
        "running": running,
        "timed": getattr(record, "timed", True) is not False,
        "score": record.score_of(game).total,
        "message": said.message,
        "refused": said.refused,
        "hinted": list(said.hinted) + ([said.hinted_action] if said.hinted_action else []),
    }


def page_data(record: Any, game: Game, *, elapsed: int, running: bool, paused: bool,
              can_play: bool, urls: dict[str, str | None],
              said: Notice | None = None, learn: bool = False) -> dict[str, Any]:
    """Everything the board's script starts from: the deal, the rules, the moves, the clock and
    where each input goes (``urls``: play, hint, undo, pause, resume, restart, the page); and
    what the page says, with the cards it marks (``said``: a try again's better move)."""
    return {
        **answer_data(record, game, elapsed=elapsed, running=running, said=said),
        "deal": deal_data(game),
        "goal": game.goal.value,
        "passes": game.passes,
        "paused": paused,
        "can_play": can_play,
        "learn": learn,  # a guided game played on the page alone, never stored
        "daily": record.daily.isoformat() if getattr(record, "daily", None) else None,
        "urls": urls,
    }
