"""A game's clock: the time from its first move to its end, less its pauses.

The clock starts with play, not with the page; a pause stops it (from any tab, for every
tab), and what is stored (``seconds``, once the game ends) is what every view shows.

What a pause leaves out is bounded (``PauseRules``, from the settings), so that a shared
result's time is earned: the first ``grace_seconds`` of every pause count as played, so pausing
to think before each move saves nothing, and a game's pauses leave out at most
``limit_seconds`` in all, beyond which paused time counts as played. ``paused_seconds`` holds
what was left out, and the result shows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from app.engine import GameStatus

from .models import GameRecord, rows_changed, utcnow

__all__ = ["PAUSE_RULES", "PauseRules", "as_utc", "elapsed_seconds", "left_out", "pause_game",
           "paused_for", "resume_game", "set_pause_rules", "time_left_out"]


@dataclass(frozen=True)
class PauseRules:
    grace_seconds: int = 30
    """The first seconds of every pause count as played."""
    limit_seconds: int = 600
    """The most a game's pauses leave out of its time, in all."""


PAUSE_RULES = PauseRules()
"""The rules in force: ``set_pause_rules`` sets them from the settings when the app is made."""


def set_pause_rules(rules: PauseRules) -> None:
    global PAUSE_RULES
    PAUSE_RULES = rules


def left_out(before: int | None, pause: int) -> int:
    """What a game's pauses leave out of its time once a pause of ``pause`` seconds is added
    to the ``before`` seconds left out already (``PauseRules``)."""
    added = max(0, pause - PAUSE_RULES.grace_seconds)
    return max(before or 0, min(PAUSE_RULES.limit_seconds, (before or 0) + added))


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything stored is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def elapsed_seconds(record: GameRecord, now: datetime | None = None) -> int:
    """Time from the first move to the end (or to now while the game goes on), less what its
    pauses leave out (``left_out``); 0 before the first move, so the clock starts when play
    does, not when the page loads."""
    if record.seconds is not None:
        return record.seconds
    if record.started_at is None:
        return 0
    end = as_utc(record.finished_at) if record.finished_at else (now or utcnow())
    # A pause going on leaves out what it would if it ended now (``left_out``).
    paused = left_out(record.paused_seconds, paused_for(record, end))
    played = (end - as_utc(record.started_at)).total_seconds() - paused
    return max(0, int(played))


def time_left_out(record: GameRecord, now: datetime | None = None) -> int:
    """What the game's pauses leave out of its time, a pause going on included."""
    if record.paused_at is None:
        return record.paused_seconds or 0
    return left_out(record.paused_seconds, paused_for(record, now or utcnow()))


def pause_game(session: Session, record: GameRecord, now: datetime | None = None) -> bool:
    """Stop the clock of a game in progress that has started; returns whether it stopped
    now. A plain UPDATE, not through the version counter: a pause changes no position, so
    it must not make another tab's next move look stale."""
    if (record.status != GameStatus.PLAYING or record.started_at is None
            or record.paused_at is not None):
        return False
    now = now or utcnow()
    done = rows_changed(session.execute(
        update(GameRecord).where(GameRecord.id == record.id,
                                 GameRecord.status == GameStatus.PLAYING,
                                 GameRecord.paused_at.is_(None))
        .values(paused_at=now).execution_options(synchronize_session=False)))
    if done:
        set_committed_value(record, "paused_at", now)
    return bool(done)


def paused_for(record: GameRecord, now: datetime) -> int:
    """Whole seconds of the pause going on (0 when not paused)."""
    if record.paused_at is None:
        return 0
    return max(0, int((as_utc(now) - as_utc(record.paused_at)).total_seconds()))


def resume_game(session: Session, record: GameRecord, now: datetime | None = None) -> bool:
    """Start a paused game's clock again; returns whether it was paused. Only the pause that
    was read is ended (a pause and a resume from two tabs at once cannot both count)."""
    if record.paused_at is None:
        return False
    now = now or utcnow()
    total = left_out(record.paused_seconds, paused_for(record, now))
    done = rows_changed(session.execute(
        update(GameRecord).where(GameRecord.id == record.id,
                                 GameRecord.paused_at == record.paused_at)
        .values(paused_at=None, paused_seconds=total)
        .execution_options(synchronize_session=False)))
    if done:
        set_committed_value(record, "paused_at", None)
        set_committed_value(record, "paused_seconds", total)
    return bool(done)
