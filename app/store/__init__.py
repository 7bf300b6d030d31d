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
    count_hint,
    create_game,
    deal_of,
    elapsed_seconds,
    get_game,
    latest_unfinished,
    load_game,
    mark_abandoned,
    moves_of,
    save_position,
)
from .players import remember_winnable_only, wants_winnable_only
from .stats import (
    DailyResult,
    DailyStreak,
    Figures,
    Statistics,
    daily_results,
    daily_streak,
    display_name,
    export_rows,
    history,
    history_size,
    recent_results,
    reset_statistics,
    set_display_name,
    statistics,
)
from .verdicts import StoredVerdict, deal_verdicts, get_verdict, save_verdict

__all__ = [
    "DailyResult",
    "DailyStreak",
    "Database",
    "Figures",
    "GameConflict",
    "GameEnded",
    "GameRecord",
    "Statistics",
    "StoredVerdict",
    "abandon_in_progress",
    "count_hint",
    "create_game",
    "daily_results",
    "daily_streak",
    "deal_of",
    "deal_verdicts",
    "display_name",
    "elapsed_seconds",
    "export_rows",
    "get_game",
    "get_verdict",
    "history",
    "history_size",
    "latest_unfinished",
    "load_game",
    "mark_abandoned",
    "moves_of",
    "recent_results",
    "remember_winnable_only",
    "reset_statistics",
    "save_position",
    "save_verdict",
    "set_display_name",
    "statistics",
    "wants_winnable_only",
]
