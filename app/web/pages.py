"""The HTML pages: home, deal links, the board and its moves, the rules.

Every action is a plain form first (POST, then 303 back to the board), and HTMX upgrades the
board's forms so a move redraws only the board, with out-of-band updates for the counters and
the message. ``HX-Request`` tells the two apart.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markdown_it import MarkdownIt

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
)
from app.engine.game import parse_goal, parse_passes
from app.settings import PROJECT_DIR
from app.store import GameConflict, GameRecord, latest_unfinished
from app.web import play as actions
from app.web.deps import PlayerDep, SessionDep, SettingsDep
from app.web.errors import PageError
from app.web.templating import templates
from app.web.view import board_context, describe_move, explain_illegal, with_symbols

router = APIRouter(include_in_schema=False)

BOARD_BLOCKS = ["board", "counters", "message"]


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def share_link(request: Request, record: GameRecord, game: Game) -> str | None:
    """The absolute deal link for this game's deal and rules (None for a custom deal)."""
    if record.deal_number is None:
        return None
    url = request.url_for("deal_link", number=record.deal_number)
    return str(url.include_query_params(goal=game.goal.value, passes=game.passes))


def render_board(request: Request, record: GameRecord, game: Game, player_id: str, *,
                 selected: str | None = None, message: str = "", status_code: int = 200,
                 removed: tuple[Card, ...] = ()) -> Response:
    """The board page, or for HTMX just the board plus out-of-band counters and message."""
    context: dict[str, Any] = board_context(
        record, game, can_play=record.player_id == player_id, selected=selected)
    context.update(message=message, share_link=share_link(request, record, game),
                   oob=is_htmx(request), max_deal=MAX_DEAL_NUMBER)
    if not is_htmx(request):
        return templates.TemplateResponse(request, "game.html", context, status_code=status_code)
    response = templates.TemplateResponse(request, "game.html", context,
                                          status_code=status_code, block_names=BOARD_BLOCKS)
    if removed:
        # Fired before the swap, so the page can animate the leaving cards.
        response.headers["HX-Trigger"] = json.dumps(
            {"cardsRemoved": {"cards": [card.name for card in removed]}})
    return response


def game_url(record_id: str, selected: str | None = None) -> str:
    return f"/games/{record_id}" + (f"?selected={selected}" if selected else "")


def parse_setup(goal: str | None, passes: str | None) -> tuple[Goal, int]:
    """Goal and passes from a form or query string, with the engine's error messages."""
    try:
        return (parse_goal(goal or Goal.STANDARD.value),
                parse_passes(passes if passes not in (None, "") else DEFAULT_PASSES))
    except GameSetupError as exc:
        raise PageError(400, "These rules don't exist", str(exc)) from None


# --- home --------------------------------------------------------------------------------
def render_home(request: Request, session, player_id: str, *, form: dict[str, str] | None = None,
                error: str | None = None, status_code: int = 200) -> Response:
    context = {
        "continue_game": latest_unfinished(session, player_id),
        "form": form or {"goal": "standard", "passes": str(DEFAULT_PASSES), "deal": ""},
        "error": error,
        "max_deal": MAX_DEAL_NUMBER,
    }
    return templates.TemplateResponse(request, "home.html", context, status_code=status_code)


@router.get("/", response_class=HTMLResponse, name="home")
def home(request: Request, session: SessionDep, player_id: PlayerDep) -> Response:
    return render_home(request, session, player_id)


@router.post("/games", name="new_game")
def new_game(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    player_id: PlayerDep,
    goal: Annotated[str | None, Form()] = None,
    passes: Annotated[str | None, Form()] = None,
    deal: Annotated[str | None, Form()] = None,
) -> Response:
    """Start a game from the home form (or the board's New game button: no deal = random)."""
    form = {"goal": goal or "standard", "passes": passes or str(DEFAULT_PASSES),
            "deal": deal or ""}
    try:
        chosen_goal = parse_goal(form["goal"])
        chosen_passes = parse_passes(form["passes"])
        number = (Deal.parse_number(deal) if deal and deal.strip()
                  else actions.random_deal_number(settings))
    except (GameSetupError, DealError) as exc:
        return render_home(request, session, player_id, form=form, error=str(exc),
                           status_code=400)
    record = actions.start(session, player_id, Deal.from_number(number), chosen_goal,
                           chosen_passes)
    return see_other(game_url(record.id))


@router.get("/deal/{number}", name="deal_link")
def deal_link(
    session: SessionDep,
    player_id: PlayerDep,
    number: str,
    goal: Annotated[str | None, Query()] = None,
    passes: Annotated[str | None, Query()] = None,
) -> Response:
    """The share link: start deal ``number`` with these rules at once."""
    try:
        deal = Deal.from_number(Deal.parse_number(number))
    except DealError as exc:
        raise PageError(404, "No such deal", str(exc)) from None
    chosen_goal, chosen_passes = parse_setup(goal, passes)
    record = actions.reusable_start(session, player_id, deal, chosen_goal, chosen_passes)
    return see_other(game_url(record.id))


