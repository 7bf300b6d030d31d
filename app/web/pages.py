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
    LoadedGame,
    latest_unfinished,
    load,
    preview,
    remember_winnable_only,
    wants_winnable_only,
    won_daily,
)
from app.web import actions
from app.web.board import (
    NO_STORE,
    BoardInput,
    BoardInputDep,
    BoardUrls,
    give_hint,
    render_board,
    take_input,
)
from app.web.csrf import require_csrf
from app.web.deps import OwnedGame, PlayerDep, SessionDep, SettingsDep
from app.web.errors import PageError
from app.web.htmx import is_htmx, see_other
from app.web.links import path_for, rules_query
from app.web.params import DealNumber
from app.web.templating import templates
from app.web.threads import in_thread

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
            winnable_only: bool = False) -> Response:
    """Start a game, once the player has agreed to abandon the one in progress, if any."""
    current = actions.in_progress(session, player_id)
    if current is not None and not confirmed:
        return ask_to_abandon(request, current, action=action, fields=fields, starting=starting)
    record = actions.start(session, player_id, deal, variant, winnable_only=winnable_only)
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
def shown(request: Request, session, player_id: str, *, deal: Deal, variant: Variant,
          urls: BoardUrls, start: str, fields: dict[str, Any], starting: str,
          daily: date | None = None) -> Response:
    """A deal link's (or the deal of the day's) page: the deal on a board to play, stored only
    with the first input; the player's untouched game of it if there is one; or, when a game
    in progress with moves would be abandoned, the question first. A GET stores nothing: link
    previews, crawlers and prefetching leave no game behind."""
    current = actions.in_progress(session, player_id)
    if current is not None:
        return ask_to_abandon(request, current, action=start, fields=fields, starting=starting)
    latest = latest_unfinished(session, player_id)
    if latest is not None and actions.is_fresh_game_of(latest, deal, variant):
        return see_other(path_for(request, "board", game_id=latest.id))
    return render_board(request, preview(player_id, deal, variant.goal, variant.passes,
                                          daily=daily), player_id, urls=urls)


def first_input_starts(request: Request, session, player_id: str, *, deal: Deal,
                       variant: Variant, ask_at: str,
                       daily: date | None = None) -> Response | LoadedGame:
    """The game a deal page's first input starts; or, when it would abandon a game in progress
    (started in another tab since the page was drawn), the way to the question instead."""
    if actions.in_progress(session, player_id) is not None:
        if is_htmx(request):
            return Response(status_code=204, headers={"HX-Redirect": ask_at})
        return see_other(ask_at)
    record = actions.reusable_start(session, player_id, deal, variant, daily=daily)
    return load(session, record.id)


def went_on(request: Request, answered: Response, loaded: LoadedGame) -> Response:
    """The answer to a deal page's first input, with the page's address moved to the game's
    own (the board's script replaces the URL; without it, the redirect goes there)."""
    answered.headers["HX-Replace-Url"] = path_for(request, "board", game_id=loaded.record.id)
    return answered


@router.get("/deal/{number}", name="deal_link")
def deal_link(request: Request, session: SessionDep, player_id: PlayerDep, number: DealNumber,
              goal: GoalQuery = None, passes: PassesQuery = None) -> Response:
    """The share link: deal ``number`` with these rules, ready to play."""
    variant = read_variant(goal, passes)
    rules = rules_query(variant)
    return shown(request, session, player_id, deal=Deal.from_number(number), variant=variant,
                 urls=BoardUrls(play=path_for(request, "deal_play", query=rules, number=number),
                                hint=path_for(request, "deal_hint", query=rules,
                                              number=number)),
                 start=path_for(request, "deal_start", number=number), fields=rules,
                 starting=f"deal #{number} ({variant.label})")


@router.post("/deal/{number}/play", name="deal_play")
def deal_play(request: Request, session: SessionDep, player_id: PlayerDep, number: DealNumber,
              sent: BoardInputDep, goal: GoalQuery = None,
              passes: PassesQuery = None) -> Response:
    """A deal page's first input: it starts the game, then counts as the game's own."""
    variant = read_variant(goal, passes)
    started = first_input_starts(
        request, session, player_id, deal=Deal.from_number(number), variant=variant,
        ask_at=path_for(request, "deal_link", query=rules_query(variant), number=number))
    if isinstance(started, Response):
        return started
    return went_on(request, take_input(request, session, player_id, started,
                                       as_first_input(sent, started)), started)


@router.post("/deal/{number}/hint", name="deal_hint")
async def deal_hint(request: Request, session: SessionDep, player_id: PlayerDep,
                    number: DealNumber, goal: GoalQuery = None,
                    passes: PassesQuery = None) -> Response:
    variant = read_variant(goal, passes)
    started = await in_thread(lambda: first_input_starts(
        request, session, player_id, deal=Deal.from_number(number), variant=variant,
        ask_at=path_for(request, "deal_link", query=rules_query(variant), number=number)))
    if isinstance(started, Response):
        return started
    return went_on(request, await give_hint(request, session, player_id, started), started)


def as_first_input(sent: BoardInput, started: LoadedGame) -> BoardInput:
    """The page was drawn before the game existed: its input is made on the game as started."""
    return BoardInput(sent.card, sent.selected, sent.action, sent.moves, sent.input_id,
                      started.version if sent.moves is not None else None)


@router.post("/deal/{number}", name="deal_start")
def deal_start(request: Request, session: SessionDep, player_id: PlayerDep, number: DealNumber,
               goal: GoalField = None, passes: PassesField = None) -> Response:
    """Start the deal of a deal link, the player having agreed to leave their game."""
    record = actions.reusable_start(session, player_id, Deal.from_number(number),
                                    read_variant(goal, passes))
    return see_other(path_for(request, "board", game_id=record.id))


