"""Moves known before they were played: hints given, and the moves of winning lines shown (an
analysis, a replay's winning line, a retry's better move), on any deal, kept a few days so that
a game answering a challenge or of a deal of the day in play that plays one counts it
(app/web/services/witness.py says why)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import and_, delete, insert, or_, select
from sqlalchemy.orm import Session

from .models import GivenHint

G = GivenHint


def _forget(session: Session, before: datetime) -> None:
    session.execute(delete(G).where(G.given_at < before)
                    .execution_options(synchronize_session=False))


def note_given_hint(session: Session, *, position: str, move: str, address: str,
                    player_id: str, game_id: str, now: datetime,
                    forget_before: datetime) -> None:
    """Keep one hint given in game ``game_id``; hints given before ``forget_before`` go. The
    caller commits."""
    _forget(session, forget_before)
    session.add(G(position=position, move=move, address=address, player_id=player_id,
                  game_id=game_id, given_at=now))


def note_shown_line(session: Session, pairs: Sequence[tuple[str, str]], *, address: str,
                    player_id: str, game_id: str, now: datetime,
                    forget_before: datetime) -> int:
    """Keep the moves of a winning line shown to ``player_id`` at ``address`` (``pairs``:
    each move with the position it is played from), from game ``game_id``'s analysis or
    replay: one SELECT for those already kept (a page asked again), one INSERT for the rest.
    Returns how many rows were written; the caller commits."""
    pairs = list(dict.fromkeys(pairs))
    if not pairs:
        return 0
    kept = {(row.position, row.move) for row in session.execute(
        select(G.position, G.move).where(
            G.position.in_([position for position, _ in pairs]), G.address == address,
            G.player_id == player_id, G.game_id == game_id, G.given_at >= forget_before))}
    fresh = [pair for pair in pairs if pair not in kept]
    if not fresh:
        return 0  # nothing new: a page seen again writes nothing
    _forget(session, forget_before)
    session.execute(insert(G).values([
        {"position": position, "move": move, "address": address, "player_id": player_id,
         "game_id": game_id, "given_at": now} for position, move in fresh]))
    return len(fresh)


def moves_known_elsewhere(session: Session, pairs: Sequence[tuple[str, str]], *,
                          address: str, player_id: str,
                          game_id: str) -> set[tuple[str, str]]:
    """Which of ``pairs`` (a position and the move played from it in game ``game_id``) were
    given or shown outside that game, to its player (from anywhere) or to anyone at
    ``address``. Rows from before 0011 (no game): hints, matched as then, another player's at
    ``address`` only. A pair that game was given itself (its own hint, counted when it was
    given) is not known elsewhere: it is the hint taken."""
    positions = list({position for position, _ in pairs})
    if not positions:
        return set()
    found = {(row.position, row.move) for row in session.execute(
        select(G.position, G.move).where(
            G.position.in_(positions),
            or_(and_(G.game_id.is_not(None), G.game_id != game_id,
                     or_(G.address == address, G.player_id == player_id)),
                and_(G.game_id.is_(None), G.address == address,
                     G.player_id != player_id))).distinct())}
    if found:
        found -= {(row.position, row.move) for row in session.execute(
            select(G.position, G.move).where(G.position.in_(positions),
                                             G.game_id == game_id).distinct())}
    return found & set(pairs)
