"""The few things a player does to a stored game, shared by the pages and the JSON API.

Each function loads the game, lets the engine judge, saves, and commits, so a route is left to
parse its input and render the result. The engine is the only judge of what is legal.
"""

from __future__ import annotations

import secrets

from sqlalchemy.orm import Session

from app.engine import Deal, Game, Goal, IllegalMove, Move
from app.settings import Settings
from app.store import (
    GameRecord,
    create_game,
    get_game,
    latest_unfinished,
    load_game,
    mark_abandoned,
    save_position,
)


class GameNotFound(LookupError):
    """No game has this id."""


class NotYourGame(PermissionError):
    """The game belongs to another player: anyone may look, only its player may move."""


def random_deal_number(settings: Settings) -> int:
    return secrets.randbelow(settings.random_deal_max) + 1


def start(session: Session, player_id: str, deal: Deal, goal: Goal | str,
          passes: int) -> GameRecord:
    record = create_game(session, player_id, deal, goal, passes)
    session.commit()
    return record


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
    game.play(move)
    save_position(session, record, game)
    session.commit()
    return record, game


def undo(session: Session, game_id: str, player_id: str) -> tuple[GameRecord, Game, Move]:
    """Take back the last move. A won game stays won: its result is already counted."""
    record, game = _owned(session, game_id, player_id)
    outcome = game.outcome()
    if outcome is not None and outcome.won:
        raise IllegalMove("The game is won: there is nothing to take back.")
    move = game.undo()
    save_position(session, record, game, undo=True)
    session.commit()
    return record, game, move


def restart(session: Session, game_id: str, player_id: str) -> GameRecord:
    """A fresh game of the same deal and rules; the old one, if unfinished, is abandoned."""
    record, game = _owned(session, game_id, player_id)
    mark_abandoned(session, record)
    fresh = create_game(session, player_id, game.deal, game.goal, game.passes)
    session.commit()
    return fresh


def reusable_start(session: Session, player_id: str, deal: Deal, goal: Goal | str,
                   passes: int) -> GameRecord:
    """Start ``deal`` unless the player's newest game is that same deal, untouched.

    Opening a deal link twice (a reload, a double click) then does not leave empty games about.
    """
    latest = latest_unfinished(session, player_id)
    game = Game(deal, goal, passes)
    if (latest is not None and latest.move_count == 0 and latest.goal == game.goal.value
            and latest.passes == game.passes
            and latest.deal_number == (str(deal.number) if deal.number is not None else None)
            and (deal.number is not None or latest.deal_text == deal.to_text())):
        return latest
    return start(session, player_id, deal, goal, passes)
