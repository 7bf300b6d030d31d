"""Games in the store (``app.store.games``) against real databases: SQLite always, PostgreSQL
too when TEST_DATABASE_URL is set. Round trips, custom and big deals, stale writes, the end of a
game, and a player's games.

(The tables themselves: test_migrations.py; players' choices: test_players.py.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.engine import Deal, Game, Move
from app.store import (
    GameConflict,
    GameEnded,
    create_game,
    get_game,
    latest_unfinished,
    load_game,
    mark_abandoned,
    save_position,
)
from app.store.games import elapsed_seconds


def test_a_game_round_trips_through_the_database(db):
    with db.session() as session:
        record = create_game(session, "p1", Deal.from_number(3), "wholedeck", 2)
        game_id = record.id
    with db.session() as session:
        record = get_game(session, game_id)
        game = load_game(record)
        assert game == Game(Deal.from_number(3), "wholedeck", 2)
        for text_move in ("KS", "draw", "6D+7C"):
            game.play(Move.from_text(text_move))
        save_position(session, record, game)
    with db.session() as session:
        record = get_game(session, game_id)
        assert record.moves == "KS draw 6D+7C" and record.move_count == 3
        assert load_game(record).moves == [Move.from_text(m) for m in ("KS", "draw", "6D+7C")]
        assert record.status == "playing" and record.finished_at is None


def test_big_deal_numbers_and_custom_deals(db):
    custom = Deal.from_text(Deal.from_number(7).to_text())  # same cards, no number
    with db.session() as session:
        big = create_game(session, "p1", Deal.from_number(10**20 - 1), "standard", 3).id
        own = create_game(session, "p1", custom, "standard", 1).id
    with db.session() as session:
        assert load_game(get_game(session, big)).deal.number == 10**20 - 1
        record = get_game(session, own)
        assert record.deal_number is None and record.deal_text == custom.to_text()
        assert load_game(record).deal == custom


def test_a_stale_write_is_refused(db):
    """Two processes (or tabs) read the same game; the second save must not win silently."""
    with db.session() as session:
        game_id = create_game(session, "p1", Deal.from_number(3), "standard", 3).id
    first, second = db.sessions(), db.sessions()
    try:
        a, b = get_game(first, game_id), get_game(second, game_id)
        game_a, game_b = load_game(a), load_game(b)
        game_a.play(Move.draw())
        save_position(first, a, game_a)
        first.commit()
        game_b.play(Move.remove("KS"))
        with pytest.raises(GameConflict):
            save_position(second, b, game_b)
        second.rollback()
    finally:
        first.close()
        second.close()
    with db.session() as session:
        assert get_game(session, game_id).moves == "draw"


def test_finishing_undoing_and_abandoning(db):
    from app.engine.solver import solve

    start = datetime(2026, 1, 1, tzinfo=UTC)
    with db.session() as session:
        record = create_game(session, "p1", Deal.from_number(3), "standard", 3, now=start)
        game = load_game(record)
        line = solve(game).moves
        assert elapsed_seconds(record) == 0  # the clock starts at the first move
        game.play(line[0])
        save_position(session, record, game, now=start + timedelta(seconds=5))
        for move in line[1:]:
            game.play(move)
        save_position(session, record, game, now=start + timedelta(seconds=95))
        assert record.status == "won" and record.seconds == 90 and record.cleared == 28
        assert elapsed_seconds(record) == 90
        # An ended game is final: no undo is saved, and it cannot be abandoned afterwards.
        game.undo()
        with pytest.raises(GameEnded):
            save_position(session, record, game, undos=1, now=start + timedelta(seconds=99))
        assert not mark_abandoned(session, record)
        assert record.status == "won" and record.undo_count == 0

        other = create_game(session, "p1", Deal.from_number(4), "standard", 3, now=start)
        assert not mark_abandoned(session, other)  # no moves: it counts for nothing
        assert other.status == "playing"
        game = load_game(other)
        game.play(Move.draw())
        save_position(session, other, game, now=start + timedelta(seconds=10))
        assert mark_abandoned(session, other, now=start + timedelta(seconds=30))
        assert other.status == "abandoned" and other.seconds == 20
        assert not mark_abandoned(session, other)  # exactly once


def test_player_queries(db):
    with db.session() as session:
        old = create_game(session, "p1", Deal.from_number(1), "standard", 3,
                          now=datetime(2026, 1, 1, tzinfo=UTC))
        new = create_game(session, "p1", Deal.from_number(2), "wholedeck", 3,
                          now=datetime(2026, 1, 2, tzinfo=UTC))
        create_game(session, "p2", Deal.from_number(3), "standard", 3)
        old_id, new_id = old.id, new.id
    with db.session() as session:
        assert latest_unfinished(session, "p1").id == new_id
        assert latest_unfinished(session, "nobody") is None
        record = get_game(session, new_id)
        game = load_game(record)
        game.play(Move.draw())
        save_position(session, record, game, now=datetime(2026, 1, 2, tzinfo=UTC))
        mark_abandoned(session, get_game(session, new_id))
    with db.session() as session:
        assert latest_unfinished(session, "p1").id == old_id
