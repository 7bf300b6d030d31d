"""earned for real: a ranked result is one the server watched being played at a person's
pace, a result not ranked says why, and an import answers at once, its progress kept.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05

- ``games.pace_until``: the moment by which the game's inputs so far would have been played at
  a person's sustained pace (app/store/pace.py); NULL before the first.
- ``games.unranked_why``: why a game is not ranked: ``untimed`` (the server did not time it),
  ``known`` (it played moves known beforehand), ``fast`` (its moves came faster than a person
  plays). NULL for a ranked game, and for games made not ranked before this column (their
  reason is read from ``timed`` as before).
- ``import_progress``: a player's last import (one at a time): running, done (games added and
  skipped) or refused (why, as a key and its values, put in words in the reader's language);
  app/store/imports.py.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("pace_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("unranked_why", sa.String(8), nullable=True))
    op.create_table(
        "import_progress",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("added", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("skipped", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("refused", sa.String(32), nullable=True),
        sa.Column("refused_values", sa.Text(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("import_progress")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("unranked_why")
        batch_op.drop_column("pace_until")