def today() -> datetime:
    return datetime.now(UTC)


DayQuery = Annotated[date | None, Query()]


def daily_of(day: date | None) -> date | None:
    """The date a deal of the day counts for: its own, when it is played that day. A page
    drawn before midnight and played after is an ordinary game of that deal; a date in the
    future is no deal of the day at all."""
    now = today().date()
    if day is not None and day > now:
        raise PageError(404, "No such deal of the day", "That day has not come yet.")
    return day if day is None or day == now else None


@router.get("/daily", name="daily")
def daily(request: Request, session: SessionDep, player_id: PlayerDep,
          goal: GoalQuery = None, passes: PassesQuery = None) -> Response:
    """Today's deal (UTC) for these rules: the same for everyone, from the proven-winnable
    deals (``odds.daily_deal``). Won already today: the result, and the deal again, not
    counted."""
    variant = read_variant(goal, passes)
    day = today().date()
    won = won_daily(session, player_id, day, variant.goal, variant.passes)
    if won is not None:
        return templates.TemplateResponse(request, "daily_won.html", {
            "record": won, "variant": variant, "fields": rules_query(variant)},
            headers=NO_STORE)
    query = {**rules_query(variant), "day": day.isoformat()}
    return shown(request, session, player_id,
                 deal=Deal.from_number(odds.daily_deal(day, variant)), variant=variant,
                 urls=BoardUrls(play=path_for(request, "daily_play", query=query),
                                hint=path_for(request, "daily_hint", query=query)),
                 start=path_for(request, "daily_start"), fields=rules_query(variant),
                 starting=f"the deal of the day ({variant.label})", daily=day)


@router.post("/daily/play", name="daily_play")
def daily_play(request: Request, session: SessionDep, player_id: PlayerDep,
               sent: BoardInputDep, goal: GoalQuery = None, passes: PassesQuery = None,
               day: DayQuery = None) -> Response:
    """The deal of the day's first input: the deal of the page's day, counted as that day's
    only when played on it."""
    variant = read_variant(goal, passes)
    drawn_on = day or today().date()
    started = first_input_starts(
        request, session, player_id, variant=variant, daily=daily_of(drawn_on),
        deal=Deal.from_number(odds.daily_deal(drawn_on, variant)),
        ask_at=path_for(request, "daily", query=rules_query(variant)))
    if isinstance(started, Response):
        return started
    return went_on(request, take_input(request, session, player_id, started,
                                       as_first_input(sent, started)), started)


@router.post("/daily/hint", name="daily_hint")
async def daily_hint(request: Request, session: SessionDep, player_id: PlayerDep,
                     goal: GoalQuery = None, passes: PassesQuery = None,
                     day: DayQuery = None) -> Response:
    variant = read_variant(goal, passes)
    drawn_on = day or today().date()
    started = await in_thread(lambda: first_input_starts(
        request, session, player_id, variant=variant, daily=daily_of(drawn_on),
        deal=Deal.from_number(odds.daily_deal(drawn_on, variant)),
        ask_at=path_for(request, "daily", query=rules_query(variant))))
    if isinstance(started, Response):
        return started
    return went_on(request, await give_hint(request, session, player_id, started), started)


@router.post("/daily/again", name="daily_again")
def daily_again(request: Request, session: SessionDep, player_id: PlayerDep,
                goal: GoalField = None, passes: PassesField = None,
                confirm: ConfirmField = None) -> Response:
    """Today's deal played again after a win: an ordinary game, not counted (the day's result
    stands)."""
    variant = read_variant(goal, passes)
    deal = Deal.from_number(odds.daily_deal(today().date(), variant))
    current = actions.in_progress(session, player_id)
    if current is not None and not confirm:
        return ask_to_abandon(request, current, action=path_for(request, "daily_again"),
                              fields=rules_query(variant),
                              starting="the deal of the day again, not counted")
    record = actions.start(session, player_id, deal, variant, rated=False)
    return see_other(path_for(request, "board", game_id=record.id))


@router.post("/daily", name="daily_start")
def daily_start(request: Request, session: SessionDep, player_id: PlayerDep,
                goal: GoalField = None, passes: PassesField = None) -> Response:
    """Start today's deal, the player having agreed to leave their game."""
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
    fresh = actions.restart(session, loaded, player_id, today().date())
    return see_other(path_for(request, "board", game_id=fresh.id))


@router.post("/games/{game_id}/retry", name="retry")
def retry(request: Request, session: SessionDep, player_id: PlayerDep, loaded: OwnedGame,
          before: Annotated[int, Form(ge=1, le=10_000)],
          confirm: ConfirmField = None) -> Response:
    """Try again from move ``before`` of an ended game: a new game, not counted, at the position
    before that move (the move that lost it, say)."""
    if not loaded.record.game_status.ended:
        raise PageError(409, "Not finished yet", "Undo takes moves back in a game in progress.",
                        link=(path_for(request, "board", game_id=loaded.record.id),
                              "Go to the game"))
    before = min(before, len(loaded.game.moves) + 1)
    current = actions.in_progress(session, player_id)
    if current is not None and not confirm:
        return ask_to_abandon(request, current,
                              action=path_for(request, "retry", game_id=loaded.record.id),
                              fields={"before": before},
                              starting=f"this deal again from move {before}, not counted")
    fresh = actions.retry(session, loaded, player_id, before)
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
