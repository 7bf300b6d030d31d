"""The board's answers: the page (or the game as data for the board's script, or the htmx
fragment), and what every board form gets back, from the plain results of ``services.board``.

The board's script plays with its own engine and asks for the game as data
(``Accept: application/json``); htmx gets the blocks it swaps; without JavaScript a form's POST
is answered with a 303 back to the board, its notice carried through the redirect. A refused
move is a message on the board, not an HTTP error.

**The game as data.** The page plays with its own engine (static/js/engine, held to app/engine
by one shared suite), so it needs the deal's cards and the moves, not a drawing: ``page_data``
goes on the board page as JSON (``<script type="application/json" id="game-data">``), and
``answer_data`` is what a batch, a hint or an undo answers the script with. The server stays
the only judge: the script compares its moves with ``moves`` and, where they differ, takes the
server's. Deal numbers go up to 10**20 - 1, past what a JavaScript number holds exactly, so
they travel as digit strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from app.engine import Game
from app.store import GameRecord, LoadedGame, elapsed_seconds
from app.web.core import notice, utcday
from app.web.core.htmx import NO_STORE, is_htmx, see_other, wants_json
from app.web.core.links import absolute_url, challenge_url, deal_path, path_for, rules_query
from app.web.core.notice import NOTHING_TO_SAY, Answer, AskFirst, Notice
from app.web.views.templating import templates
from app.web.views.view import board_context, status_of

BOARD_BLOCKS = ["board", "counters", "message"]

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
                   challenge_url=challenge_url(request, record)
                   if record.player_id == player_id else None, **(extras or {}))
    if not is_htmx(request) and not context.get("shell"):
        context["game_data"] = page_data(
            record, game, elapsed=elapsed, running=context["running"], paused=context["paused"],
            can_play=context["can_play"], urls=page_urls(request, record, urls), said=said,
            learn=bool(context.get("learn")))
    return templates.TemplateResponse(request, "game.html", context, status_code=status_code,
                                      headers=NO_STORE,
                                      block_names=BOARD_BLOCKS if is_htmx(request) else [])


def page_urls(request: Request, record, urls: BoardUrls) -> dict[str, str | None]:
    """Where the board's script sends each input of this game (a game not stored yet has
    only its deal page's)."""
    stored = record.id is not None

    def of_game(name: str) -> str | None:
        return path_for(request, name, game_id=record.id) if stored else None

    return {"play": urls.play, "hint": urls.hint, "undo": urls.undo,
            "pause": of_game("pause"), "resume": of_game("resume"),
            "restart": of_game("restart"), "board": of_game("board"),
            "new_game": path_for(request, "new_game"), **again_urls(request, record)}


def again_urls(request: Request, record) -> dict[str, str | None]:
    """Where "Play this deal again" begins its game on the page (its first batch starts it, as
    a deal page's does), and the address it shows meanwhile: the deal link; today's deal of
    the day stays the deal of the day. A custom deal has none: its form starts it."""
    if record.deal_number is None:
        return {"again": None, "again_hint": None, "again_page": None}
    rules = rules_query(record.variant)
    if record.daily is not None and record.daily == utcday.today().date():
        day = {**rules, "day": record.daily.isoformat()}
        return {"again": path_for(request, "daily_play", query=day),
                "again_hint": path_for(request, "daily_hint", query=day),
                "again_page": path_for(request, "daily", query=rules)}
    number = record.deal_number
    return {"again": path_for(request, "deal_play", query=rules, number=number),
            "again_hint": path_for(request, "deal_hint", query=rules, number=number),
            "again_page": path_for(request, "deal_link", query=rules, number=number)}


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
    if outcome.page or is_htmx(request) or wants_json(request):
        response = render_board(request, loaded, player_id, said,
                                status_code=outcome.status_code, extras=extras)
    else:
        response = see_other(path_for(request, "board", query={"selected": said.selected},
                                      game_id=loaded.record.id))
        notice.put(request, response, loaded.record.id, said)
    if outcome.started:
        response.headers["HX-Replace-Url"] = path_for(request, "board", game_id=loaded.record.id)
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
    return render_board(request, shown, player_id, urls=urls, extras=extras)


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
        "status": status_of(record, game).value,
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
