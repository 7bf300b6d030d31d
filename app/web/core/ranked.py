"""Why a game is not ranked, by the code the API, the board (``data-unranked-why``) and a
race's strip name it: ``untimed``, ``known`` or ``fast`` (docs/players.md)."""

from __future__ import annotations

from typing import Any


def unranked_why(record: Any) -> str | None:
    """Why ``record`` (a game's row, or anything with its ``ranked``, ``unranked_why`` and
    ``timed``) is not ranked; None when it is. A game made not ranked before the reason was
    kept is read from ``timed``."""
    if getattr(record, "ranked", True) is not False:
        return None
    return getattr(record, "unranked_why", None) or (
        "untimed" if getattr(record, "timed", True) is False else "known")
