"""Queries about games: create, find, load into the engine, save after a move, abandon.

All SQL the app runs about games is here. Writes go through the ORM's version counter, so a
stale write (another tab or another server process moved first) fails instead of losing a move.

A game's row is also its statistics record. Once a game ends (won, lost or abandoned) its row
never changes again: ``save_position`` refuses, so a result is written once, by the one request
that ended the game, whatever double clicks, tabs, retries or restarts happen around it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import or_, select, text, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from app.engine import Deal, Game, GameStatus, Goal, Refusal, game_over

from .clock import as_utc, elapsed_seconds, left_out, paused_for
from .models import GameRecord, utcnow
from .pace import keep_pace, not_ranked
from .places import ResultPlaces, record_result
from .positions import deal_of, load_game, moves_of, positions
from .refusals import StoreCode
from .verdicts import known_par

__all__ = [
    "GameConflict",
    "GameEnded",
    "GameRecord",
    "LoadedGame",
    "ResultPlaces",
    "abandon_in_progress",
    "count_hint",
    "create_game",
    "deal_of",
    "game_by_input",
    "get_game",
    "hold_games_in_progress",
    "latest_unfinished",
    "load",
    "load_game",
    "mark_abandoned",
    "mark_lost_by_time",
    "moves_of",
    "preview",
    "record_result",
    "reload",
    "save_position",
    "won_daily",
]


class GameConflict(RuntimeError):
    """The game changed since it was read (a move from another tab or process won the race).
    ``refusal``: the store's (``changed_reload``, ``changed_retry``), None for the web layer's
    own kinds, whose message is in the player's language already."""

    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


class GameEnded(RuntimeError):
    """The game has ended (won, lost or abandoned): its record is final and takes no moves.
    ``refusal`` is the engine's ``game_over``."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


def new_game_id() -> str:
    """A short id that cannot be guessed, so game URLs do not enumerate other people's games."""
    return secrets.token_urlsafe(9)


def new_challenge_key() -> str:
    """What a game's challenge link carries: random, so the link names no game and cannot be
    guessed (128 bits)."""
    return secrets.token_urlsafe(16)


def _end(record: GameRecord, game: Game, status: GameStatus, now: datetime) -> None:
    """Write the result, once: the status, when it ended, how long it took, the score; and,
    for a numbered deal played, the key its challenge link carries."""
    record.status = status
    record.finished_at = now
    record.seconds = elapsed_seconds(record, now)
    if record.paused_at is not None:  # ended while paused: the pause is over, as the clock is
        record.paused_seconds = left_out(record.paused_seconds, paused_for(record, now))
        record.paused_at = None
    record.score = record.score_of(game).total
    if record.deal_number is not None and record.move_count and record.challenge_key is None:
        record.challenge_key = new_challenge_key()


def lock_player_results(session: Session, player_id: str) -> None:
    """Serialize the ending of one player's games, so each result's place and streaks are
    read from the result before it. PostgreSQL: a transaction-scoped advisory lock. SQLite
    has one writer at a time already, and refuses a write from a stale read."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:player, 0))"),
                        {"player": player_id})


def new_record(player_id: str, deal: Deal, goal: Goal | str, passes: int,
               now: datetime | None = None, *, daily: date | None = None,
               winnable_only: bool = False, rated: bool = True,
               challenge: str | None = None,
               late_daily: date | None = None) -> tuple[GameRecord, Game]:
    """A new game's row (no moves yet), not stored: ``create_game`` stores it; ``preview``
    shows it before anyone has played (a GET never stores anything)."""
    game = Game(deal, goal, passes)  # validates goal and passes the engine's way
    now = now or utcnow()
    record = GameRecord(
        id=None,
        player_id=player_id,
        deal_number=str(deal.number) if deal.number is not None else None,
        deal_text=None if deal.number is not None else deal.to_text(),
        goal=game.goal.value,
        passes=game.passes,
        moves="",
        move_count=0,
        undo_count=0,
        status=GameStatus.PLAYING,
        cleared=0,
        hints_used=0,
        daily=daily,
        late_daily=late_daily,
        winnable_only=winnable_only,
        rated=rated,
        challenge=challenge,
        paused_seconds=0,
        created_at=now,
        updated_at=now,
    )
    if game.is_over():  # a deal with no move at all: it ends at once, and counts for nothing
        _end(record, game, game.status, now)
    return record, game


def create_game(session: Session, player_id: str, deal: Deal, goal: Goal | str, passes: int,
                now: datetime | None = None, *, daily: date | None = None,
                winnable_only: bool = False, rated: bool = True,
                challenge: str | None = None, late_daily: date | None = None) -> GameRecord:
    """Store a new game (no moves yet) and return it; the caller's transaction commits it.

    ``daily`` marks the deal of the day of that date; ``winnable_only`` a deal dealt from the
    solver's proven-winnable deals; ``rated`` False a game played "not counted";
    ``challenge`` the game whose challenge link started this one; ``late_daily`` a past day's
    deal of the day played after its day."""
    record, _ = new_record(player_id, deal, goal, passes, now, daily=daily,
                           winnable_only=winnable_only, rated=rated, challenge=challenge,
                           late_daily=late_daily)
    record.id = new_game_id()
    session.add(record)
    session.flush()
    return record


def get_game(session: Session, game_id: str) -> GameRecord | None:
    return session.get(GameRecord, game_id)


def won_daily(session: Session, player_id: str, day: date, goal: Goal | str,
              passes: int) -> GameRecord | None:
    """The player's won deal of the day ``day`` under these rules, if they have won it."""
    return session.scalars(select(GameRecord).where(
        GameRecord.player_id == player_id, GameRecord.daily == day,
        GameRecord.goal == str(goal), GameRecord.passes == passes,
        GameRecord.status == GameStatus.WON).limit(1)).first()


