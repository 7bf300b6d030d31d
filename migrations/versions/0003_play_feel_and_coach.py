"""play feel and the coach: when play began, hints used, daily and winnable-only games, the
player's winnable-only choice, and a cache of solver verdicts per deal.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

``started_at`` is the time of a game's first move: the clock starts there, not at page load.
Games stored before this revision had no such time, so theirs is their creation time.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(
            sa.Column("hints_used", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("daily", sa.Date(), nullable=True))
        batch_op.add_column(
            sa.Column("winnable_only", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.create_index("ix_games_player_daily", ["player_id", "daily"])
    op.execute("UPDATE games SET started_at = created_at WHERE move_count > 0")
    with op.batch_alter_table("players") as batch_op:
        batch_op.add_column(
            sa.Column("winnable_only", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "deal_verdicts",
        sa.Column("deal_number", sa.String(length=20), nullable=False),
        sa.Column("goal", sa.String(length=16), nullable=False),
        sa.Column("passes", sa.SmallInteger(), nullable=False),
        sa.Column("winnable", sa.Boolean(), nullable=True),
        sa.Column("moves", sa.Integer(), nullable=True),
        sa.Column("nodes", sa.BigInteger(), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("deal_number", "goal", "passes"),
    )


def downgrade() -> None:
    op.drop_table("deal_verdicts")
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_column("winnable_only")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_player_daily")
        batch_op.drop_column("winnable_only")
        batch_op.drop_column("daily")
        batch_op.drop_column("hints_used")
        batch_op.drop_column("started_at")
