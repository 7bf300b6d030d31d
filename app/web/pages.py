"""The pages that start games, and the links to them: home, the new-game form, deal links, the
deal of the day, restarting a deal, and the rules page.

Starting a game abandons a game in progress with moves (a loss): the pages ask first, on a page
of its own (``confirm.html``), so no link, reload or stray click costs a player a game. The
board itself, and what a player does on it, is ``board``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, Response
from markdown_it import MarkdownIt

from app import odds
from app.engine import (
    DEFAULT_VARIANT,
    MAX_DEAL_NUMBER,
    Deal,
    DealError,
    GameSetupError,
    Variant,
)
from app.settings import PROJECT_DIR
from app.store import (
    GameRecord,
    latest_unfinished,
    remember_winnable_only,
    wants_winnable_only,
)
from app.web import actions
from app.web.board import NO_STORE
from app.web.csrf import require_csrf
from app.web.deps import OwnedGame, PlayerDep, SessionDep, SettingsDep
from app.web.errors import PageError
from app.web.htmx import see_other
from app.web.links import path_for, rules_query
from app.web.params import DealNumber
from app.web.templating import templates

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

GoalField = Annotated[str | None, Form(max_length=20)]
PassesField = Annotated[str | None, Form(max_length=5)]
GoalQuery = Annotated[str | None, Query(max_length=20)]
PassesQuery = Annotated[str | None, Query(max_length=5)]
ConfirmField = Annotated[str | None, Form(max_length=5)]


def read_variant(goal: str | None, passes: str | None) -> Variant:
    """The rules from a form or a query string (the default for what is left out), with the
    engine's error messages."""
    try:
        return Variant(goal or DEFAULT_VARIANT.goal,  # type: ignore[arg-type]
                       passes if passes not in (None, "") else DEFAULT_VARIANT.passes)
    except GameSetupError as exc:
        raise PageError(400, "These rules don't exist", str(exc)) from None


def ask_to_abandon(request: Request, current: GameRecord, *, action: str, fields: dict[str, Any],
                   starting: str) -> Response:
    """Starting ``starting`` would abandon ``current`` (a loss): ask first. The page offers
    to go on with the current game, or to post ``fields`` to ``action`` again, confirmed."""
    context = {"current": current, "action": action, "fields": fields, "starting": starting}
    return templates.TemplateResponse(request, "confirm.html", context, headers=NO_STORE)


def started(request: Request, session, player_id: str, *, deal: Deal, variant: Variant,
            confirmed: bool, action: str, fields: dict[str, Any], starting: str,
            daily: date | None = None, winnable_only: bool = False,
            reuse: bool = False) -> Response:
    """Start a game, once the player has agreed to abandon the one in progress, if any.
    ``reuse``: an untouched game of the same deal and rules is the game (a reload, a second
    click) rather than a reason to ask."""
    current = actions.in_progress(session, player_id)
    if current is not None and not confirmed and not (
            reuse and actions.is_fresh_game_of(current, deal, variant)):
        return ask_to_abandon(request, current, action=action, fields=fields, starting=starting)
    begin = actions.reusable_start if reuse else actions.start
    record = begin(session, player_id, deal, variant, daily=daily, winnable_only=winnable_only)
    return see_other(path_for(request, "board", game_id=record.id))


