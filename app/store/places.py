"""A result's place in its player's results, and the streaks it ends.

When a counted game ends it stores its place (1, 2, 3 ...) and the run of equal results (won
/ not won) it ends, within its rule set and over all rule sets; the statistics then never need
to walk the whole history. The caller holds the player's lock (``games.lock_player_results``).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.engine import GameStatus

from .models import GameRecord


class ResultPlaces:
    """Where a player's next results go: the last result over all variants (its place, whether
    it was won, its streak) and, per variant, the last one's outcome and streak. Read once and
    carried forward, so an import places thousands of results without a query each."""

    def __init__(self, session: Session, player_id: str, not_id: str | None = None) -> None:
        self.session, self.player_id = session, player_id
        self._mine = (GameRecord.player_id == player_id, GameRecord.seq.is_not(None),
                      *((GameRecord.id != not_id,) if not_id else ()))
        last = session.execute(
            select(GameRecord.seq, GameRecord.status, GameRecord.streak_all).where(*self._mine)
            .order_by(GameRecord.seq.desc()).limit(1)).first()
        self.seq = last.seq if last else 0
        self.last_all = (last.status == GameStatus.WON, last.streak_all) if last else None
        self.last_here: dict[tuple[str, int], tuple[bool, int] | None] = {}

    def _last_in(self, goal: str, passes: int) -> tuple[bool, int] | None:
        if (goal, passes) not in self.last_here:
            row = self.session.execute(
                select(GameRecord.status, GameRecord.streak).where(
                    *self._mine, GameRecord.goal == goal, GameRecord.passes == passes)
                .order_by(GameRecord.seq.desc()).limit(1)).first()
            self.last_here[goal, passes] = (row.status == GameStatus.WON, row.streak) if row \
                else None
        return self.last_here[goal, passes]

    def place(self, record: GameRecord) -> None:
        """Give ``record`` the next place: one more than the previous result's streak if that
        had the same outcome (won / not won), else 1; within its variant and over all."""
        won = record.status == GameStatus.WON
        last_here = self._last_in(record.goal, record.passes)
        self.seq += 1
        record.seq = self.seq
        record.streak_all = (self.last_all[1] + 1 if self.last_all and self.last_all[0] == won
                             else 1)
        record.streak = last_here[1] + 1 if last_here and last_here[0] == won else 1
        self.last_all = (won, record.streak_all)
        self.last_here[record.goal, record.passes] = (won, record.streak)


def record_result(session: Session, record: GameRecord) -> None:
    """Give a counted game that has just ended its place in the player's results and the
    streaks it ends (``ResultPlaces``): two indexed look-ups; the statistics then never need to
    walk the whole history. The caller holds the player's lock."""
    if not record.counted or record.seq is not None:
        return
    ResultPlaces(session, record.player_id, not_id=record.id).place(record)
