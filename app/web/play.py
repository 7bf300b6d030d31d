"""The few things a player does to a stored game, shared by the pages and the JSON API.

Each function takes a game already loaded (``deps.LoadedGame``: the route's ``OwnedGame``),
lets the engine judge, saves, and commits, so a route is left to parse its input and render
the result. The engine is the only judge of what is legal.

Versions: every stored game has a version that changes with each move and undo. A caller that
says which version it saw (the board's forms, ``If-Match`` in the API) gets ``VersionMismatch``
instead of a move on a position it has not seen, so a retried or repeated request applies at
most once. The version check on save catches the remaining race, two requests that both read
the same version: one saves, the other gets ``GameConflict``.

Counting (issue 4): starting a game by any door (new game, deal link, restart, the API)
abandons the player's other games in progress that have moves; an ended game (won, lost or
abandoned) takes no more moves and no undo, so its result is final the moment it is written.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from functools import lru_cache

from sqlalchemy.orm import Session

from app.engine import Deal, Game, Goal, IllegalMove, Move
from app.engine.solver import Hint
from app.engine.solver import hint as solver_hint
from app.settings import Settings
from app.store import (
    GameConflict,
    GameRecord,
    GameStatus,
    abandon_in_progress,
    count_hint,
    create_game,
    deal_of,
    latest_unfinished,
    load_game,
    moves_of,
    save_position,
)
from app.web.deps import LoadedGame

ANALYSIS_NODE_LIMIT = 2_000_000
"""About a second of search per solve: enough for nearly every position (see the README)."""

ATTEMPTS = 3
"""Starting a game retries when a move in another tab races the abandoning of the old game."""


class VersionMismatch(GameConflict):
    """The caller saw another version of the game than the one stored now."""

    def __init__(self, message: str = "This game changed in another tab or window: this is "
                                      "where it stands now.") -> None:
        super().__init__(message)


def random_deal_number(settings: Settings) -> int:
    return secrets.randbelow(settings.random_deal_max) + 1


# --- moves ---------------------------------------------------------------------------------
def _check(loaded: LoadedGame, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != loaded.version:
        raise VersionMismatch()
    status = GameStatus(loaded.record.status)
    if status is GameStatus.ABANDONED:
        raise IllegalMove("You left this game for another one, so it counts as abandoned: "
                          "its result is final.")
    if status.ended:
        raise IllegalMove(f"The game is over ({status.value}): its result is final.")


def _saved(session: Session, loaded: LoadedGame, expected_version: int | None, *,
           undo: bool = False) -> None:
    try:
        save_position(session, loaded.record, loaded.game, undo=undo)
        session.commit()
    except GameConflict as exc:
        session.rollback()
        if expected_version is not None:
            raise VersionMismatch() from exc
        raise


def play(session: Session, loaded: LoadedGame, move: Move,
         expected_version: int | None = None) -> LoadedGame:
    """Play ``move``; raises IllegalMove (nothing saved), VersionMismatch or GameConflict."""
    _check(loaded, expected_version)
    loaded.game.play(move)
    _saved(session, loaded, expected_version)
    return loaded


def undo(session: Session, loaded: LoadedGame,
         expected_version: int | None = None) -> Move:
    """Take back the last move while the game goes on. An ended game's result is final, so
    there is no undo after a win, a loss or leaving the game ("Play again" replays the deal)."""
    _check(loaded, expected_version)
    move = loaded.game.undo()
    _saved(session, loaded, expected_version, undo=True)
    return move


def reload(session: Session, loaded: LoadedGame) -> LoadedGame:
    """The game as stored now (after a refused or lost write)."""
    session.rollback()
    session.refresh(loaded.record)
    return LoadedGame(loaded.record, load_game(loaded.record))


# --- hints ---------------------------------------------------------------------------------
class SolverBusy(RuntimeError):
    """Too many searches at once: the player's own, or the server's."""


class SolverSlots:
    """Bounds the solver's work so that hints never stall the server: at most ``size`` searches
    at once (the C search releases the GIL, so they run beside the requests), and one at a time
    per player. A player asking again while their hint runs is told to wait, not queued."""

    def __init__(self, size: int = 2, wait_seconds: float = 5.0) -> None:
        self._slots = threading.BoundedSemaphore(size)
        self._wait = wait_seconds
        self._lock = threading.Lock()
        self._players: set[str] = set()

    @contextmanager
    def slot(self, player_id: str) -> Iterator[None]:
        with self._lock:
            if player_id in self._players:
                raise SolverBusy("Your last hint is still being worked out: wait for it.")
            self._players.add(player_id)
        try:
            if not self._slots.acquire(timeout=self._wait):
                raise SolverBusy("The solver is busy right now: try again in a moment.")
            try:
                yield
            finally:
                self._slots.release()
        finally:
            with self._lock:
                self._players.discard(player_id)


SOLVER = SolverSlots()


def hint(session: Session, loaded: LoadedGame, player_id: str) -> Hint:
    """Count a hint on the game and ask the solver for the next move (see ``solver.hint``)."""
    _check(loaded, None)
    count_hint(session, loaded.record)
    session.commit()  # end the transaction before the search: it holds no lock while it runs
    with SOLVER.slot(player_id):
        return solver_hint(loaded.game.copy())


# --- starting games --------------------------------------------------------------------------
def in_progress(session: Session, player_id: str) -> GameRecord | None:
    """The player's game that starting another would abandon: in progress, with moves."""
    record = latest_unfinished(session, player_id)
    return record if record is not None and record.move_count > 0 else None