def latest_unfinished(session: Session, player_id: str) -> GameRecord | None:
    """The player's most recently touched game that is still being played (not a race's
    game whose clock starts later: its deal is no one's to see before)."""
    query = (
        select(GameRecord)
        .where(GameRecord.player_id == player_id, GameRecord.status == GameStatus.PLAYING,
               or_(GameRecord.started_at.is_(None), GameRecord.started_at <= utcnow()))
        .order_by(GameRecord.updated_at.desc())
        .limit(1)
    )
    return session.scalars(query).first()


def game_by_input(session: Session, player_id: str, input_id: str) -> GameRecord | None:
    """The player's game whose last batch of inputs was ``input_id``."""
    return session.scalars(select(GameRecord).where(
        GameRecord.player_id == player_id, GameRecord.last_input == input_id).limit(1)).first()


@dataclass(slots=True)
class LoadedGame:
    """A stored game and the engine's position, rebuilt from its moves: what every request
    about one game works on."""

    record: GameRecord
    game: Game

    @property
    def version(self) -> int:
        """Changes with every move and undo: what ``If-Match`` and the board's forms carry."""
        return self.record.version


def load(session: Session, game_id: str) -> LoadedGame | None:
    """The game ``game_id`` with its position, or None when there is no such game."""
    record = get_game(session, game_id)
    return None if record is None else LoadedGame(record, load_game(record))


def preview(player_id: str, deal: Deal, goal: Goal | str, passes: int, *,
            daily: date | None = None, winnable_only: bool = False,
            challenge: str | None = None, late_daily: date | None = None) -> LoadedGame:
    """The game a deal link or the deal of the day would start, as a board to look at: nothing
    is stored until the player's first input (a POST) starts it for real, as it is here (its
    ``id`` None)."""
    record, game = new_record(player_id, deal, goal, passes, daily=daily,
                              winnable_only=winnable_only, challenge=challenge,
                              late_daily=late_daily)
    record.version = 0
    return LoadedGame(record, game)


def reload(session: Session, loaded: LoadedGame) -> LoadedGame:
    """The game as stored now, after a refused or lost write (the transaction is rolled
    back, and the record read afresh)."""
    session.rollback()
    session.refresh(loaded.record)
    return LoadedGame(loaded.record, load_game(loaded.record))


def save_position(session: Session, record: GameRecord, game: Game, *, undos: int = 0,
                  input_id: str | None = None, par: int | None = None,
                  now: datetime | None = None, untimed_elapsed: int | None = None,
                  paced: bool = True) -> None:
    """Store ``game``'s move list and status in ``record``; a won game keeps the deal's par
    when it is known (``par``, from the committed data, or a kept verdict's).

    ``paced``: the inputs (moves played and ``undos``) arrived now, from a player, and are
    measured against a person's pace (``pace.keep_pace``: faster, the game is not ranked);
    false for moves the server plays itself (a retry's moves from before the loss).

    ``untimed_elapsed``: the moves were made without network and arrive late, so the server's
    clock did not watch them: the game is no longer ``timed`` (never ranked), and its clock is
    set to the page's own measure (seconds played, pauses and the outage left out), which the
    player saw.

    Raises GameEnded when the stored game has already ended (its result is final), and
    GameConflict when someone else saved this game since ``record`` was read.
    """
    if record.status.ended:
        raise GameEnded(game_over(record.status))
    now = now or utcnow()
    status = game.status
    if status.ended:
        lock_player_results(session, record.player_id)
    if paced and untimed_elapsed is None:
        keep_pace(record, len(game.moves) - (record.move_count or 0) + 2 * undos)
    record.moves = " ".join(move.to_text() for move in game.moves)
    record.move_count = len(game.moves)
    record.cleared = game.cards_cleared
    if record.started_at is None and game.moves:
        record.started_at = now  # the clock starts at the first move
    if record.paused_at is not None:  # a move ends a pause
        record.paused_seconds = left_out(record.paused_seconds, paused_for(record, now))
        record.paused_at = None
    if untimed_elapsed is not None and game.moves:
        record.timed = False
        not_ranked(record, "untimed")
        record.started_at = now - timedelta(seconds=max(0, untimed_elapsed))
        record.paused_seconds = 0
    record.undo_count += undos
    if input_id is not None:
        record.last_input = input_id
    if status.ended:
        _end(record, game, status, now)
        if status is GameStatus.WON and record.par is None:
            record.par = par if par is not None else known_par(session, record)
    record.updated_at = now
    try:
        session.flush()  # the version check: another tab's move wins, or this one does
        if status.ended:
            record_result(session, record)
            session.flush()
    except StaleDataError:
        raise GameConflict("This game was changed elsewhere: reload to see it.",
                           Refusal(StoreCode.CHANGED_RELOAD)) from None
    # Filed under the moves just written: right even if the commit then fails (see Positions),
    # as long as the game is one of this record's deal and rules.
    if (game.goal == record.goal and game.passes == record.passes
            and game.deal == deal_of(record)):
        positions.put(record, game)


