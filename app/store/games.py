"""Queries about games: create, find, load into the engine, save after a move, abandon.

All SQL the app runs about games is here. Writes go through the ORM's version counter, so a
stale write (another tab or another server process moved first) fails instead of losing a move.

A game's row is also its statistics record. Once a game ends (won, lost or abandoned) its row
never changes again: ``save_position`` refuses, so a result is written once, by the one request
that ended the game, whatever double clicks, tabs, retries or restarts happen around it.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import select, text
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.engine import Deal, Game, Goal, Move

from .models import ENDED, GameRecord, utcnow

__all__ = [
    "GameConflict",
    "GameEnded",
    "GameRecord",
    "abandon_in_progress",
    "create_game",
    "finished_status",
    "get_game",
    "latest_unfinished",
    "load_game",
    "mark_abandoned",
    "record_result",
    "save_position",
]


class GameConflict(RuntimeError):
    """The game changed since it was read (a move from another tab or process won the race)."""


class GameEnded(RuntimeError):
    """The game has ended (won, lost or abandoned): its record is final and takes no moves."""


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


def cards_cleared(game: Game) -> int:
    """Cards gone towards the goal: pyramid cards for standard, all 52 for whole deck."""
    if game.goal is Goal.WHOLE_DECK:
        return game.cards_removed
    return Goal.STANDARD.cards_to_clear - game.pyramid_left


def _end(record: GameRecord, status: str, now: datetime) -> None:
    """Write the result, once: the status, when it ended and how long it took."""
    record.status = status
    record.finished_at = now
    record.seconds = max(0, int((as_utc(now) - as_utc(record.created_at)).total_seconds()))


def lock_player_results(session: Session, player_id: str) -> None:
    """Serialize the ending of one player's games, so each result's place and streaks are
    read from the result before it. PostgreSQL: a transaction-scoped advisory lock. SQLite
    has one writer at a time already, and refuses a write from a stale read."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:player, 0))"),
                        {"player": player_id})


def record_result(session: Session, record: GameRecord) -> None:
    """Give a counted game that has just ended its place in the player's results and the
    streaks it ends: one more than the previous result's if that had the same outcome (won /
    not won), else 1; within its variant and over all variants. Two indexed look-ups; the
    statistics then never need to walk the whole history. The caller holds the player's lock.
    """
    if not record.counted or record.seq is not None:
        return
    won = record.status == "won"
    mine = (GameRecord.player_id == record.player_id, GameRecord.seq.is_not(None),
            GameRecord.id != record.id)
    last = session.execute(
        select(GameRecord.seq, GameRecord.status, GameRecord.streak_all).where(*mine)
        .order_by(GameRecord.seq.desc()).limit(1)).first()
    last_here = session.execute(
        select(GameRecord.status, GameRecord.streak).where(
            *mine, GameRecord.goal == record.goal, GameRecord.passes == record.passes)
        .order_by(GameRecord.seq.desc()).limit(1)).first()
    record.seq = last.seq + 1 if last else 1
    record.streak_all = (last.streak_all + 1 if last and (last.status == "won") == won else 1)
    record.streak = (last_here.streak + 1 if last_here and (last_here.status == "won") == won
                     else 1)


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
        status="playing",
        cleared=0,
        created_at=now,
        updated_at=now,
    )
    if game.is_over():  # a deal with no move at all: it ends at once, and counts for nothing
        _end(record, finished_status(game), now)
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

    Raises GameEnded when the stored game has already ended (its result is final), and
    GameConflict when someone else saved this game since ``record`` was read.
    """
    if record.status in ENDED:
        raise GameEnded(f"This game has ended ({record.status}): its result is final.")
    now = now or utcnow()
    status = finished_status(game)
    if status != "playing":
        lock_player_results(session, record.player_id)
    record.moves = " ".join(move.to_text() for move in game.moves)
    record.move_count = len(game.moves)
    record.cleared = cards_cleared(game)
    if undo:
        record.undo_count += 1
    if status != "playing":
        _end(record, status, now)
    record.updated_at = now
    try:
        session.flush()  # the version check: another tab's move wins, or this one does
        if status != "playing":
            record_result(session, record)
            session.flush()
    except StaleDataError:
        raise GameConflict("This game was changed elsewhere: reload to see it.") from None


def mark_abandoned(session: Session, record: GameRecord, now: datetime | None = None) -> bool:
    """End a game its player left for another: abandoned counts as played and not won.

    Only a game in progress with at least one move is abandoned (a game with no moves counts for
    nothing, and an ended game is final). Returns whether it was. Raises GameConflict when the
    game moved elsewhere meanwhile.
    """
    if record.status != "playing" or record.move_count == 0:
        return False
    now = now or utcnow()
    lock_player_results(session, record.player_id)
    _end(record, "abandoned", now)
    record.updated_at = now
    try:
        session.flush()
        record_result(session, record)
        session.flush()
    except StaleDataError:
        raise GameConflict("This game was changed elsewhere: try again.") from None
    return True


def abandon_in_progress(session: Session, player_id: str, keep: str | None = None,
                        now: datetime | None = None) -> int:
    """Abandon the player's games in progress with moves (but ``keep``): they start another.

    Each row goes through the version counter, so a move racing in another tab either lands
    first (and the game is abandoned with it) or is refused; never both. Returns how many.
    """
    lock_player_results(session, player_id)
    query = select(GameRecord).where(
        GameRecord.player_id == player_id, GameRecord.status == "playing",
        GameRecord.move_count > 0).order_by(GameRecord.updated_at, GameRecord.id)
    if keep is not None:
        query = query.where(GameRecord.id != keep)
    records = list(session.scalars(query))
    return sum(mark_abandoned(session, record, now) for record in records)


def elapsed_seconds(record: GameRecord, now: datetime | None = None) -> int:
    """Time from the first page to the end (or to now while the game goes on)."""
    if record.seconds is not None:
        return record.seconds
    end = as_utc(record.finished_at) if record.finished_at else (now or utcnow())
    return max(0, int((end - as_utc(record.created_at)).total_seconds()))
