"""Builders for the store tests (and the web tests that need stored history): finished games
inserted as the game code leaves them."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, timedelta

from app.store.games import record_result
from app.store.models import GameRecord

TODAY = date(2026, 12, 10)
_ids = itertools.count()


def add_daily(session, player: str, day: date | None, status: str, *, goal: str = "standard",
              passes: int = 3, moves: int = 20, deal: int = 100) -> str:
    """A finished game as the app stores it; ``day`` is its deal-of-the-day date (or None)."""
    finished = datetime.combine(day or TODAY, datetime.min.time(), UTC) + timedelta(
        hours=12, minutes=next(_ids))
    record = GameRecord(
        id=f"d{next(_ids):06d}", player_id=player, deal_number=str(deal), deal_text=None,
        goal=goal, passes=passes, moves=" ".join(["draw"] * moves), move_count=moves,
        undo_count=0, status=status, cleared=28 if status == "won" else 9, seconds=60,
        created_at=finished, updated_at=finished, finished_at=finished, daily=day)
    session.add(record)
    session.flush()
    record_result(session, record)
    session.flush()
    return record.id
