"""The deal of the day: today's deal for each rule set, the same for everyone (``odds.daily_deal``),
counted as the day's only when played that day; a won day's result stands (it can be played
again, not counted).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import Response

from app import odds
from app.engine import Deal, Variant
from app.store import GameRecord, preview, won_daily
from app.web.core.csrf import require_csrf
from app.web.core.dates import format_day
from app.web.core.deps import PlayerDep, SessionDep
from app.web.core.errors import PageError
from app.web.core.htmx import NO_STORE, see_other
from app.web.core.i18n import gettext as _
from app.web.core.links import BoardUrls, path_for, rules_query
from app.web.core.names import variant_label
from app.web.services import actions, board, starting
from app.web.services.board import BoardInputDep
from app.web.services.calendar import calendar_context
from app.web.services.starting import (
    ConfirmField,
    DealPageGame,
    GoalField,
    GoalQuery,
    PassesField,
    PassesQuery,
    read_variant,
)
from app.web.views.boardpage import answer, ask_to_abandon, deal_page
from app.web.views.templating import templates

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
DayQuery = Annotated[date | None, Query()]


def days_of(day: date | None, offline: bool = False,
            drawn: date | None = None) -> tuple[date | None, date | None]:
    """(daily, late_daily) for a deal of the day drawn for ``day``: played on its day it is that
    day's (streaks count it); played later (a page drawn before midnight, a past day from the
    calendar) it is a late one (the calendar shows it, streaks do not). A game begun without
    network reaches the server only once the network is back: begun on the day before, it
    still counts as that day's when the server can check it (``offline`` and ``drawn``: the
    page or pack was drawn on or before that day, and the batch arrives within hours of its
    end: ``starting.counts_for_its_day``). A date in the future is no deal of the day at all."""
    now = starting.today().date()
    if day is not None and day > now:
        raise PageError(404, _("No such deal of the day"), _("That day has not come yet."))
    if day is None or day == now:
        return day or now, None
    if offline and day == now - timedelta(days=1) and starting.counts_for_its_day(day, drawn):
        return day, None
    return None, day


@router.get("/daily", name="daily")
def daily(request: Request, session: SessionDep, player_id: PlayerDep,
          goal: GoalQuery = None, passes: PassesQuery = None, day: DayQuery = None) -> Response:
    """The deal of the day (UTC) for these rules: the same for everyone, from the proven-winnable
    deals (``odds.daily_deal``); ``day`` a past day's, from the calendar. Won already today:
    the result, and the deal again, not counted."""
    variant = read_variant(goal, passes)
    on_time, late = days_of(day)
    drawn_for = late or on_time
    assert drawn_for is not None
    if on_time and (won := won_daily(session, player_id, on_time, variant.goal, variant.passes)):
        return won_page(request, won, variant, drawn_for)
    deal = Deal.from_number(odds.daily_deal(drawn_for, variant))
    shown = starting.deal_page(session, player_id, preview(player_id, deal, variant.goal,
                                                        variant.passes, daily=on_time))
    query = {**rules_query(variant), "day": drawn_for.isoformat()}
    return deal_page(request, player_id, shown, urls=BoardUrls(
        play=path_for(request, "daily_play",
                      query={**query, "drawn": starting.drawn_stamp(request)}),
        hint=path_for(request, "daily_hint", query=query)),
        start=path_for(request, "daily_start"), fields=query,
        starting=daily_phrase(variant, late), extras={
            "calendar_url": calendar_path(request, variant, drawn_for), "late_daily": late})


def won_page(request: Request, won: GameRecord, variant: Variant, day: date) -> Response:
    """The day's deal won already: the result, and the deal again, not counted."""
    return templates.TemplateResponse(request, "daily_won.html", {
        "record": won, "variant": variant, "fields": rules_query(variant),
        "calendar_url": calendar_path(request, variant, day)}, headers=NO_STORE)


def daily_phrase(variant: Variant, late: date | None) -> str:
    """How the question before abandoning a game names the deal of the day (or of ``late``)."""
    rules = variant_label(variant)
    if late is None:
        # TRANSLATORS: what the player would start ("Abandon it and start ..."): the object of
        # "start"; %(rules)s is the rule set, as in "standard goal, 3 passes".
        return _("the deal of the day (%(rules)s)", rules=rules)
    # TRANSLATORS: what the player would start ("Abandon it and start ..."): the object of
    # "start"; %(day)s is a date, as in "4 March 2026".
    return _("the deal of %(day)s, played late (%(rules)s)",
             day=format_day(late, "long"), rules=rules)


