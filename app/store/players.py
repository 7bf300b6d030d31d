"""What a player chose to remember between games (the display name is in stats.py, with the
statistics it is shown on)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import Player, utcnow


def wants_winnable_only(session: Session, player_id: str) -> bool:
    """The player's last choice of "Winnable deals only" on the new-game form."""
    return bool(session.scalar(select(Player.winnable_only).where(Player.id == player_id)))


def remember_winnable_only(session: Session, player_id: str, value: bool) -> None:
    """Keep the choice (a player needs a row only once they choose something)."""
    player = session.get(Player, player_id)
    if player is None:
        if not value:
            return
        player = Player(id=player_id, created_at=utcnow())
        session.add(player)
    if player.winnable_only != value:
        player.winnable_only = value
        player.updated_at = utcnow()
    session.flush()