def set_game_par(session: Session, game_id: str, par: int) -> None:
    """Keep a won game's par, found after the win (a plain UPDATE: the par changes nothing a
    player sees as the game's version)."""
    session.execute(update(GameRecord).where(GameRecord.id == game_id,
                                             GameRecord.par.is_(None)).values(par=par)
                    .execution_options(synchronize_session=False))


def mark_abandoned(session: Session, record: GameRecord, now: datetime | None = None) -> bool:
    """End a game its player left for another: abandoned counts as played and not won.

    Only a game in progress with at least one move is abandoned (a game with no moves counts for
    nothing, and an ended game is final). Returns whether it was. Raises GameConflict when the
    game moved elsewhere meanwhile.
    """
    if record.status != GameStatus.PLAYING or record.move_count == 0:
        return False
    _close(session, record, GameStatus.ABANDONED, now or utcnow())
    return True


def mark_lost_by_time(session: Session, record: GameRecord, at: datetime) -> bool:
    """End a race's game still in play when the race's time ran out, at ``at`` (the race's
    end, whenever this runs): lost, its time what was played until then, its result recorded
    as any loss's. Returns whether it was (an ended game is final). Raises GameConflict when
    the game moved elsewhere meanwhile."""
    if record.status != GameStatus.PLAYING:
        return False
    _close(session, record, GameStatus.LOST, at)
    return True


def _close(session: Session, record: GameRecord, status: GameStatus, now: datetime) -> None:
    """End a game in progress that its player did not end: its result written and placed."""
    lock_player_results(session, record.player_id)
    _end(record, load_game(record), status, now)
    record.updated_at = max(now, as_utc(record.updated_at)) if record.updated_at else now
    try:
        session.flush()
        record_result(session, record)
        session.flush()
    except StaleDataError:
        raise GameConflict("This game was changed elsewhere: try again.",
                           Refusal(StoreCode.CHANGED_RETRY)) from None


def hold_games_in_progress(session: Session, player_id: str) -> None:
    """Hold the player's games in progress until the transaction ends, and read them afresh:
    what a start reads about them (which to abandon, which to reuse) then stays true until it
    commits, so no move from another tab or process can land in between (without the hold,
    eight tabs starting and moving at once made every one of a start's attempts a conflict).

    SQLite: its one write lock, taken now (a write that changes nothing) rather than at the
    first real write, after the reads. PostgreSQL: the player's lock (``lock_player_results``),
    then each game in progress locked by ``FOR UPDATE``; a move waits for the start and then
    finds the game as the start left it."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(text("UPDATE games SET version = version WHERE 0"))
    else:
        lock_player_results(session, player_id)
    # Rows the session read before (the question "abandon it?" read the game in progress)
    # are read again: a version from before the lock would fail as a conflict.
    session.scalars(select(GameRecord).where(
        GameRecord.player_id == player_id, GameRecord.status == GameStatus.PLAYING)
        .with_for_update().execution_options(populate_existing=True)).all()


def abandon_in_progress(session: Session, player_id: str, keep: str | None = None,
                        now: datetime | None = None) -> int:
    """Abandon the player's games in progress with moves (but ``keep``): they start another.

    Each row goes through the version counter, so a move racing in another tab either lands
    first (and the game is abandoned with it) or is refused; never both. Returns how many.
    """
    lock_player_results(session, player_id)
    query = select(GameRecord).where(
        GameRecord.player_id == player_id, GameRecord.status == GameStatus.PLAYING,
        GameRecord.move_count > 0).order_by(GameRecord.updated_at, GameRecord.id)
    if keep is not None:
        query = query.where(GameRecord.id != keep)
    records = list(session.scalars(query))
    return sum(mark_abandoned(session, record, now) for record in records)


def count_hint(session: Session, record: GameRecord) -> None:
    """Count one hint on the game. A plain UPDATE, not through the version counter: a hint
    changes no position, so it must not make the player's next move look stale."""
    session.execute(update(GameRecord).where(GameRecord.id == record.id)
                    .values(hints_used=GameRecord.hints_used + 1)
                    .execution_options(synchronize_session=False))
    set_committed_value(record, "hints_used", (record.hints_used or 0) + 1)
