"""The HTML pages: home, deal links, the board and its moves, the rules.

Every action is a plain form first (POST, then 303 back to the board), and HTMX upgrades the
board's forms so a move redraws only the board, with out-of-band updates for the counters and
the message. ``HX-Request`` tells the two apart.
"""

from __future__ import annotations

import json
import re
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
from app.engine.solver import hint as solver_hint
from app.settings import PROJECT_DIR
from app.store import GameConflict, GameRecord, latest_unfinished
from app.web import flash
from app.web import play as actions
from app.web.deps import PlayerDep, SessionDep, SettingsDep
from app.web.errors import PageError
from app.web.flash import Flash
from app.web.templating import templates
from app.web.view import (
    board_context,
    describe_hint,
    describe_move,
    explain_illegal,
    status_of,
    with_symbols,
)

ODDS_FILE = "docs/odds-deals-1-10000.json"

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
                 selected: str | None = None, message: str = "", tone: str = "info",
                 removed: tuple[Card, ...] = (), hinted: tuple[str, ...] = (),
                 hinted_action: str | None = None) -> Response:
    """The board page, or for HTMX just the board plus out-of-band counters and message.

    HTMX answers are always 200, a refused move included: the refusal is a message on the
    board, not an HTTP error (the JSON API keeps its 4xx answers).
    """
    context: dict[str, Any] = board_context(
        record, game, can_play=record.player_id == player_id, selected=selected,
        hinted=hinted, hinted_action=hinted_action)
    context.update(message=message, tone=tone, share_link=share_link(request, record, game),
                   oob=is_htmx(request), max_deal=MAX_DEAL_NUMBER)
    if not is_htmx(request):
        return templates.TemplateResponse(request, "game.html", context)
    response = templates.TemplateResponse(request, "game.html", context,
                                          block_names=BOARD_BLOCKS)
    if removed:
        # Fired before the swap, so the page can animate the leaving cards.
        response.headers["HX-Trigger"] = json.dumps(
            {"cardsRemoved": {"cards": [card.name for card in removed]}})
    return response


def answer(request: Request, record: GameRecord, game: Game, player_id: str, message: str, *,
           tone: str = "info", selected: str | None = None, removed: tuple[Card, ...] = (),
           hinted: tuple[str, ...] = (), hinted_action: str | None = None) -> Response:
    """What every board form gets back.

    HTMX: the board fragment with ``message`` in the live region. Without JavaScript: always
    POST -> 303 back to the board (a reload never re-posts), the message flashed through the
    redirect into the same live region.
    """
    if is_htmx(request):
        return render_board(request, record, game, player_id, selected=selected,
                            message=message, tone=tone, removed=removed, hinted=hinted,
                            hinted_action=hinted_action)
    response = see_other(game_url(record.id, selected))
    flash.put(request, response, record.id,
              Flash(message, tone=tone, cards=hinted, action=hinted_action))
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
        "odds": winnable_shares(),
    }
    return templates.TemplateResponse(request, "home.html", context, status_code=status_code)


@lru_cache(maxsize=1)
def winnable_shares() -> dict[str, dict[int, float]]:
    """The share of deals the solver found winnable, per goal and passes, from the committed
    results of ``pyramid odds`` (docs/odds-deals-1-10000.json): ``{"standard": {1: 0.092}}``."""
    rows = json.loads((PROJECT_DIR / ODDS_FILE).read_text(encoding="utf-8"))
    shares: dict[str, dict[int, float]] = {}
    for row in rows:
        shares.setdefault(row["goal"], {})[row["passes"]] = row["wins"] / row["deals"]
    return shares


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


CANONICAL_DEAL = re.compile(r"[1-9][0-9]{0,24}", re.ASCII)


@router.get("/games", include_in_schema=False)
@router.get("/games/", include_in_schema=False)
def games_index() -> Response:
    """There is no list of games to show: the home page is where games start."""
    return see_other("/")


