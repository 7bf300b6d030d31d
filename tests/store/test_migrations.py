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
