"""The tables, as SQLAlchemy 2 declarative models. Alembic's migrations create them."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import CheckConstraint, DateTime, Index, Integer, SmallInteger, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

STATUSES = ("playing", "won", "lost", "abandoned")


class Base(DeclarativeBase):
    pass


def utcnow() -> datetime:
    return datetime.now(UTC)


class GameRecord(Base):
    """One game as played by one player: enough to replay it exactly, plus its times.

    The position is never stored, only (deal, goal, passes, moves): the engine rebuilds it, so
    what is stored can only be a position the engine reached by legal moves.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64))
    # Deal numbers go up to 10**20 - 1, beyond a 64-bit integer, so they are kept as digits.
    deal_number: Mapped[str | None] = mapped_column(String(20))
    # A custom deal (no number) in Deal.to_text form.
    deal_text: Mapped[str | None] = mapped_column(String(200))
    goal: Mapped[str] = mapped_column(String(16))
    passes: Mapped[int] = mapped_column(SmallInteger)
    # Moves in text form separated by spaces: "draw KS 5H+8C recycle".
    moves: Mapped[str] = mapped_column(Text, default="")
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    undo_count: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Optimistic locking: two tabs or two server processes cannot overwrite each other's move.
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - SQLAlchemy's API
    __table_args__ = (
        CheckConstraint(
            "(deal_number IS NULL) <> (deal_text IS NULL)", name="games_one_deal_form"
        ),
        CheckConstraint(f"status IN {STATUSES!r}", name="games_status"),
        CheckConstraint("passes BETWEEN 1 AND 3", name="games_passes"),
        Index("ix_games_player_status", "player_id", "status", "updated_at"),
    )
