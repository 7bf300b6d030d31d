"""The deal of the day's calendar, as a page: a month grid of one rule set's days, each with the
player's result and a way to play it, and the awards a player collects (the rules page lists
them): a crown for each day won on its day, a month completed, daily streaks of 7 and 30."""

from __future__ import annotations

import calendar as months
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from fastapi import Request
from sqlalchemy.orm import Session

from app.engine import VARIANTS, Variant
from app.store import DayResult, daily_streak, days_won, month_results
from app.web.core.dates import first_weekday, weekday_names
from app.web.core.i18n import gettext as _
from app.web.core.i18n import ngettext
from app.web.core.links import path_for, rules_query
from app.web.core.names import variant_label

STREAK_AWARDS = (7, 30)


@dataclass(frozen=True, slots=True)
class Day:
    day: date
    in_month: bool
    future: bool
    today: bool
    result: DayResult
    play: str | None


@dataclass(frozen=True, slots=True)
class Award:
    key: str
    title: str
    how: str
    count: int

    @property
    def earned(self) -> bool:
        return self.count > 0


def month_after(first: date) -> date:
    return (first.replace(day=28) + timedelta(days=4)).replace(day=1)


def months_completed(won: list[date], today: date) -> list[date]:
    """The months (their first days) with every day's deal of the day won, oldest first: only
    months that are over can be complete."""
    by_month: dict[date, int] = {}
    for day in won:
        by_month[day.replace(day=1)] = by_month.get(day.replace(day=1), 0) + 1
    return [first for first, count in sorted(by_month.items())
            if month_after(first) <= today + timedelta(days=1)
            and count == months.monthrange(first.year, first.month)[1]]


def awards(session: Session, player_id: str, variant: Variant, today: date) -> list[Award]:
    streak = daily_streak(session, player_id, today)
    completed = months_completed(days_won(session, player_id, variant), today)
    """The awards in the player's language (written for each request)."""
    return [
        Award("crown", _("Crowns"), _("a day's deal of the day won on that day"),
              streak.days_won),
        Award("month", _("Months completed"),
              _("every day of a month won (%(rules)s)", rules=variant_label(variant)),
              len(completed)),
        *(Award(f"streak-{n}", ngettext("%(num)s-day streak", "%(num)s-day streak", n),
                ngettext("%(num)s day in a row won on their day",
                         "%(num)s days in a row won on their day", n),
                1 if streak.longest >= n else 0) for n in STREAK_AWARDS),
    ]


def calendar_context(request: Request, session: Session, player_id: str, variant: Variant,
                     first: date, today: date) -> dict[str, Any]:
    weeks_of_dates = months.Calendar(firstweekday=first_weekday()).monthdatescalendar(
        first.year, first.month)
    last = weeks_of_dates[-1][-1]
    found = month_results(session, player_id, variant, weeks_of_dates[0][0], last)
    rules = rules_query(variant)

    def cell(day: date) -> Day:
        playable = day <= today
        query = rules if day == today else {**rules, "day": day.isoformat()}
        return Day(day, day.month == first.month, day > today, day == today,
                   found.get(day, DayResult()),
                   path_for(request, "daily", query=query) if playable else None)

    previous = (first - timedelta(days=1)).replace(day=1)
    following = month_after(first)
    here = {**rules, "month": first.strftime("%Y-%m")}
    return {
        "variant": variant,
        "first": first,
        "weeks": [[cell(day) for day in week] for week in weeks_of_dates],
        "weekdays": weekday_names(),
        "previous": path_for(request, "calendar",
                             query={**rules, "month": previous.strftime("%Y-%m")}),
        "next": path_for(request, "calendar",
                         query={**rules, "month": following.strftime("%Y-%m")})
        if following <= today else None,
        "variants": [(v, path_for(request, "calendar",
                                  query={**rules_query(v), "month": here["month"]}))
                     for v in VARIANTS],
        "awards": awards(session, player_id, variant, today),
        "today_link": path_for(request, "daily", query=rules),
    }