# --- the board ---------------------------------------------------------------------------
def _open(session, game_id: str) -> tuple[GameRecord, Game]:
    try:
        return actions.open_game(session, game_id)
    except actions.GameNotFound:
        raise PageError(404, "No such game",
                        "This game does not exist. Start a new one from the home page.") from None


def _check_owner(record: GameRecord, player_id: str) -> None:
    if record.player_id != player_id:
        raise PageError(403, "Not your game",
                        "This game belongs to another player. You can play the same deal "
                        "yourself from its deal link.")


@router.get("/games/{game_id}", response_class=HTMLResponse, name="board")
def board(request: Request, session: SessionDep, player_id: PlayerDep, game_id: str,
          selected: Annotated[str | None, Query(max_length=3)] = None) -> Response:
    record, game = _open(session, game_id)
    return render_board(request, record, game, player_id, selected=selected)


@router.post("/games/{game_id}/play", name="play")
def play(
    request: Request,
    session: SessionDep,
    player_id: PlayerDep,
    game_id: str,
    card: Annotated[str | None, Form(max_length=3)] = None,
    selected: Annotated[str | None, Form(max_length=3)] = None,
    action: Annotated[str | None, Form(max_length=10)] = None,
) -> Response:
    """One click on the board: a card (with the card already selected, if any), or an action.

    A lone non-King card only becomes the selection; a King, a second card, Draw and Recycle
    are moves, judged by the engine.
    """
    record, game = _open(session, game_id)
    _check_owner(record, player_id)

    def answer(message: str, *, sel: str | None = None, status: int = 200) -> Response:
        if status == 200 and not is_htmx(request):
            return see_other(game_url(record.id, sel))
        return render_board(request, record, game, player_id, selected=sel, message=message,
                            status_code=status)

    try:
        if action in ("draw", "recycle"):
            move = Move.draw() if action == "draw" else Move.recycle()
        elif action:
            return answer(f"Unknown action {action!r}.", status=400)
        else:
            if not card:
                return answer("Choose a card.", status=400)
            clicked = Card.parse(card)
            first = Card.parse(selected) if selected else None
            if first == clicked:
                return answer(f"{clicked.symbol} is no longer selected.")
            if first is None and not clicked.is_king:
                if clicked not in game.free_cards():
                    return answer(with_symbols(_why_not_selectable(game, clicked)), status=422)
                return answer(f"{clicked.symbol} selected: choose a card to make 13 with it.",
                              sel=clicked.name)
            move = Move.remove(clicked) if first is None else Move.remove(first, clicked)
    except (CardError, ValueError) as exc:
        return answer(f"That is not a card: {exc}", status=400)

    try:
        record, game = actions.play(session, game_id, player_id, move)
    except IllegalMove as exc:
        return answer(explain_illegal(move, str(exc)), status=422)
    except GameConflict as exc:
        session.rollback()
        record, game = _open(session, game_id)
        return answer(str(exc), status=409)
    if not is_htmx(request):
        return see_other(game_url(record.id))
    message = describe_move(move)
    outcome = game.outcome()
    if outcome is not None:
        message += f" {'You won!' if outcome.won else 'Game over.'} {outcome.reason}"
    return render_board(request, record, game, player_id, message=message,
                        removed=move.cards)


def _why_not_selectable(game: Game, card: Card) -> str:
    if game.is_over():
        return "The game is over."
    where = game.location(card)
    if where is None:
        return f"{card} has already been removed."
    if where.pile == "pyramid":
        return f"{card} is covered: free the cards on top of it first."
    return f"{card} is not on top of the {where.pile}."


@router.post("/games/{game_id}/undo", name="undo")
def undo(request: Request, session: SessionDep, player_id: PlayerDep, game_id: str) -> Response:
    record, game = _open(session, game_id)
    _check_owner(record, player_id)
    try:
        record, game, move = actions.undo(session, game_id, player_id)
    except IllegalMove as exc:
        return render_board(request, record, game, player_id, message=str(exc), status_code=422)
    except GameConflict as exc:
        session.rollback()
        record, game = _open(session, game_id)
        return render_board(request, record, game, player_id, message=str(exc), status_code=409)
    if not is_htmx(request):
        return see_other(game_url(record.id))
    return render_board(request, record, game, player_id,
                        message=f"Took back: {with_symbols(move.to_text())}.")


@router.post("/games/{game_id}/restart", name="restart")
def restart(session: SessionDep, player_id: PlayerDep, game_id: str) -> Response:
    """Play this deal again from the start, as a new game."""
    record, _ = _open(session, game_id)
    _check_owner(record, player_id)
    fresh = actions.restart(session, game_id, player_id)
    return see_other(game_url(fresh.id))


# --- rules -------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def rules_html() -> str:
    """docs/RULES.md, the project's own copy of the rules, as HTML (rendered once)."""
    text = (PROJECT_DIR / "docs" / "RULES.md").read_text(encoding="utf-8")
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


@router.get("/rules", response_class=HTMLResponse, name="rules")
def rules(request: Request) -> Response:
    return templates.TemplateResponse(request, "rules.html", {"rules_html": rules_html()})


@router.get("/healthz", name="health")
def health() -> dict[str, str]:
    return {"status": "ok"}