def _committed_start(session: Session, make) -> GameRecord:
    """Run ``make`` (which abandons what the player leaves and returns the game to play) and
    commit; on a race with a move elsewhere, roll back and try again with fresh rows."""
    for attempt in range(ATTEMPTS):
        try:
            record = make()
            session.commit()
            return record
        except GameConflict:
            session.rollback()
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def start(session: Session, player_id: str, deal: Deal, goal: Goal | str, passes: int, *,
          daily: date | None = None, winnable_only: bool = False) -> GameRecord:
    """A new game; the player's games in progress with moves become abandoned."""

    def make() -> GameRecord:
        abandon_in_progress(session, player_id)
        return create_game(session, player_id, deal, goal, passes, daily=daily,
                           winnable_only=winnable_only)

    return _committed_start(session, make)


def restart(session: Session, loaded: LoadedGame, player_id: str) -> GameRecord:
    """A fresh game of the same deal and rules; the old one, if in progress with moves, is
    abandoned. A second click (or a retry) finds the fresh game and returns it again."""
    record, game = loaded.record, loaded.game
    return reusable_start(session, player_id, game.deal, game.goal, game.passes,
                          daily=record.daily, winnable_only=record.winnable_only)


def reusable_start(session: Session, player_id: str, deal: Deal, goal: Goal | str,
                   passes: int, *, daily: date | None = None,
                   winnable_only: bool = False) -> GameRecord:
    """Start ``deal`` unless the player's newest game is that same deal, untouched.

    Opening a deal link twice (a reload, a double click) then does not leave empty games about.
    Either way the player's other games in progress with moves are abandoned.
    """
    game = Game(deal, goal, passes)

    def make() -> GameRecord:
        latest = latest_unfinished(session, player_id)
        if latest is not None and is_fresh_game_of(latest, game):
            abandon_in_progress(session, player_id, keep=latest.id)
            return latest
        abandon_in_progress(session, player_id)
        return create_game(session, player_id, deal, goal, passes, daily=daily,
                           winnable_only=winnable_only)

    return _committed_start(session, make)


def is_fresh_game_of(record: GameRecord, game: Game) -> bool:
    """Is ``record`` an untouched game of ``game``'s deal and rules?"""
    deal = game.deal
    return (record.move_count == 0 and record.goal == game.goal.value
            and record.passes == game.passes
            and record.deal_number == (str(deal.number) if deal.number is not None else None)
            and (deal.number is not None or record.deal_text == deal.to_text()))


def winnable_until(loaded: LoadedGame) -> int | None:
    """How many moves the player must undo to be back in a winnable position (None when no
    earlier position is, or the search could not tell in time)."""
    from app.engine.analysis import winnable_until as undo_to_win

    game = loaded.game
    with SOLVER.slot(f"{loaded.record.player_id}:analysis"):
        return undo_to_win(game.deal, game.goal, game.passes, list(game.moves))


def analyse(loaded: LoadedGame):
    """Where the game went wrong (``engine.analysis.analyse``), in the solver's pool. An ended
    game never changes, so its analysis is computed once per process (``analysis_of_ended``)."""
    if loaded.record.game_status.ended:
        return analysis_of_ended(loaded.record)
    return _analyse(loaded.record.player_id, loaded.game.deal, loaded.game.goal,
                    loaded.game.passes, tuple(loaded.game.moves))


def analysis_of_ended(record: GameRecord):
    return _ended_analysis(record.id, record.player_id, deal_of(record), record.goal,
                           record.passes, tuple(moves_of(record)))


@lru_cache(maxsize=512)
def _ended_analysis(_game_id: str, player_id: str, deal: Deal, goal: str, passes: int,
                    moves: tuple[Move, ...]):
    return _analyse(player_id, deal, goal, passes, moves)


def _analyse(player_id: str, deal: Deal, goal: Goal | str, passes: int,
             moves: tuple[Move, ...]):
    from app.engine.analysis import analyse as find

    with SOLVER.slot(f"{player_id}:analysis"):
        return find(deal, goal, passes, list(moves))
