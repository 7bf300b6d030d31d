"""A player's preferences as this request knows them (read once for the page's first paint,
``views.firstpaint``), and saved: shared by the preferences page, the home page and its
new-game form (which remembers the difficulty chosen)."""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.orm import Session

from app.store import preferences_of, save_preferences
from app.web.core.preferences import Preferences
from app.web.views.firstpaint import shown_for


def current(request: Request, session: Session, player_id: str) -> Preferences:
    """The caller's preferences: as the page request read them, else from the store."""
    shown = shown_for(request)
    if shown.known:
        return shown.preferences
    return Preferences.from_stored(preferences_of(session, player_id))


def save(session: Session, player_id: str, preferences: Preferences) -> None:
    save_preferences(session, player_id, preferences.to_store())
    session.commit()
