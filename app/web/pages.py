"""The HTML pages: home, deal links, the deal of the day, the board and its moves, the rules.

Every action is a plain form first (POST, then 303 back to the board), and the board's script
upgrades the board's forms so a move redraws only the board, with out-of-band updates for the
counters and the message (``htmx.is_htmx`` tells the two apart). Every board form carries the
game's version: an input made on a board that is no longer the stored one is refused (409,
with the board as it is), never applied to a position the player has not seen.

Starting a game abandons a game in progress with moves (a loss): the pages ask first, on a page
of its own (``confirm.html``), so no link, reload or stray click costs a player a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from markdown_it import MarkdownIt

from app import odds
from app.engine import (
    DEFAULT_PASSES,
    MAX_DEAL_NUMBER,
    Card,
    CardError,
    Deal,
    DealError,
    Game,
    GameSetupError,
    Goal,
    IllegalMove,
    Move,
    Variant,
    parse_goal,
    parse_passes,
)
from app.settings import PROJECT_DIR
from app.store import (
    GameConflict,
    GameRecord,
    LoadedGame,
    elapsed_seconds,
    latest_unfinished,
    reload,
    remember_winnable_only,
    wants_winnable_only,
)
from app.web import actions, flash, solving
from app.web.csrf import require_csrf
from app.web.deps import GameDep, OwnedGame, PlayerDep, SessionDep, SettingsDep
from app.web.errors import PageError
from app.web.flash import Flash
from app.web.htmx import is_htmx, see_other
from app.web.params import DealNumber, VersionField
from app.web.security import absolute_url
from app.web.templating import templates
from app.web.view import board_context, describe_hint, describe_move, say_move, with_symbols

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

BOARD_BLOCKS = ["board", "counters", "message"]
NO_STORE = {"Cache-Control": "no-store"}
"""Game pages and the home page are never kept by the browser: Back, Forward and reload show
the position the server holds (and the home page's "Continue your game")."""


# --- answers -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Said:
    """What a board request has to tell the player, and which cards it concerns."""

    message: str = ""
    refused: bool = False
    selected: str | None = None
    removed: tuple[Card, ...] = ()
    refused_cards: tuple[str, ...] = ()
    hinted: tuple[str, ...] = ()
    hinted_action: str | None = None


def share_link(request: Request, record: GameRecord, game: Game) -> str | None:
    """The absolute deal link for this game's deal and rules (None for a custom deal), on
    BASE_URL when it is set."""
    if record.deal_number is None:
        return None
    return absolute_url(request, f"/deal/{record.deal_number}?goal={game.goal.value}"
                                 f"&passes={game.passes}")


def render_board(request: Request, loaded: LoadedGame, player_id: str, said: Said = Said(),
                 status_code: int = 200) -> Response:
    """The board page, or for the board's script just the board plus out-of-band counters
    and message. A refused move is a message on the board (200), not an HTTP error."""
    record, game = loaded.record, loaded.game
    context: dict[str, Any] = board_context(
        record, game, elapsed=elapsed_seconds(record), can_play=record.player_id == player_id,
        selected=said.selected, hinted=said.hinted, hinted_action=said.hinted_action,
        removed=said.removed, refused=said.refused_cards)
    context.update(message=said.message, tone="error" if said.refused else "info",
                   share_link=share_link(request, record, game), oob=is_htmx(request))
    blocks = {"block_names": BOARD_BLOCKS} if is_htmx(request) else {}
    return templates.TemplateResponse(request, "game.html", context, status_code=status_code,
                                      headers=NO_STORE, **blocks)


def answer(request: Request, loaded: LoadedGame, player_id: str, said: Said) -> Response:
    """What every board form gets back: the board fragment for the board's script; without
    JavaScript, POST -> 303 back to the board (a reload never re-posts), the message flashed
    through the redirect into the same live region."""
    if is_htmx(request):
        return render_board(request, loaded, player_id, said)
    response = see_other(game_url(loaded.record.id, said.selected))
    flash.put(request, response, loaded.record.id,
              Flash(said.message, tone="error" if said.refused else "info",
                    cards=said.hinted, action=said.hinted_action, refused=said.refused_cards))
    return response


def conflict(request: Request, session, loaded: LoadedGame, player_id: str,
             exc: GameConflict) -> Response:
    """The board as stored now, after an input made on an older board: 409, and no move."""
    fresh = reload(session, loaded)
    return render_board(request, fresh, player_id, Said(str(exc), refused=True),
                        status_code=409)


def game_url(record_id: str, selected: str | None = None) -> str:
    return f"/games/{record_id}" + (f"?selected={selected}" if selected else "")


def parse_setup(goal: str | None, passes: str | None) -> tuple[Goal, int]:
    """Goal and passes from a form or query string, with the engine's error messages."""
    try:
        return (parse_goal(goal or Goal.STANDARD.value),
                parse_passes(passes if passes not in (None, "") else DEFAULT_PASSES))
    except GameSetupError as exc:
        raise PageError(400, "These rules don't exist", str(exc)) from None


def ask_to_abandon(request: Request, current: GameRecord, *, action: str, fields: dict[str, str],
                   starting: str) -> Response:
    """Starting ``starting`` would abandon ``current`` (a loss): ask first. The page offers
    to go on with the current game, or to post ``fields`` to ``action`` again, confirmed."""
    context = {"current": current, "action": action, "fields": fields, "starting": starting}
    return templates.TemplateResponse(request, "confirm.html", context, headers=NO_STORE)


def started(request: Request, session, player_id: str, *, deal: Deal, goal: Goal, passes: int,
            confirmed: bool, action: str, fields: dict[str, str], starting: str,
            daily=None, winnable_only: bool = False, reuse: bool = False) -> Response:
    """Start a game, once the player has agreed to abandon the one in progress, if any."""
    current = actions.in_progress(session, player_id)
    if current is not None and not confirmed and not (
            reuse and actions.is_fresh_game_of(current, Game(deal, goal, passes))):
        return ask_to_abandon(request, current, action=action, fields=fields, starting=starting)
    begin = actions.reusable_start if reuse else actions.start
    record = begin(session, player_id, deal, goal, passes, daily=daily,
                   winnable_only=winnable_only)
    return see_other(game_url(record.id))


# --- home ----------------------------------------------------------------------------------
def render_home(request: Request, session, player_id: str, *, form: dict[str, str] | None = None,
                error: str | None = None, status_code: int = 200) -> Response:
    winnable_only = wants_winnable_only(session, player_id)
    context = {
        "continue_game": latest_unfinished(session, player_id),
        "form": form or {"goal": "standard", "passes": str(DEFAULT_PASSES), "deal": "",
                         "winnable_only": "1" if winnable_only else ""},
        "error": error,
        "max_deal": MAX_DEAL_NUMBER,
        "odds": odds.winnable_shares(),
    }
    return templates.TemplateResponse(request, "home.html", context, status_code=status_code,
                                      headers=NO_STORE)


@router.get("/", response_class=HTMLResponse, name="home")
def home(request: Request, session: SessionDep, player_id: PlayerDep) -> Response:
    return render_home(request, session, player_id)


@router.post("/games", name="new_game")
def new_game(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    player_id: PlayerDep,
    goal: Annotated[str | None, Form(max_length=20)] = None,
    passes: Annotated[str | None, Form(max_length=5)] = None,
    deal: Annotated[str | None, Form(max_length=200)] = None,
    winnable_only: Annotated[str | None, Form(max_length=5)] = None,
    confirm: Annotated[str | None, Form(max_length=5)] = None,
) -> Response:
    """Start a game from the home form (or the board's New game button: no deal = random;
    with "Winnable deals only", a random deal the solver has proven winnable)."""
    form = {"goal": goal or "standard", "passes": passes or str(DEFAULT_PASSES),
            "deal": deal or "", "winnable_only": "1" if winnable_only else ""}
    try:
        chosen_goal = parse_goal(form["goal"])
        chosen_passes = parse_passes(form["passes"])
        number = Deal.parse_number(deal) if deal and deal.strip() else None
    except (GameSetupError, DealError) as exc:
        return render_home(request, session, player_id, form=form, error=str(exc),
                           status_code=400)
    only_winnable = bool(winnable_only) and number is None
    remember_winnable_only(session, player_id, bool(winnable_only))
    session.commit()
    if number is None:
        number = (odds.winnable_deal(Variant(chosen_goal, chosen_passes)) if only_winnable
                  else actions.random_deal_number(settings))
    label = (f"a winnable deal ({Variant(chosen_goal, chosen_passes).label})" if only_winnable
             else f"deal #{number} ({Variant(chosen_goal, chosen_passes).label})" if deal
             else f"a new deal ({Variant(chosen_goal, chosen_passes).label})")
    return started(request, session, player_id, deal=Deal.from_number(number),
                   goal=chosen_goal, passes=chosen_passes, confirmed=bool(confirm),
                   action="/games", fields=form, starting=label,
                   winnable_only=only_winnable)


# --- deal links and the deal of the day ------------------------------------------------------
@router.get("/deal/{number}", name="deal_link")
def deal_link(request: Request, session: SessionDep, player_id: PlayerDep, number: DealNumber,
              goal: Annotated[str | None, Query(max_length=20)] = None,
              passes: Annotated[str | None, Query(max_length=5)] = None) -> Response:
    """The share link: start deal ``number`` with these rules at once, unless that would
    abandon a game in progress: then ask (a GET never costs a player a game)."""
    deal = Deal.from_number(number)
    chosen_goal, chosen_passes = parse_setup(goal, passes)
    return started(request, session, player_id, deal=deal, goal=chosen_goal,
                   passes=chosen_passes, confirmed=False, reuse=True,
                   action=f"/deal/{deal.number}",
                   fields={"goal": chosen_goal.value, "passes": str(chosen_passes)},
                   starting=f"deal #{deal.number} ({Variant(chosen_goal, chosen_passes).label})")


@router.post("/deal/{number}", name="deal_start")
def deal_start(request: Request, session: SessionDep, player_id: PlayerDep, number: DealNumber,
               goal: Annotated[str | None, Form(max_length=20)] = None,
               passes: Annotated[str | None, Form(max_length=5)] = None) -> Response:
    """Start the deal of a deal link, the player having agreed to leave their game."""
    deal = Deal.from_number(number)
    chosen_goal, chosen_passes = parse_setup(goal, passes)
    record = actions.reusable_start(session, player_id, deal, chosen_goal, chosen_passes)
    return see_other(game_url(record.id))


def today() -> datetime:
    return datetime.now(UTC)


@router.get("/daily", name="daily")
def daily(request: Request, session: SessionDep, player_id: PlayerDep,
          goal: Annotated[str | None, Query(max_length=20)] = None,
          passes: Annotated[str | None, Query(max_length=5)] = None) -> Response:
    """Today's deal (UTC) for these rules: the same for everyone, from the proven-winnable
    deals (``odds.daily_deal``). Asks first when it would abandon a game in progress."""
    chosen_goal, chosen_passes = parse_setup(goal, passes)
    day = today().date()
    number = odds.daily_deal(day, Variant(chosen_goal, chosen_passes))
    return started(request, session, player_id, deal=Deal.from_number(number),
                   goal=chosen_goal, passes=chosen_passes, confirmed=False, reuse=True,
                   daily=day, action="/daily",
                   fields={"goal": chosen_goal.value, "passes": str(chosen_passes)},
                   starting=f"the deal of the day ({Variant(chosen_goal, chosen_passes).label})")


@router.post("/daily", name="daily_start")
def daily_start(request: Request, session: SessionDep, player_id: PlayerDep,
                goal: Annotated[str | None, Form(max_length=20)] = None,
                passes: Annotated[str | None, Form(max_length=5)] = None) -> Response:
    chosen_goal, chosen_passes = parse_setup(goal, passes)
    day = today().date()
    number = odds.daily_deal(day, Variant(chosen_goal, chosen_passes))
    record = actions.reusable_start(session, player_id, Deal.from_number(number), chosen_goal,
                                    chosen_passes, daily=day)
    return see_other(game_url(record.id))


@router.get("/games", include_in_schema=False)
@router.get("/games/", include_in_schema=False)
def games_index() -> Response:
    """There is no list of games to show: the home page is where games start."""
    return see_other("/")


# --- the board -----------------------------------------------------------------------------
@router.get("/games/{game_id}", response_class=HTMLResponse, name="board")
def board(request: Request, loaded: GameDep, player_id: PlayerDep,
          selected: Annotated[str | None, Query(max_length=3)] = None) -> Response:
    shown = flash.take(request, loaded.record.id)
    said = Said(selected=selected) if shown is None else Said(
        shown.message, refused=shown.tone == "error", selected=selected, hinted=shown.cards,
        hinted_action=shown.action, refused_cards=shown.refused)
    response = render_board(request, loaded, player_id, said)
    flash.clear(request, response, loaded.record.id)
    return response


@router.post("/games/{game_id}/play", name="play")
def play(
    request: Request,
    session: SessionDep,
    player_id: PlayerDep,
    loaded: OwnedGame,
    card: Annotated[str | None, Form(max_length=3)] = None,
    selected: Annotated[str | None, Form(max_length=3)] = None,
    action: Annotated[str | None, Form(max_length=10)] = None,
    version: VersionField = None,
) -> Response:
    """One input on the board: a card (with the card already selected, if any), or an action.

    The selection lives here, on the server: a lone non-King card only becomes the selection
    (no move, no version change); a King, a second card, Draw and Recycle are moves, judged by
    the engine, on the version of the game the board showed.
    """
    game = loaded.game

    def reply(said: Said) -> Response:
        return answer(request, loaded, player_id, said)

    try:
        if action in ("draw", "recycle"):
            move = Move.draw() if action == "draw" else Move.recycle()
        elif action:
            return reply(Said(f"Unknown action {action!r}.", refused=True))
        elif not card:
            return reply(Said("Choose a card.", refused=True))
        else:
            clicked = Card.parse(card)
            first = Card.parse(selected) if selected else None
            if first == clicked:
                return reply(Said(f"{clicked.symbol} is no longer selected."))
            if first is None and not clicked.is_king:
                if version is not None and version != loaded.version:
                    return conflict(request, session, loaded, player_id,
                                    actions.VersionMismatch())
                why_not = game.why_not_free(clicked) if not game.is_over() else (
                    "The game is over.")
                if why_not:
                    return reply(Said(with_symbols(why_not), refused=True,
                                      refused_cards=(clicked.name,)))
                return reply(Said(f"{clicked.symbol} selected: choose a card to make 13 with "
                                  "it.", selected=clicked.name))
            move = Move.remove(clicked) if first is None else Move.remove(first, clicked)
    except (CardError, ValueError) as exc:
        return reply(Said(f"That is not a card: {exc}", refused=True))

    try:
        actions.play(session, loaded, move, expected_version=version)
    except IllegalMove as exc:
        return reply(Said(with_symbols(str(exc)), refused=True,
                          refused_cards=tuple(c.name for c in move.cards)))
    except GameConflict as exc:
        return conflict(request, session, loaded, player_id, exc)
    message = describe_move(move)
    outcome = game.outcome()
    if outcome is not None:
        message += f" {'You won!' if outcome.won else 'Game over.'} {outcome.reason}"
    return reply(Said(message, removed=move.cards))


@router.post("/games/{game_id}/undo", name="undo")
def undo(request: Request, session: SessionDep, player_id: PlayerDep, loaded: OwnedGame,
         version: VersionField = None) -> Response:
    try:
        move = actions.undo(session, loaded, expected_version=version)
    except IllegalMove as exc:
        return answer(request, loaded, player_id, Said(with_symbols(str(exc)), refused=True))
    except GameConflict as exc:
        return conflict(request, session, loaded, player_id, exc)
    return answer(request, loaded, player_id,
                  Said(f"Took back: {with_symbols(move.to_text())}."))


@router.post("/games/{game_id}/hint", name="hint")
async def hint(request: Request, session: SessionDep, player_id: PlayerDep,
               loaded: OwnedGame) -> Response:
    """Ask the solver for the next move. It counts on the game (hints used), changes nothing
    else, and runs off the event loop in the solver's bounded pool (``solving``)."""
    try:
        await run_in_threadpool(actions.count_hint_on, session, loaded)
        advice, until = await solving.advise(loaded, player_id)
    except IllegalMove:
        return answer(request, loaded, player_id,
                      Said("The game is over: there is nothing left to hint.", refused=True))
    except solving.SolverBusy as exc:
        return answer(request, loaded, player_id, Said(str(exc), refused=True))
    cards: tuple[str, ...] = ()
    hinted_action: str | None = None
    if advice.move is not None:
        if advice.move.cards:
            cards = tuple(card.name for card in advice.move.cards)
        else:
            hinted_action = advice.move.op.value
    return answer(request, loaded, player_id,
                  Said(describe_hint(advice, until), hinted=cards, hinted_action=hinted_action))


@router.post("/games/{game_id}/restart", name="restart")
def restart(request: Request, session: SessionDep, player_id: PlayerDep, loaded: OwnedGame,
            confirm: Annotated[str | None, Form(max_length=5)] = None) -> Response:
    """Play this deal again from the start, as a new game (asking first if this abandons it)."""
    record, game = loaded.record, loaded.game
    current = actions.in_progress(session, player_id)
    if current is not None and not confirm:
        return ask_to_abandon(request, current, action=f"/games/{record.id}/restart",
                              fields={}, starting=f"this deal again from the start "
                              f"({game.variant.label})")
    fresh = actions.restart(session, loaded, player_id)
    return see_other(game_url(fresh.id))


@router.get("/games/{game_id}/analysis", response_class=HTMLResponse, name="analysis_page")
async def analysis_page(request: Request, loaded: GameDep, player_id: PlayerDep) -> Response:
    """Could the game have been won, and which move lost it: a fragment for the lost game's
    banner (loaded after the board), or a page of its own without JavaScript. Its player may
    ask at any time, anyone once it is over (as for replays)."""
    record = loaded.record
    if record.player_id != player_id and not record.game_status.ended:
        raise PageError(403, "Not finished yet",
                        "Only its player can ask about a game still being played.")
    try:
        found = await solving.where_it_went_wrong(loaded, player_id)
    except solving.SolverBusy as exc:
        found, busy = None, str(exc)
    else:
        busy = None
    moves = loaded.game.moves
    lost_move = (moves[found.lost_at - 1]
                 if found is not None and found.lost_at and found.lost_at <= len(moves) else None)
    context = {"record": record, "game": loaded.game, "found": found, "busy": busy,
               "lost_move": say_move(lost_move).capitalize() if lost_move else None,
               "lost_move_text": with_symbols(lost_move.to_text()) if lost_move else None,
               "better": say_move(found.better_move) if found and found.better_move else None,
               "ended": record.game_status.ended}
    if is_htmx(request):
        return templates.TemplateResponse(request, "analysis.html", context,
                                          block_name="analysis")
    return templates.TemplateResponse(request, "analysis.html", context)


# --- rules ---------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def rules_html() -> str:
    """docs/RULES.md, the project's own copy of the rules, as HTML (rendered once)."""
    text = (PROJECT_DIR / "docs" / "RULES.md").read_text(encoding="utf-8")
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


@router.get("/rules", response_class=HTMLResponse, name="rules")
def rules(request: Request) -> Response:
    return templates.TemplateResponse(request, "rules.html", {"rules_html": rules_html()})