@router.get("/deal/{number}", name="deal_link")
def deal_link(
    session: SessionDep,
    player_id: PlayerDep,
    number: str,
    goal: Annotated[str | None, Query()] = None,
    passes: Annotated[str | None, Query()] = None,
) -> Response:
    """The share link: start deal ``number`` with these rules at once.

    The path takes the canonical form only (plain ASCII digits, no leading zero), so each
    deal has one link: ``/deal/1_000``, ``/deal/01`` or ``/deal/%205`` are not deal links.
    """
    if not CANONICAL_DEAL.fullmatch(number):
        raise PageError(404, "No such deal",
                        "A deal link ends in the deal's number written with plain digits "
                        "and no leading zero, like /deal/1000.")
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
    shown = flash.take(request, record.id)
    if shown is None:
        response = render_board(request, record, game, player_id, selected=selected)
    else:
        response = render_board(request, record, game, player_id, selected=selected,
                                message=shown.message, tone=shown.tone, hinted=shown.cards,
                                hinted_action=shown.action)
    flash.clear(request, response, record.id)
    return response


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

    def reply(message: str, *, sel: str | None = None, refused: bool = False) -> Response:
        return answer(request, record, game, player_id, message, selected=sel,
                      tone="error" if refused else "info")

    try:
        if action in ("draw", "recycle"):
            move = Move.draw() if action == "draw" else Move.recycle()
        elif action:
            return reply(f"Unknown action {action!r}.", refused=True)
        else:
            if not card:
                return reply("Choose a card.", refused=True)
            clicked = Card.parse(card)
            first = Card.parse(selected) if selected else None
            if first == clicked:
                return reply(f"{clicked.symbol} is no longer selected.")
            if first is None and not clicked.is_king:
                if clicked not in game.free_cards():
                    return reply(with_symbols(_why_not_selectable(game, clicked)), refused=True)
                return reply(f"{clicked.symbol} selected: choose a card to make 13 with it.",
                             sel=clicked.name)
            move = Move.remove(clicked) if first is None else Move.remove(first, clicked)
    except (CardError, ValueError) as exc:
        return reply(f"That is not a card: {exc}", refused=True)

    try:
        record, game = actions.play(session, game_id, player_id, move)
    except IllegalMove as exc:
        return reply(explain_illegal(move, str(exc)), refused=True)
    except GameConflict as exc:
        session.rollback()
        record, game = _open(session, game_id)
        return reply(str(exc), refused=True)
    message = describe_move(move)
    outcome = game.outcome()
    if outcome is not None:
        message += f" {'You won!' if outcome.won else 'Game over.'} {outcome.reason}"
    return answer(request, record, game, player_id, message, removed=move.cards)


def _why_not_selectable(game: Game, card: Card) -> str:
    """Why a lone card cannot be selected, saying no more than the player can see."""
    if game.is_over():
        return "The game is over."
    where = game.location(card)
    if where is None:
        return f"{card} has already been removed."
    if where.pile == "pyramid":
        return f"{card} is covered: free the cards on top of it first."
    # Only the top cards of the stock and the waste are face up: where the others lie, and
    # even which pile holds them, is hidden (the engine's own wording).
    return (f"{card} is not a free card: only the top cards of the stock and the waste can "
            "be played.")


@router.post("/games/{game_id}/undo", name="undo")
def undo(request: Request, session: SessionDep, player_id: PlayerDep, game_id: str) -> Response:
    record, game = _open(session, game_id)
    _check_owner(record, player_id)
    try:
        record, game, move = actions.undo(session, game_id, player_id)
    except IllegalMove as exc:
        return answer(request, record, game, player_id, str(exc), tone="error")
    except GameConflict as exc:
        session.rollback()
        record, game = _open(session, game_id)
        return answer(request, record, game, player_id, str(exc), tone="error")
    return answer(request, record, game, player_id,
                  f"Took back: {with_symbols(move.to_text())}.")


@router.post("/games/{game_id}/hint", name="hint")
def hint(request: Request, session: SessionDep, player_id: PlayerDep, game_id: str) -> Response:
    """Ask the solver for the next move. Read-only: nothing is saved, so a hint changes neither
    the game nor the statistics. A plain ``def`` route, so FastAPI runs the search (bounded by
    the solver's node limit, at most about a second) in its threadpool."""
    record, game = _open(session, game_id)
    _check_owner(record, player_id)
    session.rollback()  # nothing to write: end the read transaction before the search
    if status_of(game, record) != "playing":
        return answer(request, record, game, player_id,
                      "The game is over: there is nothing left to hint.", tone="error")
    advice = solver_hint(game.copy())
    cards: tuple[str, ...] = ()
    action: str | None = None
    if advice.move is not None:
        if advice.move.cards:
            cards = tuple(card.name for card in advice.move.cards)
        else:
            action = advice.move.op.value
    return answer(request, record, game, player_id, describe_hint(advice), hinted=cards,
                  hinted_action=action)


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
