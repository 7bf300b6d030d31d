"""Persistence: the database models and every query the app makes (SQL lives only here).

The store speaks in engine terms (Deal, Goal, Move) at its edges, so the web layer never builds
SQL and the engine never learns about the database.
"""

from .db import Database
from .games import (
    GameConflict,
    GameRecord,
    create_game,
    finished_status,
    get_game,
    latest_unfinished,
    load_game,
    mark_abandoned,
    recent_games,
    results_by_goal,
    save_position,
)

__all__ = [
    "Database",
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
