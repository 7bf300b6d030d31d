"""The deal of the day: today's deal for each rule set, the same for everyone (``odds.daily_deal``),
counted as the day's only when played that day; a won day's result stands (it can be played
again, not counted).
"""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from app import odds
from app.engine import Deal
from app.store import won_daily
from app.web import actions, starting
from app.web.board import (
    NO_STORE,
    BoardInputDep,
    BoardUrls,
    give_hint,
    take_input,
)
from app.web.csrf import require_csrf
from app.web.deps import PlayerDep, SessionDep
from app.web.errors import PageError
from app.web.htmx import see_other
from app.web.links import path_for, rules_query
from app.web.starting import (
    ConfirmField,
    GoalField,
    GoalQuery,
    PassesField,
    PassesQuery,
    as_first_input,
    ask_to_abandon,
    first_input_starts,
    read_variant,
    shown,
    went_on,
)
from app.web.templating import templates
from app.web.threads import in_thread

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
DayQuery = Annotated[date | None, Query()]


def daily_of(day: date | None) -> date | None:
    """The date a deal of the day counts for: its own, when it is played that day. A page
    drawn before midnight and played after is an ordinary game of that deal; a date in the
    future is no deal of the day at all."""
    now = starting.today().date()
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
    day = starting.today().date()
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
    drawn_on = day or starting.today().date()
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
    drawn_on = day or starting.today().date()
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
    deal = Deal.from_number(odds.daily_deal(starting.today().date(), variant))
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
    day = starting.today().date()
    record = actions.reusable_start(session, player_id,
                                    Deal.from_number(odds.daily_deal(day, variant)), variant,
                                    daily=day)
    return see_other(path_for(request, "board", game_id=record.id))


