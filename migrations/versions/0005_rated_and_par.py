"""rated games and par: games played again "not counted" (a retry from before the losing move,
a won deal of the day played again) stay out of the statistics; par, the fewest moves that win
a deal, kept on won games and with a played deal's verdicts.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

The statistics' covering index gains ``rated``: every figure filters on it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_COLUMNS = ["player_id", "goal", "passes", "finished_at", "status", "move_count", "cleared",
               "seconds", "streak", "streak_all"]


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch_op.add_column(sa.Column("par", sa.SmallInteger(), nullable=True))
        batch_op.drop_index("ix_games_player_variant_finished")
        batch_op.create_index("ix_games_player_variant_finished", [*OLD_COLUMNS, "rated"])
    with op.batch_alter_table("deal_verdicts") as batch_op:
        batch_op.add_column(sa.Column("par", sa.SmallInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deal_verdicts") as batch_op:
        batch_op.drop_column("par")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_player_variant_finished")
        batch_op.create_index("ix_games_player_variant_finished", OLD_COLUMNS)
        batch_op.drop_column("par")
        batch_op.drop_column("rated")
