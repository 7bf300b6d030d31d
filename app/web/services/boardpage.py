"""The board's answers: the page (or the game as data for the board's script, or the htmx
fragment), and what every board form gets back.

The board's script plays with its own engine and asks for the game as data
(``Accept: application/json``, ``boarddata``); htmx gets the blocks it swaps; without
JavaScript a form's POST is answered with a 303 back to the board, its notice carried through
the redirect. A refused move is a message on the board, not an HTTP error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from app.engine import Card, Move, Op, Refusal
from app.store import GameConflict, LoadedGame, elapsed_seconds
from app.web.core import notice, utcday
from app.web.core.htmx import is_htmx, see_other, wants_json
from app.web.core.i18n import gettext as _
from app.web.core.links import absolute_url, deal_path, path_for, rules_query
from app.web.core.notice import Notice
from app.web.core.refusals import say
from app.web.services import results
from app.web.views.boarddata import answer_data, page_data
from app.web.views.templating import templates
from app.web.views.view import board_context, with_symbols

BOARD_BLOCKS = ["board", "counters", "message"]
NO_STORE = {"Cache-Control": "no-store"}
"""Game pages and the home page are never kept by the browser: Back, Forward and reload show
the position the server holds (and the home page's "Continue your game")."""


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


def conflict_message(exc: GameConflict) -> str:
    """What a ``GameConflict`` tells the player, in their language: the store's refusal said
    by its code (a ``VersionMismatch`` is written in the player's language already)."""
    return say(exc.refusal) if exc.refusal is not None else str(exc)


def refusal(why: Refusal, cards: tuple[Card, ...] = ()) -> Notice:
    """An input the rules refuse, said by its code in the player's language; its cards
    shake."""
    return Notice(with_symbols(say(why)), refused=True,
                  refused_cards=tuple(c.name for c in cards))


def took_back(move: Move) -> Notice:
    """What an undo says: ``Took back: 5♥+8♣.``"""
    if move.op is Op.DRAW:
        return Notice(_("Took back: draw."))
    if move.op is Op.RECYCLE:
        return Notice(_("Took back: recycle."))
    # TRANSLATORS: %(move)s is the move taken back, as in "5♥+8♣" or "K♠".
    return Notice(_("Took back: %(move)s.", move=with_symbols(move.to_text())))
