"""The ORM models and the Alembic migrations describe the same tables: a column added to one
and forgotten in the other fails here, not in production."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

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


def test_the_view_layer_never_touches_the_database():
    """view.py turns games into template data; only routes and play.py reach the store."""
    import ast
    from pathlib import Path

    import app.web.view as view

    tree = ast.parse(Path(view.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert not any(name and (name.startswith("app.store") or name.startswith("sqlalchemy"))
                   for name in imported), imported
