"""Queries about games: create, find, load into the engine, save after a move.

All SQL the app runs about games is here. Writes go through the ORM's version counter, so a
stale write (another tab or another server process moved first) fails instead of losing a move.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.engine import Deal, Game, Goal, Move

from .models import GameRecord, utcnow

__all__ = [
    "GameConflict",
    "GameRecord",
    "create_game",
    "finished_status",
    "get_game",
    "latest_unfinished",
    "load_game",
    "mark_abandoned",
    "recent_games",
    "results_by_goal",
    "save_position",
]


class GameConflict(RuntimeError):
    """The game changed since it was read (a move from another tab or process won the race)."""


def new_game_id() -> str:
    """A short id that cannot be guessed, so game URLs do not enumerate other people's games."""
    return secrets.token_urlsafe(9)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything stored is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def finished_status(game: Game) -> str:
    """``playing``, ``won`` or ``lost``, from the engine's verdict."""
    outcome = game.outcome()
    return "playing" if outcome is None else outcome.result


def create_game(session: Session, player_id: str, deal: Deal, goal: Goal | str, passes: int,
                now: datetime | None = None) -> GameRecord:
    """Store a new game (no moves yet) and return it; the caller's transaction commits it."""
    game = Game(deal, goal, passes)  # validates goal and passes the engine's way
    now = now or utcnow()
    record = GameRecord(
        id=new_game_id(),
        player_id=player_id,
        deal_number=str(deal.number) if deal.number is not None else None,
        deal_text=None if deal.number is not None else deal.to_text(),
        goal=game.goal.value,
        passes=game.passes,
        moves="",
        move_count=0,
        undo_count=0,
        status=finished_status(game),
        created_at=now,
        updated_at=now,
        finished_at=now if game.is_over() else None,
    )
    session.add(record)
    session.flush()
    return record


def get_game(session: Session, game_id: str) -> GameRecord | None:
    return session.get(GameRecord, game_id)


def latest_unfinished(session: Session, player_id: str) -> GameRecord | None:
    """The player's most recently touched game that is still being played."""
    query = (
        select(GameRecord)
        .where(GameRecord.player_id == player_id, GameRecord.status == "playing")
        .order_by(GameRecord.updated_at.desc())
        .limit(1)
    )
    return session.scalars(query).first()


def deal_of(record: GameRecord) -> Deal:
    if record.deal_number is not None:
        return Deal.from_number(int(record.deal_number))
    assert record.deal_text is not None
    return Deal.from_text(record.deal_text)


def moves_of(record: GameRecord) -> list[Move]:
    return [Move.from_text(text) for text in record.moves.split()]


def load_game(record: GameRecord) -> Game:
    """Rebuild the position by replaying the stored moves through the engine."""
    return Game.replay(deal_of(record), record.goal, record.passes, moves_of(record))


def save_position(session: Session, record: GameRecord, game: Game, *, undo: bool = False,
                  now: datetime | None = None) -> None:
    """Store ``game``'s move list and status in ``record``.

    Raises GameConflict when someone else saved this game since ``record`` was read.
    """
    now = now or utcnow()
    status = finished_status(game)
    record.moves = " ".join(move.to_text() for move in game.moves)
    record.move_count = len(game.moves)
    if undo:
        record.undo_count += 1
    if status != "playing" and record.finished_at is None:
        record.finished_at = now
    elif status == "playing":
        record.finished_at = None
    record.status = status
    record.updated_at = now
    try:
        session.flush()
    except StaleDataError:
        raise GameConflict("This game was changed elsewhere: reload to see it.") from None


def mark_abandoned(session: Session, record: GameRecord, now: datetime | None = None) -> None:
    """A game the player gave up on (restarted or replaced) stops counting as in progress."""
    if record.status == "playing":
        record.status = "abandoned"
        record.updated_at = now or utcnow()
        session.flush()


def elapsed_seconds(record: GameRecord, now: datetime | None = None) -> int:
    """Time from the first page to the end (or to now while the game goes on)."""
    end = as_utc(record.finished_at) if record.finished_at else (now or utcnow())
    return max(0, int((end - as_utc(record.created_at)).total_seconds()))


def results_by_goal(session: Session, player_id: str) -> dict[str, dict[str, int]]:
    """How many of the player's games are in each status, per goal."""
    query = (
        select(GameRecord.goal, GameRecord.status, func.count())
        .where(GameRecord.player_id == player_id)
        .group_by(GameRecord.goal, GameRecord.status)
    )
    counts: dict[str, dict[str, int]] = {}
    for goal, status, count in session.execute(query):
        counts.setdefault(goal, {})[status] = count
    return counts


def recent_games(session: Session, player_id: str, limit: int = 10) -> list[GameRecord]:
    query = (
        select(GameRecord)
        .where(GameRecord.player_id == player_id)
        .order_by(GameRecord.updated_at.desc())
        .limit(limit)
    )
    return list(session.scalars(query))
