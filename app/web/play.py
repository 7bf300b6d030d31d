"""The few things a player does to a stored game, shared by the pages and the JSON API.

Each function loads the game, lets the engine judge, saves, and commits, so a route is left to
parse its input and render the result. The engine is the only judge of what is legal.

Counting (issue 4): starting a game by any door (new game, deal link, restart, the API)
abandons the player's other games in progress that have moves; an ended game (won, lost or
abandoned) takes no more moves and no undo, so its result is final the moment it is written.
"""

from __future__ import annotations

import secrets

from sqlalchemy.orm import Session

from app.engine import Deal, Game, Goal, IllegalMove, Move
from app.settings import Settings
from app.store import (
    GameConflict,
    GameRecord,
    abandon_in_progress,
    create_game,
    get_game,
    latest_unfinished,
    load_game,
    save_position,
)

ATTEMPTS = 3
"""Starting a game retries when a move in another tab races the abandoning of the old game."""


class GameNotFound(LookupError):
    """No game has this id."""


class NotYourGame(PermissionError):
    """The game belongs to another player: anyone may look, only its player may move."""


def random_deal_number(settings: Settings) -> int:
    return secrets.randbelow(settings.random_deal_max) + 1


def _committed_start(session: Session, player_id: str, make) -> GameRecord:
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


def start(session: Session, player_id: str, deal: Deal, goal: Goal | str,
          passes: int) -> GameRecord:
    """A new game; the player's games in progress with moves become abandoned."""

    def make() -> GameRecord:
        abandon_in_progress(session, player_id)
        return create_game(session, player_id, deal, goal, passes)

    return _committed_start(session, player_id, make)


def open_game(session: Session, game_id: str) -> tuple[GameRecord, Game]:
    record = get_game(session, game_id)
    if record is None:
        raise GameNotFound(game_id)
    return record, load_game(record)


def _owned(session: Session, game_id: str, player_id: str) -> tuple[GameRecord, Game]:
    record, game = open_game(session, game_id)
    if record.player_id != player_id:
        raise NotYourGame(game_id)
    return record, game


def play(session: Session, game_id: str, player_id: str, move: Move) -> tuple[GameRecord, Game]:
    """Play ``move``; raises IllegalMove (nothing saved), NotYourGame or GameConflict."""
    record, game = _owned(session, game_id, player_id)
    _refuse_if_ended(record)
    game.play(move)
    save_position(session, record, game)
    session.commit()
    return record, game


def _refuse_if_ended(record: GameRecord) -> None:
    if record.status == "abandoned":
        raise IllegalMove("You left this game for another one, so it counts as abandoned: "
                          "its result is final.")
    if record.status in ("won", "lost"):
        raise IllegalMove(f"The game is over ({record.status}): its result is final.")


def undo(session: Session, game_id: str, player_id: str) -> tuple[GameRecord, Game, Move]:
    """Take back the last move while the game goes on. An ended game's result is final, so
    there is no undo after a win, a loss or leaving the game ("Play again" replays the deal)."""
    record, game = _owned(session, game_id, player_id)
    _refuse_if_ended(record)
    move = game.undo()
    save_position(session, record, game, undo=True)
    session.commit()
    return record, game, move


def restart(session: Session, game_id: str, player_id: str) -> GameRecord:
    """A fresh game of the same deal and rules; the old one, if in progress with moves, is
    abandoned. A second click (or a retry) finds the fresh game and returns it again."""
    _, game = _owned(session, game_id, player_id)
    return reusable_start(session, player_id, game.deal, game.goal, game.passes)


def reusable_start(session: Session, player_id: str, deal: Deal, goal: Goal | str,
                   passes: int) -> GameRecord:
    """Start ``deal`` unless the player's newest game is that same deal, untouched.

    Opening a deal link twice (a reload, a double click) then does not leave empty games about.
    Either way the player's other games in progress with moves are abandoned.
    """
    game = Game(deal, goal, passes)

    def make() -> GameRecord:
        latest = latest_unfinished(session, player_id)
        if (latest is not None and latest.move_count == 0 and latest.goal == game.goal.value
                and latest.passes == game.passes
                and latest.deal_number == (str(deal.number) if deal.number is not None
                                           else None)
                and (deal.number is not None or latest.deal_text == deal.to_text())):
            abandon_in_progress(session, player_id, keep=latest.id)
            return latest
        abandon_in_progress(session, player_id)
        return create_game(session, player_id, deal, goal, passes)

    return _committed_start(session, player_id, make)
