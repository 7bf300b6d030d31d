"""The deal of the day's calendar: a month of one rule set's results, and the days won, for the
awards. A day's game counts on the calendar whether it was played on its day (``daily``) or
later (``late_daily``); only the first kind makes streaks (``stats.daily_streak``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from app.engine import GameStatus, Variant

from .models import GameRecord
from .stats import counted

G = GameRecord


@dataclass(slots=True)
class DayResult:
    """One day of the calendar: the player's counted games of that day's deal."""

    games: int = 0
    won_on_day: bool = False
    won_late: bool = False
    best_cleared: int = 0
    last_game_id: str | None = None

    @property
    def mark(self) -> str:
        """``crown`` (won on its day), ``won-late``, ``played`` (not won) or ``none``."""
        if self.won_on_day:
            return "crown"
        if self.won_late:
            return "won-late"
        return "played" if self.games else "none"


def _of_variant(player_id: str, variant: Variant) -> tuple[ColumnElement[bool], ...]:
    return (counted(player_id), G.goal == variant.goal.value, G.passes == variant.passes)


def month_results(session: Session, player_id: str, variant: Variant, first: date,
                  last: date) -> dict[date, DayResult]:
    """The days from ``first`` to ``last`` with a counted game of their deal of the day under
    ``variant``, on the day or later (two index ranges: daily, late_daily)."""
    day = func.coalesce(G.daily, G.late_daily)
    rows = session.execute(
        select(G.daily, G.late_daily, G.status, G.cleared, G.id)
        .where(*_of_variant(player_id, variant),
               or_(G.daily.between(first, last), G.late_daily.between(first, last)))
        .order_by(day, G.seq)).all()
    found: dict[date, DayResult] = {}
    for on_day, late, status, cleared, game_id in rows:
        day_of = on_day or late
        if day_of is None:  # pragma: no cover - the query asks for one of them
            continue
        result = found.setdefault(day_of, DayResult())
        result.games += 1
        won = status == GameStatus.WON
        result.won_on_day |= won and on_day is not None
        result.won_late |= won and late is not None
        result.best_cleared = max(result.best_cleared, cleared)
        result.last_game_id = game_id
    return found


def days_won(session: Session, player_id: str, variant: Variant) -> list[date]:
    """Every day whose deal of the day the player has won under ``variant``, on the day or
    later, oldest first (for the months completed)."""
    day = func.coalesce(G.daily, G.late_daily)
    return list(session.scalars(
        select(day).where(*_of_variant(player_id, variant), G.status == GameStatus.WON,
                          or_(G.daily.is_not(None), G.late_daily.is_not(None)))
        .group_by(day).order_by(day)))
