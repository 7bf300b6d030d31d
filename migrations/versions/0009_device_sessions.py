"""device sessions: a browser signed in through a device link, which its owner can see and end.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-13

A device link used to hand the browser that opened it the owner's plain player cookie, which
nothing can revoke, and worked any number of times. Now each link signs in one browser (its
``last_used_at`` marks it used) within a quarter of an hour of being made, and the browser's
cookie names a row of ``device_sessions`` too: revoking that row signs the browser out at once.
Browsers that used a link before this migration keep their plain cookie (nothing names them).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "device_sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("link_hash", sa.String(64), nullable=True),
        sa.Column("user_agent", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_device_sessions_player", "device_sessions", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_device_sessions_player", table_name="device_sessions")
    op.drop_table("device_sessions")