def daily_page_game(request: Request, player_id: PlayerDep, goal: GoalQuery = None,
                    passes: PassesQuery = None, day: DayQuery = None,
                    drawn: Annotated[str | None, Query(max_length=200)] = None,
                    offline: Annotated[bool, Form()] = False) -> DealPageGame:
    """The deal of the page's day, not stored before its first input: counted as that day's
    only when played on it (or begun on it without network, ``offline``: ``days_of``;
    ``drawn``: the stamp the page or the offline pack carried, ``starting.drawn_stamp``); and
    the daily's page, which asks before that input abandons a game in progress."""
    variant = read_variant(goal, passes)
    drawn_on = day or starting.today().date()
    on_time, late = days_of(drawn_on, offline=offline, drawn=starting.drawn_day(request, drawn))
    return DealPageGame(
        preview(player_id, Deal.from_number(odds.daily_deal(drawn_on, variant)), variant.goal,
                variant.passes, daily=on_time, late_daily=late),
        ask_at=path_for(request, "daily", query={**rules_query(variant), "day": late}))


DailyPageDep = Annotated[DealPageGame, Depends(daily_page_game)]


@router.post("/daily/play", name="daily_play")
def daily_play(request: Request, session: SessionDep, player_id: PlayerDep, page: DailyPageDep,
               sent: BoardInputDep) -> Response:
    """The deal of the day's first input: it starts the game, then counts as the game's own."""
    return answer(request, player_id, board.first_input(
        request, session, player_id, page.game, sent), ask_at=page.ask_at)


@router.post("/daily/hint", name="daily_hint")
async def daily_hint(request: Request, session: SessionDep, player_id: PlayerDep,
                     page: DailyPageDep) -> Response:
    """A hint asked on the deal of the day's page: it starts the game, as any first input."""
    return answer(request, player_id, await board.first_hint(session, player_id, page.game),
                  ask_at=page.ask_at)


@router.post("/daily/again", name="daily_again")
def daily_again(request: Request, session: SessionDep, player_id: PlayerDep,
                goal: GoalField = None, passes: PassesField = None,
                confirm: ConfirmField = None) -> Response:
    """Today's deal played again after a win: an ordinary game, not counted (the day's result
    stands)."""
    variant = read_variant(goal, passes)
    deal = Deal.from_number(odds.daily_deal(starting.today().date(), variant))
    current = actions.in_progress(session, player_id)
    if current is not None and not confirm:
        return ask_to_abandon(request, current, action=path_for(request, "daily_again"),
                              fields=rules_query(variant),
                              # TRANSLATORS: what the player would start ("Abandon it and
                              # start ..."): the object of "start".
                              starting=_("the deal of the day again, not counted"))
    record = actions.start(session, player_id, deal, variant, rated=False)
    return see_other(path_for(request, "board", game_id=record.id))


@router.post("/daily", name="daily_start")
def daily_start(request: Request, session: SessionDep, player_id: PlayerDep,
                goal: GoalField = None, passes: PassesField = None,
                day: Annotated[date | None, Form()] = None) -> Response:
    """Start the deal of the day (or of a past ``day``), the player having agreed to leave
    their game."""
    variant = read_variant(goal, passes)
    on_time, late = days_of(day)
    drawn_for = late or on_time
    assert drawn_for is not None
    record = actions.reusable_start(session, player_id,
                                    Deal.from_number(odds.daily_deal(drawn_for, variant)),
                                    variant, daily=on_time, late_daily=late)
    return see_other(path_for(request, "board", game_id=record.id))


# --- the calendar ----------------------------------------------------------------------------
def calendar_path(request: Request, variant, day: date) -> str:
    return path_for(request, "calendar",
                    query={**rules_query(variant), "month": day.strftime("%Y-%m")})


MonthQuery = Annotated[str | None, Query(max_length=7, pattern=r"^\d{4}-\d{2}$")]


@router.get("/daily/calendar", name="calendar")
def calendar(request: Request, session: SessionDep, player_id: PlayerDep,
             goal: GoalQuery = None, passes: PassesQuery = None,
             month: MonthQuery = None) -> Response:
    """A month of deals of the day under these rules, each day's result, the way to play any
    past day, and the awards (``awards``)."""
    variant = read_variant(goal, passes)
    today = starting.today().date()
    try:
        first = date.fromisoformat(f"{month}-01") if month else today.replace(day=1)
    except ValueError:
        raise PageError(400, _("No such month"),
                        # TRANSLATORS: YYYY-MM is how the address writes a month: keep it.
                        _("%(month)s is not a month (YYYY-MM).", month=repr(month))) from None
    if first > today:
        raise PageError(404, _("No such month yet"), _("That month has not come yet."),
                        link=(calendar_path(request, variant, today), _("This month")))
    context = calendar_context(request, session, player_id, variant, first, today)
    return templates.TemplateResponse(request, "calendar.html", context, headers=NO_STORE)
