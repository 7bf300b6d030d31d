"""A game's status is the engine's ``GameStatus`` in the model too: set as the enum or
its value, it is the enum's member at once and when read back, and the column keeps the same
plain values ("won") the migrations' CHECK constraint lists, so no data was migrated."""

from __future__ import annotations

import pytest
from sqlalchemy import select, text

from app.engine import GameStatus
from app.store.models import ENDED, GameRecord

from .store_helpers import add_daily


def test_a_status_set_as_its_value_is_the_enum_member():
    record = GameRecord(status="lost")
    assert record.status is GameStatus.LOST
    record.status = GameStatus.WON
    assert record.status is GameStatus.WON
    with pytest.raises(ValueError):
        record.status = "drawn"


def test_the_column_keeps_the_plain_value_and_reads_back_the_member(db):
    with db.session() as session:
        game_id = add_daily(session, "p", None, "abandoned")
    with db.session() as session:
        stored = session.execute(text("SELECT status FROM games WHERE id = :id"),
                                 {"id": game_id}).scalar_one()
        assert stored == "abandoned" and type(stored) is str
        assert session.get(GameRecord, game_id).status is GameStatus.ABANDONED
        assert session.scalar(select(GameRecord.status).where(
            GameRecord.id == game_id)) is GameStatus.ABANDONED
        assert session.scalar(select(GameRecord.id).where(
            GameRecord.status.in_(ENDED))) == game_id
