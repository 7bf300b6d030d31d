"""games table: every game, stored as deal, goal, passes and move list.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("deal_number", sa.String(length=20), nullable=True),
        sa.Column("deal_text", sa.String(length=200), nullable=True),
        sa.Column("goal", sa.String(length=16), nullable=False),
        sa.Column("passes", sa.SmallInteger(), nullable=False),
        sa.Column("moves", sa.Text(), nullable=False),
        sa.Column("move_count", sa.Integer(), nullable=False),
        sa.Column("undo_count", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "status IN ('playing', 'won', 'lost', 'abandoned')", name="games_status"
        ),
        sa.CheckConstraint(
            "(deal_number IS NULL) <> (deal_text IS NULL)", name="games_one_deal_form"
        ),
        sa.CheckConstraint("passes BETWEEN 1 AND 3", name="games_passes"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("games") as batch_op:
        batch_op.create_index(
            "ix_games_player_status", ["player_id", "status", "updated_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_player_status")
    op.drop_table("games")