# --- home ----------------------------------------------------------------------------------
def render_home(request: Request, session, player_id: str, *, form: dict[str, str] | None = None,
                error: str | None = None, status_code: int = 200) -> Response:
    winnable_only = wants_winnable_only(session, player_id)
    context = {
        "continue_game": latest_unfinished(session, player_id),
        "form": form or {"goal": DEFAULT_VARIANT.goal.value,
                         "passes": str(DEFAULT_VARIANT.passes), "deal": "",
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
def new_game(request: Request, session: SessionDep, settings: SettingsDep,
             player_id: PlayerDep, goal: GoalField = None, passes: PassesField = None,
             deal: Annotated[str | None, Form(max_length=200)] = None,
             winnable_only: Annotated[str | None, Form(max_length=5)] = None,
             confirm: ConfirmField = None) -> Response:
    """Start a game from the home form (or the board's New game button: no deal = random;
    with "Winnable deals only", a random deal the solver has proven winnable)."""
    form = {"goal": goal or DEFAULT_VARIANT.goal.value,
            "passes": passes or str(DEFAULT_VARIANT.passes),
            "deal": deal or "", "winnable_only": "1" if winnable_only else ""}
    try:
        variant = Variant(form["goal"], form["passes"])  # type: ignore[arg-type]
        number = Deal.parse_number(deal) if deal and deal.strip() else None
    except (GameSetupError, DealError) as exc:
        return render_home(request, session, player_id, form=form, error=str(exc),
                           status_code=400)
    only_winnable = bool(winnable_only) and number is None
    remember_winnable_only(session, player_id, bool(winnable_only))
    session.commit()
    if number is not None:
        label = f"deal #{number} ({variant.label})"
    elif only_winnable:
        number, label = odds.winnable_deal(variant), f"a winnable deal ({variant.label})"
    else:
        number = actions.random_deal_number(settings)
        label = f"a new deal ({variant.label})"
    return started(request, session, player_id, deal=Deal.from_number(number),
                   variant=variant, confirmed=bool(confirm),
                   action=path_for(request, "new_game"), fields=form, starting=label,
                   winnable_only=only_winnable)


# --- deal links and the deal of the day ------------------------------------------------------
@router.get("/deal/{number}", name="deal_link")
def deal_link(request: Request, session: SessionDep, player_id: PlayerDep, number: DealNumber,
              goal: GoalQuery = None, passes: PassesQuery = None) -> Response:
    """The share link: start deal ``number`` with these rules at once, unless that would
    abandon a game in progress: then ask (a GET never costs a player a game)."""
    variant = read_variant(goal, passes)
    return started(request, session, player_id, deal=Deal.from_number(number),
                   variant=variant, confirmed=False, reuse=True,
                   action=path_for(request, "deal_start", number=number),
                   fields=rules_query(variant),
                   starting=f"deal #{number} ({variant.label})")


@router.post("/deal/{number}", name="deal_start")
def deal_start(request: Request, session: SessionDep, player_id: PlayerDep, number: DealNumber,
               goal: GoalField = None, passes: PassesField = None) -> Response:
    """Start the deal of a deal link, the player having agreed to leave their game."""
    record = actions.reusable_start(session, player_id, Deal.from_number(number),
                                    read_variant(goal, passes))
    return see_other(path_for(request, "board", game_id=record.id))


def today() -> datetime:
    return datetime.now(UTC)


@router.get("/daily", name="daily")
def daily(request: Request, session: SessionDep, player_id: PlayerDep,
          goal: GoalQuery = None, passes: PassesQuery = None) -> Response:
    """Today's deal (UTC) for these rules: the same for everyone, from the proven-winnable
    deals (``odds.daily_deal``). Asks first when it would abandon a game in progress."""
    variant = read_variant(goal, passes)
    day = today().date()
    return started(request, session, player_id,
                   deal=Deal.from_number(odds.daily_deal(day, variant)), variant=variant,
                   confirmed=False, reuse=True, daily=day,
                   action=path_for(request, "daily_start"), fields=rules_query(variant),
                   starting=f"the deal of the day ({variant.label})")


@router.post("/daily", name="daily_start")
def daily_start(request: Request, session: SessionDep, player_id: PlayerDep,
                goal: GoalField = None, passes: PassesField = None) -> Response:
    variant = read_variant(goal, passes)
    day = today().date()
    record = actions.reusable_start(session, player_id,
                                    Deal.from_number(odds.daily_deal(day, variant)), variant,
                                    daily=day)
    return see_other(path_for(request, "board", game_id=record.id))


@router.get("/games", include_in_schema=False)
@router.get("/games/", include_in_schema=False)
def games_index(request: Request) -> Response:
    """There is no list of games to show: the home page is where games start."""
    return see_other(path_for(request, "home"))


@router.post("/games/{game_id}/restart", name="restart")
def restart(request: Request, session: SessionDep, player_id: PlayerDep, loaded: OwnedGame,
            confirm: ConfirmField = None) -> Response:
    """Play this deal again from the start, as a new game (asking first if this abandons it)."""
    current = actions.in_progress(session, player_id)
    if current is not None and not confirm:
        return ask_to_abandon(
            request, current, action=path_for(request, "restart", game_id=loaded.record.id),
            fields={}, starting=f"this deal again from the start ({loaded.game.variant.label})")
    fresh = actions.restart(session, loaded, player_id)
    return see_other(path_for(request, "board", game_id=fresh.id))


# --- rules ---------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def rules_html() -> str:
    """docs/RULES.md, the project's own copy of the rules, as HTML (rendered once)."""
    text = (PROJECT_DIR / "docs" / "RULES.md").read_text(encoding="utf-8")
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


@router.get("/rules", response_class=HTMLResponse, name="rules")
def rules(request: Request) -> Response:
    return templates.TemplateResponse(request, "rules.html", {"rules_html": rules_html()})
