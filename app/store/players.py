"""What a player chose to remember between games (the display name is in stats.py, with the
statistics it is shown on), and the player's row that holds it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from .models import Player, utcnow


def player_row(session: Session, player_id: str, now: datetime | None = None) -> Player:
    """The player's row, made on first use.

    ``INSERT ... ON CONFLICT DO NOTHING`` rather than look-then-add: a player's first two
    choices made at once (two tabs) would both find no row and both add one, and the second
    would break the primary key. Both SQLite and PostgreSQL take this form.
    """
    player = session.get(Player, player_id)
    if player is not None:
        return player
    now = now or utcnow()
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    session.execute(insert(Player).values(id=player_id, created_at=now, updated_at=now)
                    .on_conflict_do_nothing(index_elements=[Player.id]))
    player = session.get(Player, player_id)
    assert player is not None
    return player


def wants_winnable_only(session: Session, player_id: str) -> bool:
    """The player's last choice of "Winnable deals only" on the new-game form."""
    return bool(session.scalar(select(Player.winnable_only).where(Player.id == player_id)))


def remember_winnable_only(session: Session, player_id: str, value: bool) -> None:
    """Keep the choice (a player needs a row only once they choose something)."""
    player = session.get(Player, player_id)
    if player is None:
        if not value:
            return
        player = player_row(session, player_id)
    if player.winnable_only != value:
        player.winnable_only = value
        player.updated_at = utcnow()
    session.flush()
