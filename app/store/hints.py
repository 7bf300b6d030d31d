"""Hints given on a deal still in play for a shared result, kept a few days so that a game
that plays one given to another player counts it (app/web/services/witness.py says why)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .models import GivenHint


def note_given_hint(session: Session, *, position: str, move: str, address: str,
                    player_id: str, now: datetime, forget_before: datetime) -> None:
    """Keep one hint given; hints given before ``forget_before`` go. The caller commits."""
    session.execute(delete(GivenHint).where(GivenHint.given_at < forget_before)
                    .execution_options(synchronize_session=False))
    session.add(GivenHint(position=position, move=move, address=address, player_id=player_id,
                          given_at=now))


def hints_given_to_others(session: Session, positions: list[str], address: str,
                          player_id: str) -> set[tuple[str, str]]:
    """The (position, move) pairs given at ``positions`` from ``address`` to any player but
    ``player_id``."""
    G = GivenHint
    return {(row.position, row.move) for row in session.execute(
        select(G.position, G.move).where(G.position.in_(positions), G.address == address,
                                         G.player_id != player_id))}
