"""earned results: which results are ranked, hints given in another player's game, exports
imported once, and when a player's statistics were reset.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05

- ``games.ranked``: false for a game whose time and score cannot be trusted against other
  players' (played with another player's hint on the same deal of the day, or not timed by the
  server: ``timed`` false). It still counts in its player's statistics. Backfilled from
  ``timed``; and games imported before 0007 (their ``created_at`` is their ``started_at`` and
  their ``updated_at`` their ``finished_at``, as the import writes them and no played game
  has them) are marked not timed, so not ranked, first.
- ``given_hints``: the solver's moves given as hints in games of a deal still in play for a
  shared result, with the address key of who asked (app/web/witness.py); kept while the deal
  can still be in play (``given_at``), then deleted.
- ``imported_exports``: each export's id once imported, and into which player.
- ``players.stats_reset_at``: an export made before it does not import.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("ranked", sa.Boolean(), nullable=False,
                                      server_default=sa.true()))
    op.execute("UPDATE games SET timed = false WHERE status <> 'playing' "
               "AND created_at = started_at AND updated_at = finished_at")
    op.execute("UPDATE games SET ranked = false WHERE timed = false")
    with op.batch_alter_table("players") as batch_op:
        batch_op.add_column(sa.Column("stats_reset_at", sa.DateTime(timezone=True),
                                      nullable=True))
    op.create_table(
        "given_hints",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("position", sa.String(64), nullable=False),
        sa.Column("move", sa.String(16), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("given_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_given_hints_position", "given_hints", ["position", "move"])
    op.create_index("ix_given_hints_given_at", "given_hints", ["given_at"])
    op.create_table(
        "imported_exports",
        sa.Column("export_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("imported_exports")
    op.drop_index("ix_given_hints_given_at", table_name="given_hints")
    op.drop_index("ix_given_hints_position", table_name="given_hints")
    op.drop_table("given_hints")
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_column("stats_reset_at")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("ranked")
