"""Persistence: the database models and every query the app makes (SQL lives only here).

The store speaks in engine terms (Deal, Goal, Move) at its edges, so the web layer never builds
SQL and the engine never learns about the database.
"""

from .db import Database
from .games import (
    GameConflict,
    GameEnded,
    GameRecord,
    abandon_in_progress,
    create_game,
    finished_status,
    get_game,
    latest_unfinished,
    load_game,
    mark_abandoned,
    save_position,
)
from .stats import (
    VARIANTS,
    Figures,
    Statistics,
    Variant,
    display_name,
    export_rows,
    history,
    history_size,
    recent_results,
    reset_statistics,
    set_display_name,
    statistics,
)

__all__ = [
    "VARIANTS",
    "Database",
    "Figures",
    "GameConflict",
    "GameEnded",
    "GameRecord",
    "Statistics",
    "Variant",
    "abandon_in_progress",
    "create_game",
    "display_name",
    "export_rows",
    "finished_status",
    "get_game",
    "history",
    "history_size",
    "latest_unfinished",
    "load_game",
    "mark_abandoned",
    "recent_results",
    "reset_statistics",
    "save_position",
    "set_display_name",
    "statistics",
]
