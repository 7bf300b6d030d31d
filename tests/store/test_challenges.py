"""Challenges in the store, SQLite always and PostgreSQL too when
TEST_DATABASE_URL is set: the opaque key a game gets when it ends (what a challenge link
carries instead of the game's id), the key found again, the migration that gives games ended
before it their key, and which games answer a challenge under which names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from app.engine import Deal, Move
from app.engine.solver import solve
from app.store import (
    answers_to,
    challenged_game,
    create_game,
    get_game,
    load_game,
    mark_abandoned,
    save_position,
    set_display_name,
)

START = datetime(2026, 3, 1, tzinfo=UTC)


def finish(session, player: str, deal: int = 3, *, moves: int | None = None,
           challenge: str | None = None, minutes: int = 0):
    """A game of ``deal`` played to a win (or ``moves`` moves of its winning line, then
    abandoned), started from ``challenge`` (a game id) if given."""
    now = START + timedelta(minutes=minutes)
    record = create_game(session, player, Deal.from_number(deal), "standard", 3, now=now,
                         challenge=challenge)
    game = load_game(record)
    line = solve(game).moves
    for move in line[:moves]:
        game.play(move)
    save_position(session, record, game, now=now + timedelta(seconds=30))
    if moves is not None:
        assert mark_abandoned(session, record, now=now + timedelta(seconds=40))
    return record


def test_a_game_gets_its_challenge_key_when_it_ends(db):
    with db.session() as session:
        won = finish(session, "p1")
        abandoned = finish(session, "p1", deal=4, moves=1)
        playing = create_game(session, "p1", Deal.from_number(5), "standard", 3)
        game = load_game(playing)
        game.play(Move.draw())
        save_position(session, playing, game)
        custom = create_game(session, "p1", Deal.from_text(Deal.from_number(7).to_text()),
                             "standard", 3)
        game = load_game(custom)
        game.play(Move.draw())
        save_position(session, custom, game)
        mark_abandoned(session, custom)
        keys = {won.challenge_key, abandoned.challenge_key}
        assert None not in keys and len(keys) == 2
        assert playing.challenge_key is None  # nothing to challenge with yet
        assert custom.challenge_key is None  # a custom deal has no deal link
        for record in (won, abandoned):
            assert record.id not in record.challenge_key
            assert len(record.challenge_key) >= 22
        won_id, won_key = won.id, won.challenge_key
    with db.session() as session:
        assert challenged_game(session, won_key).id == won_id
        assert challenged_game(session, won_key[:-1]) is None
        assert challenged_game(session, won_id) is None  # a game id is no key


def test_answers_are_finished_games_of_other_players_one_name_each(db):
    with db.session() as session:
        set_display_name(session, "alice", "Alice")
        sent = finish(session, "alice")
        set_display_name(session, "bob", "Bob")
        finish(session, "bob", challenge=sent.id, minutes=1)
        finish(session, "bob", challenge=sent.id, moves=3, minutes=2)  # abandoned: no answer
        finish(session, "bob", challenge=sent.id, minutes=3)  # a second answer: one row
        set_display_name(session, "mallory", "BOB")
        finish(session, "mallory", challenge=sent.id, minutes=4)
        set_display_name(session, "eve", "alice")
        finish(session, "eve", challenge=sent.id, minutes=5)
        finish(session, "alice", challenge=sent.id, minutes=6)  # the sender again: no answer
        finish(session, "quitter", challenge=sent.id, moves=2, minutes=7)
        finish(session, "carol", minutes=8)  # not from the link
        answers = answers_to(session, sent)
        assert [a.name for a in answers] == [None, None, "Bob"]  # newest first
        assert all(a.won for a in answers)


def test_the_migration_gives_ended_games_their_key(database_url):
    from alembic import command

    from app.prestart import alembic_config
    from app.store import Database

    config = alembic_config(database_url)
    command.downgrade(config, "0007")
    database = Database(database_url)
    try:
        with database.engine.begin() as connection:
            for game_id, status, deal, count in (
                    ("won1", "won", "5", 40), ("lost1", "lost", "6", 30),
                    ("gave1", "abandoned", "7", 2), ("play1", "playing", "8", 3),
                    ("empty1", "abandoned", "9", 0)):
                connection.execute(text(
                    "INSERT INTO games (id, player_id, deal_number, goal, passes, moves, "
                    "move_count, undo_count, status, created_at, updated_at, version) VALUES "
                    "(:id, 'p', :deal, 'standard', 3, '', :count, 0, :status, "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1)"),
                    {"id": game_id, "deal": deal, "count": count, "status": status})
        command.upgrade(config, "head")
        with database.session() as session:
            keys = {game_id: get_game(session, game_id).challenge_key
                    for game_id in ("won1", "lost1", "gave1", "play1", "empty1")}
            assert keys["play1"] is None and keys["empty1"] is None
            ended = [keys["won1"], keys["lost1"], keys["gave1"]]
            assert None not in ended and len(set(ended)) == 3
            assert challenged_game(session, keys["lost1"]).id == "lost1"
        command.downgrade(config, "0007")
        command.upgrade(config, "head")
    finally:
        database.dispose()
