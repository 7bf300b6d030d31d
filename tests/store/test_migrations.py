"""The tables, which exist only through the Alembic migrations: the ORM models and the
migrations describe the same tables (a column added to one and forgotten in the other fails
here, not in production), the schema refuses impossible rows, and the migrations go down and
up again. SQLite always, PostgreSQL too when TEST_DATABASE_URL is set.

(That the view-models never touch the store is a layer rule: tests/test_layers.py.)"""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from app.store import Database
from app.store.models import Base


def test_the_models_match_the_migrated_database(database_url):
    database = Database(database_url)
    try:
        with database.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    finally:
        database.dispose()
    assert differences == []


def test_migrations_create_the_games_table(db):
    inspector = inspect(db.engine)
    assert "games" in inspector.get_table_names()
    columns = {c["name"] for c in inspector.get_columns("games")}
    assert {"id", "player_id", "deal_number", "deal_text", "goal", "passes", "moves",
            "status", "created_at", "updated_at", "finished_at", "version"} <= columns
    assert {"cleared", "seconds"} <= columns
    assert {"ix_games_player_status", "ix_games_player_variant_finished", "ix_games_player_seq",
            "ix_games_player_variant_seq"} <= {i["name"] for i in inspector.get_indexes("games")}
    assert "players" in inspector.get_table_names()


def test_the_schema_refuses_impossible_rows(db):
    with pytest.raises(IntegrityError), db.session() as session:
        session.execute(text(
            "INSERT INTO games (id, player_id, deal_number, deal_text, goal, passes, moves, "
            "move_count, undo_count, status, created_at, updated_at, version) VALUES "
            "('x', 'p', NULL, NULL, 'standard', 3, '', 0, 0, 'playing', "
            "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1)"))
    with pytest.raises(IntegrityError), db.session() as session:
        session.execute(text(
            "INSERT INTO games (id, player_id, deal_number, goal, passes, moves, "
            "move_count, undo_count, status, created_at, updated_at, version) VALUES "
            "('y', 'p', '3', 'standard', 4, '', 0, 0, 'playing', "
            "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1)"))


def test_migrations_go_down_and_up_again(database_url):
    from alembic import command

    from app.prestart import alembic_config
    from app.store import Database

    config = alembic_config(database_url)
    command.downgrade(config, "base")
    database = Database(database_url)
    try:
        assert "games" not in inspect(database.engine).get_table_names()
        command.upgrade(config, "head")
        assert "games" in inspect(database.engine).get_table_names()
    finally:
        database.dispose()


def test_0010_marks_old_imports_and_untimed_games_not_ranked(database_url):
    """Games imported before 0007 were stored as timed: their rows have created_at =
    started_at and updated_at = finished_at, as the import writes them and no played game has
    them. Migration 0010 marks them not timed, and every game not timed not ranked."""
    from alembic import command

    from app.prestart import alembic_config

    config = alembic_config(database_url)
    command.downgrade(config, "0009")
    database = Database(database_url)
    rows = {  # id: (created_at, started_at, updated_at, finished_at, timed)
        "imported": ("2026-01-01 10:00:00", "2026-01-01 10:00:00", "2026-01-01 10:05:00",
                     "2026-01-01 10:05:00", True),
        "played": ("2026-01-01 10:00:00", "2026-01-01 10:00:03", "2026-01-01 10:05:00",
                   "2026-01-01 10:05:00", True),
        "offline": ("2026-01-01 10:00:00", "2026-01-01 10:00:03", "2026-01-01 10:05:00",
                    "2026-01-01 10:05:00", False)}
    try:
        with database.session() as session:
            for game_id, (created, started, updated, finished, timed) in rows.items():
                session.execute(text(
                    "INSERT INTO games (id, player_id, deal_number, goal, passes, moves, "
                    "move_count, undo_count, status, created_at, started_at, updated_at, "
                    "finished_at, timed, version) VALUES (:id, 'p', '5', 'standard', 3, "
                    "'draw', 1, 0, 'won', :c, :s, :u, :f, :t, 1)"),
                    {"id": game_id, "c": created, "s": started, "u": updated, "f": finished,
                     "t": timed})
        command.upgrade(config, "head")
        with database.session() as session:
            found = {row.id: row.ranked
                     for row in session.execute(text("SELECT id, ranked FROM games"))}
        assert {k: bool(v) for k, v in found.items()} == {
            "imported": False, "played": True, "offline": False}
    finally:
        database.dispose()
