"""Dates, times and durations as the player's language writes them (Babel, in
``app.web.core.i18n.current_locale``): the templates' ``day`` and ``moment`` filters, the
calendar's month, weekdays and first day of the week. (A game's time is written as a clock,
``4:05``, the same everywhere: ``app.web.views.view.format_duration``.)"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Literal

from babel.dates import (
    format_date,
    format_skeleton,
    format_time,
    get_datetime_format,
    get_day_names,
)

from app.web.core.i18n import current_locale

STYLES = {
    "long": "long",        # 4 December 2026, 4. Dezember 2026, 2026年12月4日
    "medium": "medium",    # 4 Dec 2026
    "short": "short",      # 04/12/2026
}
SKELETONS = {
    "month": "yMMMM",      # December 2026, Dezember 2026, 2026年12月
    "weekday": "MMMMEEEEd",  # Friday 4 December
    "weekday_medium": "yMMMEd",  # Fri, 4 Dec 2026
}


def format_day(day: date, style: str = "long") -> str:
    """``day`` in one of ``STYLES`` or ``SKELETONS`` (a pattern the locale orders itself)."""
    locale = current_locale()
    if style in SKELETONS:
        return format_skeleton(SKELETONS[style], day, locale=locale)
    return format_date(day, format=STYLES[style], locale=locale)


def format_moment(moment: datetime) -> str:
    """A moment (UTC when it has no zone) with date and time, written in UTC as the pages say."""
    moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    locale = current_locale()
    day = format_date(moment.date(), format="medium", locale=locale)
    time = format_time(moment, format="short", tzinfo=UTC, locale=locale)
    pattern = str(get_datetime_format("medium", locale=locale))  # "{1}, {0}" or the like
    return pattern.replace("{1}", day).replace("{0}", time)


def first_weekday() -> int:
    """The day a week starts on where the player is (0 Monday ... 6 Sunday)."""
    return current_locale().first_week_day


def weekday_names(width: Literal["abbreviated", "narrow", "short", "wide"] = "abbreviated"
                  ) -> list[str]:
    """The seven weekdays' names from the locale's first day of the week."""
    names = get_day_names(width, context="stand-alone", locale=current_locale())
    first = first_weekday()
    return [names[(first + i) % 7] for i in range(7)]


def iso(moment: datetime | None) -> str:
    """A moment as ISO 8601, in UTC when it carries no zone (the store's); "" for none."""
    if moment is None:
        return ""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()
